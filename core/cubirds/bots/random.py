"""The random CuBirds bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

from typing import Final

from core.cubirds.views import PlayerView
from core.decisions import BACK, Decision, OptionValue
from core.rng import LIMITS, MASK, seed_state


class RandomBot:
    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        options = decision.options
        n = len(options)
        if options[-1][0] == BACK:  # offered last, if at all (core.cubirds.rules)
            n -= 1
        # core.rng.below(self._rng, n), written out: self-play asks this bot at every decision
        s = self._rng
        limit = _LIMITS[n]
        while True:
            s ^= s >> 12
            s ^= (s << 25) & _MASK
            s ^= s >> 27
            out = (s * 0x2545F4914F6CDD1D) & _MASK
            if out < limit:
                break
        self._rng = s
        return options[out % n][0]


_LIMITS: Final = LIMITS
_MASK: Final = MASK
