"""Recorded games for the store's tests: seeded bots play a game through the engine, and the
record is exported the way `pigeon-tui replay --export` writes it."""

from __future__ import annotations

from typing import Any

from core.games import PIGEONS
from core.record import Record
from net.archive import SavedRecord, SeatInfo, from_export
from net.store import FORMAT, GameStatus
from tests import records


def played(seed: int, players: int = 3, upto: int | None = None, edition: str = "3.5") -> Record:
    """A record of random bots playing game `seed` to the end (or for `upto` choices)."""
    record: Record = records.played(PIGEONS, seed, players, upto, {"edition": edition})
    return record


def exported(record: Record, *, private: bool = True, engine: str = "pigeon-tui test") -> dict[str, Any]:
    """The export file's JSON of `record` (a person in seat 0, bots elsewhere)."""
    over = record.replay().over
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot", "random") for i in range(1, record.players)]
    saved = SavedRecord(
        7, GameStatus.OVER if over else GameStatus.PLAYING, record, tuple(seats), engine, private, None, (), 1.0, None
    )
    d = saved.to_export()
    assert d["format"] == FORMAT
    return d


def saved(record: Record, private: bool = True) -> SavedRecord:
    return from_export(exported(record, private=private))
