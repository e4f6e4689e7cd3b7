"""The random CuBirds bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

from core.cubirds.views import PlayerView
from core.decisions import BACK, Decision, OptionValue
from core.rng import below, seed_state


class RandomBot:
    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        options = decision.options
        n = len(options)
        if options[-1].value == BACK:  # offered last, if at all (core.cubirds.rules)
            n -= 1
        self._rng, i = below(self._rng, n)
        return options[i].value
