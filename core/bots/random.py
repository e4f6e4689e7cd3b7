"""The random bot: any offered option, uniformly, but never stepping back (seeded)."""

from __future__ import annotations

import random
from math import floor
from typing import ClassVar

from core.decisions import BACK, Decision, OptionValue
from core.views import PlayerView


class RandomBot:
    reads_view: ClassVar[bool] = False
    """It chooses from the decision alone: self-play (core.selfplay.play_game) hands it no view."""

    def __init__(self, seed: int) -> None:
        # Python's own generator (C code, one call a draw), as CuBirds' random bot: a bot's draws
        # are not the game's (a record keeps the choices, never a bot's draws), so they need not
        # be core.rng's xorshift64*, which written out in Python cost ~4.3k machine instructions a
        # draw (a dozen operations on 64-bit ints); this ~1.1k, after ~39k to seed it
        self._random = random.Random(seed).random

    def choose(self, view: PlayerView | None, decision: Decision) -> OptionValue:
        options = decision.options
        n = len(options)
        if options[n - 1][0] == BACK:  # the engine offers "back" last, if at all ([0]: .value is a descriptor call)
            n -= 1
        # a float of 53 random bits scaled: uniform to within n / 2**53; floor, not int(), is the
        # same index for a float >= 0 and cheaper (int is a call of a type)
        return options[floor(self._random() * n)][0]
