"""Ground truth for what a client should show: the public state as of every event of a game,
rebuilt from the game's record with `core.rules.apply(..., at_window=...)`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.events import redact
from core.games import GameRecord
from core.record import Record
from core.rules import apply
from core.state import GameState
from core.views import view


@dataclass
class Truth:
    """A game's events and boards as one seat (None: a spectator) may see them."""

    seat: int | None
    events: list[dict[str, Any]] = field(default_factory=list)
    """Every event of the game, redacted for the seat, in order."""
    at_window: dict[int, GameState] = field(default_factory=dict)
    """Number of events up to a WINDOW event -> the state at that event."""
    after: dict[int, GameState] = field(default_factory=dict)
    """Number of events when a choice's events end (0: the deal) -> the state after it."""

    @classmethod
    def of(cls, record: dict[str, Any] | Record | GameRecord[Any], seat: int | None) -> Truth:
        return cls.each(record, [seat])[0]

    @classmethod
    def each(cls, record: dict[str, Any] | Record | GameRecord[Any], seats: Sequence[int | None]) -> list[Truth]:
        """`of` for each of `seats`, from one replay: the boards are the same for all (each seat's
        view of them is made when it is read), only the events are redacted for each."""
        rec = record if isinstance(record, Record) else Record.from_dict(record)
        truths = [cls(seat) for seat in seats]
        state = rec.start()
        after = state.clone()
        for truth in truths:
            truth.after[0] = after
        boards: list[GameState] = []
        shown = 0
        for player, decision_id, option in rec.choices:
            boards.clear()
            events = apply(state, player, decision_id, option, at_window=lambda s: boards.append(s.clone()))
            windows = iter(boards)
            for e in events:
                shown += 1
                for truth in truths:
                    truth.events.append(redact(e, truth.seat).to_dict())
                if e.kind.value == "window":
                    board = next(windows)
                    for truth in truths:
                        truth.at_window[shown] = board
            after = state.clone()
            for truth in truths:
                truth.after[shown] = after
        return truths

    def board(self, shown: int, window: bool) -> dict[str, Any]:
        """The view the seat should hold after `shown` events: the state at that WINDOW event
        while the window is shown, else the state after the choice that ended there. Decisions
        (numbered per seat on the wire) and the flow (for bots) are left out."""
        state = self.at_window[shown] if window else self.after[shown]
        return public_board(view(state, self.seat).to_dict())


def public_board(view_dict: dict[str, Any]) -> dict[str, Any]:
    """A view's dict without its decisions and flow: what a client draws."""
    return {k: v for k, v in view_dict.items() if k not in ("decisions", "flow")}
