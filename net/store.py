"""The games database: every table a host runs, written to SQLite (WAL) by one writer thread,
so a host can be killed at any moment and resume its games, and finished games can be watched
again and counted.

The event loop never waits on the disk: the writes of one turn of the loop are committed at its
end in one transaction, which costs a fraction of a millisecond (no sync: `synchronous=NORMAL`
in WAL mode; checkpoints, which write the database file, run in the writer thread). Whatever
could wait goes to the writer thread instead, in order: a backlog, and every write while
another process holds the database's write lock. A table's frames that carry
the game forward wait (in its `Journal`) until everything it wrote before them is committed, so
no client ever sees a choice, an event or a decision number that a crash could take back.

Durability is against the host process dying (SIGKILL, a closed terminal): a commit is in the
operating system's hands when the frames go out (`synchronous=NORMAL`); a power cut may lose
the last moments but never corrupts the file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from net.places import data_dir
from net.version import VERSION

log = logging.getLogger(__name__)

FORMAT: Final = 1
"""Version of the database layout and of exported records. A reader takes any version up to
its own and refuses a newer one, naming the program that wrote it."""
DB_FILE: Final = "games.sqlite"
"""The database's file name in the user data directory."""
BUSY_TIMEOUT: Final = 5.0
"""Seconds a statement waits for another process's write lock (two hosts sharing a file)."""
BATCH_MAX: Final = 500
"""Writes committed in one transaction at most."""
INLINE_MAX: Final = 200
"""Writes committed on the event loop in one go at most (a few tables' steps take well under a
millisecond); a larger backlog goes to the writer thread."""
CHECKPOINT_EVERY: Final = 200
"""Commits made on the event loop between two checkpoints of the write-ahead log, which the
writer thread runs (a checkpoint writes the database file, and may wait on the disk)."""
RETRIES: Final = 3
"""Attempts at a batch the database refused for a passing reason (locked, busy) before each of
its writes is tried alone and the ones that still fail are logged and dropped."""

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, private INTEGER NOT NULL, port INTEGER,
    engine TEXT NOT NULL, started REAL NOT NULL, ended REAL);
CREATE TABLE IF NOT EXISTS tables (
    uid TEXT PRIMARY KEY, run INTEGER NOT NULL, tid INTEGER NOT NULL, name TEXT NOT NULL,
    private INTEGER NOT NULL, persistent INTEGER NOT NULL, config TEXT NOT NULL,
    seed_base INTEGER NOT NULL, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, uid TEXT UNIQUE NOT NULL, tab TEXT NOT NULL, game_no INTEGER NOT NULL,
    status TEXT NOT NULL, format INTEGER NOT NULL, engine TEXT NOT NULL, header TEXT NOT NULL,
    seats TEXT NOT NULL, streams TEXT NOT NULL, left_seats TEXT NOT NULL DEFAULT '[]',
    result TEXT, started REAL NOT NULL, ended REAL);
