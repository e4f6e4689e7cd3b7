"""CuBirds bots: `choose(view, decision) -> option`, seeing exactly what a human in the seat sees.

Levels, weakest first: `random`, `greedy` (one ply of the heuristic), then the search at `easy`,
`medium` and `hard`; `expert` is another name for `hard` (core.levels: the same names and
deadlines as Pigeons & Guano's bots).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from core.decisions import Decision, OptionValue
from core.levels import ALIASES, LEVELS, Clock, make

if TYPE_CHECKING:  # a Pigeons & Guano process reads LEVELS without loading the game
    from core.cubirds.views import PlayerView

__all__ = ["ALIASES", "LEVELS", "SEARCH", "Bot", "Clock", "make_bot"]

SEARCH: Final = frozenset({"easy", "medium", "hard", "expert"})
"""The levels that search for a while."""


class Bot(Protocol):
    def choose(self, view: PlayerView, decision: Decision) -> OptionValue: ...


def make_bot(level: str, seed: int, clock: Clock | None = None) -> Bot:
    """The bot of a level name, seeded (core.levels.make). Raises ValueError on an unknown level."""
    from core.cubirds.bots.greedy import GreedyBot
    from core.cubirds.bots.random import RandomBot
    from core.cubirds.bots.search import PRESETS, SearchBot

    simple: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
    return make(level, seed, clock, simple, PRESETS, SearchBot)
