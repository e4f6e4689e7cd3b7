"""How a table is set up and timed (the `host` command's options), and the phases it goes through."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from core.bots import LEVELS
from core.cards import Edition
from net.limits import AWAY_GRACE, REACTION_LIMIT, REACTION_WINDOW, TABLE_SEATS_MAX, TURN_LIMIT

BOT_NAMES: Final = ("Rocky", "Dove", "Percy", "Gus", "Mo", "Coo")
"""Names of bot seats, in the order they are added."""


class Phase(StrEnum):
    WAITING = "waiting"
    """Players take seats; the game starts when every seat is taken or the owner says so."""
    PLAYING = "playing"
    OVER = "over"
    """Results are shown; a rematch starts once every player still here asks for one."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How a table is set up and timed (the `host` command's options)."""

    seats: int = 4
    bots: int = 0
    """Seats taken by bots; the others wait for people."""
    bot_level: str = "random"
    """The level of bots: every bot seat's, and stand-ins' for people who are away."""
    bot_levels: tuple[str, ...] = ()
    """Levels per bot seat, in seat order (the last repeats); empty: `bot_level` for all."""
    edition: str = "3.5"
    seed: int | None = None
    """Seed of the first game (later games add the game number); None draws one."""
    reaction_window: float = REACTION_WINDOW
    reaction_limit: float = REACTION_LIMIT
    turn_limit: float = TURN_LIMIT
    away_grace: float = AWAY_GRACE
    bot_delay: float = 0.0
    """Seconds a bot waits before each move of its turn, so people can follow (never on reactions)."""
    blind_windows: bool = False
    """Ask every seat the rules let react in each window, holding a card or not (the engine's
    `blind_windows`), when two or more people play: then even how long a window stays open
    past its minimum says nothing of hands, at the cost of a Pass for everyone each time."""
    name: str = ""

    def level_of(self, bot: int) -> str:
        """The level of the `bot`-th bot seat."""
        if not self.bot_levels:
            return self.bot_level
        return self.bot_levels[min(bot, len(self.bot_levels) - 1)]

    def check(self) -> None:
        """Raises ValueError on settings no game can start with."""
        unknown = [lv for lv in (self.bot_level, *self.bot_levels) if lv not in LEVELS]
        if unknown:
            raise ValueError(f"unknown bot level {unknown[0]!r}; known: {', '.join(LEVELS)}")
        if not 2 <= self.seats <= TABLE_SEATS_MAX:
            raise ValueError(f"seats must be 2..{TABLE_SEATS_MAX}")
        if not 0 <= self.bots <= self.seats:
            raise ValueError("bots must be 0..seats")
        Edition(self.edition)
        for name in ("reaction_window", "reaction_limit", "turn_limit", "away_grace", "bot_delay"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0")


def fresh_seed() -> int:
    """A seed nobody can guess (the record of a finished game shows its seed to everyone)."""
    return secrets.randbelow(2**31)
