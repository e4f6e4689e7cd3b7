"""How the app starts a headless host child process. Imports nothing but the standard library:
the CLI calls it first thing, so the host gets ready while the app loads."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from pigeon_tui.session import GameOptions

HOST_COMMAND: Final = (sys.executable, "-m", "pigeon_tui", "host")
"""The host child process: the app's own headless `host` subcommand (net.spawn.HOST_COMMAND)."""
READY_WORD: Final = "LISTENING"
"""First word of the line `pigeon-tui host --ready` prints once it listens (net.host.READY_LINE)."""
BOT_DELAY: Final = 0.25
"""Seconds a bot waits before each move of its turn, so people can follow the game."""
DEFAULT_BOTS: Final[tuple[str, ...]] = ("greedy",)
"""The bot level of a game against bots unless chosen otherwise."""


@dataclass(frozen=True, slots=True)
class HostSpec:
    """How to run a headless host child process (options of `pigeon-tui host`)."""

    seats: int
    bots: int
    level: str
    edition: str
    seed: int | None = None
    bind: str = "127.0.0.1"
    port: int = 0
    bot_delay: float = 0.3
    password: str | None = None

    @classmethod
    def private_game(
        cls, players: int, levels: tuple[str, ...], edition: str, seed: int | None, bot_delay: float
    ) -> HostSpec:
        """A private game against bots: every seat but yours is a bot. The host has one bot
        level per table, so a table of mixed levels plays at the first of them."""
        return cls(players, players - 1, (levels or ("random",))[0], edition, seed, bot_delay=bot_delay)

    @classmethod
    def for_game(cls, options: GameOptions, bot_delay: float) -> HostSpec:
        """`private_game` for the options of a game against bots."""
        return cls.private_game(options.players, options.bot_levels(), options.edition.value, options.seed, bot_delay)

    @property
    def private(self) -> bool:
        return self.bind == "127.0.0.1"

    def argv(self) -> list[str]:
        """`pigeon-tui host` with these options, as a child that says when it listens and ends
        with its stdin. A private game has no time limits: nobody else waits for you."""
        args = [*HOST_COMMAND, "--bind", self.bind, "--port", str(self.port), "--ready", "--exit-with-stdin"]
        args += ["--seats", str(self.seats), "--bots", str(self.bots), "--bot-level", self.level]
        args += ["--edition", self.edition, "--bot-delay", str(self.bot_delay)]
        if self.password:
            args += ["--password", self.password]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        if self.private:
            args += ["--reaction-limit", "0", "--turn-limit", "0"]
        return args


def spawn_host(spec: HostSpec) -> subprocess.Popen[bytes]:
    """Start the host process now (no event loop needed: the CLI calls it before loading the
    UI). `pigeon_tui.remote.host_ready` waits for it."""
    return subprocess.Popen(
        spec.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, close_fds=True
    )
