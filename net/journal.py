"""A table's games written to the host's store (`net.store`), and its frames held back until
what they tell is durable.

`TableJournal` is both the table's recorder (it turns each step into writes for the store's
writer thread) and its outbox: a frame leaves only once every write the table made before it
is committed, so a client never sees a choice, an event or a decision number that a crash of
the host could take back. Frames keep their order; a table with nothing unwritten sends at once.
"""

from __future__ import annotations

import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from core.decisions import plain
from net.store import FORMAT, GameStatus, Store, dumps
from net.table.outbox import Frame, Outbox, Recipient
from net.table.recorder import Recorder

if TYPE_CHECKING:
    from net.table.table import Table


class TableJournal(Recorder, Outbox):
    """One table's writes and held frames (see the module docstring)."""

    def __init__(self, store: Store, uid: str | None = None) -> None:
        self.store = store
        self.uid = uid or uuid.uuid4().hex
        """The table's key in the database (kept when a host resumes it)."""
        self.game: str | None = None
        """The key of the game being played (None before the first)."""
        self.chat = 0
        """Chat lines written for this table."""
        self.barrier = 0
        """The store's ticket of this table's last write: frames wait until it is saved."""
        self.held: deque[tuple[int, Recipient, Frame]] = deque()
        self.on_game_started: Callable[[Table], None] = lambda table: None
        """Called when a game starts here (a private host gives up its older games then)."""
        self._streams = ""

    # ---- the outbox -----------------------------------------------------------------------

    def send(self, to: Recipient, frame: Frame) -> None:
        if not self.held and self.store.saved >= self.barrier:
            to.send(frame)
            return
        self.held.append((self.barrier, to, frame))
        self.store.waiting.add(self)

    def release(self) -> None:
        """Send the frames whose writes are committed, in order."""
        saved = self.store.saved
        held = self.held
        while held and held[0][0] <= saved:
            _, to, frame = held.popleft()
            to.send(frame)
        if not held:
            self.store.waiting.discard(self)

    def _put(self, sql: str, params: tuple[Any, ...]) -> None:
        self.barrier = self.store.put(sql, params)

    # ---- the recorder ---------------------------------------------------------------------

    def opened(self, table: Table) -> None:
        """The table is open at this run of the host (new, or resumed)."""
        self._put(
            "INSERT INTO tables (uid, run, tid, name, private, persistent, config, seed_base) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (uid) DO UPDATE SET run=excluded.run, tid=excluded.tid",
            (
                self.uid,
                self.store.run,
                table.id,
                table.name,
                int(self.store.private),
                int(table.persistent),
                dumps(asdict(table.config)),
                table.seed_base,
            ),
        )

    def game_started(self, table: Table) -> None:
        assert table.record is not None
        self.game = uuid.uuid4().hex
        header = table.record.to_dict()
        header.pop("choices", None)
        self._put(
            "INSERT INTO games (uid, tab, game_no, status, format, engine, header, seats, streams, started) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', ?)",
            (
                self.game,
                self.uid,
                table.game_no,
                GameStatus.PLAYING,
                FORMAT,
                self.store.engine,
                dumps(header),
                seats_text(table),
                time.time(),
            ),
        )
        self._streams = ""
        self._put("UPDATE tables SET closed=0 WHERE uid=?", (self.uid,))
        if self.store.private:  # a new game against bots takes the place of any left unfinished
            self._put(
                "UPDATE games SET status=? WHERE status=? AND uid!=? "
                "AND tab IN (SELECT uid FROM tables WHERE private=1)",
                (GameStatus.ABANDONED, GameStatus.PLAYING, self.game),
            )
        self.on_game_started(table)

    def chose(self, table: Table) -> None:
        assert table.record is not None
        n = len(table.record.choices) - 1
        seat, decision_id, option = table.record.choices[-1]
        self._put("INSERT INTO choices VALUES (?, ?, ?, ?, ?)", (self.game, n, seat, decision_id, dumps(plain(option))))

    def delivered(self, table: Table) -> None:
        text = dumps(streams_of(table))
        if text != self._streams:
            self._streams = text
            self._put("UPDATE games SET streams=? WHERE uid=?", (text, self.game))

    def seats_changed(self, table: Table) -> None:
        left = [m.seat for m in table.members if m.left]
        self._put("UPDATE games SET seats=?, left_seats=? WHERE uid=?", (seats_text(table), dumps(left), self.game))

    def said(self, table: Table, line: dict[str, Any]) -> None:
        self.chat += 1
        self._put(
            "INSERT OR REPLACE INTO chat VALUES (?, ?, ?, ?, ?, ?)",
            (self.uid, self.chat, line["name"], line["seat"], line["text"], time.time()),
        )

    def game_over(self, table: Table) -> None:
        self._put(
            "UPDATE games SET status=?, result=?, ended=? WHERE uid=?",
            (GameStatus.OVER, dumps(result_of(table)), time.time(), self.game),
        )

    def emptied(self, table: Table) -> None:
        """Its last game's results wait for nobody: a host resuming after a crash leaves it be."""
        self._put("UPDATE tables SET closed=1 WHERE uid=?", (self.uid,))


def seats_text(table: Table) -> str:
    """The game's seats as the database keeps them: who, and the token that leads back."""
    return dumps([{"name": m.name, "kind": m.kind.value, "level": m.level, "token": m.token} for m in table.members])


def streams_of(table: Table) -> dict[str, Any]:
    """Where each seat's stream stands: its sequence number, its next decision number and the
    numbers of the decisions it was given (so a resumed table numbers on, never again)."""
    seats = {
        str(m.seat): {
            "seq": m.stream.seq,
            "next": m.stream.next_wire,
            "wires": [[w, d.id] for w, d in m.stream.decisions],
            "window": m.stream.window,
        }
        for m in table.humans
    }
    return {"seats": seats, "public": table.public.seq, "window": table.public.window}


def result_of(table: Table) -> dict[str, Any]:
    """Winners, scores, names and turns of the game just over (the database's `result`)."""
    state = table.state
    assert state is not None
    return {
        "winners": list(table.game.winners(state)),
        "scores": [asdict(s) for s in table.game.scores(state)],  # type: ignore[call-overload]
        "names": [m.name for m in table.members],
        "turns": int(state.turn),
    }


def keep(table: Table, store: Store, uid: str | None = None) -> TableJournal:
    """Have `store` keep `table`'s games from now on."""
    journal = TableJournal(store, uid)
    table.recorder = journal
    table.outbox = journal
    journal.opened(table)
    return journal