CREATE INDEX IF NOT EXISTS games_status ON games (status, tab);
CREATE TABLE IF NOT EXISTS choices (
    game TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, decision INTEGER NOT NULL,
    option TEXT NOT NULL, PRIMARY KEY (game, n)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deliveries (
    game TEXT NOT NULL, n INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (game, n)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    tab TEXT NOT NULL, n INTEGER NOT NULL, name TEXT NOT NULL, seat INTEGER, text TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (tab, n)) WITHOUT ROWID;
"""


live_runs: set[int] = set()
"""Runs of this process whose host is up (an in-process host shares our pid, so the pid alone
cannot tell a live run from one that crashed)."""


@dataclass(frozen=True, slots=True)
class StoreConfig:
    """How a host keeps its games (the `host` command's --db options)."""

    path: Path
    private: bool = False
    """The private host of a game against bots on this machine."""
    resume: bool = False
    """Bring back the unfinished tables a host left (crashed, killed, stopped mid-game)."""
    game: int | None = None
    """With `resume`: only the table playing this game (its number in the database)."""
    reset: bool = False
    """Set an unusable database aside and start a new one (never done unasked)."""


class GameStatus:
    """A game's `status` in the database."""

    PLAYING: Final = "playing"
    OVER: Final = "over"
    ABANDONED: Final = "abandoned"
    """Left unfinished and given up: a newer private game took its place."""


class StoreError(Exception):
    """The database cannot be used (corrupt, truncated, from a newer program, unreadable). The
    message names the file and what to do."""


def engine_version() -> str:
    """The program that writes records: `pigeon-tui 0.1.0`."""
    return f"pigeon-tui {VERSION}"


def default_path() -> Path:
    """Where a host keeps its games unless told otherwise (`--db`)."""
    return data_dir() / DB_FILE


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


# ---- opening and checking --------------------------------------------------------------------


def connect(path: Path, *, reset: bool = False, create: bool = True) -> sqlite3.Connection:
    """Open the database at `path` (made if missing and `create`) and check it: readable, not
    corrupt, not from a newer program. With `reset`, a database that fails those checks is
    moved aside (`PATH.broken-TIME`) and a new one made. Raises StoreError."""
    try:
        return _connect(path, create)
    except StoreError:
        if not reset:
            raise
    aside = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        old = Path(f"{path}{suffix}")
        if old.exists():
            old.rename(Path(f"{aside}{suffix}"))
    log.warning("moved the unusable database %s to %s and started a new one", path, aside)
    return _connect(path, create)


def _connect(path: Path, create: bool) -> sqlite3.Connection:
    if not path.exists():
        if not create:
            raise StoreError(f"there is no games database at {path}")
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot make the directory for the games database {path}: {exc}") from None
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the games database {path}: {exc}") from None
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > FORMAT:
            made = db.execute("SELECT value FROM meta WHERE key='engine'").fetchone()
            raise StoreError(
                f"the games database {path} was written by a newer program "
                f"({made[0] if made else 'unknown'}, database format {version}); this one "
                f"({engine_version()}) reads formats up to {FORMAT}. Update pigeon-tui, or use "
                "another file (--db PATH)"
            )
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError("; ".join(problems[:3]))
        if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise StoreError(
                f"{path} is a database of another program, not pigeon-tui's games; it was left "
                "as it is. Use another file (--db PATH)"
            )
        db.execute("PRAGMA journal_mode=WAL")  # only now: a foreign or newer file stays as it was
        db.execute("PRAGMA synchronous=NORMAL")
        if version == 0:
            db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version = {FORMAT}; COMMIT;")
            db.execute("INSERT OR IGNORE INTO meta VALUES ('engine', ?)", (engine_version(),))
        _check_tables(db)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StoreError(
            f"the games database {path} is damaged or is not a database ({exc}). Move it away, "
            "or start with --db-reset to set it aside and begin a new one"
        ) from None
    except StoreError:
        db.close()
        raise
    return db


def _check_tables(db: sqlite3.Connection) -> None:
    have = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = {"meta", "runs", "tables", "games", "choices", "deliveries", "chat"} - have
    if missing:
        raise sqlite3.DatabaseError(f"tables missing: {', '.join(sorted(missing))}")


# ---- the store -------------------------------------------------------------------------------


_Write = tuple[int, str, Sequence[Any]]


class Waiter(Protocol):
    def release(self) -> None:
        """Writes were committed: send what no longer waits for one."""


class Store:
    """A host's games database. Open it (checks it, raises StoreError), `begin` on the event
    loop (records this run, starts the writer), hand a `net.journal.TableJournal` to each table, `close` at the
    end (waits for every write)."""

    def __init__(self, path: Path, *, private: bool = False, reset: bool = False) -> None:
        self.path = path
        self.private = private
        """The private host of a game against bots (its game is offered by "Resume your game")."""
        self.db = connect(path, reset=reset)
        self.engine = engine_version()
        self.run = 0
        """This host run's id in the database (set by `begin`)."""
        self.saved = 0
        """Every write up to this ticket is committed."""
        self.failed = 0
        """Writes the database refused (logged; the game goes on without them)."""
        self.waiting: set[Waiter] = set()
        """Whoever holds frames back until the writes they follow are durable."""
        self._tickets = 0
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._handed = 0
        """The last ticket handed to the writer thread: later writes wait for it."""
        self._pending: list[_Write] = []
        """Writes of this turn of the loop, committed at its end (`_flush`)."""
        self._flush_due = False
        self._inline: sqlite3.Connection | None = None
        self._inline_commits = 0
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_saved: Callable[[int], None] = self._saved_through

    @classmethod
    def open(cls, config: StoreConfig | None) -> Store | None:
        """The store `config` asks for (None: none). Raises StoreError."""
        if config is None:
            return None
        return cls(config.path, private=config.private, reset=config.reset)

    def listening(self, port: int) -> None:
        """The host listens on `port`: where this run's clients reconnect."""
        self.put("UPDATE runs SET port=? WHERE id=?", (port, self.run))

    def begin(self, port: int | None) -> None:
        """Record this run (its process, and the port clients reconnect to) and start writing.
        Call on the event loop the tables run on."""
        self._loop = asyncio.get_running_loop()
        cur = self.db.execute(
            "INSERT INTO runs (pid, private, port, engine, started) VALUES (?, ?, ?, ?, ?)",
            (os.getpid(), int(self.private), port, self.engine, time.time()),
        )
        self.run = int(cur.lastrowid or 0)
        live_runs.add(self.run)
        self._inline = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0)
        self._inline.execute("PRAGMA synchronous=NORMAL")
        self._inline.execute("PRAGMA wal_autocheckpoint=0")  # the writer thread checkpoints
        self._thread = threading.Thread(target=self._write_loop, name="pigeon store", daemon=True)
        self._thread.start()

    def put(self, sql: str, params: Sequence[Any]) -> int:
        """Take one write (committed at the end of this turn of the loop, or by the writer
        thread after those it holds); returns its ticket."""
        self._tickets += 1
        item = (self._tickets, sql, params)
        if self._inline is None or self._handed > self.saved:
            self._to_thread([*self._pending, item])
            self._pending = []
            return self._tickets
        self._pending.append(item)
        if not self._flush_due and self._loop is not None:
            self._flush_due = True
            self._loop.call_soon(self._flush)
        return self._tickets

    def _to_thread(self, batch: list[_Write]) -> None:
        for item in batch:
            self._queue.put(item)
        if batch:
            self._handed = batch[-1][0]

    def _flush(self) -> None:
        """On the event loop: commit this turn's writes in one transaction, at once; what would
        have to wait (a backlog, another process's write lock) goes to the writer thread."""
        self._flush_due = False
        batch, self._pending = self._pending, []
        db = self._inline
        if not batch:
            return
        if db is None or self._handed > self.saved or len(batch) > INLINE_MAX:
            self._to_thread(batch)
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            for _, sql, params in batch:
                db.execute(sql, params)
            db.execute("COMMIT")
        except sqlite3.Error:
            _rollback(db)
            self._to_thread(batch)  # it waits for the lock, and keeps every write it can
            return
        self._saved_through(batch[-1][0])
        self._inline_commits += 1
        if self._inline_commits % CHECKPOINT_EVERY == 0:
            self._queue.put(_CHECKPOINT)

    async def close(self) -> None:
        """Write what is queued, note the run's end, stop the writer. Safe to call twice."""
        thread = self._thread
        if thread is None:
            return
        self._thread = None
        inline, self._inline = self._inline, None  # from here every write goes to the writer, in order
        self.put("UPDATE runs SET ended=? WHERE id=?", (time.time(), self.run))
        self._queue.put(None)
        await asyncio.to_thread(thread.join)
        live_runs.discard(self.run)
        if inline is not None:
            inline.close()
        self.db.close()

    def _saved_through(self, ticket: int) -> None:
        """On the event loop: writes up to `ticket` are durable; frames waiting for them go."""
        self.saved = max(self.saved, ticket)
        for waiter in list(self.waiting):
            waiter.release()

    # ---- the writer thread ----------------------------------------------------------------

    def _write_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT)
        db.execute("PRAGMA synchronous=NORMAL")
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                if first is _CHECKPOINT:
                    _checkpoint(db)
                    continue
                batch = [first]
                stop = False
                while len(batch) < BATCH_MAX:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if item is None:
                        stop = True
                        break
                    if item is _CHECKPOINT:
                        _checkpoint(db)
                        continue
                    batch.append(item)
                self._commit(db, batch)
                loop = self._loop
                if loop is not None and not loop.is_closed():
                    try:
                        loop.call_soon_threadsafe(self._on_saved, batch[-1][0])
                    except RuntimeError:
                        pass  # the loop closed meanwhile: nobody waits any more
                if stop:
                    return
        finally:
            db.close()

    def _commit(self, db: sqlite3.Connection, batch: list[_Write]) -> None:
        for attempt in range(RETRIES):
            try:
                db.execute("BEGIN IMMEDIATE")
                for _, sql, params in batch:
                    db.execute(sql, params)
                db.execute("COMMIT")
                return
            except sqlite3.OperationalError as exc:
                _rollback(db)
                log.warning("games database busy (%s); trying again", exc)
                time.sleep(0.05 * (attempt + 1))
            except sqlite3.Error:
                _rollback(db)
                break
        for _, sql, params in batch:  # one at a time: keep every write the database takes
            try:
                db.execute(sql, params)
            except sqlite3.Error as exc:
                self.failed += 1
                log.error("games database %s refused a write (%s): %s", self.path, exc, sql.split("(")[0])


_CHECKPOINT: Final[_Write] = (0, "", ())
"""Asks the writer thread to checkpoint the write-ahead log (the loop's commits do not)."""


def _checkpoint(db: sqlite3.Connection) -> None:
    try:
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error as exc:
        log.warning("games database checkpoint failed: %s", exc)


def _rollback(db: sqlite3.Connection) -> None:
    try:
        db.execute("ROLLBACK")
    except sqlite3.Error:
        pass
