"""A table's time on a fake clock: R5.7 pacing, turn and reaction limits, grace periods, and
clocks that run through drops and reconnects (docs/protocol.md "Time, absence and bots").

Tables here are the host's own, on a `FakeClock` with no sockets (tests/net/fake.py), or a real
host whose tables' clock the test moves (`LoopFakeClock`): minutes of table time pass in
microseconds, exactly when the test says."""

from __future__ import annotations

import asyncio
import itertools
import random

from core.decisions import REACTIONS, Decision
from net.clock import LoopFakeClock
from net.table import Phase

from .fake import Player, clock_of, fake_table, play
from .helpers import Raw, play_raw, running_host, table_config


def first_turn(p: Player) -> Decision:
    """Move time on (bots play, `p` answers reactions) until `p` is asked a turn decision; that
    decision."""
    clock = clock_of(p.table)
    while True:
        clock.advance(0)
        turns = [d for d in p.open() if d.kind not in REACTIONS]
        if turns:
            return turns[0]
        if p.act():
            continue
        due = clock.next_due()
        assert due is not None, "nobody may act and nothing is due"
        clock.advance(due - clock.now())


def test_r5_7_every_window_is_held_for_its_minimum_and_both_people_see_the_same_rhythm() -> None:
    """R5.7: with two people, every window goes to both as a frame of its own and nothing after
    it goes out before `reaction_window` has passed; both get the same sequence of updates
    (apart from the acknowledgement of their own answers)."""
    table = fake_table(table_config(seats=4, bots=2, reaction_window=1.5, seed=3))
    ada, bob = Player(table, "Ada", 5), Player(table, "Bob", 6)
    took = play(table, [ada, bob])
    assert table.phase is Phase.OVER and took > 0
    windows = 0
    for p in (ada, bob):
        ups = [(t, f) for t, f in zip(p.inbox.times, p.inbox.frames, strict=True) if f["t"] == "update"]
        for (t0, f0), (t1, f1) in itertools.pairwise(ups):
            if f0["window"] is not None and f1["events"]:
                windows += 1
                assert t1 - t0 >= 1.5, f"update {f1['seq']} came {t1 - t0:.3f} s after a window"

    def rhythm(p: Player) -> list[tuple[object, ...]]:
        return [
            (tuple(e["kind"] for e in f["events"]), (f["window"] or {}).get("kind"))
            for f in p.inbox.of("update")
            if f["events"] or f["seq"] == 1
        ]

    assert windows > 5, "a whole game shows windows"
    assert rhythm(ada) == rhythm(bob)


def test_a_turn_left_idle_goes_to_a_bot_at_the_turn_limit_and_here_takes_it_back() -> None:
    """Turn limit: at `turn_limit` seconds, not before, the seat is away and a bot plays it;
    `here` hands it back, and the next decision has the whole limit again."""
    table = fake_table(table_config(seats=2, bots=1, turn_limit=120.0, bot_delay=1.0, seed=4))
    ada = Player(table, "Ada")
    clock = clock_of(table)
    d = first_turn(ada)
    assert ada.inbox.last("update")["limit"] == 120.0
    clock.advance(119.9)
    assert not ada.member.away and d in (table.state.open if table.state else [])
    clock.advance(0.2)
    assert ada.member.away, "out of time: away"
    assert ada.inbox.last("table")["seats"][ada.member.seat]["away"], "the table says so"
    clock.advance(1.0)  # the bot's move, bot_delay after
    assert table.state is not None and d not in table.state.open, "a bot played it"
    table.here(ada.member)
    assert not ada.member.away
    again = first_turn(ada)
    assert again.id != d.id and ada.inbox.last("update")["limit"] == 120.0


def test_a_dropped_seat_waits_its_grace_period_then_a_bot_plays_until_the_person_is_back() -> None:
    """Disconnection: the seat waits `away_grace` seconds (the turn clock goes on meanwhile),
    then a bot plays it; coming back hands it back with a snapshot."""
    table = fake_table(table_config(seats=2, bots=1, away_grace=20.0, turn_limit=0.0, seed=4))
    ada = Player(table, "Ada")
    clock = clock_of(table)
    d = first_turn(ada)
    table.disconnected(ada.member)
    clock.advance(19.9)
    assert not ada.member.away and table.state is not None and d in table.state.open
    clock.advance(0.2)
    assert ada.member.away
    clock.advance(0)
    assert d not in table.state.open, "the bot played the seat"
    back = ada.inbox.__class__("Ada again", clock)
    table.resume(ada.member, back, None)
    assert not ada.member.away
    assert [f["t"] for f in back.frames][:1] == ["seated"] and back.of("snapshot")


