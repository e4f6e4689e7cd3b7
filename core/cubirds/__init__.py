"""CuBirds (rules/cubirds.md, clauses C1.1-C6.2): a second game on the same engine vocabulary.

Pure data and functions, no I/O; it shares only the decision vocabulary (core.decisions) and the
seeded generator (core.rng) with Pigeons & Guano. core.games describes it to the rest of the
program."""

from core.cubirds.events import Event, EventKind, describe, redact
from core.cubirds.record import Record
from core.cubirds.rules import apply, pending
from core.cubirds.scoring import Score, scores, winners
from core.cubirds.setup import new_game
from core.cubirds.state import GameState
from core.cubirds.views import PlayerView, view

__all__ = [
    "Event",
    "EventKind",
    "GameState",
    "PlayerView",
    "Record",
    "Score",
    "apply",
    "describe",
    "new_game",
    "pending",
    "redact",
    "scores",
    "view",
    "winners",
]
