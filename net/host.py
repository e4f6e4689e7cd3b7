"""The headless host: accepts connections, runs the handshake and the lobby, and hands each
seated player to their table. It is the only authority; it never imports a UI.

`Host` is the server object; `serve` runs one from a `HostConfig` until cancelled.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.bots import BotPool
from net.clock import Clock
from net.connection import Connection
from net.discovery import Game, TableSummary
from net.errors import ErrorCode, NetError
from net.limits import NAME_MAX, TABLES_MAX, Limits
from net.lobby import REQUEST_TYPES, HostSession, Lobby
from net.messages import (
    CLIENT_FRAMES,
    PROTOCOL_VERSION,
    REQUESTS,
    RULES_HASH,
    Choose,
    ClientFrame,
    Hello,
)
from net.peers import address_key
from net.sanitize import clean, clean_name
from net.spawn import READY_LINE
from net.store import Store, StoreConfig
from net.table import Member, Table, TableConfig, warm_up

log = logging.getLogger(__name__)

DEFAULT_PORT = 7777


@dataclass(frozen=True, slots=True)
class HostConfig:
    bind: str = "0.0.0.0"
    """0.0.0.0 for a host others join; 127.0.0.1 for the private host of a game against bots."""
    port: int = DEFAULT_PORT
    """0 picks a free port (see `Host.port`)."""
    name: str = "pigeon_tui"
    password: str | None = None
    tables: int = 1
    """How many tables may be open at once, the host's own included (players open the others)."""
    table: TableConfig = field(default_factory=TableConfig)
    limits: Limits = field(default_factory=Limits)
    bot_processes: int = 0
    """Worker processes for bot thinking; 0 uses a small thread pool."""
    discovery_port: int | None = None
    """UDP port to answer LAN discovery probes on (net.discovery.DISCOVERY_PORT for a LAN host,
    0 for any free one); None answers none (the private host of a game against bots)."""
    store: StoreConfig | None = None
    """The games database every table writes to (None: games are kept in memory only)."""


