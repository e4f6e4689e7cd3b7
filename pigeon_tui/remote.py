"""A seat at a game on a host, over TCP: the `Session` the table screen reads, backed by the
network client (net.client), and the private host child process a game against bots runs on."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from dataclasses import dataclass
from typing import AsyncIterator, Callable, Final

from core.decisions import OptionValue
from core.views import PlayerView
from net.client import (
    Client,
    GameChanged,
    GameOver,
    LobbyChanged,
    Refused,
    Seated,
    StatusChanged,
    TableChanged,
    TableInfo,
)
from net.client import (
    Status as ClientStatus,
)
from net.errors import ErrorCode
from pigeon_tui.launch import READY_WORD, HostSpec, spawn_host
from pigeon_tui.session import ChoiceRefused, GameOptions, Link, Seat, Session, Status, Update

HOST_START_TIMEOUT: Final = 15.0
"""Seconds to wait for the private host to say which port it listens on."""
FIRST_VIEW_TIMEOUT: Final = 15.0
"""Seconds to wait, once seated at a full table, for the first view of the game."""

_LINKS: Final = {
    ClientStatus.CONNECTING: Link.CONNECTING,
    ClientStatus.CONNECTED: Link.CONNECTED,
    ClientStatus.RECONNECTING: Link.RECONNECTING,
    ClientStatus.CLOSED: Link.CLOSED,
}


class HostFailed(Exception):
    """The private host could not be started, or the client could not get a seat at it."""


@dataclass(slots=True)
class HostProcess:
    """A headless host running as a child process; it stops when `stop` closes its stdin."""

    process: subprocess.Popen[bytes]
    port: int
    join_lines: tuple[str, ...] = ()

    async def stop(self) -> None:
        """Close its stdin (it exits by itself), then make sure. Safe to call twice."""
        await stop_process(self.process)


async def stop_process(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    if proc.stdin is not None and not proc.stdin.closed:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    try:
        await asyncio.to_thread(proc.wait, 3.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        await asyncio.to_thread(proc.wait)


async def host_ready(proc: subprocess.Popen[bytes], share: bool = False) -> HostProcess:
    """Wait for a spawned host's `LISTENING ADDRESS PORT` line. Raises HostFailed.

    With `share`, the `pigeon-tui join` lines for this machine's LAN addresses come along."""
    assert proc.stdout is not None
    out = proc.stdout
    try:
        async with asyncio.timeout(HOST_START_TIMEOUT):
            while True:
                raw = await asyncio.to_thread(out.readline)
                if not raw:
                    code = await asyncio.to_thread(proc.wait)
                    raise HostFailed(f"the host exited with status {code} (run `pigeon-tui host` to see why)")
                words = raw.decode(errors="replace").split()
                if len(words) == 3 and words[0] == READY_WORD:
                    port = int(words[2])
                    break
    except (TimeoutError, ValueError) as exc:
        proc.kill()
        raise HostFailed(f"the host did not start: {exc or 'timed out'}") from None
    except BaseException:
        proc.kill()
        raise
    joins: tuple[str, ...] = ()
    if share:
        from net.host import lan_addresses

        joins = tuple(f"pigeon-tui join {addr}:{port}" for addr in lan_addresses() or ["127.0.0.1"])
    return HostProcess(proc, port, joins)


async def start_host(spec: HostSpec) -> HostProcess:
    """Spawn a host and wait until it listens. Raises HostFailed."""
    return await host_ready(spawn_host(spec), share=not spec.private)


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


