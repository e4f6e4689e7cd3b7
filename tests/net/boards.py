"""Ground truth for what a client should show: the public state as of every event of a game,
rebuilt from the game's record with `core.rules.apply(..., at_window=...)`."""

from __future__ import annotations

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
        rec = record if isinstance(record, Record) else Record.from_dict(record)
        truth = cls(seat)
        state = rec.start()
        truth.after[0] = state.clone()
        boards: list[GameState] = []
        for player, decision_id, option in rec.choices:
            boards.clear()
            events = apply(state, player, decision_id, option, at_window=lambda s: boards.append(s.clone()))
            windows = iter(boards)
            for e in events:
                truth.events.append(redact(e, seat).to_dict())
                if e.kind.value == "window":
                    truth.at_window[len(truth.events)] = next(windows)
            truth.after[len(truth.events)] = state.clone()
        return truth

    def board(self, shown: int, window: bool) -> dict[str, Any]:
        """The view the seat should hold after `shown` events: the state at that WINDOW event
        while the window is shown, else the state after the choice that ended there. Decisions
        (numbered per seat on the wire) and the flow (for bots) are left out."""
        state = self.at_window[shown] if window else self.after[shown]
        return public_board(view(state, self.seat).to_dict())


def public_board(view_dict: dict[str, Any]) -> dict[str, Any]:
    """A view's dict without its decisions and flow: what a client draws."""
    return {k: v for k, v in view_dict.items() if k not in ("decisions", "flow")}
