"""Test helpers: a host on 127.0.0.1 port 0, a raw frame-level client, and random players."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from core.decisions import BACK, PASS, REACTIONS, Decision
from net.client import Client
from net.clock import Clock, LoopFakeClock
from net.frames import FrameDecoder, Message, encode
from net.host import Host, HostConfig
from net.limits import Limits
from net.messages import HOST_TYPES, hello, parse_host
from net.table import Frame, Outbox, Recipient, Table, TableConfig

FAST = Limits(ping_interval=0.5, idle_timeout=5.0, hello_timeout=2.0, partial_frame_timeout=2.0, send_timeout=2.0)
"""Limits for tests: quick pings and timeouts (no test depends on how fast anything is)."""

CARD_ID = re.compile(r"\b[AF]\d\d\b")


def table_config(**kw: Any) -> TableConfig:
    base: dict[str, Any] = dict(seats=4, bots=2, seed=7, reaction_window=0.0, reaction_limit=0.0, turn_limit=0.0)
    base.update(kw)
    return TableConfig(**base)


@asynccontextmanager
async def running_host(
    table: TableConfig | None = None,
    limits: Limits = FAST,
    clock: Clock | None = None,
    conn_clock: Clock | None = None,
    **kw: Any,
) -> AsyncIterator[Host]:
    """A host on a free port (of 127.0.0.1 unless `bind` says otherwise); with a `clock` (a
    `LoopFakeClock`), its tables' time moves only when the test moves it; with a `conn_clock`,
    its connections' (timeouts, pings)."""
    kw.setdefault("bind", "127.0.0.1")
    config = HostConfig(port=0, table=table or table_config(), limits=limits, **kw)
    host = Host(config, clock=clock, conn_clock=conn_clock)
    await host.start()
    try:
        yield host
    finally:
        await host.close()


@asynccontextmanager
async def ticking(clock: LoopFakeClock, step: float) -> AsyncIterator[None]:
    """Move `clock` on by `step` seconds every millisecond while the block runs: for tests that
    wait on the host (a whole game) rather than move its clock themselves."""

    async def tick() -> None:
        while True:
            await asyncio.sleep(0.001)
            clock.advance(step)

    task = asyncio.create_task(tick())
    try:
        yield
    finally:
        task.cancel()


async def due(clock: LoopFakeClock, when: float, timeout: float = 10.0) -> None:
    """Wait until something is scheduled on `clock` at `when` (the host has armed that timer)."""
    async with asyncio.timeout(timeout):
        while when not in clock.pending():
            await asyncio.sleep(0.001)


class Tap(Outbox):
    """An outbox that notes every frame its table sends: when (on the table's clock), to whom,
    and what, in order; then sends it on as the table's own outbox would."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sent: list[tuple[float, Recipient, Frame]] = []

    def send(self, to: Recipient, frame: Frame) -> None:
        self.sent.append((self.table.clock.now(), to, frame))
        super().send(to, frame)

    @classmethod
    def on(cls, table: Table) -> Tap:
        """Put a tap on `table`'s outbox (before anyone sits at it)."""
        tap = cls(table)
        table.outbox = tap
        return tap