class Host:
    """A host: the lobby, its tables, and every connection."""

    def __init__(self, config: HostConfig, *, clock: Clock | None = None, conn_clock: Clock | None = None) -> None:
        if not 1 <= config.tables <= TABLES_MAX:
            raise ValueError(f"a host has 1 to {TABLES_MAX} tables")
        self.config = config
        self.limits = config.limits
        self.name = clean(config.name, NAME_MAX) or "pigeon_tui"
        """The host's name as clients see it."""
        self.bots = BotPool(config.bot_processes)
        self.clock = clock
        """The tables' clock (None: the event loop's); tests move a fake one by hand."""
        self.conn_clock = conn_clock
        """The connections' clock: hello, lobby, idle and partial-frame timeouts, pings and the
        rate limit (None: the event loop's); apart from the tables' so that a test moving one
        does not time the other out."""
        self.sessions: dict[Connection, HostSession] = {}
        self.lobby = Lobby(self)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._discovery: asyncio.DatagramTransport | None = None
        self.on_ready: Callable[[Host], None] | None = None
        self.store = Store.open(config.store)
        """Where tables write their games once `start` ran (checked now: a damaged one stops us)."""
        self.lobby.open_table(config.table, persistent=True)

    @property
    def tables(self) -> dict[int, Table]:
        return self.lobby.tables

    # ---- lifecycle --------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen. After this, `port` is the port bound (useful with port 0). Raises OSError if
        the address is taken."""
        if self.store is not None and not self.store.run:
            self.lobby.begin_store()
        self._server = await asyncio.start_server(
            self._accept, self.config.bind, self.config.port, reuse_address=True, limit=self.limits.max_frame
        )
        log.info("listening on %s", ", ".join(f"{a}:{p}" for a, p in self.addresses()))
        if self.store is not None:
            self.store.listening(self.port)
        if self.config.discovery_port is not None:
            await self._start_discovery(self.config.discovery_port)

    async def _start_discovery(self, port: int) -> None:
        from net.discovery_udp import start_responder

        try:
            self._discovery, _ = await start_responder(lambda: described(self), self.config.bind, port)
        except OSError as exc:  # the host still works; players type its address
            log.warning("not answering LAN discovery on UDP port %d: %s", port, exc)
            return
        log.info("answering LAN discovery on UDP %s:%d", *self._discovery.get_extra_info("sockname")[:2])

    @property
    def discovery_port(self) -> int | None:
        """The UDP port discovery probes are answered on (None: not answering)."""
        if self._discovery is None:
            return None
        return int(self._discovery.get_extra_info("sockname")[1])

    def addresses(self) -> list[tuple[str, int]]:
        return bound_addresses(self._server)

    @property
    def port(self) -> int:
        return bound_port(self._server, "the host")

    async def serve_forever(self) -> None:
        """Serve until cancelled; cancelling it closes every connection and table."""
        if self._server is None:
            await self.start()
        assert self._server is not None
        try:
            await self._server.serve_forever()
        finally:
            await self.close()

    async def close(self) -> None:
        """Say goodbye to every client and stop. Safe to call twice."""
        if self._server is not None:
            self._server.close()
        if self._discovery is not None:
            self._discovery.close()
            self._discovery = None
        for s in list(self.sessions.values()):
            s.conn.close(ErrorCode.SHUTDOWN, "the host is shutting down")
        for table in self.tables.values():
            table.close()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=2.0)
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        self.bots.close()
        if self.store is not None:
            await self.store.close()

    def serve_streams(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> asyncio.Task[None]:
        """Serve one connection given as streams, as the listening socket's are (tests give
        in-memory ones, for the host's logic without the sockets' cost)."""
        return asyncio.get_running_loop().create_task(self._accept(reader, writer))

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(
            reader,
            writer,
            self.limits,
            self._handle,
            incoming=CLIENT_FRAMES,
            requests=REQUESTS,
            rate_limited=True,
            handshake_timeout=self.limits.hello_timeout,
            clock=self.conn_clock,
        )
        peer = writer.get_extra_info("peername")
        session = HostSession(
            conn, address_key(str(peer[0]) if isinstance(peer, tuple) else str(peer)), conn.clock.now()
        )
        if self._make_room(session.address):
            log.info("%s: connected", conn.peer)
            self.sessions[conn] = session
            conn.on_close = self._closed
            conn.exempt = lambda frame: self._answers_a_decision(session, frame)
        else:
            log.info("%s: connection refused: the host is full", conn.peer)
            conn.close(ErrorCode.HOST_FULL, "the host has no room for another connection")
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await conn.run()
        finally:
            if task is not None:
                self._tasks.discard(task)

    def _unseated(self) -> list[HostSession]:
        return [s for s in self.sessions.values() if s.member is None and not s.conn.closing]

    def _make_room(self, address: str) -> bool:
        """Room for a new connection from `address`, made by closing others if need be: the
        oldest of this address's connections that have not said `hello` past
        `pending_per_address`; when the host holds `max_connections` without a seat, the least
        useful one of the address holding most (see `HostSession.rank`). A seated connection is
        never closed for a newcomer, so a seat token always gets back in."""
        lim = self.limits
        unseated = self._unseated()
        pending = [s for s in unseated if s.address == address and not s.conn.greeted]
        if len(pending) >= lim.pending_per_address:
            oldest = min(pending, key=lambda s: s.opened)
            oldest.conn.close(ErrorCode.HOST_FULL, "newer connections from your address are waiting to say hello")
            unseated.remove(oldest)
        if len(unseated) < lim.max_connections:
            return True
        if not unseated:
            return False
        per_address: dict[str, int] = {}
        for s in unseated:
            per_address[s.address] = per_address.get(s.address, 0) + 1
        victim = min(unseated, key=lambda s: (-per_address[s.address], s.rank, s.opened))
        log.info("host full: closing a connection from %s to make room", victim.address)
        victim.conn.close(ErrorCode.HOST_FULL, "the host is full; the newest connection needed room")
        return True

    def _answers_a_decision(self, s: HostSession, frame: ClientFrame) -> bool:
        """A choice for one of the seat's open decisions: it comes at the game's pace, so it never
        counts against the rate limit."""
        member = s.member
        return (
            isinstance(frame, Choose) and member is not None and any(w == frame.id for w, _ in member.stream.decisions)
        )

    def _place(self, s: HostSession) -> None:
        """Start or stop the lobby clock: a connection with no seat that watches nothing is
        closed after `lobby_timeout` seconds."""
        if s.member is None and s.watching is None:
            if s.conn.wait_until is None:
                minutes = self.limits.lobby_timeout / 60
                s.conn.wait_until = s.conn.clock.now() + self.limits.lobby_timeout
                s.conn.wait_reason = f"you did not sit at or watch a table in {minutes:g} minutes"
        else:
            s.conn.wait_until = None

    def _closed(self, conn: Connection) -> None:
        s = self.sessions.pop(conn, None)
        if s is None:
            return
        why = conn.close_code
        log.info(
            "%s: %s disconnected (%s)",
            conn.peer,
            s.name or "a connection not yet greeted",
            why.value if why is not None else "closed by the client or the network",
        )
        if s.member is not None and s.member.conn is conn:
            s.member.table.disconnected(s.member)
        if s.watching is not None and s.watching_table is not None:
            s.watching_table.unwatch(s.watching)

    # ---- frames -----------------------------------------------------------------------------

    def _handle(self, conn: Connection, frame: ClientFrame) -> None:
        s = self.sessions.get(conn)
        if s is None:
            return
        if isinstance(frame, Hello):
            if conn.greeted:
                conn.protocol_error(ErrorCode.UNEXPECTED, "already greeted")
            else:
                self._hello(s, frame)
            return
        if not isinstance(frame, REQUEST_TYPES):
            return  # pings and pongs are the connection's own
        try:
            self.lobby.request(s, frame)
        finally:
            self._place(s)

    def _hello(self, s: HostSession, msg: Hello) -> None:
        conn = s.conn
        member = self.lobby.tokens.get(msg.token) if msg.token is not None else None
        refused = self._refusal(s, msg, member)
        if refused is not None:
            conn.close(*refused)
            return
        s.name = clean_name(msg.name) if member is None else member.name
        conn.name = s.name
        conn.greeted = True
        log.info(
            "%s: %s says hello%s",
            conn.peer,
            s.name,
            f" with the token of seat {member.seat} at table {member.table.id}" if member is not None else "",
        )
        conn.send(
            {
                "t": "welcome",
                "v": PROTOCOL_VERSION,
                "rules": RULES_HASH,
                "host": self.name,
                "name": s.name,
                "resumed": member is not None,
            }
        )
        table = self.tables.get(msg.table) if msg.table is not None else None
        if member is not None:
            self._take_over(s, member, msg.last_seq)
        elif table is not None and msg.watch:
            self.lobby.watch(s, table)
        elif table is not None:
            s.member = table.sit(conn, s.name)
        else:
            conn.send(self.lobby.frame(s.address))
        self._place(s)

    def _refusal(self, s: HostSession, msg: Hello, member: Member | None) -> tuple[ErrorCode, str] | None:
        """Why this `hello` is refused, in docs/protocol.md's order (None: it is welcome)."""
        if msg.v != PROTOCOL_VERSION:
            return ErrorCode.VERSION_MISMATCH, f"this host speaks protocol {PROTOCOL_VERSION}, not {msg.v}"
        if msg.rules != RULES_HASH:
            return ErrorCode.RULES_MISMATCH, f"this host plays other card data (rules {RULES_HASH})"
        password = self.config.password
        if password is not None and not hmac.compare_digest((msg.password or "").encode(), password.encode()):
            return ErrorCode.BAD_PASSWORD, "wrong password" if msg.password else "this host needs a password"
        if msg.token is not None:
            if member is None:
                return ErrorCode.BAD_TOKEN, "that seat is no longer held for you (the game may have ended)"
            return None
        if msg.table is not None:
            table = self.tables.get(msg.table)
            if table is None:
                return ErrorCode.NO_SUCH_TABLE, f"there is no table {msg.table}"
            if not msg.watch:
                try:
                    table.seat_for()
                except NetError as exc:
                    return exc.code, exc.text
        sits = msg.table is not None and not msg.watch
        crowd = sum(1 for x in self._unseated() if x.address == s.address and x.conn.greeted)
        if not sits and crowd >= self.limits.per_address:
            return ErrorCode.HOST_FULL, f"{crowd} connections from your address already hold no seat"
        return None

    def _take_over(self, s: HostSession, member: Member, last_seq: int | None) -> None:
        """A person back with their seat token: a connection still holding the seat is replaced."""
        old = member.conn
        if old is not None and old is not s.conn:
            old_session = next((x for x in self.sessions.values() if x.conn is old), None)
            if old_session is not None:
                old_session.member = None
            if isinstance(old, Connection):  # a table's recipients are this host's connections
                old.close(ErrorCode.REPLACED, "you joined from another connection")
        s.member = member
        member.table.resume(member, s.conn, last_seq)


