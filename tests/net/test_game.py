"""Whole games over real sockets on 127.0.0.1: people and bots, drops, reconnections, refusals."""

from __future__ import annotations

import asyncio
import itertools
import random

from core.views import view
from net.client import Client, GameChanged, Refused, Status, StatusChanged, TableChanged
from net.clock import LoopFakeClock
from net.messages import PROTOCOL_VERSION
from net.table import Phase

from .helpers import Raw, Tap, play_client, play_raw, running_host, table_config, ticking


async def test_full_game_two_client_seats_two_bots() -> None:
    async with running_host(table_config(seats=4, bots=2)) as host:
        a = Client("127.0.0.1", host.port, "Ada", table=1)
        b = Client("127.0.0.1", host.port, "Bob", table=1)
        await a.connect()
        await b.connect()
        made = await asyncio.gather(play_client(a, random.Random(1)), play_client(b, random.Random(2)))
        table = host.tables[1]
        assert table.phase is Phase.OVER and table.state is not None and table.state.over
        assert min(made) > 0
        for c in (a, b):
            assert c.result is not None and c.view is not None and c.view.over
            assert c.seat is not None
            expected = view(table.state, c.seat)
            assert c.view.hand == expected.hand and c.view.zones == expected.zones
            assert list(c.result.winners) == c.view.winners()
        assert a.result is not None and b.result is not None and a.result.winners == b.result.winners
        assert {a.seat, b.seat} | {m.seat for m in table.members if not m.human} == {0, 1, 2, 3}
        replay = table.record.replay() if table.record is not None else None
        assert replay is not None and replay.to_dict() == table.state.to_dict()
        await a.close()
        await b.close()


async def test_paced_game_sends_every_seat_the_same_rhythm() -> None:
    """R5.7: with two people, every window goes to every seat as a frame of its own, with the
    board as it stood at the window, whoever may react: the sequence of frames is the same for
    both seats and a spectator (apart from the acknowledgement of a seat's own answer, which
    only it sees), and each window is shown for its minimum time (1.5 s on a clock the test
    moves, so a window passes in a few milliseconds)."""
    clock = LoopFakeClock()
    cfg = table_config(seats=4, bots=2, reaction_window=1.5, seed=3)
    async with running_host(cfg, clock=clock) as host, ticking(clock, 0.5):
        tap = Tap.on(host.tables[1])
        eve = await Raw.open(host.port)
        await eve.hello("Eve", table=1, watch=True)
        a, b = await Raw.open(host.port), await Raw.open(host.port)
        await a.hello("Ada", table=1)
        await b.hello("Bob", table=1)
        await asyncio.gather(play_raw(a, random.Random(5)), play_raw(b, random.Random(6)), eve.recv("over"))
        conn = {s.name: s.conn for s in host.sessions.values()}
        # An acknowledgement goes to one person alone, just before their result; every delivery
        # goes to both people, then to Eve.
        acks = {
            (id(to), f["seq"])
            for (_, to, f), (_, after, g) in zip(tap.sent, tap.sent[1:], strict=False)
            if f["t"] == "update" and g["t"] == "result" and after is to
        }

        def rhythm(raw: Raw, name: str) -> list[tuple[object, ...]]:
            return [
                (tuple(e["kind"] for e in f["events"]), (f["window"] or {}).get("kind"))
                for f in raw.frames
                if f["t"] == "update" and (id(conn[name]), f["seq"]) not in acks
            ]

        assert rhythm(a, "Ada") == rhythm(b, "Bob") == rhythm(eve, "Eve")
        windows = [f for f in a.frames if f["t"] == "update" and f["window"]]
        assert windows, "a whole game opens reaction windows"
        for f in windows:
            assert not f["events"] or f["window"] == {"kind": f["events"][-1]["zone"], "limit": None}
            assert f["window"] == {"kind": f["window"]["kind"], "limit": None}, "windows all look alike"
        for f in a.frames + b.frames:
            if f["t"] in ("update", "snapshot"):
                assert f["view"] is not None and f["view"]["decisions"] == f["decisions"]
        deliveries = [(t, f["window"] is not None) for t, to, f in tap.sent if to is conn["Eve"] and f["t"] == "update"]
        for (t0, was_window), (t1, _) in itertools.pairwise(deliveries):
            if was_window:
                assert t1 - t0 >= cfg.reaction_window, "a window is shown for its minimum time"
        for r in (a, b, eve):
            await r.close()


