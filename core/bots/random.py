"""The random bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

from typing import ClassVar

from core.decisions import BACK, Decision, OptionValue
from core.rng import LIMITS, MASK, below, seed_state
from core.views import PlayerView


class RandomBot:
    reads_view: ClassVar[bool] = False
    """It chooses from the decision alone: self-play (core.selfplay.play_game) hands it no view."""

    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def choose(self, view: PlayerView | None, decision: Decision) -> OptionValue:
        options = decision.options
        n = len(options)
        if options[-1][0] == BACK:  # the engine offers "back" last, if at all ([0]: .value is a descriptor call)
            n -= 1
        if n >= len(LIMITS):
            self._rng, i = below(self._rng, n)
            return options[i][0]
        # below(self._rng, n), written out: self-play asks it at every decision
        s, limit = self._rng, LIMITS[n]
        while True:
            s ^= s >> 12
            s ^= (s << 25) & MASK
            s ^= s >> 27
            out = (s * 0x2545F4914F6CDD1D) & MASK
            if out < limit:
                self._rng = s
                return options[out % n][0]
