"""Defaults of a game against bots that the CLI needs before it loads anything else (standard
library only: the private host is started first, `net.spawn`, while the app loads)."""

from __future__ import annotations

from typing import Final

PACES: Final[dict[str, float]] = {"instant": 0.0, "fast": 0.25, "readable": 0.8, "slow": 1.6}
"""Seconds a bot waits before each move of its turn, so people can follow the game: the host
waits (never the client), so every update is the board as it is, and it waits on turn moves
only, never on reactions (their timing is the host's to pace, R5.7). Self-play has no host and
never waits."""
PACE: Final = "readable"
"""The pace of a game against bots unless chosen otherwise."""
BOT_DELAY: Final = PACES[PACE]
DEFAULT_BOTS: Final[tuple[str, ...]] = ("greedy",)
"""The bot level of a game against bots unless chosen otherwise."""
MIXED_LEVELS: Final[tuple[str, ...]] = ("greedy", "medium", "random")
"""The bots of a table of "mixed" levels, seat by seat (start screen, LAN host screen)."""
