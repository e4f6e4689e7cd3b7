"""Playouts for the searches: play on with the fast policy to a horizon, then every seat's reward.

A reward is in 0..1: 0.7 of the win share and 0.3 of the lead through a logistic. Before the end
the win share is a guess from the worths (core.bots.heuristic), sharper when fewer turns are left.
"""

from __future__ import annotations

import math
from typing import Final

from core.bots.heuristic import Chooser, invasion_cost, totals
from core.rules import apply
from core.scoring import winners
from core.state import GameState

SCALE: Final = 2.5
"""VP of lead that turns into a reward of about 0.73 (a logistic curve)."""
SWING: Final = 1.5
"""How many VP the worths of two seats drift apart per round of turns (the spread of the
guessed win shares grows with the root of the rounds left)."""
INVASION_MEAN: Final = 1.6
"""Flock cards an Invasion reveals on average (to count the turns left in the Flock deck)."""


def rewards(state: GameState) -> list[float]:
    """Every seat's reward in 0..1: 0.7 of its win share and 0.3 of its lead through a logistic.
    Before the end the win share is guessed from the worths (the active player's Invasion still
    to come counted at its expected cost), the sharper the fewer turns are left: a reward that
    rated any unfinished game above a lost one made bots that are behind call the final phase off
    (R4.6) again and again, for no better chance."""
    n = state.players
    vals = totals(state)
    if not state.over:
        vals[state.active] -= invasion_cost(state, state.active)
    out = []
    for s in range(n):
        others = [v for i, v in enumerate(vals) if i != s]
        lead = vals[s] - 0.5 * (max(others) + sum(others) / len(others))
        out.append(1.0 / (1.0 + math.exp(-lead / SCALE)))
    if state.over:
        won = winners(state)
        return [0.7 * (1.0 / len(won) if s in won else 0.0) + 0.3 * out[s] for s in range(n)]
    left = state.final_left if state.final_left is not None else n + len(state.flock) / INVASION_MEAN
    spread = SWING * math.sqrt(max(0.5, left / n))
    top = max(vals)
    odds = [math.exp((v - top) / spread) for v in vals]
    total = sum(odds)
    return [0.7 * odds[s] / total + 0.3 * out[s] for s in range(n)]


def horizon(state: GameState, rounds: float) -> int:
    """The last turn a playout from `state` plays (Preset.rounds)."""
    return state.turn + max(1, round(rounds * state.players)) if rounds > 0 else 1 << 30


def playout(state: GameState, policy: Chooser, stop: int) -> list[float]:
    """Play on with `policy` to the end of turn `stop` (or of the game); every seat's reward."""
    play_on(state, policy, stop)
    return rewards(state)


def play_on(state: GameState, policy: Chooser, stop: int) -> int:
    """Play on with `policy` to the end of turn `stop` (or of the game); the decisions played."""
    steps = 0
    while not state.over and state.turn <= stop:
        d = state.open[0]
        apply(state, d.player, d.id, policy.choose(state, d))
        steps += 1
    return steps
