"""What the table screen talks to: a seat at one game (local engine or network client).

The screen never touches the engine or the wire: it reads `Update`s (the seat's view and the
events since the last one) and answers decisions with `choose`. `LocalSession` runs the engine
and the bots in this process, for development and tests; the network client plugs into the
same `Session` protocol.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import AsyncIterator, Final, Protocol, Sequence

from core.bots import Bot, make_bot
from core.cards import Edition
from core.decisions import REACTIONS, Decision, IllegalChoice, OptionValue
from core.events import Event, redact
from core.rules import apply, pending
from core.setup import new_game
from core.state import GameState
from core.views import PlayerView, view
from pigeon_tui.launch import BOT_DELAY, DEFAULT_BOTS

MIXED_LEVELS: Final[tuple[str, ...]] = ("greedy", "medium", "random")
"""The bots of a table of "mixed" levels, seat by seat."""
BOT_NAMES: Final[tuple[str, ...]] = ("Rocky", "Dove", "Percy", "Gus", "Mo", "Coo")
"""Names given to bot seats, in seat order after the human."""


class Link(StrEnum):
    """The state of the connection to the host, for the status line."""

    LOCAL = "local"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    bot: str | None = None
    """The bot level playing this seat, or None for a person."""
    connected: bool = True
    away: bool = False
    """A bot plays for this person until they come back."""


class ChoiceRefused(Exception):
    """The engine or the host refused a choice; nothing changed."""


@dataclass(frozen=True, slots=True)
class Status:
    link: Link
    latency_ms: float | None = None
    message: str = ""
    """A sentence for the player (a refusal, a drop), empty when all is well."""


@dataclass(frozen=True, slots=True)
class Update:
    """One step of the game as this seat sees it."""

    view: PlayerView
    events: tuple[Event, ...] = ()
    """What happened since the previous update, redacted for this seat."""
    deadline: float | None = None
    """`time.monotonic()` at which the host stops waiting for this seat's reaction, if it limits it."""
    thinking: int | None = None
    """A seat whose (bot) player is choosing its move, when the host says so."""


@dataclass(frozen=True, slots=True)
class GameOptions:
    """A new game against bots."""

    players: int = 4
    bots: tuple[str, ...] = DEFAULT_BOTS
    """Bot level per bot seat; the last one repeats."""
    seed: int | None = None
    edition: Edition = Edition.V35
    name: str = "You"

    def bot_levels(self) -> tuple[str, ...]:
        levels = self.bots or ("random",)
        return tuple(levels[min(i, len(levels) - 1)] for i in range(self.players - 1))


class Session(Protocol):
    """A seat at a game. Every coroutine may be cancelled safely."""

    @property
    def seat(self) -> int:
        """This seat's number at the table."""
        ...

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Who sits where, by seat number."""
        ...

    @property
    def status(self) -> Status: ...

    def updates(self) -> AsyncIterator[Update]:
        """Every update for this seat, the first one a full view; ends when the session closes."""
        ...

    async def choose(self, decision_id: int, option: OptionValue) -> None:
        """Answer one of this seat's open decisions. Raises ChoiceRefused."""
        ...

    async def rematch(self) -> Session:
        """The session of the next game at this table (it may be this one)."""
        ...

    async def close(self) -> None:
        """Leave the table; safe to call twice."""
        ...


@dataclass(slots=True)
class _Waiting:
    update: asyncio.Queue[Update | None] = field(default_factory=asyncio.Queue)
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class LocalSession:
    """The engine and bots in this process: seat 0 is the human, the others bots.

    The state is only changed on the event loop; each bot thinks in a worker thread
    (`asyncio.to_thread`) on its own frozen view, so the UI never freezes.
    """

    def __init__(self, options: GameOptions, bot_delay: float = BOT_DELAY, seat: int = 0) -> None:
        self.options = options
        self.seat = seat
        self.bot_delay = bot_delay
        """Seconds a bot waits before each move so people can follow the game."""
        seed = options.seed if options.seed is not None else _fresh_seed()
        self.seed = seed
        self.state: GameState = new_game(options.players, seed, options.edition)
        levels = iter(options.bot_levels())
        names = iter(BOT_NAMES)
        seats: list[Seat] = []
        self.bots: dict[int, Bot] = {}
        for s in range(options.players):
            if s == seat:
                seats.append(Seat(options.name))
            else:
                level = next(levels)
                seats.append(Seat(next(names), bot=level))
                self.bots[s] = make_bot(level, seed * 31 + s, clock=time.perf_counter)
        self.seats = tuple(seats)
        self._io = _Waiting()
        self._task: asyncio.Task[None] | None = None
        self._thinking: int | None = None
        self._closed = False

    @property
    def status(self) -> Status:
        return Status(Link.LOCAL)

    async def updates(self) -> AsyncIterator[Update]:
        if self._task is None:
            self._publish(())
            self._task = asyncio.create_task(self._run_bots(), name="local-bots")
        while True:
            item = await self._io.update.get()
            if item is None:
                return
            yield item

    async def choose(self, decision_id: int, option: OptionValue) -> None:
        """Apply the human's choice. Raises ChoiceRefused, changing nothing."""
        try:
            events = apply(self.state, self.seat, decision_id, option)
        except IllegalChoice as exc:
            raise ChoiceRefused(exc.detail) from None
        self._publish(events)
        self._io.wake.set()

    async def rematch(self) -> Session:
        """A new game with the same seats and bots, dealt from the next seed."""
        await self.close()
        return LocalSession(replace(self.options, seed=self.seed + 1), self.bot_delay, self.seat)

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        self._io.update.put_nowait(None)

    @property
    def idle(self) -> bool:
        """No bot has a move to make and every update has been read (for tests and screenshots)."""
        return self._next_bot_decision() is None and self._io.update.empty()

    def _publish(self, events: Sequence[Event]) -> None:
        redacted = tuple(redact(e, self.seat) for e in events)
        self._io.update.put_nowait(Update(view(self.state, self.seat), redacted, thinking=self._thinking))

    def _next_bot_decision(self) -> Decision | None:
        for d in pending(self.state):
            if d.player in self.bots:
                return d
        return None

    async def _run_bots(self) -> None:
        state = self.state
        while not state.over and not self._closed:
            decision = self._next_bot_decision()
            if decision is None:
                self._io.wake.clear()
                await self._io.wake.wait()
                continue
            bot = self.bots[decision.player]
            seen = view(state, decision.player)
            thinking = decision.player if decision.kind not in REACTIONS else None
            if thinking != self._thinking:
                self._thinking = thinking
                self._publish(())
            option = await asyncio.to_thread(bot.choose, seen, decision)
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            if decision not in state.open:
                continue
            try:
                events = apply(state, decision.player, decision.id, option)
            except IllegalChoice:
                continue
            if self._next_bot_decision() is None:
                self._thinking = None
            self._publish(events)


def _fresh_seed() -> int:
    import random

    return random.SystemRandom().randrange(1, 2**31)
