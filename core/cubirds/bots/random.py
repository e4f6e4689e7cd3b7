"""The random CuBirds bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

import random
from math import floor
from typing import TYPE_CHECKING, ClassVar

from core.decisions import BACK, Decision, OptionValue

if TYPE_CHECKING:
    from core.cubirds.views import PlayerView


class RandomBot:
    reads_view: ClassVar[bool] = False
    """It chooses from the decision alone: self-play (core.selfplay.play_game) hands it no view."""

    def __init__(self, seed: int) -> None:
        # Python's own generator (C code, one call a draw): the bot's draws are not the game's,
        # so they need not be core.rng's (records keep the choices, never the bot's draws); the
        # xorshift written out in Python cost ~4k instructions a decision, this ~1k.
        self._random = random.Random(seed).random

    def choose(self, view: PlayerView | None, decision: Decision) -> OptionValue:
        options = decision.options
        n = len(options)
        if options[-1][0] == BACK:  # offered last, if at all (core.cubirds.rules)
            n -= 1
        # a float of 53 random bits scaled: uniform to within n / 2**53; floor, not int(), is the
        # same index for a float >= 0 and ~700 instructions cheaper (int is a call of a type)
        return options[floor(self._random() * n)][0]
