"""Hostile and broken clients never disturb a game in progress, and the host never crashes."""

from __future__ import annotations

import asyncio
import random
import socket

import msgpack

from net.clock import LoopFakeClock
from net.connection import Connection
from net.errors import ErrorCode
from net.frames import HEADER, encode
from net.host import Host
from net.limits import Limits
from net.messages import hello

from .helpers import Raw, due, play_raw, running_host, table_config


async def _game_with(host: Host, mischief: asyncio.Task[object]) -> None:
    """Two people play a whole game at table 1 while `mischief` runs."""
    a, b = await Raw.open(host.port), await Raw.open(host.port)
    await a.hello("Ada", table=1)
    await b.hello("Bob", table=1)
    overs = await asyncio.gather(play_raw(a, random.Random(1)), play_raw(b, random.Random(2)))
    assert overs[0]["winners"] == overs[1]["winners"]
    await mischief
    table = host.tables[1]
    assert table.state is not None and table.state.over
    assert table.record is not None and table.record.replay().to_dict() == table.state.to_dict()
    await a.close()
    await b.close()


async def test_a_thousand_garbage_frames_do_not_disturb_a_game() -> None:
    async with running_host(table_config(seats=4, bots=2)) as host:

        async def garbage() -> object:
            rng = random.Random(99)
            sent = 0
            disconnects = 0
            while sent < 1000:
                raw = await Raw.open(host.port)
                if rng.random() < 0.5:
                    await raw.hello("Mallory")
                try:
                    for _ in range(15):
                        body = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 120)))
                        if rng.random() < 0.3:
                            body = msgpack.packb({"t": rng.choice(["choose", "join", "zzz", "say"]), "id": body})
                        raw.send_bytes(HEADER.pack(len(body)) + body)
                        sent += 1
                    await raw.writer.drain()
                    await raw.until_closed(timeout=5.0)
                    disconnects += int(raw.eof)
                finally:
                    await raw.close()
            assert disconnects > 0, "a client that keeps misbehaving is disconnected"
            return sent

        await _game_with(host, asyncio.create_task(garbage()))


async def test_errors_are_reported_then_the_client_is_dropped() -> None:
    limits = Limits(ping_interval=0.5, idle_timeout=5.0, hello_timeout=2.0, max_errors=3)
    async with running_host(table_config(), limits=limits) as host:
        raw = await Raw.open(host.port)
        await raw.hello("Mallory")
        raw.send_bytes(HEADER.pack(1) + b"\xc1")
        raw.send({"t": "nonsense"})
        raw.send({"t": "join", "table": "one"})
        frames = await raw.until_closed()
        codes = [(f["t"], f.get("code")) for f in frames if f["t"] in ("error", "bye", "result")]
        assert codes == [
            ("error", "bad_frame"),
            ("error", "unknown_type"),
            ("result", "bad_field"),  # a request gets its result, even when it is malformed
            ("bye", "too_many_errors"),
        ]
        await raw.close()


async def test_oversize_frame_is_refused_and_the_connection_goes_on() -> None:
    async with running_host(table_config()) as host:
        raw = await Raw.open(host.port)
        await raw.hello("Big")
        raw.send_bytes(HEADER.pack(10_000_000) + b"\0" * 200_000)
        err = await raw.recv("error")
        assert err["code"] == "frame_too_big"
        raw.send_bytes(b"\0" * (10_000_000 - 200_000))
        raw.send({"t": "join", "table": 1, "aid": 5})
        result = await raw.recv("result")
        assert result == {"t": "result", "aid": 5, "ok": True}
        await raw.close()


