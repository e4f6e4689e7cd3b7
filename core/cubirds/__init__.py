"""CuBirds (rules/cubirds.md, clauses C1.1-C6.2): a second game on the same engine vocabulary.

Pure data and functions, no I/O; it shares only the decision vocabulary (core.decisions) and the
seeded generator (core.rng) with Pigeons & Guano. core.games describes it to the rest of the
program. The names below load on first use (PEP 562): importing `core.cubirds.cards` alone (the
client's card colours) does not load the game, and importing this package alone (`STEPS`, for
core.games) does not load the cards (a Pigeons & Guano client never needs them, issue 9)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

from core.decisions import DecisionKind

STEPS: Final = frozenset(
    {
        DecisionKind.LAY_SPECIES,
        DecisionKind.LAY_ROW,
        DecisionKind.LAY_END,
        DecisionKind.DRAW_TWO,
        DecisionKind.FLY,
    }
)
"""The decision kinds of a CuBirds turn; the state's `step` is one of them while the game runs."""

if TYPE_CHECKING:
    from core.cubirds.events import Event, EventKind, describe, redact
    from core.cubirds.record import Record
    from core.cubirds.rules import apply, load, pending
    from core.cubirds.scoring import Score, scores, winners
    from core.cubirds.setup import new_game
    from core.cubirds.state import GameState
    from core.cubirds.views import PlayerView, view

_HOMES: Final = {
    "Event": "core.cubirds.events",
    "EventKind": "core.cubirds.events",
    "GameState": "core.cubirds.state",
    "PlayerView": "core.cubirds.views",
    "Record": "core.cubirds.record",
    "Score": "core.cubirds.scoring",
    "apply": "core.cubirds.rules",
    "load": "core.cubirds.rules",
    "describe": "core.cubirds.events",
    "new_game": "core.cubirds.setup",
    "pending": "core.cubirds.rules",
    "redact": "core.cubirds.events",
    "scores": "core.cubirds.scoring",
    "view": "core.cubirds.views",
    "winners": "core.cubirds.scoring",
}

__all__ = [
    "Event",
    "EventKind",
    "GameState",
    "PlayerView",
    "Record",
    "Score",
    "apply",
    "describe",
    "load",
    "new_game",
    "pending",
    "redact",
    "scores",
    "view",
    "winners",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'core.cubirds' has no attribute {name!r}")
    return getattr(import_module(home), name)
