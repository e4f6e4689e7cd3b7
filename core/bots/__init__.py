"""Bots: `choose(view, decision) -> option`, seeing exactly what a human in the seat sees.

Levels, weakest first: `random`, `greedy` (one ply of look-ahead), `easy` (the same look-ahead
judged by the learned evaluation), then the expert search at `medium` and `hard`; `expert` is
another name for `hard` (core.levels: the same names and deadlines for every game's bots).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final, Protocol

from core.decisions import Decision, OptionValue
from core.levels import ALIASES, LEVELS, Clock, make
from core.views import PlayerView

__all__ = ["ALIASES", "LEVELS", "SEARCH", "Bot", "BotFactory", "Clock", "make_bot"]

SEARCH: Final = frozenset({"medium", "hard", "expert"})
"""The levels that search for a while (easy is one ply, as quick as greedy)."""


class Bot(Protocol):
    def choose(self, view: PlayerView, decision: Decision) -> OptionValue: ...


BotFactory = Callable[[int], Bot]
"""A bot level: seed -> bot."""


def make_bot(level: str, seed: int, clock: Clock | None = None) -> Bot:
    """The bot of a level name, seeded (core.levels.make). Raises ValueError on an unknown level."""
    from core.bots.expert import PRESETS, ExpertBot
    from core.bots.greedy import GreedyBot
    from core.bots.random import RandomBot

    simple: dict[str, Callable[[int], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        "easy": partial(GreedyBot, learned=True),
    }
    return make(level, seed, clock, simple, PRESETS, ExpertBot)