# ---- running a host -----------------------------------------------------------------------


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses others on the LAN may reach (best effort, no traffic sent)."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if not addr.startswith("127.") and addr not in found:
                found.append(addr)
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only, nothing is sent
            addr = str(probe.getsockname()[0])
            if not addr.startswith("127.") and addr not in found:
                found.insert(0, addr)
    except OSError:
        pass
    return found


def reachable(addresses: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """(address, port) by which others reach a server bound to `addresses` (`bound_addresses`):
    a wildcard (0.0.0.0, ::) stands for each of this machine's LAN addresses (127.0.0.1 if none)."""
    out: list[tuple[str, int]] = []
    for addr, port in addresses:
        names = (lan_addresses() or ["127.0.0.1"]) if addr in ("0.0.0.0", "::") else [addr]
        out += [(name, port) for name in names if (name, port) not in out]
    return out


def share_lines(host: Host) -> list[str]:
    """The `pigeon-tui join ADDRESS:PORT` lines to give to other players."""
    return [f"pigeon-tui join {addr}:{port}" for addr, port in reachable(host.addresses())]


async def serve(config: HostConfig, ready: Callable[[Host], None] | None = None) -> None:
    """Run a host until cancelled; `ready` is called once it listens."""
    host = Host(config)
    await host.start()
    if ready is not None:
        ready(host)
    for table in list(host.tables.values()):
        try:
            warm_up(table)  # while no one is in: a private game's player joins as soon as it is ready
        except Exception:  # only a head start: the host serves on, and the real deal says what fails
            log.exception("table %d: the warm-up deal failed", table.id)
    await host.serve_forever()


async def run(config: HostConfig, *, ready_line: bool = False, exit_with_stdin: bool = False) -> None:
    """What `pigeon-tui host` runs: serve until cancelled (Ctrl-C), or until stdin closes.

    Prints the `pigeon-tui join` lines to share, then (with `ready_line`) the ready line of
    `net.spawn`, last, so that whoever waits for it has the lines before it.
    """

    def ready(host: Host) -> None:
        for line in share_lines(host):
            print(line, flush=True)
        if all(addr.startswith("127.") or addr == "::1" for addr, _ in host.addresses()):
            print("only this machine can join (bound to loopback; --bind 0.0.0.0 lets the LAN in)", flush=True)
        if host.discovery_port is not None:
            print(f"answering LAN discovery on UDP port {host.discovery_port}", flush=True)
        if ready_line:
            for addr, port in host.addresses()[:1]:
                print(f"{READY_LINE} {addr} {port}", flush=True)

    serving = asyncio.create_task(serve(config, ready), name="host")
    if not exit_with_stdin:
        await serving
        return
    stdin_closed = asyncio.create_task(asyncio.to_thread(_read_until_eof), name="stdin")
    try:
        done, _ = await asyncio.wait({serving, stdin_closed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        serving.cancel()
        try:
            await serving
        except asyncio.CancelledError:
            pass
    if serving in done and not serving.cancelled() and serving.exception() is not None:
        raise serving.exception()  # type: ignore[misc]


def _read_until_eof() -> None:
    import sys

    while sys.stdin.buffer.read(4096):
        pass


def bound_addresses(server: Any) -> list[tuple[str, int]]:
    """(address, port) of every socket a listening server (asyncio or asyncssh) is bound to."""
    if server is None:
        return []
    return [(str(a[0]), int(a[1])) for a in (sock.getsockname() for sock in server.sockets)]


def bound_port(server: Any, what: str) -> int:
    """The port a listening server is bound to (with port 0: the one the system picked)."""
    addrs = bound_addresses(server)
    if not addrs:
        raise RuntimeError(f"{what} is not listening")
    return addrs[0][1]


def described(host: Host) -> Game:
    """A host as LAN discovery announces it."""
    tables = list(host.tables.values())
    return Game(
        host=host.name,
        port=host.port,
        protocol=PROTOCOL_VERSION,
        password=host.config.password is not None,
        tables=len(tables),
        free=sum(len(t.free_seats()) for t in tables),
        listed=tuple(TableSummary(t.id, t.name, t.phase.value, len(t.seats), len(t.free_seats())) for t in tables),
    )
