"""A recorded game laid out for watching, whatever the game: its points (a board and the events
that led there) in order, and where each turn starts. Each game's replay builds the points
(core.replay for Pigeons & Guano, core.cubirds.replay for CuBirds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class Board(Protocol):
    @property
    def over(self) -> bool: ...
    @property
    def turn(self) -> int: ...


S = TypeVar("S", bound=Board)
E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class Point(Generic[S, E]):
    """A place a replay can stop at: a board, and the events that led to it from the last."""

    state: S
    events: tuple[E, ...]
    turn: int


class Timeline(Generic[S, E]):
    """The points of a game in order, each with its own state, and where each turn starts."""

    def __init__(self, points: Sequence[Point[S, E]]) -> None:
        self.points: tuple[Point[S, E], ...] = tuple(points)
        self.turns: tuple[int, ...] = tuple(sorted({p.turn for p in self.points}))
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

    def events_to(self, at: int) -> list[E]:
        """Every event from the deal to point `at`."""
        return [e for p in self.points[: at + 1] for e in p.events]
