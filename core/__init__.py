"""The rules engine of Pigeons & Guano: pure data and functions, no I/O (design.md)."""

from core.cards import Edition, custom_pigeon
from core.decisions import Decision, DecisionKind, ErrorCode, IllegalChoice, Option, OptionValue
from core.events import Event, EventKind, describe, redact
from core.rules import apply, pending
from core.scoring import Score, scores, winners
from core.setup import new_game
from core.state import GameState

__all__ = [
    "Decision",
    "DecisionKind",
    "Edition",
    "ErrorCode",
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
    "new_game",
    "pending",
    "redact",
    "scores",
    "winners",
]
