"""Nobody locks a seated player out: idle and half-open connections by the hundred, from one
address or many, squatted tables, and a client fast enough to trip a naive rate limit."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from net.clock import LoopFakeClock
from net.host import Host, HostConfig
from net.limits import MAX_CONNECTIONS, PENDING_PER_ADDRESS, PER_ADDRESS, Limits
from net.lobby import HostSession
from net.table import Phase

from .helpers import Raw, due, play_raw, running_host, table_config

CROWD_LIMITS = Limits(
    ping_interval=5.0,
    idle_timeout=30.0,
    hello_timeout=30.0,
    max_connections=MAX_CONNECTIONS // 4,
    per_address=PER_ADDRESS // 4,
    pending_per_address=PENDING_PER_ADDRESS // 4,
)
"""The host's caps on connections without a seat, a quarter of the real ones (64 in all, 8 per
address, 2 not greeted yet per address): the same code turns the crowd away at each cap, for a
quarter of the connections (test_the_crowd_caps_are_the_real_ones_scaled_down pins the real ones)."""
HOSTILE = 80
"""Past every cap of CROWD_LIMITS, as 300 was past the real ones (hence the test's name)."""


class Idler:
    """A connection that says `hello` (or not) and then only answers pings."""

    def __init__(self, raw: Raw) -> None:
        self.raw = raw
        self.got: list[dict[str, Any]] = []
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            self.got = await self.raw.until_closed(timeout=120.0)
        except (TimeoutError, OSError):
            pass

    @property
    def bye(self) -> str | None:
        codes = [f["code"] for f in self.raw.frames if f["t"] == "bye"]
        return codes[0] if codes else None

    async def close(self) -> None:
        self.task.cancel()
        await self.raw.close()


async def _crowd(host: Host, n: int, addresses: list[str], say_hello: bool, sockets: bool) -> list[Idler]:
    """`n` connections from `addresses` in turn, through sockets or memory (`Raw.pipe`)."""
    port = host.port
    idlers: list[Idler] = []
    for start in range(0, n, 50):  # in waves, so the listen backlog never overflows
        wave = [addresses[i % len(addresses)] for i in range(start, min(n, start + 50))]
        if sockets:
            raws = await asyncio.gather(*(Raw.open(port, local=a) for a in wave))
        else:
            raws = [Raw.pipe(host, a) for a in wave]
        for raw in raws:
            if say_hello:
                raw.send({"t": "hello", "v": 1, "rules": _rules(), "name": "Idle"})
            idlers.append(Idler(raw))
        if sockets:
            await asyncio.sleep(0.05)
    # Each of them has been turned away or is held by the host (Ada is its one seated session).
    async with asyncio.timeout(30.0):
        while sum(i.task.done() for i in idlers) + len(_unseated(host)) < n:
            await asyncio.sleep(0.01)
    return idlers


def _unseated(host: Host) -> list[HostSession]:
    return [s for s in host.sessions.values() if s.member is None and not s.conn.closing]


def _rules() -> str:
    from net.messages import RULES_HASH

    return RULES_HASH


@pytest.mark.parametrize(
    ("say_hello", "spread", "sockets"),
    [(True, 1, False), (True, 30, True), (False, 1, False), (False, 30, False)],
    ids=["idle-same-address", "idle-30-addresses", "silent-same-address", "silent-30-addresses"],
)
async def test_a_seat_token_gets_back_in_past_300_hostile_connections(
    say_hello: bool, spread: int, sockets: bool
) -> None:
    """A crowd that holds slots as cheaply as it can (said hello and only answers pings, or never
    said hello), from the player's own address or from 30 others, past the caps on connections
    without a seat: the player who drops comes back with their token, gets their seat and
    finishes the game. The crowd is HOSTILE (80) against CROWD_LIMITS, a quarter of the host's
    caps; the name's 300 was the crowd against the real caps, and each case meets the same caps
    as then. What is tested is what the host makes of the crowd, so one case comes through
    sockets, the others through memory (`Raw.pipe`: the host serves them as accepted sockets).
    The connections' clock is the test's: the host pings each of the crowd once, when the test
    moves it a ping interval on."""
    limits = CROWD_LIMITS
    clock = LoopFakeClock()
    table = table_config(seats=2, bots=1, away_grace=60.0)
    async with running_host(table, limits=limits, conn_clock=clock) as host:
        ada = await Raw.open(host.port)
        await ada.hello("Ada", table=1)
        seated = await ada.recv("seated")
        await ada.recv("update")
        others = ["127.0.0.1"] if spread == 1 else [f"127.0.0.{i}" for i in range(2, 2 + spread)]
        crowd = await _crowd(host, HOSTILE, others, say_hello, sockets)
        try:
            unseated = _unseated(host)
            if say_hello:  # they answer pings, and the host holds them
                clock.advance(limits.ping_interval)
                async with asyncio.timeout(30.0):
                    while any(s.conn.latency is None for s in unseated):
                        await asyncio.sleep(0.01)
                assert _unseated(host) == unseated
            assert len(unseated) <= limits.max_connections
            per_address = max(sum(1 for s in unseated if s.address == a) for a in others)
            assert per_address <= (limits.per_address if say_hello else limits.pending_per_address)
            turned_away = sum(1 for i in crowd if i.bye == "host_full")
            assert turned_away >= HOSTILE - limits.max_connections, "past the caps, hostile connections are closed"

            await ada.close()
            back = await Raw.open(host.port)
            welcome = await back.hello("Ada", token=seated["token"])
            assert welcome["t"] == "welcome" and welcome["resumed"], welcome
            over = await play_raw(back, random.Random(3))
            assert any(f["t"] == "snapshot" and f["seat"] == seated["seat"] for f in back.frames)
            assert over["t"] == "over"
            me = host.tables[1].seats[seated["seat"]]
            assert me is not None and me.human and not me.away, "the seat stayed the person's"
            await back.close()
        finally:
            for idler in crowd:
                await idler.close()


def test_the_crowd_caps_are_the_real_ones_scaled_down() -> None:
    """What a host runs with unless told otherwise: 256 connections without a seat, 32 of them
    per address, 8 per address that have not said hello; the crowd test runs a quarter of each
    (its other limits are about pings and timeouts)."""
    real = HostConfig().limits
    assert (real.max_connections, real.per_address, real.pending_per_address) == (256, 32, 8)
    caps = ("max_connections", "per_address", "pending_per_address")
    assert all(getattr(CROWD_LIMITS, cap) * 4 == getattr(real, cap) for cap in caps)
    assert HOSTILE > CROWD_LIMITS.max_connections and HOSTILE > CROWD_LIMITS.per_address


async def test_connections_that_never_join_a_table_are_closed_in_time() -> None:
    """Silent connections go after `hello_timeout`; lobby ones after `lobby_timeout`, not
    before; a spectator and a seated player stay (on a clock the test moves)."""
    clock = LoopFakeClock()
    limits = Limits(ping_interval=5.0, idle_timeout=30.0, hello_timeout=0.5, lobby_timeout=1.0)
    async with running_host(table_config(seats=2, bots=1), limits=limits, conn_clock=clock) as host:
        lobby = await Raw.open(host.port)
        await lobby.hello("Loiterer")
        watcher = await Raw.open(host.port)
        await watcher.hello("Fan", table=1, watch=True)
        silent = await Raw.open(host.port)
        await due(clock, 0.5)  # the host has taken the silent one in and waits for its hello
        clock.advance(0.5)
        silent_got = await silent.until_closed()
        assert [(f["code"], f["text"]) for f in silent_got if f["t"] == "bye"] == [("timeout", "no `hello` in time")]
        assert [s.name for s in host.sessions.values() if not s.conn.closing] == ["Loiterer", "Fan"]
        clock.advance(0.5)
        lobby_got = await lobby.until_closed()
        assert [f["text"] for f in lobby_got if f["t"] == "bye"] == [
            "you did not sit at or watch a table in 0.0166667 minutes"
        ]
        watcher.send({"t": "say", "text": "still here", "aid": 1})
        assert (await watcher.recv("result"))["ok"]
        for raw in (silent, lobby, watcher):
            await raw.close()


async def test_tables_opened_from_one_address_are_capped() -> None:
    """Nobody holds every table slot: past `tables_per_address` open tables created from one
    address, `create` is refused there, while another address may still open one."""
    limits = Limits(ping_interval=0.5, idle_timeout=30.0, tables_per_address=2)
    async with running_host(table_config(seats=2, bots=0), limits=limits, tables=5) as host:
        raws = [await Raw.open(host.port) for _ in range(3)]
        codes = []
        for raw in raws:
            await raw.hello("Squatter")
            raw.send({"t": "create", "aid": 1})
            codes.append((await raw.recv("result")).get("code"))
        assert codes == [None, None, "not_allowed"]
        other = await Raw.open(host.port, local="127.0.0.2")
        await other.hello("Neighbour")
        other.send({"t": "create", "aid": 1})
        assert (await other.recv("result"))["ok"]
        for raw in (*raws, other):
            await raw.close()


async def test_a_client_answering_at_once_plays_a_whole_game_without_an_error() -> None:
    """A script that answers every decision the moment it arrives (bots without delay, pings
    every 20 ms to answer as well) sends far more than FRAMES_PER_SECOND, over four games, and
    never hears of the rate limit: answers to the host's own decisions and pongs do not count."""
    limits = Limits(ping_interval=0.02, idle_timeout=30.0)
    cfg = table_config(seats=2, bots=1, bot_delay=0.0)
    async with running_host(cfg, limits=limits) as host:
        raw = await Raw.open(host.port)
        await raw.hello("Quick", table=1)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        for game in range(4):
            if game:
                raw.send({"t": "rematch", "aid": 0})
            over = await play_raw(raw, random.Random(8 + game))
        elapsed = loop.time() - t0
        results = [f for f in raw.frames if f["t"] == "result"]
        sent = len(results) + sum(1 for f in raw.frames if f["t"] == "ping")
        assert over["t"] == "over" and host.tables[1].phase is Phase.OVER
        assert [f for f in raw.frames if f["t"] in ("error", "bye")] == []
        assert all(f["ok"] for f in results), [f for f in results if not f["ok"]][:3]
        assert sent > limits.frame_burst and sent / elapsed > limits.frames_per_second, (sent, elapsed)
        await raw.close()
