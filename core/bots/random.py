"""The random bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

from typing import ClassVar

from core.decisions import BACK, Decision, OptionValue
from core.rng import below, seed_state
from core.views import PlayerView


class RandomBot:
    reads_view: ClassVar[bool] = False
    """It chooses from the decision alone: self-play (core.selfplay.play_game) hands it no view."""

    def __init__(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def choose(self, view: PlayerView | None, decision: Decision) -> OptionValue:
        options = decision.options
        if options[-1].value == BACK:  # the engine offers "back" last, if at all
            options = options[:-1]
        self._rng, i = below(self._rng, len(options))
        return options[i].value