def test_r12_a_reconnect_mid_window_shows_the_reaction_time_left() -> None:
    """A seat's reaction clock runs on the host: a snapshot mid-window carries the time left
    (`limit`), while the window's own `limit` stays the host's setting; when it runs out, the
    host passes for the seat."""
    cfg = table_config(seats=3, bots=1, reaction_window=1.5, reaction_limit=20.0, seed=5, blind_windows=True)
    table = fake_table(cfg)
    ada, bob = Player(table, "Ada", 1), Player(table, "Bob", 2)
    ada.react = bob.react = False
    clock = clock_of(table)
    while not any(d.kind in REACTIONS for d in ada.open()):
        clock.advance(0)
        if not (ada.act() or bob.act()):
            clock.advance((clock.next_due() or clock.now()) - clock.now())
    asked = ada.inbox.last("update")
    assert asked["limit"] == 20.0 and asked["window"]["limit"] == 20.0
    clock.advance(ada.inbox.times[ada.inbox.frames.index(asked)] + 7.25 - clock.now())
    again = ada.inbox.__class__("Ada again", clock)
    table.resume(ada.member, again, asked["seq"])
    snap = again.last("snapshot")
    assert snap["decisions"] == asked["decisions"]
    assert snap["limit"] == 12.75 and snap["window"]["limit"] == 20.0
    clock.advance(12.75)
    assert table.state is not None
    assert not [d for d in table.state.open if d.player == ada.member.seat and d.kind in REACTIONS], "passed"


def test_r12_a_decision_whose_time_ran_out_stays_with_the_bot_when_its_person_is_back() -> None:
    """No clock restarts: a person back (`here`) after their turn's time ran out does not get
    that decision back with a fresh limit; the bot makes it, and the person's next decision has
    its whole limit."""
    table = fake_table(table_config(seats=2, bots=1, turn_limit=60.0, bot_delay=2.0, seed=4))
    ada = Player(table, "Ada")
    clock = clock_of(table)
    d = first_turn(ada)
    clock.advance(60.0)
    assert ada.member.away
    clock.advance(1.0)  # the bot waits bot_delay before its move
    table.here(ada.member)
    assert not ada.member.away and table.state is not None and d in table.state.open
    clock.advance(1.0)
    assert d not in table.state.open, "the bot made the decision whose time ran out"
    nxt = first_turn(ada)
    assert nxt.id != d.id and ada.inbox.last("update")["limit"] == 60.0


async def test_r12_a_reconnect_never_restarts_a_turn_clock() -> None:
    """A seat's turn clock runs on the host through a drop and a reconnect: the snapshot after
    the reconnect carries the time actually left, and the seat goes to a bot when that runs
    out, not a whole limit later (over the real host, on a clock the test moves)."""
    clock = LoopFakeClock()
    cfg = table_config(seats=2, bots=1, turn_limit=120.0, away_grace=20.0, seed=4)
    async with running_host(cfg, clock=clock) as host:
        table = host.tables[1]
        raw = await Raw.open(host.port)
        await raw.hello("Ada", table=1)
        seated = await raw.recv("seated")
        while not (update := await raw.recv("update"))["decisions"]:
            pass
        assert update["limit"] == 120.0
        clock.advance(37.0)
        await raw.close()
        member = table.seats[seated["seat"]]
        assert member is not None
        while member.conn is not None:
            await asyncio.sleep(0.005)
        clock.advance(10.0)
        back = await Raw.open(host.port)
        await back.hello("Ada", token=seated["token"], last_seq=update["seq"])
        snap = await back.recv("snapshot")
        assert snap["decisions"] == update["decisions"] and snap["limit"] == 73.0
        clock.advance(72.9)
        assert not member.away
        clock.advance(0.1)
        assert member.away, "the turn's time ran out 120 s after it started, reconnect or not"
        while (await back.recv("table"))["seats"][seated["seat"]]["away"] is False:
            pass
        await back.close()