class _PipeEnd(asyncio.Transport):
    """One end of an in-memory connection: what it writes reaches the other end's protocol in
    order on the loop's next steps, as bytes through a socket would (never split, never
    buffered: nobody is slow); closing sends an end of stream first, as TCP does."""

    def __init__(self, name: tuple[str, int], peer: tuple[str, int]) -> None:
        super().__init__()
        self._loop = asyncio.get_running_loop()
        self._extra = {"sockname": name, "peername": peer}
        self.other: _PipeEnd = self
        self.protocol: asyncio.Protocol | None = None
        self._closing = self._lost = self._ended = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._extra.get(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        assert isinstance(protocol, asyncio.Protocol)
        self.protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        assert self.protocol is not None
        return self.protocol

    def is_closing(self) -> bool:
        return self._closing

    def is_reading(self) -> bool:
        return not self._lost

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0

    def can_write_eof(self) -> bool:
        return True

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if data and not self._closing and not self._ended:
            self._loop.call_soon(self.other._received, bytes(data))

    def write_eof(self) -> None:
        if not self._ended:
            self._ended = True
            self._loop.call_soon(self.other._end)

    def close(self) -> None:
        if not self._closing:
            self.write_eof()
            self._closing = True
            self._loop.call_soon(self._lose)

    def abort(self) -> None:
        self.close()

    def _received(self, data: bytes) -> None:
        if not self._closing and self.protocol is not None:
            self.protocol.data_received(data)

    def _end(self) -> None:
        if not self._closing and self.protocol is not None and not self.protocol.eof_received():
            self.close()

    def _lose(self) -> None:
        if not self._lost and self.protocol is not None:
            self._lost = True
            self.protocol.connection_lost(None)


_ports = itertools.count(40000)


def _streams(end: _PipeEnd, limit: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit, loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    end.set_protocol(protocol)
    protocol.connection_made(end)
    return reader, asyncio.StreamWriter(end, protocol, reader, loop)


def pipe_to(host: Host, local: str | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to `host` through memory instead of a socket (from `local`, 127.0.0.1 by
    default, as the host sees it): the client's streams; the host serves the other end as it
    serves an accepted socket."""
    ours = (local or "127.0.0.1", next(_ports))
    theirs = ("127.0.0.1", host.port)
    client, server = _PipeEnd(ours, theirs), _PipeEnd(theirs, ours)
    client.other, server.other = server, client
    host.serve_streams(*_streams(server, host.limits.max_frame))
    return _streams(client, 2**16)


class Raw:
    """A client that speaks frames directly, records all it receives, and can misbehave."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder(types=HOST_TYPES)
        self.frames: list[Message] = []
        self._unread: list[Message] = []
        self.eof = False

    @classmethod
    async def open(cls, port: int, local: str | None = None) -> Raw:
        """Connect to 127.0.0.1 (from `local`, another loopback address such as 127.0.0.2: on
        Linux all of 127.0.0.0/8 is this machine, so tests can come from many addresses)."""
        local_addr = (local, 0) if local is not None else None
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local_addr)
        return cls(reader, writer)

    @classmethod
    def pipe(cls, host: Host, local: str | None = None) -> Raw:
        """`open`, through memory (`pipe_to`): for tests of the host's logic over many connections."""
        return cls(*pipe_to(host, local))

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(encode(msg))

    def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)

    async def hello(self, name: str = "Raw", **kw: Any) -> Message:
        self.send(hello(name, **kw))
        return await self.recv("welcome", "bye")

    async def recv(self, *types: str, timeout: float = 10.0) -> Message:
        """The next frame of one of `types` (any frame if none given); answers pings meanwhile."""
        async with asyncio.timeout(timeout):
            while True:
                while self._unread:
                    msg = self._unread.pop(0)
                    if msg.get("t") == "ping":
                        self.send({"t": "pong", "n": msg["n"]})
                    if not types or msg.get("t") in types:
                        return msg
                data = await self.reader.read(65536)
                if not data:
                    self.eof = True
                    raise EOFError("the host closed the connection")
                for item in self.decoder.feed(data):
                    assert isinstance(item, dict), item
                    parse_host(item)  # every frame the host sends is one docs/protocol.md describes
                    self.frames.append(item)
                    self._unread.append(item)

    async def until_closed(self, timeout: float = 10.0) -> list[Message]:
        """Read until the host closes; the frames read on the way."""
        got: list[Message] = []
        try:
            while True:
                got.append(await self.recv(timeout=timeout))
        except EOFError:
            return got
        except ConnectionError:
            self.eof = True
            return got

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


def pick(decision: Decision, rng: random.Random) -> Any:
    values = [o.value for o in decision.options if o.value != BACK]
    return rng.choice(values)


async def play_raw(raw: Raw, rng: random.Random) -> Message:
    """Play randomly at the frame level until the game is over; returns the `over` frame."""
    aid = 0
    while True:
        msg = await raw.recv("update", "snapshot", "over", timeout=30.0)
        if msg["t"] == "over":
            return msg
        for d in msg["decisions"][:1]:
            decision = Decision.from_dict(d)
            aid += 1
            raw.send({"t": "choose", "id": decision.id, "option": _plain(pick(decision, rng)), "aid": aid})


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


async def play_client(client: Client, rng: random.Random, stop_after: int | None = None) -> int:
    """Answer the client's decisions at random until the game is over (or `stop_after` choices)."""
    made = 0
    answered: set[int] = set()
    updates = client.updates()
    while client.result is None:
        todo = [d for d in client.decisions if d.id not in answered]
        if todo:
            if stop_after is not None and made >= stop_after:
                return made
            d = todo[0]
            answered.add(d.id)
            outcome = await client.choose(d.id, pick(d, rng))
            assert outcome.ok or outcome.code in ("stale_decision", "disconnected"), outcome
            made += 1
            continue
        try:
            await anext(updates)
        except StopAsyncIteration:
            break
    return made


def strings(obj: Any) -> list[str]:
    """Every string inside a decoded frame."""
    out: list[str] = []
    todo = [obj]
    while todo:  # one list and a stack: the recursive form made a list at every node of every frame
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return out


def card_ids(obj: Any) -> set[str]:
    # One search over the strings joined by a line break (not a word character, so an id's
    # bounds are as in its own string) costs far less than one search a string.
    return set(CARD_ID.findall("\n".join(strings(obj))))


BOTH_ASKED = table_config(seats=3, bots=1, seed=5, reaction_window=0.003, blind_windows=True)
"""Two people and a bot, paced blind windows: `both_asked` soon finds a window asking both."""


async def both_asked(host: Host) -> tuple[Raw, Raw, list[Message], Message, Message]:
    """Seat Ada and Bob at table 1 and play them at random (passing reactions) until a window
    asks both at once. Returns both, their `seated` frames and the updates that asked them."""
    table = host.tables[1]
    raws = [await Raw.open(host.port), await Raw.open(host.port)]
    for raw, name in zip(raws, ("Ada", "Bob"), strict=True):
        await raw.hello(name, table=1)
    seated = [await raw.recv("seated") for raw in raws]
    seats = {s["seat"] for s in seated}
    rng = random.Random(3)

    async def one(raw: Raw) -> Message:
        while True:
            f = await raw.recv("update", timeout=30.0)
            if not f["decisions"]:
                continue
            d = Decision.from_dict(f["decisions"][0])
            if d.kind in REACTIONS:
                assert table.state is not None
                if seats <= {x.player for x in table.state.open if x.kind in REACTIONS}:
                    return f
                value: Any = PASS
            else:
                value = _plain(pick(d, rng))
            raw.send({"t": "choose", "id": d.id, "option": value})

    asked = list(await asyncio.gather(*(one(raw) for raw in raws)))
    return raws[0], raws[1], seated, asked[0], asked[1]
