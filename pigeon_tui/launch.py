"""Defaults of a game against bots that the CLI needs before it loads anything else (standard
library only: the private host is started first, `net.spawn`, while the app loads)."""

from __future__ import annotations

from typing import Final

BOT_DELAY: Final = 0.25
"""Seconds a bot waits before each move of its turn, so people can follow the game."""
DEFAULT_BOTS: Final[tuple[str, ...]] = ("greedy",)
"""The bot level of a game against bots unless chosen otherwise."""
MIXED_LEVELS: Final[tuple[str, ...]] = ("greedy", "medium", "random")
"""The bots of a table of "mixed" levels, seat by seat (start screen, LAN host screen)."""
