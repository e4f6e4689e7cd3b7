"""Bot levels, the same for every game: their names, a seeded bot from a name, and deadlines read
from the caller's clock. Each game's bots (core.bots, core.cubirds.bots) give their own classes;
this module names neither game, so both may import it (import-linter keeps them apart)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Protocol, TypeVar

Clock = Callable[[], float]
"""Seconds from any origin (e.g. time.perf_counter), passed in by the caller: core reads no clock."""
Deadline = Callable[[], bool]
"""True once the bot must answer: built by the caller for each decision, e.g. from a clock."""
DeadlineFactory = Callable[[], Deadline]

LEVELS: Final = ("random", "greedy", "easy", "medium", "hard", "expert")
"""Weakest first: uniform choices, one ply of look-ahead, then a search at three presets."""
ALIASES: Final = {"expert": "hard"}

B = TypeVar("B")


class Timed(Protocol):
    @property
    def seconds(self) -> float:
        """The time limit a caller with a clock holds the search to."""
        ...


P = TypeVar("P", bound=Timed)


def make(
    level: str,
    seed: int,
    clock: Clock | None,
    simple: Mapping[str, Callable[[int], B]],
    presets: Mapping[str, P],
    search: Callable[[int, P, DeadlineFactory | None], B],
) -> B:
    """The bot of a level name, seeded: `simple[level](seed)` (random, greedy), or the `search`
    at the level's preset. With a `clock`, a search also stops at its preset's time limit (its
    budget otherwise decides alone, which is reproducible). Raises ValueError on an unknown level."""
    level = ALIASES.get(level, level)
    if level in simple:
        return simple[level](seed)
    if level in presets:
        preset = presets[level]
        return search(seed, preset, time_limit(clock, preset.seconds) if clock else None)
    raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")


def time_limit(clock: Clock, seconds: float) -> DeadlineFactory:
    """Deadlines `seconds` after each decision starts, read from the caller's `clock`. A search
    asks between two steps (a sample), and a step once begun runs to its end; so the deadline
    also says stop when one more step as long as the last would end past the limit: the answer
    comes within it, not a step after (on a busy machine a step of hard's is 20 ms or more)."""

    def start() -> Deadline:
        last = clock()
        end = last + seconds

        def done() -> bool:
            nonlocal last
            now = clock()
            step, last = now - last, now
            return now + step >= end

        return done

    return start