async def test_slowloris_and_silent_clients_are_dropped() -> None:
    """A frame trickled a byte every 50 ms is dropped at the partial-frame limit (0.5 s from its
    first byte, whatever comes after), a connection that never says hello at the hello limit;
    on a clock the test moves, while two people play."""
    clock = LoopFakeClock()
    limits = Limits(ping_interval=0.2, idle_timeout=1.0, hello_timeout=0.5, partial_frame_timeout=0.5)
    async with running_host(table_config(), limits=limits, conn_clock=clock) as host:

        async def slow() -> object:
            silent = await Raw.open(host.port)  # never says hello
            await due(clock, 0.5)
            half = await Raw.open(host.port)
            await half.hello("Slow")
            conn = next(s.conn for s in host.sessions.values() if s.conn.name == "Slow")
            frame = encode({"t": "say", "text": "hi there"})
            half.send_bytes(frame[:5])  # then a byte every 50 ms: the frame is not whole in 0.5 s
            await _read_by(conn, 5)
            for n, byte in enumerate(frame[5:14], 6):
                clock.advance(0.05)
                half.send_bytes(bytes([byte]))
                await _read_by(conn, n)
            assert not any(s.conn.closing for s in host.sessions.values()), "closed before its limit"
            clock.advance(0.5 - clock.now())  # 0.5 s since the first byte (nine 0.05 s steps fall short)
            got_silent = await silent.until_closed()
            got_half = await half.until_closed()
            assert [f["code"] for f in got_silent if f["t"] == "bye"] == ["timeout"]
            assert [f["text"] for f in got_half if f["t"] == "bye"] == ["a frame took too long to arrive"]
            assert conn.close_code is ErrorCode.TIMEOUT
            await silent.close()
            await half.close()
            return None

        await _game_with(host, asyncio.create_task(slow()))


async def _read_by(conn: Connection, n: int) -> None:
    """Wait until the host holds `n` bytes of `conn`'s unfinished frame, or has closed it."""
    async with asyncio.timeout(10.0):
        while conn.decoder.buffered < n and not conn.closing:
            await asyncio.sleep(0.001)


async def test_a_client_that_never_reads_is_dropped_without_stalling_others() -> None:
    limits = Limits(ping_interval=0.5, idle_timeout=30.0, send_timeout=0.5, max_queued=64 * 1024)
    async with running_host(table_config(), limits=limits) as host:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", host.port))
        _, writer = await asyncio.open_connection(sock=sock)
        writer.write(encode(hello("Deaf")) + encode({"t": "watch", "table": 1}))
        await writer.drain()
        while not any(s.conn.name == "Deaf" for s in host.sessions.values()):
            await asyncio.sleep(0.01)
        deaf_conn = next(s.conn for s in host.sessions.values() if s.conn.name == "Deaf")
        # A small kernel buffer on the host's side stands for a slow network.
        deaf_conn.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)

        async def deaf() -> object:
            for _ in range(400):
                if deaf_conn.closing:
                    assert deaf_conn.close_code is not None and deaf_conn.close_code.value == "slow_reader"
                    return None
                writer.write(encode({"t": "sync", "seq": 0}))  # each answered by a snapshot never read
                await asyncio.sleep(0.05)
            raise AssertionError("the host kept a client that never reads")

        await _game_with(host, asyncio.create_task(deaf()))
        assert deaf_conn not in host.sessions
        writer.close()


async def test_host_full_makes_room_and_rate_limit() -> None:
    limits = Limits(ping_interval=0.5, idle_timeout=5.0, max_connections=2, frame_burst=5, frames_per_second=1.0)
    async with running_host(table_config(), limits=limits) as host:
        one, two = await Raw.open(host.port), await Raw.open(host.port)
        await one.hello("One")
        await two.hello("Two")
        three = await Raw.open(host.port)
        got = await one.until_closed()
        assert [f["code"] for f in got if f["t"] == "bye"] == ["host_full"], "the oldest makes room"
        assert (await three.hello("Three"))["t"] == "welcome"
        for _ in range(8):
            two.send({"t": "sync"})
        codes: list[str | None] = []
        while len(codes) < 8:
            f = await two.recv("result")
            codes.append(f.get("code"))
        assert codes.count("rate_limited") == 4, codes  # a burst of 5, one of them taken by `hello`
        for r in (one, two, three):
            await r.close()
