"""The greedy bot: one ply of look-ahead on a few determinizations, judged by a static evaluation.

For each option it samples the hidden cards (core.bots.determinize), plays the option, lets the
fast policy finish the move and everyone's reactions until the next action (an Invasion the move
ends with included), and scores the result: score swing, pigeons pushed onto rivals, guano, cards
in hand, the recall cost of the Invasion still to come. Small seeded noise breaks ties.
"""

from __future__ import annotations

import random
from typing import Final

from core.bots.determinize import Unseen, determinize
from core.bots.heuristic import RECALL_COST, Policy, evaluate
from core.cards import ACTIONS
from core.decisions import BACK, Decision, DecisionKind, OptionValue
from core.rules import apply
from core.state import GameState
from core.views import PlayerView

SETTLE_LIMIT: Final = 300
"""Decisions the look-ahead plays at most before judging a position."""


def settle(state: GameState, policy: Policy, limit: int = SETTLE_LIMIT) -> None:
    """Play on with `policy` until an action is next (or the game ends)."""
    for _ in range(limit):
        if state.over:
            return
        d = state.open[0]
        if d.kind is DecisionKind.ACTION:
            return
        apply(state, d.player, d.id, policy.choose(state, d))


def judge(state: GameState, seat: int) -> float:
    """The evaluation, less the recall cost of the seat's Invasion if it is still to come."""
    value = evaluate(state, seat)
    if not state.over and state.active == seat:
        value -= RECALL_COST * sum(ACTIONS[c].recall for c in state.played)
    return value


class GreedyBot:
    def __init__(self, seed: int, samples: int = 4, noise: float = 0.08) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.noise = noise
        self.policy = Policy(self.rng, noise=0.1)

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        values = [o.value for o in decision.options if o.value != BACK]
        if len(values) == 1:
            return values[0]
        seat = decision.player
        unseen = Unseen(view)
        totals = [0.0] * len(values)
        for _ in range(self.samples):
            base = determinize(view, decision, self.rng, unseen)
            for i, v in enumerate(values):
                s = base.clone()
                apply(s, seat, decision.id, v)
                settle(s, self.policy)
                totals[i] += judge(s, seat)
        best = max(range(len(values)), key=lambda i: totals[i] / self.samples + self.noise * self.rng.random())
        return values[best]
