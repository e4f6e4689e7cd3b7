"""The games a host wrote, read back: the list of finished games, one game's whole record (for
the replay viewer), self-contained exports (JSON) and the player's history and stats.

An export is a plain JSON object that names its format and the program that wrote it, so a
newer file is refused with that name rather than misread. It never holds seat tokens.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from core.decisions import IllegalChoice
from core.games import GameRecord, record_from_dict, record_game
from net.store import FORMAT, GameStatus, StoreError, connect, dumps, engine_version

KIND: Final = "pigeon-tui game"
"""The `kind` field of an exported game: what the file is."""
EXPORT_MAX: Final = 16 * 1024 * 1024
"""Bytes an export file may have: a long game is well under 1 MB; anything larger is refused
before it is read."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    kind: str
    """"human" (a person) or "bot"."""
    level: str | None = None
    """The bot level, for a bot."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level}


@dataclass(frozen=True, slots=True)
class SavedRecord:
    """One game as the database (or an export) holds it: enough to replay it from the deal."""

    id: int | None
    """Its number in the database (None: read from a file)."""
    status: str
    """net.store.GameStatus: over, playing, abandoned."""
    record: GameRecord[Any]
    seats: tuple[SeatInfo, ...]
    engine: str
    """The program that played it."""
    private: bool = False
    """Played at the private host of a game against bots (the person in it is this machine's)."""
    result: dict[str, Any] | None = None
    """Winners, scores, names and turns, once it is over."""
    chat: tuple[dict[str, Any], ...] = ()
    started: float = 0.0
    ended: float | None = None

    @property
    def over(self) -> bool:
        return self.status == GameStatus.OVER

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def seen_by(self) -> tuple[int | None, ...]:
        """The views a replay may show: every seat's once the game is over; while it is not,
        only what a spectator saw, and the seats of this machine's own person (a private game)."""
        if self.over:
            return (*range(len(self.seats)), None)
        mine = tuple(i for i, s in enumerate(self.seats) if self.private and s.kind == "human")
        return (*mine, None)

    def to_export(self) -> dict[str, Any]:
        """The self-contained JSON form (no tokens)."""
        return {
            "kind": KIND,
            "format": FORMAT,
            "engine": self.engine,
            "exported_by": engine_version(),
            "game": self.id,
            "status": self.status,
            "private": self.private,
            "started": self.started,
            "ended": self.ended,
            "seats": [s.to_dict() for s in self.seats],
            "result": self.result,
            "chat": list(self.chat),
            "record": self.record.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class GameLine:
    """A game in a list: who played, how it ended."""

    id: int
    status: str
    edition: str
    names: tuple[str, ...]
    winners: tuple[int, ...]
    turns: int
    started: float
    ended: float | None


def edition_of(header: dict[str, Any]) -> str:
    """What a game list says of a record's rules: the edition of a game that has them, else the
    game's title ("CuBirds"); "?" for a record no game here reads."""
    if "edition" in header:
        return str(header["edition"])
    try:
        return record_game(header).title
    except ValueError:
        return "?"


# ---- reading the database ---------------------------------------------------------------------


def open_db(path: Path) -> sqlite3.Connection:
    """The database at `path`, for reading (never made or changed here). Raises StoreError."""
    return connect(path, create=False)


def games(db: sqlite3.Connection, *, finished: bool = True) -> list[GameLine]:
    """The games in the database, newest first: finished ones only, or every one."""
    sql = "SELECT id, status, header, seats, result, started, ended FROM games"
    params: tuple[Any, ...] = ()
    if finished:
        sql += " WHERE status = ?"
        params = (GameStatus.OVER,)
    out = []
    for gid, status, header, seats, result, started, ended in _rows(db, sql + " ORDER BY id DESC", params):
        h, r = json.loads(header), json.loads(result) if result else {}
        out.append(
            GameLine(
                gid,
                status,
                edition_of(h),
                tuple(str(s.get("name", "?")) for s in json.loads(seats)),
                tuple(r.get("winners", ())),
                int(r.get("turns", 0)),
                started,
                ended,
            )
        )
    return out


def load(db: sqlite3.Connection, gid: int) -> SavedRecord:
    """Game `gid` of the database. Raises StoreError (no such game, or a damaged one)."""
    rows = _rows(
        db,
        "SELECT g.uid, g.status, g.engine, g.header, g.seats, g.result, g.started, g.ended, t.private, t.uid "
        "FROM games g LEFT JOIN tables t ON g.tab = t.uid WHERE g.id = ?",
        (gid,),
    )
    if not rows:
        raise StoreError(f"there is no game {gid} in the games database")
    uid, status, engine, header, seats, result, started, ended, private, tab = rows[0]
    choices = [
        [seat, decision, json.loads(option)]
        for seat, decision, option in _rows(
            db, "SELECT seat, decision, option FROM choices WHERE game = ? ORDER BY n", (uid,)
        )
    ]
    chat = [
        {"name": name, "seat": seat, "text": text}
        for name, seat, text in _rows(db, "SELECT name, seat, text FROM chat WHERE tab = ? ORDER BY n", (tab,))
    ]
    try:
        record = record_from_dict({**json.loads(header), "choices": choices})
        people = tuple(_seat(s) for s in json.loads(seats))
    except (ValueError, TypeError) as exc:
        raise StoreError(f"game {gid} in the games database is damaged: {exc}") from None
    return SavedRecord(
        gid,
        status,
        record,
        people,
        engine,
        bool(private),
        json.loads(result) if result else None,
        tuple(chat),
        started,
        ended,
    )


def game_of_seat(db: sqlite3.Connection, token: str, *, scan: int = 200) -> int | None:
    """The newest finished game (of the last `scan`) that the seat holding `token` played: the
    game a person at the game-over screen has just finished. None if there is none."""
    rows = _rows(db, "SELECT id, seats FROM games WHERE status = ? ORDER BY id DESC LIMIT ?", (GameStatus.OVER, scan))
    for gid, seats in rows:
        try:
            if any(isinstance(s, dict) and s.get("token") == token for s in json.loads(seats)):
                return int(gid)
        except ValueError:
            continue
    return None


def _rows(db: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    try:
        return db.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"the games database cannot be read ({exc})") from None


def _seat(d: Any) -> SeatInfo:
    if not isinstance(d, dict) or not isinstance(d.get("name"), str):
        raise ValueError(f"a seat is not a name and a kind: {d!r}")
    level = d.get("level")
    return SeatInfo(d["name"], str(d.get("kind", "human")), level if isinstance(level, str) else None)


# ---- export files -----------------------------------------------------------------------------


def export(saved: SavedRecord, path: Path) -> None:
    """Write `saved` to a new file `path`. Raises StoreError if the file exists (never
    overwritten) or cannot be written."""
    text = json.dumps(saved.to_export(), indent=1)
    try:
        with path.open("x", encoding="utf-8") as f:
            f.write(text + "\n")
    except FileExistsError:
        raise StoreError(f"{path} already exists; choose another file name (nothing was written)") from None
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc}") from None


def read_export(path: Path) -> SavedRecord:
    """The game in an export file. Raises StoreError saying what is wrong: not there, not an
    exported game, made by a newer program (named), damaged, or not replaying on this engine."""
    try:
        size = path.stat().st_size
        if size > EXPORT_MAX:
            raise StoreError(f"{path} is {size} bytes: too large to be an exported game")
        d = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise StoreError(f"there is no file {path}") from None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise StoreError(f"{path} is not an exported game (not JSON: {exc})") from None
    return from_export(d, str(path))


def from_export(d: Any, where: str = "the file") -> SavedRecord:
    """An export's dict form, checked (see `read_export`)."""
    if not isinstance(d, dict) or d.get("kind") != KIND:
        raise StoreError(f"{where} is not a game exported by pigeon-tui")
    made = str(d.get("engine") or "an unknown program")
    version = d.get("format")
    if not isinstance(version, int) or version < 1:
        raise StoreError(f"{where} has no valid format version; it is damaged")
    if version > FORMAT:
        raise StoreError(
            f"{where} was written by a newer program ({made}, record format {version}); this one "
            f"({engine_version()}) reads formats up to {FORMAT}. Update pigeon-tui to watch it"
        )
    try:
        record = record_from_dict(d.get("record"))
        seats = tuple(_seat(s) for s in d.get("seats") or ())
        if len(seats) != record.players:
            raise ValueError(f"{len(seats)} seats for a game of {record.players} players")
        status = d.get("status")
        if status not in (GameStatus.OVER, GameStatus.PLAYING, GameStatus.ABANDONED):
            raise ValueError(f"unknown status {status!r}")
        chat = tuple(c for c in d.get("chat") or () if isinstance(c, dict))
        result = d.get("result") if isinstance(d.get("result"), dict) else None
        gid = d.get("game") if isinstance(d.get("game"), int) else None
        started = float(d.get("started") or 0.0)
        ended = float(d["ended"]) if d.get("ended") is not None else None
    except (ValueError, TypeError) as exc:
        raise StoreError(f"{where} is damaged: {exc}") from None
    saved = SavedRecord(gid, str(status), record, seats, made, bool(d.get("private")), result, chat, started, ended)
    check_replays(saved, where)
    return saved


def check_replays(saved: SavedRecord, where: str) -> None:
    """Raises StoreError naming the program that made the record if it does not replay here
    (its choices do not fit this engine's rules), or if it says it is over and is not."""
    try:
        state = saved.record.replay()
    except (IllegalChoice, ValueError, KeyError, IndexError) as exc:
        raise StoreError(
            f"{where} was made by {saved.engine} and does not replay on this one ({engine_version()}): {exc}"
        ) from None
    if saved.over and not state.over:
        raise StoreError(f"{where} says its game is over, but its record stops before the end; it is damaged")


# ---- history and stats -------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    played: int = 0
    won: int = 0
    points: int = 0

    @property
    def average(self) -> float:
        return self.points / self.played if self.played else 0.0

    def add(self, won: bool, points: int) -> None:
        self.played += 1
        self.won += int(won)
        self.points += points

    def to_dict(self) -> dict[str, Any]:
        return {"played": self.played, "won": self.won, "average": round(self.average, 2)}


@dataclass(slots=True)
class Stats:
    """One player's finished games: in all, by the opponents' bot level, by edition; the best."""

    who: str
    all: Tally = field(default_factory=Tally)
    by_level: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_edition: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    best: tuple[int, int, int] | None = None
    """(points, game id, turns) of the game with the most points."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "who": self.who,
            **self.all.to_dict(),
            "by_level": {k: v.to_dict() for k, v in sorted(self.by_level.items())},
            "by_edition": {k: v.to_dict() for k, v in sorted(self.by_edition.items())},
            "best": None
            if self.best is None
            else {"points": self.best[0], "game": self.best[1], "turns": self.best[2]},
        }

    def lines(self) -> list[str]:
        """The stats as a few lines of text (the CLI and the start screen's panel)."""
        a = self.all
        if not a.played:
            return [f"No finished games for {self.who} yet."]
        out = [f"{self.who}: {a.played} played, {a.won} won, {a.average:.1f} points on average"]
        for title, group in (("vs bots", self.by_level), ("edition", self.by_edition)):
            parts = [f"{k} {v.won}/{v.played} ({v.average:.1f})" for k, v in sorted(group.items())]
            if parts:
                out.append(f"  {title}: " + ", ".join(parts))
        if self.best is not None:
            out.append(f"  best game: {self.best[0]} points (game {self.best[1]}, {self.best[2]} turns)")
        return out


def stats(db: sqlite3.Connection, name: str | None = None) -> Stats:
    """The finished games of `name` (any seat of that name); without a name, of this machine's
    own person: the person's seat of each private game (a game against bots)."""
    who = name if name is not None else "you"
    out = Stats(who)
    rows = _rows(
        db,
        "SELECT g.id, g.header, g.seats, g.result, t.private FROM games g LEFT JOIN tables t ON g.tab = t.uid "
        "WHERE g.status = ? ORDER BY g.id",
        (GameStatus.OVER,),
    )
    for gid, header, seats_text, result_text, private in rows:
        try:
            h, seats, result = json.loads(header), json.loads(seats_text), json.loads(result_text or "{}")
            mine = [
                i
                for i, s in enumerate(seats)
                if (s.get("name") == name if name is not None else private and s.get("kind") == "human")
            ]
            if not mine:
                continue
            seat = mine[0]
            points = int(next(s["total"] for s in result["scores"] if s["seat"] == seat))
            won = seat in result["winners"]
            turns = int(result.get("turns", 0))
        except (ValueError, KeyError, TypeError, StopIteration):
            continue  # a damaged row counts for nothing rather than stopping the whole history
        levels = sorted({str(s.get("level")) for i, s in enumerate(seats) if i != seat and s.get("kind") == "bot"})
        out.all.add(won, points)
        out.by_level["+".join(levels) or "people"].add(won, points)
        out.by_edition[edition_of(h)].add(won, points)
        if out.best is None or points > out.best[0]:
            out.best = (points, gid, turns)
    return out


__all__ = [
    "KIND",
    "GameLine",
    "SavedRecord",
    "SeatInfo",
    "Stats",
    "dumps",
    "export",
    "from_export",
    "game_of_seat",
    "games",
    "load",
    "open_db",
    "read_export",
    "stats",
]