async def test_r12_a_table_nobody_is_at_before_its_game_goes_at_once() -> None:
    """An empty table that nobody sits at goes at once: a table opened with `create` whose only
    person drops before its game starts closes without waiting out the grace period (its
    `--tables` slot is free for the next player at once); a table where someone else still waits
    (here the host's own) keeps a dropped person's seat for the grace period."""
    clock = LoopFakeClock()  # the grace period never passes unless the test says so
    cfg = table_config(seats=3, bots=0, away_grace=20.0)
    async with running_host(cfg, clock=clock, tables=2) as host:
        ada, bob = await Raw.open(host.port), await Raw.open(host.port, local="127.0.0.2")
        await ada.hello("Ada")
        await bob.hello("Bob", table=1)
        await bob.recv("seated")
        await ada.recv("lobby")
        ada.send({"t": "create", "seats": 2, "aid": 1})
        assert (await ada.recv("result"))["ok"] and 2 in host.tables
        await ada.close()
        while 2 in host.tables:
            await asyncio.sleep(0.005)
        assert clock.now() == 0.0, "no time passed"
        bob.send({"t": "leave", "aid": 3})  # one creates from the lobby
        bob.send({"t": "create", "seats": 2, "aid": 2})
        seated = await bob.recv("seated")
        assert (await bob.recv("result"))["ok"], "the slot is free again"
        await bob.close()
        dan = await Raw.open(host.port, local="127.0.0.4")
        await dan.hello("Dan", table=1)
        carol = await Raw.open(host.port, local="127.0.0.3")
        await carol.hello("Carol", table=1)
        held = await carol.recv("seated")
        await carol.close()
        carol_seat = host.tables[1].seats[held["seat"]]
        assert carol_seat is not None
        while carol_seat.conn is not None:
            await asyncio.sleep(0.005)
        again = await Raw.open(host.port, local="127.0.0.3")
        welcome = await again.hello("Carol", token=held["token"])
        assert welcome["t"] == "welcome" and welcome["resumed"], "the host's own table kept the seat"
        assert seated["table"] not in host.tables, "Bob's table went when he did"
        for r in (again, dan):
            await r.close()


async def test_r12_seq_follows_the_person_and_starts_again_after_leave() -> None:
    """Updates: a person's `seq` lasts as long as they keep their place at the table (across
    games and the seat rotation of a rematch); sitting down again after `leave` starts a new
    stream at 1; `seated` comes again at each game's start with the rotated seat."""
    cfg = table_config(seats=3, bots=1, seed=9)
    async with running_host(cfg) as host:
        ada, bob = await Raw.open(host.port), await Raw.open(host.port)
        await ada.hello("Ada", table=1)
        await bob.hello("Bob", table=1)
        first = {r: (await r.recv("seated"))["seat"] for r in (ada, bob)}
        await asyncio.gather(play_raw(ada, random.Random(1)), play_raw(bob, random.Random(2)))
        for r in (ada, bob):
            r.send({"t": "rematch"})
        again = {r: (await r.recv("seated"))["seat"] for r in (ada, bob)}
        assert again == {r: (s + 1) % 3 for r, s in first.items()}, "seats rotate one place"
        await asyncio.gather(play_raw(ada, random.Random(3)), play_raw(bob, random.Random(4)))
        for r in (ada, bob):
            seqs = [f["seq"] for f in r.frames if f["t"] == "update"]
            assert seqs == list(range(1, len(seqs) + 1)), "one stream across both games"
        ada.send({"t": "leave", "aid": 1})
        await ada.recv("lobby")
        bob.send({"t": "leave", "aid": 1})
        await bob.recv("lobby")
        n = len(ada.frames)
        ada.send({"t": "join", "table": 1, "aid": 2})
        bob.send({"t": "join", "table": 1, "aid": 2})
        await asyncio.gather(play_raw(ada, random.Random(5)), play_raw(bob, random.Random(6)))
        seqs = [f["seq"] for f in ada.frames[n:] if f["t"] == "update"]
        assert seqs[0] == 1 and seqs == list(range(1, len(seqs) + 1)), "a new stream after leave"
        await ada.close()
        await bob.close()