class NetSession:
    """A seat at a host's table, read through `net.client.Client`.

    One task (`_pump`) is the client's only reader; it turns its updates into `Update`s.
    """

    def __init__(self, client: Client, host: HostProcess | None = None, you: str | None = None) -> None:
        self.client = client
        self.host = host
        self.you = you
        """Shown instead of our own name ("You" in a private game)."""
        self._queue: asyncio.Queue[Update | None] = asyncio.Queue()
        self._pump_task: asyncio.Task[None] | None = None
        self._view: PlayerView | None = None
        self._first = asyncio.Event()
        self._skip_over = False
        self._closed = False
        self.message = ""
        self.on_change: Callable[[], None] | None = None
        """Called when the lobby, the table, the seat or the connection changed (lobby screen)."""
        self.token_file: str | None = None
        """Where the seat token is kept each time the host seats us (`join --token-file`)."""

    # -- Session -------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self.client.seat if self.client.seat is not None else 0

    @property
    def seats(self) -> tuple[Seat, ...]:
        seats = list(seats_of(self.client.table))
        me = self.client.seat
        if self.you and me is not None and me < len(seats):
            seats[me] = Seat(self.you, connected=True)
        if self._view is not None and len(seats) < self._view.players:
            seats += [Seat(f"Player {i + 1}") for i in range(len(seats), self._view.players)]
        return tuple(seats)

    @property
    def status(self) -> Status:
        c = self.client
        latency = c.latency
        return Status(_LINKS[c.status], latency * 1000 if latency is not None else None, self.message)

    async def updates(self) -> AsyncIterator[Update]:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            yield item

    async def choose(self, decision_id: int, option: OptionValue) -> None:
        out = await self.client.choose(decision_id, option)
        if not out.ok:
            raise ChoiceRefused(out.text or str(out.code))

    async def rematch(self) -> Session:
        """Ask the host for another game at this table; the next update that is not over is
        the new game's first."""
        self._skip_over = True
        while not self._queue.empty():
            self._queue.get_nowait()
        out = await self.client.rematch()
        if not out.ok:
            raise ChoiceRefused(out.text or "the host refused a rematch")
        return self

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            await self.client.close()
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task
        if self.host is not None:
            await self.host.stop()
        self._queue.put_nowait(None)

    # -- reading the client --------------------------------------------------------------

    def start(self) -> None:
        """Begin reading the client's updates (once connected)."""
        if self._pump_task is None:
            self._pump_task = asyncio.create_task(self._pump(), name="pigeon net session")

    async def first_view(self, timeout: float | None = FIRST_VIEW_TIMEOUT) -> PlayerView:
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
                self._view = view
                self._queue.put_nowait(Update(view, item.events, deadline=_monotonic(item.deadline)))
                self._first.set()
                continue
            elif isinstance(item, StatusChanged):
                self.message = item.text if item.status is not ClientStatus.CONNECTED else ""
                self._refresh()
            elif isinstance(item, (TableChanged, Seated, LobbyChanged, GameOver)):
                if isinstance(item, Seated) and self.token_file is not None:
                    from pigeon_tui.joining import save_token

                    save_token(self.token_file, self.client.token)
                self._refresh()
            else:
                continue
            if self.on_change is not None:
                self.on_change()
        self._first.set()
        self._queue.put_nowait(None)

    def _refresh(self) -> None:
        """Redraw with the same view (seats or the connection changed)."""
        if self._view is not None and not self._skip_over:
            self._queue.put_nowait(Update(self._view))


def _monotonic(deadline: float | None) -> float | None:
    """The client's deadline (`loop.time()`) as `time.monotonic()`, which the prompt counts with."""
    if deadline is None:
        return None
    return deadline - asyncio.get_running_loop().time() + time.monotonic()


async def private_game(
    options: GameOptions, bot_delay: float = 0.3, spawned: subprocess.Popen[bytes] | None = None
) -> NetSession:
    """Start a private host with bots on 127.0.0.1 (or use the one `spawned` for these
    options), take the one free seat, wait for the deal.

    Raises HostFailed (or Refused, OSError) when anything on the way fails; the host is stopped."""
    host = await host_ready(spawned or spawn_host(HostSpec.for_game(options, bot_delay)))
    client = Client("127.0.0.1", host.port, options.name, table=1, reconnect=True)
    session = NetSession(client, host, you=options.name)
    try:
        await client.connect()
        await session.first_view()
    except (Refused, OSError, HostFailed, TimeoutError):
        await session.close()
        raise
    return session


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """ "host", "host:port" or "[v6]:port" -> (host, port). Raises ValueError."""
    text = text.strip()
    if not text:
        raise ValueError("an address is needed, such as 192.168.1.20:7777")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    number = int(port) if port else default_port
    if not 0 < number < 65536:
        raise ValueError(f"port {number} is out of range")
    return host, number


async def connect(
    host: str,
    port: int,
    name: str,
    password: str | None = None,
    process: HostProcess | None = None,
    table: int | None = None,
    token_file: str | None = None,
) -> NetSession:
    """Connect to a host's lobby (or straight to a seat at `table`). Raises Refused (wrong
    password, version mismatch, full table...), OSError, TimeoutError.

    With `token_file`, the seat token kept there (if the host still holds that seat) takes
    the seat back, and each new token is kept there."""
    from pigeon_tui.joining import read_token, save_token

    token = read_token(token_file)
    while True:
        client = Client(host, port, name, password=password or None, table=table, token=token)
        session = NetSession(client, process)
        session.token_file = token_file
        try:
            await client.connect()
        except Refused as exc:
            if token is not None and exc.code == ErrorCode.BAD_TOKEN.value:
                await client.close()
                token = None  # that seat is gone (the game ended): come in as anyone does
                save_token(token_file, None)
                continue
            await session.close()
            raise
        except BaseException:
            await session.close()
            raise
        session.start()
        return session