async def test_dropped_client_reconnects_with_its_token_and_finishes() -> None:
    async with running_host(table_config(seats=3, bots=1, away_grace=30.0)) as host:
        a = Client("127.0.0.1", host.port, "Ada", table=1)
        b = Client("127.0.0.1", host.port, "Bob", table=1)
        await a.connect()
        await b.connect()
        rng_b = random.Random(2)
        task_b = asyncio.create_task(play_client(b, rng_b))
        await play_client(a, random.Random(1), stop_after=3)
        token, seat, seq = a.token, a.seat, a.seq
        assert a._conn is not None
        a._conn.writer.transport.abort()  # the network drops
        statuses: list[Status] = []
        snapshot = False
        async for u in a.updates():
            if isinstance(u, StatusChanged):
                statuses.append(u.status)
            if isinstance(u, GameChanged) and u.snapshot:
                snapshot = True
                break
        assert statuses[:2] == [Status.RECONNECTING, Status.CONNECTED]
        assert snapshot and a.token == token and a.seat == seat and a.seq >= seq
        await play_client(a, random.Random(3))
        await task_b
        table = host.tables[1]
        assert table.state is not None and table.state.over
        me = table.seats[seat] if seat is not None else None
        assert me is not None and me.human and not me.away, "the seat stayed the person's"
        await a.close()
        await b.close()


async def test_second_connection_with_the_token_replaces_the_first() -> None:
    async with running_host(table_config(seats=2, bots=1)) as host:
        first = await Raw.open(host.port)
        await first.hello("Ada", table=1)
        seated = await first.recv("seated")
        await first.recv("update")
        second = await Raw.open(host.port)
        welcome = await second.hello("Whoever", token=seated["token"], last_seq=0)
        assert welcome["t"] == "welcome" and welcome["resumed"] and welcome["name"] == "Ada"
        snap = await second.recv("snapshot")
        assert snap["seat"] == seated["seat"] and snap["view"]["hand"]
        rest = await first.until_closed()
        assert any(f["t"] == "bye" and f["code"] == "replaced" for f in rest)
        await first.close()
        await second.close()


async def test_refusals_at_the_handshake() -> None:
    async with running_host(table_config(seats=2, bots=1), password="sesame") as host:

        async def bye(**kw: object) -> str:
            raw = await Raw.open(host.port)
            msg = kw.pop("raw_hello", None)
            if msg is not None:
                raw.send(msg)  # type: ignore[arg-type]
                got = await raw.recv("welcome", "bye")
            else:
                got = await raw.hello("X", **kw)
            await raw.close()
            assert got["t"] == "bye", got
            return str(got["code"])

        assert await bye(password="nope") == "bad_password"
        assert await bye() == "bad_password"
        assert await bye(password="sesame", token="0" * 32) == "bad_token"
        assert await bye(password="sesame", table=99) == "no_such_table"
        wrong_version = {"t": "hello", "v": PROTOCOL_VERSION + 1, "rules": "x", "name": "X"}
        assert await bye(raw_hello=wrong_version) == "version_mismatch"
        wrong_rules = {"t": "hello", "v": PROTOCOL_VERSION, "rules": "0123456789abcdef", "name": "X"}
        assert await bye(raw_hello=wrong_rules) == "rules_mismatch"
        c = Client("127.0.0.1", host.port, "Ada", password="sesame", table=1)
        await c.connect()  # takes the only free seat: the game starts
        try:
            await Client("127.0.0.1", host.port, "Bob", password="sesame", table=1, reconnect=False).connect()
        except Refused as exc:
            assert exc.code in ("table_full", "wrong_phase")
        else:
            raise AssertionError("a full table must refuse")
        await c.close()


async def test_client_sees_table_and_lobby() -> None:
    async with running_host(table_config(seats=3, bots=1), tables=3) as host:
        c = Client("127.0.0.1", host.port, "Ada")
        await c.connect()
        out = await c.create(seats=2, bots=1)
        assert out.ok, out
        seen_table = None
        async for u in c.updates():
            if isinstance(u, TableChanged):
                seen_table = u.table
            if isinstance(u, GameChanged):
                break
        assert seen_table is not None and seen_table.id != 1
        assert c.table_id == seen_table.id and c.view is not None and c.view.players == 2
        watcher = Client("127.0.0.1", host.port, "Eve", table=seen_table.id, watch=True)
        await watcher.connect()
        async for u in watcher.updates():
            if isinstance(u, GameChanged):
                assert u.view is not None and u.view.seat is None and u.view.hand == ()
                assert u.decisions == ()
                break
        await play_client(c, random.Random(1))
        assert (await c.rematch()).ok
        await watcher.close()
        await c.close()


