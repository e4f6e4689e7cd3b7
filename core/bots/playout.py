"""Playouts for the searches: play on with the fast policy to a horizon, then every seat's reward.

A reward is in 0..1: 0.7 of the win share and 0.3 of the lead through a logistic. Before the end
the win share is a guess: from the worths (core.bots.heuristic), sharper when fewer turns are left,
or with `learned`, each seat's chance to win by a fitted model (core.bots.learned).
"""

from __future__ import annotations

import math
from typing import Final

from core.bots.heuristic import Chooser, invasion_cost, totals
from core.bots.learned import softmax, turns_left, win_chances
from core.rules import apply
from core.scoring import winners
from core.state import GameState

SCALE: Final = 2.5
"""VP of lead that turns into a reward of about 0.73 (a logistic curve)."""
SWING: Final = 1.5
"""How many VP the worths of two seats drift apart per round of turns (the spread of the
guessed win shares grows with the root of the rounds left)."""


def rewards(state: GameState, learned: bool = False) -> list[float]:
    """Every seat's reward in 0..1: 0.7 of its win share and 0.3 of its lead through a logistic.
    Before the end the win share is guessed (`guess`, or with `learned` core.bots.learned's
    chances): a reward that rated any unfinished game above a lost one made bots that are behind
    call the final phase off (R4.6) again and again, for no better chance."""
    n = state.players
    vals = worths(state)
    out = []
    for s in range(n):
        others = [v for i, v in enumerate(vals) if i != s]
        lead = vals[s] - 0.5 * (max(others) + sum(others) / len(others))
        out.append(1.0 / (1.0 + math.exp(-lead / SCALE)))
    if state.over:
        won = winners(state)
        return [0.7 * (1.0 / len(won) if s in won else 0.0) + 0.3 * out[s] for s in range(n)]
    share = win_chances(state) if learned else guess(state, vals)
    return [0.7 * share[s] + 0.3 * out[s] for s in range(n)]


def worths(state: GameState) -> list[float]:
    """Every seat's worth (core.bots.heuristic.totals), the active player's Invasion still to
    come counted at its expected cost before the end."""
    vals = totals(state)
    if not state.over:
        vals[state.active] -= invasion_cost(state, state.active)
    return vals


def guess(state: GameState, vals: list[float]) -> list[float]:
    """The hand-made guess of win shares from the worths `vals` (the active player's Invasion
    still to come counted at its expected cost), the sharper the fewer turns are left."""
    n = state.players
    spread = SWING * math.sqrt(max(0.5, turns_left(state) / n))
    top = max(vals)
    return softmax([(v - top) / spread for v in vals])


def horizon(state: GameState, rounds: float, end: int = 0) -> int:
    """The last turn a playout from `state` plays (Preset.rounds): the game's end for `rounds`
    0 or less, or once the Flock deck holds fewer than `end` cards (Preset.duel_end)."""
    if rounds <= 0 or len(state.flock) < end:
        return 1 << 30
    return state.turn + max(1, round(rounds * state.players))


def playout(state: GameState, policy: Chooser, stop: int, learned: bool = False) -> list[float]:
    """Play on with `policy` to the end of turn `stop` (or of the game); every seat's reward."""
    play_on(state, policy, stop)
    return rewards(state, learned)


def play_on(state: GameState, policy: Chooser, stop: int) -> int:
    """Play on with `policy` to the end of turn `stop` (or of the game); the decisions played."""
    steps = 0
    while not state.over and state.turn <= stop:
        d = state.open[0]
        apply(state, d.player, d.id, policy.choose(state, d))
        steps += 1
    return steps
