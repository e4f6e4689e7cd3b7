"""A learned leaf evaluation: each seat's chance to win a game a playout left unfinished.

A conditional logit (a softmax over the seats) on features of each seat's position, read from
the state the search built from its view (a determinized sample), never from the real game.
The weights are data (core.bots.weights), fitted by bench/evalfit.py to the outcomes of games of
the fast policy: one set for 2 players, one for more.
"""

from __future__ import annotations

import math
from typing import Final

from core.bots.heuristic import invasion_cost, kind, points
from core.bots.weights import DUEL, MANY
from core.cards import ActionKind
from core.flow import BALCONY0, CABLES_I, ROAD_I, STATUE_I
from core.state import GameState

KINDS: Final = tuple(ActionKind)
"""The hand by card kind, in this order."""
INVASION_MEAN: Final = 1.6
"""Flock cards an Invasion reveals on average (to count the turns left in the Flock deck)."""
NAMES: Final = (
    "score",
    "balcony pigeons",
    "balcony guano",
    "hand",
    *(f"hand {k.value}" for k in KINDS),
    "wroom takes",
    "zot takes",
    "blam takes",
    "invasion to come",
    "turns to wait",
)
"""The features of a seat, each also times `lateness` (so 2 x 17 weights)."""
_KIND_INDEX: Final = {k: NAMES.index(f"hand {k.value}") for k in KINDS}
_WROOM: Final = _KIND_INDEX[ActionKind.WROOM]
_ZOT: Final = _KIND_INDEX[ActionKind.ZOT]
_BLAM: Final = _KIND_INDEX[ActionKind.BLAM]
_WROOM_TAKES, _ZOT_TAKES, _BLAM_TAKES, _INVASION, _WAIT = (
    NAMES.index(n) for n in ("wroom takes", "zot takes", "blam takes", "invasion to come", "turns to wait")
)


def turns_left(state: GameState) -> float:
    """Turns the game still has: the final phase's count, else a round plus the Flock deck's."""
    if state.final_left is not None:
        return float(state.final_left)
    return state.players + len(state.flock) / INVASION_MEAN


def lateness(state: GameState) -> float:
    """How few turns are left, in 0..1: 1 / (1 + rounds left)."""
    return 1.0 / (1.0 + turns_left(state) / state.players)


def features(state: GameState, seat: int, score: int, late: float) -> list[float]:
    """A seat's features (NAMES), then each again times `late`."""
    home = BALCONY0 + seat
    pigeons = state.pigeons
    hand = state.hands[seat]
    x = [0.0] * len(NAMES)
    x[0] = score
    x[1] = len(pigeons[home])
    x[2] = sum(2.0 if kind(c) is ActionKind.MOUNTAIN else 1.0 for c in state.guano[home])
    x[3] = len(hand)
    for c in hand:
        x[_KIND_INDEX[kind(c)]] += 1.0
    if x[_WROOM]:
        x[_WROOM_TAKES] = len(pigeons[ROAD_I])
    if x[_ZOT]:
        x[_ZOT_TAKES] = len(pigeons[CABLES_I])
    if x[_BLAM]:
        x[_BLAM_TAKES] = max(min(2, len(pigeons[STATUE_I])), min(1, len(pigeons[home])))
    x[_INVASION] = invasion_cost(state, seat)
    x[_WAIT] = (seat - state.active) % state.players / state.players
    return x + [v * late for v in x]


def rows(state: GameState) -> list[list[float]]:
    """Every seat's features."""
    late = lateness(state)
    return [features(state, s, v, late) for s, v in enumerate(points(state))]


def softmax(utilities: list[float]) -> list[float]:
    top = max(utilities)
    odds = [math.exp(u - top) for u in utilities]
    total = sum(odds)
    return [o / total for o in odds]


def win_chances(state: GameState) -> list[float]:
    """Every seat's chance to win from here (summing to 1), by the learned weights."""
    w = DUEL if state.players == 2 else MANY
    return softmax([sum(a * b for a, b in zip(w, x, strict=True)) for x in rows(state)])
