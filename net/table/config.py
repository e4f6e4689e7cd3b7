"""How a table is set up and timed (the `host` command's options), and the phases it goes through."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from core.games import DEFAULT, AnyGame, SettingValue, game
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
    game: str = DEFAULT
    """The game played (`core.games` id)."""
    edition: str = "3.5"
    """The game's `edition` setting, for a game that has one."""
    settings: tuple[tuple[str, SettingValue], ...] = ()
    """More of the game's settings (`core.games.Setting`), as (name, value) pairs."""
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

    @property
    def the_game(self) -> AnyGame:
        return game(self.game)

    def game_settings(self, blind_windows: bool = False) -> dict[str, Any]:
        """The settings a game of this table starts with (the game's names only)."""
        g = self.the_game
        names = {s.name for s in g.settings}
        out: dict[str, Any] = dict(self.settings)
        if "edition" in names:
            out["edition"] = self.edition
        if blind_windows and "blind_windows" in names:
            out["blind_windows"] = True
        return out

    def check(self) -> None:
        """Raises ValueError on settings no game can start with."""
        g = self.the_game  # raises on an unknown game
        unknown = [lv for lv in (self.bot_level, *self.bot_levels) if lv not in g.bot_levels]
        if unknown:
            raise ValueError(f"unknown bot level {unknown[0]!r}; known: {', '.join(g.bot_levels)}")
        if not max(2, g.min_players) <= self.seats <= min(TABLE_SEATS_MAX, g.max_players):
            raise ValueError(f"seats must be {g.min_players}..{min(TABLE_SEATS_MAX, g.max_players)} for {g.title}")
        if not 0 <= self.bots <= self.seats:
            raise ValueError("bots must be 0..seats")
        g.check_settings(self.game_settings())
        for name in ("reaction_window", "reaction_limit", "turn_limit", "away_grace", "bot_delay"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0")


def fresh_seed() -> int:
    """A seed nobody can guess (the record of a finished game shows its seed to everyone)."""
    return secrets.randbelow(2**31)
