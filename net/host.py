"""The headless host: accepts connections, runs the handshake and the lobby, and hands each
seated player to their table. It is the only authority; it never imports a UI.

`Host` is the server object; `serve` runs one from a `HostConfig` until cancelled.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import socket
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Final, Mapping

from core.bots import LEVELS
from core.cards import Edition
from net.bots import BotPool
from net.clock import Clock
from net.connection import Connection
from net.discovery import Game, TableSummary
from net.errors import ErrorCode, NetError
from net.limits import NAME_MAX, TABLES_MAX, Limits
from net.messages import (
    CLIENT_FRAMES,
    PROTOCOL_VERSION,
    REQUESTS,
    RULES_HASH,
    Choose,
    Create,
    Hello,
    Here,
    Join,
    Leave,
    Rematch,
    Say,
    Start,
    Sync,
    Watch,
)
from net.peers import address_key
from net.sanitize import clean, clean_name
from net.spawn import READY_LINE
from net.table import Member, Phase, Table, TableConfig, Watcher

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


@dataclass(eq=False, slots=True)
class Session:
    """One connection as the host sees it: who it is and where it sits or watches."""

    conn: Connection
    address: str
    """Where it comes from, as connections are counted (`net.peers.address_key`)."""
    opened: float
    """`time.monotonic()` when it was accepted."""
    name: str = ""
    member: Member | None = None
    watching: Watcher | None = None
    watching_table: Table | None = None

    @property
    def rank(self) -> int:
        """Which connections make room first when the host is full: those that have not said
        `hello` (0), then those in the lobby (1), then spectators (2). Seated ones never do."""
        if not self.conn.greeted:
            return 0
        return 1 if self.watching is None else 2


class Host:
    """A host: the lobby, its tables, and every connection."""

    def __init__(self, config: HostConfig, *, clock: Clock | None = None) -> None:
        if not 1 <= config.tables <= TABLES_MAX:
            raise ValueError(f"a host has 1 to {TABLES_MAX} tables")
        self.config = config
        self.limits = config.limits
        self.name = clean(config.name, NAME_MAX) or "pigeon_tui"
        """The host's name as clients see it."""
        self.bots = BotPool(config.bot_processes)
        self.clock = clock
        """The tables' clock (None: the event loop's); tests move a fake one by hand."""
        self.tables: dict[int, Table] = {}
        self.sessions: dict[Connection, Session] = {}
        self.tokens: dict[str, Member] = {}
        self.created: dict[int, str] = {}
        """Tables players opened (`create`), by id: the address of the one who opened it."""
        self._next_table = 1
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._lobby_soon = False
        self._discovery: asyncio.DatagramTransport | None = None
        self.on_ready: Callable[[Host], None] | None = None
        self.open_table(config.table, persistent=True)

    # ---- lifecycle --------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen. After this, `port` is the port bound (useful with port 0). Raises OSError if
        the address is taken."""
        self._server = await asyncio.start_server(
            self._accept, self.config.bind, self.config.port, reuse_address=True, limit=self.limits.max_frame
        )
        log.info("listening on %s", ", ".join(f"{a}:{p}" for a, p in self.addresses()))
        if self.config.discovery_port is not None:
            await self._start_discovery(self.config.discovery_port)

    async def _start_discovery(self, port: int) -> None:
        from net.discovery_udp import start_responder

        try:
            self._discovery, _ = await start_responder(self.describe, self.config.bind, port)
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

    def describe(self) -> Game:
        """This host as LAN discovery announces it."""
        tables = list(self.tables.values())
        return Game(
            host=self.name,
            port=self.port,
            protocol=PROTOCOL_VERSION,
            password=self.config.password is not None,
            tables=len(tables),
            free=sum(len(t.free_seats()) for t in tables),
            listed=tuple(TableSummary(t.id, t.name, t.phase.value, len(t.seats), len(t.free_seats())) for t in tables),
        )

    def addresses(self) -> list[tuple[str, int]]:
        return bound_addresses(self._server)

    @property
    def port(self) -> int:
        addrs = self.addresses()
        if not addrs:
            raise RuntimeError("the host is not listening")
        return addrs[0][1]

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
        )
        peer = writer.get_extra_info("peername")
        session = Session(conn, address_key(str(peer[0]) if isinstance(peer, tuple) else str(peer)), time.monotonic())
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

    def _unseated(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.member is None and not s.conn.closing]

    def _make_room(self, address: str) -> bool:
        """Room for a new connection from `address`, made by closing others if need be: the
        oldest of this address's connections that have not said `hello` past
        `pending_per_address`; when the host holds `max_connections` without a seat, the least
        useful one of the address holding most (see `Session.rank`). A seated connection is
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

    def _answers_a_decision(self, s: Session, frame: Any) -> bool:
        """A choice for one of the seat's open decisions: it comes at the game's pace, so it never
        counts against the rate limit."""
        member = s.member
        return (
            isinstance(frame, Choose) and member is not None and any(w == frame.id for w, _ in member.stream.decisions)
        )

    def _place(self, s: Session) -> None:
        """Start or stop the lobby clock: a connection with no seat that watches nothing is
        closed after `lobby_timeout` seconds."""
        if s.member is None and s.watching is None:
            if s.conn.wait_until is None:
                minutes = self.limits.lobby_timeout / 60
                s.conn.wait_until = time.monotonic() + self.limits.lobby_timeout
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

    # ---- tables -----------------------------------------------------------------------------

    def open_table(self, config: TableConfig, persistent: bool = False) -> Table:
        tid = self._next_table
        self._next_table += 1
        table = Table(tid, config, self.bots, self._table_changed, persistent, clock=self.clock)
        self.tables[tid] = table
        self._table_changed(table)
        return table

    def _table_changed(self, table: Table) -> None:
        members = set(table.members)
        for token, m in list(self.tokens.items()):
            if m.table is table and (table.closed or m not in members):
                del self.tokens[token]
        for m in members:
            if m.token is not None:
                self.tokens[m.token] = m
        if table.closed:
            self.tables.pop(table.id, None)
            self.created.pop(table.id, None)
        if not self._lobby_soon:
            self._lobby_soon = True
            try:
                asyncio.get_running_loop().call_soon(self._send_lobby)
            except RuntimeError:
                self._lobby_soon = False  # no loop yet (the host's own table, at construction)

    def lobby_frame(self) -> dict[str, Any]:
        return {
            "t": "lobby",
            "host": self.name,
            "tables": [t.info() for t in self.tables.values()],
            "can_create": len(self.tables) < self.config.tables,
            "levels": list(LEVELS),
        }

    def _send_lobby(self) -> None:
        self._lobby_soon = False
        frame = self.lobby_frame()
        for s in self.sessions.values():
            if s.conn.greeted and s.member is None and s.watching is None:
                s.conn.send(frame)

    # ---- frames -----------------------------------------------------------------------------

    def _handle(self, conn: Connection, frame: Any) -> None:
        s = self.sessions.get(conn)
        if s is None:
            return
        if isinstance(frame, Hello):
            if conn.greeted:
                conn.protocol_error(ErrorCode.UNEXPECTED, "already greeted")
            else:
                self._hello(s, frame)
            return
        do = _REQUESTS.get(type(frame))
        if do is None:
            return
        try:
            answered = do(self, s, frame)
        except NetError as exc:
            conn.send({"t": "result", "aid": frame.aid, "ok": False, "code": exc.code.value, "text": exc.text})
            if isinstance(frame, Choose) and exc.code in (ErrorCode.STALE_DECISION, ErrorCode.NOT_YOUR_DECISION):
                self._resync(s)
            return
        finally:
            self._place(s)
        if not answered:
            conn.send({"t": "result", "aid": frame.aid, "ok": True})

    def _hello(self, s: Session, msg: Hello) -> None:
        conn = s.conn
        if msg.v != PROTOCOL_VERSION:
            conn.close(ErrorCode.VERSION_MISMATCH, f"this host speaks protocol {PROTOCOL_VERSION}, not {msg.v}")
            return
        if msg.rules != RULES_HASH:
            conn.close(ErrorCode.RULES_MISMATCH, f"this host plays other card data (rules {RULES_HASH})")
            return
        password = self.config.password
        if password is not None and not hmac.compare_digest((msg.password or "").encode(), password.encode()):
            conn.close(ErrorCode.BAD_PASSWORD, "wrong password" if msg.password else "this host needs a password")
            return
        member = self.tokens.get(msg.token) if msg.token is not None else None
        if msg.token is not None and member is None:
            conn.close(ErrorCode.BAD_TOKEN, "that seat is no longer held for you (the game may have ended)")
            return
        s.name = clean_name(msg.name) if member is None else member.name
        conn.name = s.name
        table = self.tables.get(msg.table) if msg.table is not None else None
        if member is None:
            if msg.table is not None:
                if table is None:
                    conn.close(ErrorCode.NO_SUCH_TABLE, f"there is no table {msg.table}")
                    return
                if not msg.watch and table.phase is not Phase.WAITING:
                    conn.close(ErrorCode.WRONG_PHASE, f"{table.name} is already playing; you may watch it")
                    return
                if not msg.watch and not table.free_seats():
                    conn.close(ErrorCode.TABLE_FULL, f"{table.name} has no free seat")
                    return
            sits = table is not None and not msg.watch
            crowd = sum(1 for x in self._unseated() if x.address == s.address and x.conn.greeted)
            if not sits and crowd >= self.limits.per_address:
                conn.close(ErrorCode.HOST_FULL, f"{crowd} connections from your address already hold no seat")
                return
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
        if member is not None:
            old = member.conn
            if old is not None and old is not conn:
                old_session = next((x for x in self.sessions.values() if x.conn is old), None)
                if old_session is not None:
                    old_session.member = None
                if isinstance(old, Connection):  # a table's recipients are this host's connections
                    old.close(ErrorCode.REPLACED, "you joined from another connection")
            s.member = member
            member.table.resume(member, conn, msg.last_seq)
        elif table is not None:
            if msg.watch:
                self._watch(s, table)
            else:
                s.member = table.sit(conn, s.name)
        else:
            conn.send(self.lobby_frame())
        self._place(s)

    def _resync(self, s: Session) -> None:
        """After a stale choice: the seat's view and decisions now (its log is up to date)."""
        m = s.member
        if m is not None and m.table.phase is not Phase.WAITING:
            m.table.snapshot(m.stream, s.conn, m.seat, m.stream.seq)

    def _leave_current(self, s: Session) -> None:
        if s.member is not None:
            s.member.table.leave(s.member)
            s.member = None
        if s.watching is not None and s.watching_table is not None:
            s.watching_table.unwatch(s.watching)
        s.watching = s.watching_table = None

    def _watch(self, s: Session, table: Table) -> None:
        s.watching = table.watch(s.conn)
        s.watching_table = table

    def _table(self, tid: int) -> Table:
        table = self.tables.get(tid)
        if table is None:
            raise NetError(ErrorCode.NO_SUCH_TABLE, f"there is no table {tid}")
        return table

    def _seated(self, s: Session) -> Member:
        if s.member is None:
            raise NetError(ErrorCode.NOT_SEATED, "you are not seated at a table")
        return s.member

    # Requests: each returns normally (ok) or raises NetError (refused, with the reason); one
    # that returns True sends its own `result` later.

    def _do_join(self, s: Session, msg: Join) -> None:
        table = self._table(msg.table)
        if s.member is not None and s.member.table is table:
            raise NetError(ErrorCode.NOT_ALLOWED, "you are already seated here")
        if table.phase is not Phase.WAITING:
            raise NetError(ErrorCode.WRONG_PHASE, f"{table.name} is already playing; you may watch it")
        seat = msg.seat
        if seat is not None and seat >= len(table.seats):
            raise NetError(ErrorCode.BAD_FIELD, f"{table.name} has seats 0 to {len(table.seats) - 1}")
        free = table.free_seats()
        if not free:
            raise NetError(ErrorCode.TABLE_FULL, f"{table.name} has no free seat")
        if seat is not None and seat not in free:
            raise NetError(ErrorCode.TABLE_FULL, f"seat {seat} of {table.name} is taken")
        self._leave_current(s)
        s.member = table.sit(s.conn, s.name, seat)

    def _do_watch(self, s: Session, msg: Watch) -> None:
        table = self._table(msg.table)
        self._leave_current(s)
        self._watch(s, table)

    def _do_create(self, s: Session, msg: Create) -> None:
        if len(self.tables) >= self.config.tables:
            raise NetError(ErrorCode.NOT_ALLOWED, f"this host allows {self.config.tables} table(s) at once")
        mine = sum(1 for address in self.created.values() if address == s.address)
        if mine >= self.limits.tables_per_address:
            raise NetError(ErrorCode.NOT_ALLOWED, f"{mine} tables opened from your address are still open")
        base = self.config.table
        seats = base.seats if msg.seats is None else msg.seats
        bots = base.bots if msg.bots is None else msg.bots
        level = msg.level or base.bot_level
        edition = msg.edition or base.edition
        if not bots < seats:
            raise NetError(ErrorCode.BAD_FIELD, f"`create.bots` must leave a seat for you (0 to {seats - 1})")
        levels = tuple(lv.strip() for lv in level.split(",") if lv.strip()) or (base.bot_level,)
        unknown = [lv for lv in levels if lv not in LEVELS]
        if unknown:
            raise NetError(
                ErrorCode.BAD_FIELD,
                f"`create.level` must be one of {', '.join(LEVELS)}, or one per bot seat separated by commas"
                f" (not {unknown[0]!r})",
            )
        if edition not in [e.value for e in Edition]:
            raise NetError(
                ErrorCode.BAD_FIELD, f"`create.edition` must be one of {', '.join(e.value for e in Edition)}"
            )
        config = TableConfig(
            seats=seats,
            bots=bots,
            bot_level=levels[0],
            bot_levels=levels if len(levels) > 1 else (),
            edition=edition,
            seed=None if base.seed is None else base.seed + self._next_table,
            reaction_window=base.reaction_window,
            reaction_limit=base.reaction_limit,
            turn_limit=base.turn_limit,
            away_grace=base.away_grace,
            bot_delay=base.bot_delay,
            name=f"{s.name}'s table",
        )
        self._leave_current(s)
        table = self.open_table(config)
        self.created[table.id] = s.address
        s.member = table.sit(s.conn, s.name)

    def _do_leave(self, s: Session, msg: Leave) -> None:
        if s.member is None and s.watching is None:
            raise NetError(ErrorCode.NOT_SEATED, "you are in the lobby already")
        self._leave_current(s)
        s.conn.send(self.lobby_frame())

    def _do_start(self, s: Session, msg: Start) -> None:
        member = self._seated(s)
        member.table.start(member)

    def _do_rematch(self, s: Session, msg: Rematch) -> None:
        member = self._seated(s)
        member.table.rematch(member)

    def _do_choose(self, s: Session, msg: Choose) -> bool:
        member = self._seated(s)
        member.table.choose(member, msg.id, msg.option, msg.aid)
        return True  # the table answers once the update carrying the choice's events went out

    def _do_sync(self, s: Session, msg: Sync) -> None:
        if s.member is not None:
            member = s.member
            if member.table.phase is Phase.WAITING:
                raise NetError(ErrorCode.WRONG_PHASE, "no game yet")
            member.table.snapshot(member.stream, s.conn, member.seat, msg.seq)
        elif s.watching is not None and s.watching_table is not None:
            s.watching_table.snapshot(s.watching.stream, s.conn, None, msg.seq)
        else:
            s.conn.send(self.lobby_frame())

    def _do_here(self, s: Session, msg: Here) -> None:
        member = self._seated(s)
        member.table.here(member)

    def _do_say(self, s: Session, msg: Say) -> None:
        if s.member is not None:
            s.member.table.say(s.name, s.member.seat, msg.text)
        elif s.watching_table is not None:
            s.watching_table.say(s.name, None, msg.text)
        else:
            raise NetError(ErrorCode.NOT_SEATED, "the lobby has no chat: sit at or watch a table")


_REQUESTS: Final[Mapping[type, Callable[[Host, Session, Any], bool | None]]] = {
    Join: Host._do_join,
    Watch: Host._do_watch,
    Create: Host._do_create,
    Leave: Host._do_leave,
    Start: Host._do_start,
    Rematch: Host._do_rematch,
    Choose: Host._do_choose,
    Sync: Host._do_sync,
    Here: Host._do_here,
    Say: Host._do_say,
}
"""Each request's handler: it returns (the result is ok; True: it sends the result itself, later)
or raises NetError (the refusal)."""


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
