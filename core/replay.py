"""Walking through a recorded game: every point where the board is known, in order (the deal,
each reaction window as it was announced, and the state after each choice), with the events
that led there. A host's updates always show one of these boards, so a replay can show exactly
what a seat saw; a restored host finds where it stood."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.events import Event, EventKind
from core.record import Record
from core.rules import apply
from core.state import GameState
from core.timeline import Point, Timeline


@dataclass(frozen=True, slots=True)
class Step:
    choices: int
    """Choices applied before this point. A window step comes during the next choice."""
    events: tuple[Event, ...]
    """The events since the previous step."""
    total: int
    """Events of the game up to and including this step's."""
    state: GameState
    """The state at this point: the engine's own for a choice step (clone it to keep it past
    the next step), a copy for a window step."""
    window: bool = False
    """This step ends with a WINDOW event: the state is the one the window was announced with."""


def walk(record: Record) -> Iterator[Step]:
    """Every step of `record`'s game, from the deal (no events) to its last choice. Raises
    IllegalChoice (the state as it was) if a choice does not fit: the record was made by an
    engine whose rules differ, or was changed."""
    state = record.start()
    total = 0
    yield Step(0, (), 0, state)
    boards: list[GameState] = []
    keep = boards.append
    for n, (player, decision_id, option) in enumerate(record.choices):
        events = apply(state, player, decision_id, option, at_window=lambda s: keep(s.clone()))
        start = 0
        for i, e in enumerate(events):
            if e.kind is EventKind.WINDOW:
                part = tuple(events[start : i + 1])
                total += len(part)
                yield Step(n, part, total, boards.pop(0), window=True)
                start = i + 1
        rest = tuple(events[start:])
        total += len(rest)
        yield Step(n + 1, rest, total, state)


class Replay(Timeline[GameState, Event]):
    """A recorded game of Pigeons & Guano laid out for watching: its points in order (see
    `walk`), each with its own copy of the state, and where each turn starts."""

    def __init__(self, record: Record) -> None:
        """Raises IllegalChoice if the record does not replay (see `walk`)."""
        self.record = record
        points: list[Point[GameState, Event]] = []
        for step in walk(record):
            state = step.state if step.window else step.state.clone()
            points.append(Point(state, step.events, state.turn))
        super().__init__(points)
