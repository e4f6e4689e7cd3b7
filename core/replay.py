"""Walking through a recorded game: every point where the board is known, in order (the deal,
each reaction window as it was announced, and the state after each choice), with the events
that led there. A host's updates always show one of these boards, so a replay can show exactly
what a seat saw; a restored host finds where it stood."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from core.events import Event, EventKind
from core.record import Record
from core.rules import apply
from core.state import GameState


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


@dataclass(frozen=True, slots=True)
class Point:
    """A place a replay can stop at: a board, and the events that led to it from the last."""

    state: GameState
    events: tuple[Event, ...]
    turn: int


class Replay:
    """A recorded game laid out for watching: its points in order (see `walk`), each with its
    own copy of the state, and where each turn starts."""

    def __init__(self, record: Record) -> None:
        """Raises IllegalChoice if the record does not replay (see `walk`)."""
        self.record = record
        points: list[Point] = []
        for step in walk(record):
            state = step.state if step.window else step.state.clone()
            points.append(Point(state, step.events, state.turn))
        self.points: tuple[Point, ...] = tuple(points)
        self.turns: tuple[int, ...] = tuple(sorted({p.turn for p in points}))
        """The turns of the game, in order."""

    def __len__(self) -> int:
        return len(self.points)

    @property
    def over(self) -> bool:
        return self.points[-1].state.over

    def turn_start(self, turn: int) -> int:
        """The first point of `turn` (or of the nearest turn after it; the last point if none)."""
        return next((i for i, p in enumerate(self.points) if p.turn >= turn), len(self.points) - 1)

    def next_turn(self, at: int) -> int:
        """The first point of the turn after the one at point `at` (the last point if none)."""
        return self.turn_start(self.points[at].turn + 1)

    def previous_turn(self, at: int) -> int:
        """The first point of the turn at `at`, or of the turn before if `at` is already there."""
        start = self.turn_start(self.points[at].turn)
        if start < at:
            return start
        earlier = [t for t in self.turns if t < self.points[at].turn]
        return self.turn_start(earlier[-1]) if earlier else 0

    def events_to(self, at: int) -> list[Event]:
        """Every event from the deal to point `at`."""
        return [e for p in self.points[: at + 1] for e in p.events]
