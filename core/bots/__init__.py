"""Bots: `choose(view, decision) -> option`, seeing exactly what a human in the seat sees."""

from __future__ import annotations

from typing import Callable, Protocol

from core.decisions import Decision, OptionValue
from core.views import PlayerView


class Bot(Protocol):
    def choose(self, view: PlayerView, decision: Decision) -> OptionValue: ...


BotFactory = Callable[[int], Bot]
"""A bot level: seed -> bot."""


def make_bot(level: str, seed: int) -> Bot:
    """The bot of a level name. Raises ValueError on an unknown level."""
    from core.bots.random import RandomBot

    factories: dict[str, BotFactory] = {"random": RandomBot}
    try:
        return factories[level](seed)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(sorted(factories))})") from None


LEVELS = ("random",)
