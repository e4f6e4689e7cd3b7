"""Bots: `choose(view, decision) -> option`, seeing exactly what a human in the seat sees.

Levels, weakest first: `random`, `greedy` (one ply of look-ahead), then the expert search at
`easy`, `medium` and `hard`; `expert` is another name for `hard`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from core.decisions import Decision, OptionValue
from core.views import PlayerView


class Bot(Protocol):
    def choose(self, view: PlayerView, decision: Decision) -> OptionValue: ...


BotFactory = Callable[[int], Bot]
"""A bot level: seed -> bot."""
Clock = Callable[[], float]
"""Seconds from any origin (e.g. time.perf_counter), passed in by the caller: core reads no clock."""

LEVELS: Final = ("random", "greedy", "easy", "medium", "hard", "expert")
ALIASES: Final = {"expert": "hard"}


def make_bot(level: str, seed: int, clock: Clock | None = None) -> Bot:
    """The bot of a level name, seeded. With a `clock`, search levels also stop at their preset's
    time limit (their iteration budget otherwise decides alone, which is reproducible).

    Raises ValueError on an unknown level.
    """
    from core.bots.expert import PRESETS, ExpertBot, time_limit
    from core.bots.greedy import GreedyBot
    from core.bots.random import RandomBot

    level = ALIASES.get(level, level)
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level in PRESETS:
        preset = PRESETS[level]
        return ExpertBot(seed, preset, time_limit(clock, preset.seconds) if clock else None)
    raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
