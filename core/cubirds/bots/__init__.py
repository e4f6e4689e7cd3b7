"""CuBirds bots: `choose(view, decision) -> option`, seeing exactly what a human in the seat sees.

Levels, weakest first: `random`, `greedy` (one ply of the heuristic), then the search at `easy`,
`medium` and `hard`; `expert` is another name for `hard` (the same names as Pigeons & Guano's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from core.decisions import Decision, OptionValue

if TYPE_CHECKING:  # a Pigeons & Guano process reads LEVELS without loading the game
    from core.cubirds.views import PlayerView


class Bot(Protocol):
    def choose(self, view: PlayerView, decision: Decision) -> OptionValue: ...


Clock = Callable[[], float]
"""Seconds from any origin (e.g. time.perf_counter), passed in by the caller: core reads no clock."""

LEVELS: Final = ("random", "greedy", "easy", "medium", "hard", "expert")
ALIASES: Final = {"expert": "hard"}


def make_bot(level: str, seed: int, clock: Clock | None = None) -> Bot:
    """The bot of a level name, seeded. With a `clock`, search levels also stop at their preset's
    time limit (their playout budget otherwise decides alone, which is reproducible).

    Raises ValueError on an unknown level.
    """
    from core.cubirds.bots.greedy import GreedyBot
    from core.cubirds.bots.random import RandomBot
    from core.cubirds.bots.search import PRESETS, SearchBot

    level = ALIASES.get(level, level)
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level in PRESETS:
        preset = PRESETS[level]
        return SearchBot(seed, preset, time_limit(clock, preset.seconds) if clock else None)
    raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")


def time_limit(clock: Clock, seconds: float) -> Callable[[], Callable[[], bool]]:
    """Deadlines `seconds` after each decision starts, read from the caller's `clock`."""

    def start() -> Callable[[], bool]:
        end = clock() + seconds
        return lambda: clock() >= end

    return start
