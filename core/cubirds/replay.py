"""Walking through a recorded game of CuBirds: the deal, then the board after each choice, with
the events that led there (the boards a host's updates show: CuBirds has no reaction windows)."""

from __future__ import annotations

from core.cubirds.events import Event
from core.cubirds.record import Record
from core.cubirds.rules import apply
from core.cubirds.state import GameState
from core.timeline import Point, Timeline


class Replay(Timeline[GameState, Event]):
    def __init__(self, record: Record) -> None:
        """Raises IllegalChoice if a choice does not fit (a record of other rules, or changed)."""
        self.record = record
        state = record.start()
        points: list[Point[GameState, Event]] = [Point(state.clone(), (), state.turn)]
        for player, decision_id, option in record.choices:
            events = apply(state, player, decision_id, option)
            points.append(Point(state.clone(), tuple(events), state.turn))
        super().__init__(points)
