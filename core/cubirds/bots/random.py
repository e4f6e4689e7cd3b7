"""The random CuBirds bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

from core.cubirds.views import PlayerView
from core.decisions import BACK, Decision, OptionValue
from core.rng import below, seed_state


class RandomBot:
    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        values = [o.value for o in decision.options if o.value != BACK]
        self._rng, i = below(self._rng, len(values))
        return values[i]