async def test_a_seat_waits_for_its_player_before_the_game_too() -> None:
    """A person still waiting at the table keeps it open: a dropped person's seat waits the
    grace period for them (alone, they would leave it empty: see test_conformance_found)."""
    async with running_host(table_config(seats=4, bots=1, away_grace=30.0)) as host:
        stays = await Raw.open(host.port)
        await stays.hello("Cy", table=1)
        first = await Raw.open(host.port)
        await first.hello("Ada", table=1)
        seated = await first.recv("seated")
        await first.close()  # dropped while the table waits for players
        table = host.tables[1]
        while table.seats[seated["seat"]] is None or table.seats[seated["seat"]].conn is not None:
            await asyncio.sleep(0.01)
        again = await Raw.open(host.port)
        welcome = await again.hello("Ada", token=seated["token"])
        assert welcome["resumed"]
        assert (await again.recv("seated"))["seat"] == seated["seat"]
        await again.close()
    clock = LoopFakeClock()
    async with running_host(table_config(seats=4, bots=1, away_grace=20.0), clock=clock) as host:
        stays = await Raw.open(host.port)
        await stays.hello("Cy", table=1)
        gone = await Raw.open(host.port)
        await gone.hello("Bob", table=1)
        seat = (await gone.recv("seated"))["seat"]
        member = host.tables[1].seats[seat]
        assert member is not None
        await gone.close()
        while member.conn is not None:
            await asyncio.sleep(0.005)
        clock.advance(19.9)
        assert host.tables[1].seats[seat] is member, "the seat waits the grace period"
        clock.advance(0.1)
        assert host.tables[1].seats[seat] is None, "after the grace period the seat is free again"


async def test_blind_windows_ask_every_person_who_may_react() -> None:
    cfg = table_config(seats=3, bots=1, reaction_window=0.002, seed=3, blind_windows=True)
    async with running_host(cfg) as host:
        a, b = await Raw.open(host.port), await Raw.open(host.port)
        await a.hello("Ada", table=1)
        await b.hello("Bob", table=1)
        await asyncio.gather(play_raw(a, random.Random(5)), play_raw(b, random.Random(6)))
        asked = [f for f in a.frames + b.frames if f["t"] == "update" and f["window"] and f["decisions"]]
        pass_only = [f for f in asked if [o[0] for o in f["decisions"][0]["options"]] == ["pass"]]
        assert pass_only, "people with nothing to play are asked too"
        table = host.tables[1]
        assert table.record is not None and table.state is not None
        assert table.record.replay().to_dict() == table.state.to_dict()
        await a.close()
        await b.close()


async def test_client_gives_up_when_the_host_no_longer_knows_its_seat() -> None:
    from net.host import Host, HostConfig

    from .helpers import FAST

    async with running_host(table_config(seats=2, bots=1)) as host:
        port = host.port
        c = Client("127.0.0.1", port, "Ada", table=1)
        await c.connect()
        async for u in c.updates():
            if isinstance(u, GameChanged):
                break
    # the host restarted: same port, no memory of the seat
    again = Host(HostConfig(bind="127.0.0.1", port=port, table=table_config(), limits=FAST))
    await again.start()
    try:
        statuses = []
        async for u in c.updates():
            if isinstance(u, StatusChanged):
                statuses.append((u.status, u.code))
        assert statuses[0] == (Status.RECONNECTING, "shutdown")
        assert statuses[-1] == (Status.CLOSED, "bad_token")
    finally:
        await c.close()
        await again.close()


async def test_a_table_opened_with_create_plays_its_bots_at_the_pace_asked() -> None:
    """Issue 10 (no surprises): a table a guest opens against bots (serve-ssh's guests) has the
    pace chosen on the guest's start screen (`create.bot_delay`); without it, the host's own."""
    async with running_host(table_config(seats=3, bots=1, bot_delay=0.25), tables=4) as host:
        paced, plain = Client("127.0.0.1", host.port, "Ada"), Client("127.0.0.1", host.port, "Bea")
        await paced.connect()
        await plain.connect()
        assert (await paced.create(seats=2, bots=1, bot_delay=1.6)).ok
        assert (await plain.create(seats=2, bots=1)).ok
        tables = host.tables
        assert paced.table_id is not None and plain.table_id is not None
        assert tables[paced.table_id].config.bot_delay == 1.6
        assert tables[plain.table_id].config.bot_delay == 0.25
        with_too_slow = await paced.create(seats=2, bots=1, bot_delay=60.0)
        assert not with_too_slow.ok and with_too_slow.code == "bad_field"
        await paced.close()
        await plain.close()
