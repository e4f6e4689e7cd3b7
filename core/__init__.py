"""The rules engine of Pigeons & Guano: pure data and functions, no I/O (design.md).

The names below load on first use (PEP 562): importing any `core.X` runs this file first, and a
client that only reads views, decisions and events need not load the engine (issue 9, start-up)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from core.cards import Edition, custom_pigeon
    from core.decisions import ChoiceErrorCode, Decision, DecisionKind, IllegalChoice, Option, OptionValue
    from core.events import Event, EventKind, describe, redact
    from core.rules import apply, load, pending
    from core.scoring import Score, scores, winners
    from core.setup import new_game
    from core.state import GameState

_HOMES: Final = {
    "ChoiceErrorCode": "core.decisions",
    "Decision": "core.decisions",
    "DecisionKind": "core.decisions",
    "Edition": "core.cards",
    "Event": "core.events",
    "EventKind": "core.events",
    "GameState": "core.state",
    "IllegalChoice": "core.decisions",
    "Option": "core.decisions",
    "OptionValue": "core.decisions",
    "Score": "core.scoring",
    "apply": "core.rules",
    "load": "core.rules",
    "custom_pigeon": "core.cards",
    "describe": "core.events",
    "new_game": "core.setup",
    "pending": "core.rules",
    "redact": "core.events",
    "scores": "core.scoring",
    "winners": "core.scoring",
}

__all__ = [
    "ChoiceErrorCode",
    "Decision",
    "DecisionKind",
    "Edition",
    "Event",
    "EventKind",
    "GameState",
    "IllegalChoice",
    "Option",
    "OptionValue",
    "Score",
    "apply",
    "custom_pigeon",
    "describe",
    "load",
    "new_game",
    "pending",
    "redact",
    "scores",
    "winners",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    return getattr(import_module(home), name)
