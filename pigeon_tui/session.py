"""A seat at a game on a host (or a spectator's chair), read through `net.client.Client`: what
the table and lobby screens talk to. There is one host (`net`) and so one session, for a game
against bots (a private host on 127.0.0.1), a LAN game, a game over SSH and the tests alike.

The screens never touch the wire: they read the client's `GameChanged` updates as they come
(the seat's view, the events since the last one, the deadline) and answer decisions with
`choose`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Final, Protocol

from core.cards import Edition
from core.decisions import OptionValue
from core.structs import Struct
from core.views import PlayerView
from net.client import (
    Client,
    GameChanged,
    GameOver,
    LobbyChanged,
    Seated,
    StatusChanged,
    TableChanged,
    TableInfo,
)
from net.client import Status as ClientStatus
from net.spawn import HostFailed, HostSpec
from pigeon_tui.launch import BOT_DELAY, DEFAULT_BOTS

if TYPE_CHECKING:
    from pigeon_tui.joining import SeatKeeper

log = logging.getLogger(__name__)

FIRST_VIEW_TIMEOUT: Final = 15.0
"""Seconds to wait, once seated at a full table, for the first view of the game."""


class LinkState(StrEnum):
    """The state of the connection to the host, for the status line."""

    LOCAL = "local"
    """Connected to the private host of a game against bots (nothing worth showing)."""
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


_LINKS: Final = {
    ClientStatus.CONNECTING: LinkState.CONNECTING,
    ClientStatus.CONNECTED: LinkState.CONNECTED,
    ClientStatus.RECONNECTING: LinkState.RECONNECTING,
    ClientStatus.CLOSED: LinkState.CLOSED,
}


# Structs (core.structs), not frozen dataclasses: defined at every start of the app, far cheaper (issue 9).
class Seat(Struct):
    name: str
    bot: str | None = None
    """The bot level playing this seat, or None for a person."""
    connected: bool = True
    away: bool = False
    """A bot plays for this person until they come back."""


class ChoiceRefused(Exception):
    """The host refused a choice (or a request); nothing changed."""


class LinkStatus(Struct):
    link: LinkState
    latency_ms: float | None = None
    message: str = ""
    """A sentence for the player (a refusal, a drop), empty when all is well."""


class GameOptions(Struct):
    """A new game against bots."""

    players: int = 4
    bots: tuple[str, ...] = DEFAULT_BOTS
    """Bot level per bot seat; the last one repeats."""
    seed: int | None = None
    edition: Edition = Edition.V35
    name: str = "You"
    game: str = "pigeons"
    """The game to play (a `core.games` id)."""
    bot_delay: float = BOT_DELAY
    """Seconds a bot waits before each move of its turn (the pace: `launch.PACES`)."""
    house: tuple[tuple[str, str], ...] = ()
    """House rules (core.house) set away from the book, as (name, value) pairs."""
    custom: tuple[str, ...] = ()
    """The customizable cards, in their text form (core.cards.custom_from_text)."""

    def bot_levels(self) -> tuple[str, ...]:
        """The level of each bot seat, in seat order."""
        levels = self.bots or ("random",)
        return tuple(levels[min(i, len(levels) - 1)] for i in range(self.players - 1))

    def host_spec(self) -> HostSpec:
        """The private host of this game (the CLI makes the same one before loading this)."""
        return HostSpec.private_game(
            self.players, self.bots, self.edition.value, self.seed, self.bot_delay, self.game, self.house, self.custom
        )


class Hosting(Protocol):
    """A host this app started (a child process, or one on this event loop): it ends with the
    session that sits at it."""

    port: int

    async def stop(self) -> None: ...


def seats_of(table: TableInfo | None) -> tuple[Seat, ...]:
    if table is None:
        return ()
    out = []
    for s in table.seats:
        if s is None:
            out.append(Seat("(free)", connected=False))
            continue
        name = s.name.removesuffix(" (bot)")
        out.append(Seat(name, bot=(s.level or "bot") if s.kind == "bot" else None, connected=s.connected, away=s.away))
    return tuple(out)


class Session:
    """A seat (or a spectator's chair) at a host's table, read through `net.client.Client`.

    One task (`_pump`) is the client's only reader; it passes its game updates on as they are.
    Every coroutine may be cancelled safely.
    """

    def __init__(
        self,
        client: Client,
        host: Hosting | None = None,
        *,
        you: str | None = None,
        private: bool = False,
        keeper: SeatKeeper | None = None,
    ) -> None:
        self.client = client
        self.host = host
        """The host this session started, stopped when it closes (None: someone else's)."""
        self.you = you
        """Shown instead of our own name ("You" in a private game)."""
        self.private = private
        """The private host of a game against bots (the link is not worth showing)."""
        self.keeper = keeper
        """Where each seat token the host gives us is kept, to come back after a crash."""
        self._updates: deque[GameChanged | None] = deque()
        """Updates not read yet (None: the session closed)."""
        self._arrived = asyncio.Event()
        self._reader = 0
        """The one reader of `updates` served: an older one ends (see `updates`)."""
        self._pump_task: asyncio.Task[None] | None = None
        self._last: GameChanged | None = None
        """The newest game update (its view is never None)."""
        self._first = asyncio.Event()
        self._skip_over = False
        """A rematch is asked for: the updates of the game over are not passed on, and the
        next one that is not over is the new game's first."""
        self._dealt = asyncio.Event()
        """Set when a rematch asked for is dealt (or the session closed)."""
        self._closed = False
        self.message = ""
        self.rematches = 0
        """Rematches played at this table: each rotated the seats one place (seat s to s+1)."""
        self.on_change: Callable[[], None] | None = None
        """Called when the lobby, the table, the seat or the connection changed (lobby screen),
        or a rematch was asked for (the results)."""

    # -- what the screens read -----------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """This seat's number at the table; None for a spectator (or before a seat)."""
        return self.client.seat

    @property
    def game_id(self) -> str | None:
        """The game the table plays (None before the host said which table)."""
        table = self.client.table
        return table.game_id if table is not None else None

    @property
    def watching(self) -> bool:
        """A spectator: no seat, the public view."""
        return self.client.seat is None and self._view is not None and self._view.seat is None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Who sits where, by seat number."""
        seats = list(seats_of(self.client.table))
        me = self.client.seat
        if self.you and me is not None and me < len(seats):
            seats[me] = Seat(self.you, connected=True)
        if self._view is not None and len(seats) < self._view.players:
            seats += [Seat(f"Player {i + 1}") for i in range(len(seats), self._view.players)]
        return tuple(seats)

    @property
    def status(self) -> LinkStatus:
        c = self.client
        link = _LINKS[c.status]
        if self.private and link is LinkState.CONNECTED:
            return LinkStatus(LinkState.LOCAL, None, self.message)
        latency = c.latency
        return LinkStatus(link, latency * 1000 if latency is not None else None, self.message)

    @property
    def rematch_waits_for(self) -> tuple[str, ...] | None:
        """Once this seat asked for a rematch, until it is dealt: the people still at the table
        who have not asked yet (the host waits for them; empty: it deals). None otherwise."""
        if not self._skip_over:
            return None
        table = self.client.table
        if table is None or table.phase != "over":
            return ()
        asked = {*table.rematch, self.client.seat}
        return tuple(
            s.name
            for s in table.seats
            if s is not None and s.kind == "human" and s.connected and not s.left and s.seat not in asked
        )

    @property
    def idle(self) -> bool:
        """Every update has been handed to the screen (for tests and screenshots)."""
        return not self._updates

    async def updates(self) -> AsyncIterator[GameChanged]:
        """Every update for this seat, the first one a full view; ends when the session closes.

        One reader at a time: a reader ends once another begins (the table of the next game),
        or once a rematch is asked for (the new game is for the table that comes next). Two
        readers of one queue took turns: the final board, still there under the results, took
        the new game's first update from the new table, which then said "Dealing..." for good."""
        self._end_readers()
        me = self._reader
        while me == self._reader:
            if not self._updates:
                if self._closed:
                    return
                self._arrived.clear()
                await self._arrived.wait()
                continue
            item = self._updates.popleft()
            if item is None:
                return
            yield item

    def ready_updates(self) -> list[GameChanged]:
        """The updates here already, for a new table to draw before its first paint (its
        reader, `updates`, goes on from the ones that come next)."""
        self._end_readers()
        ready: list[GameChanged] = []
        while self._updates and self._updates[0] is not None:
            ready.append(self._updates.popleft())  # type: ignore[arg-type]
        return ready

    def _end_readers(self) -> None:
        """The reader of `updates` (if any) ends: what comes next is the next reader's."""
        self._reader += 1
        self._arrived.set()

    def _put(self, item: GameChanged | None) -> None:
        self._updates.append(item)
        self._arrived.set()

    # -- what the screens do -------------------------------------------------------------

    async def choose(self, decision_id: int, option: OptionValue) -> None:
        """Answer one of this seat's open decisions. Raises ChoiceRefused."""
        out = await self.client.choose(decision_id, option)
        if not out.ok:
            raise ChoiceRefused(out.text or str(out.code))

    async def rematch(self) -> Session:
        """Ask the host for another game at this table, and wait until it is dealt: the host
        deals once everyone still at the table asked (`rematch_waits_for` says who has not;
        `on_change` is called as that changes). The updates from the new game's first are
        there for the new table. Raises ChoiceRefused, or HostFailed if the session closes
        first. Safe to cancel (the request stands: the host deals when the others agree)."""
        self._skip_over = True
        self._dealt.clear()
        self._end_readers()
        self._updates.clear()
        self._changed()
        out = await self.client.rematch()
        if not out.ok:
            self._skip_over = False
            self._changed()
            raise ChoiceRefused(out.text or "the host refused a rematch")
        self.rematches += 1
        await self._dealt.wait()
        if self._skip_over:
            raise HostFailed(self.message or "the connection closed")
        return self

    async def watch(self, table: int) -> None:
        """Watch a table (from the lobby): the public view, live. Raises ChoiceRefused."""
        self._last = None
        self._first.clear()
        await self.stand_up()
        out = await self.client.watch(table)
        if not out.ok:
            raise ChoiceRefused(out.text or "the host refused")

    async def stand_up(self) -> None:
        """Leave the seat taken in the lobby (a table waiting for players) before going to
        another: the host moves nobody who sits (docs/protocol.md, A session)."""
        if self.client.seat is not None:
            await self.to_lobby()

    async def to_lobby(self) -> None:
        """Leave the table (its seat, or watching it) for the host's lobby."""
        token = self.client.token
        out = await self.client.leave()
        if out.ok:
            if self.keeper is not None:
                self.keeper.forget(token)
            self._last = None
            self._first.clear()
            self._updates.clear()

    async def close(self, leave: bool = False) -> None:
        """Close the connection (and the host this session started); with `leave`, give up
        the seat first (a bot finishes the game) and forget its token. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if leave and self.client.seat is not None and self.host is None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await self.to_lobby()
        with contextlib.suppress(Exception):
            await self.client.close()
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task
        if self.host is not None:
            await self.host.stop()
        self._put(None)
        self._dealt.set()

    # -- reading the client --------------------------------------------------------------

    def start(self) -> None:
        """Begin reading the client's updates (once connected)."""
        if self._pump_task is None:
            self._pump_task = asyncio.create_task(self._pump(), name="pigeon session")

    async def first_view(self, timeout: float | None = FIRST_VIEW_TIMEOUT) -> PlayerView:  # noqa: ASYNC109  (fails with why)
        """Wait until the game has begun for this seat. Raises HostFailed."""
        self.start()
        try:
            async with asyncio.timeout(timeout):
                await self._first.wait()
        except TimeoutError:
            raise HostFailed(self.message or "the game did not start") from None
        if self._view is None:
            raise HostFailed(self.message or "the connection closed")
        return self._view

    async def _pump(self) -> None:
        async for item in self.client.updates():
            if isinstance(item, GameChanged):
                view = item.view
                if view is None:
                    continue
                if self._skip_over and view.over:
                    continue
                self._skip_over = False
                self._last = item
                self._put(item)
                self._first.set()
                self._dealt.set()
                continue
            elif isinstance(item, StatusChanged):
                self.message = item.text if item.status is not ClientStatus.CONNECTED else ""
                self._refresh()
            elif isinstance(item, GameOver):
                log.info("game over: record %s", _json(item.result.record))
                self._refresh()
            elif isinstance(item, (TableChanged, Seated, LobbyChanged)):
                if isinstance(item, Seated) and self.keeper is not None and self.client.token is not None:
                    self.keeper.keep(item.table, self.client.token)
                self._refresh()
            else:
                continue
            self._changed()
        self._first.set()
        self._dealt.set()
        self._put(None)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    @property
    def _view(self) -> PlayerView | None:
        return self._last.view if self._last is not None else None

    def _refresh(self) -> None:
        """Redraw with the same view (seats or the connection changed): the last update again,
        with nothing new in it."""
        if self._last is not None and not self._skip_over:
            self._put(self._last._replace(events=(), snapshot=False))


def _json(record: object) -> str:
    import json

    return json.dumps(record, separators=(",", ":"), default=str)
