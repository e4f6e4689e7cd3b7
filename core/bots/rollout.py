"""The greedy playout policy: a playout's actions chosen by one ply of look-ahead on the sample.

The fast policy (core.bots.heuristic) rates an action by rules of thumb; the greedy bot
(core.bots.greedy) tries each one and judges the result, and beats it. Playouts in which every
seat plays its actions as greedy does (on the sample's own cards: it is a full state already)
judge an option by what a sensible rival answers, not by a weaker player's mistakes. Each such
action costs about as much as a dozen fast ones, so a search that uses it runs fewer playouts.
"""

from __future__ import annotations

from typing import Final

from core.bots.greedy import REFILL, judge, settle
from core.bots.heuristic import CARD_VALUE, Policy
from core.decisions import BACK, Decision, DecisionKind, OptionValue
from core.rules import apply
from core.state import GameState
from core.turn import DRAW, HAND_LIMIT

_ACTION: Final = DecisionKind.ACTION
"""Read at every step of a playout: a module constant, not an enum attribute lookup."""
NOISE = 0.08
"""VP of seeded noise on each action's judgement, as the greedy bot's."""


class LookAhead:
    """A playout policy: actions by one ply of look-ahead, every other decision by `base`."""

    __slots__ = ("base", "noise")

    def __init__(self, base: Policy, noise: float = NOISE) -> None:
        self.base = base
        self.noise = noise

    def choose(self, state: GameState, d: Decision) -> OptionValue:
        if d.kind is not _ACTION:
            return self.base.choose(state, d)
        values = [o.value for o in d.options if o.value != BACK]
        if len(values) == 1:
            return values[0]
        p = d.player
        full = len(state.hands[p]) >= HAND_LIMIT
        rnd = self.base.rng.random
        best, best_v = values[0], float("-inf")
        for v in values:
            s = state.clone()
            apply(s, p, d.id, v)
            settle(s, self.base)
            score = judge(s, p) + self.noise * rnd()
            if full and v != DRAW:
                score += REFILL * CARD_VALUE * max(0, HAND_LIMIT - len(s.hands[p]))
            if score > best_v:
                best, best_v = v, score
        return best
