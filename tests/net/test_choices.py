"""Choices over the wire: refusals change nothing; time limits, stand-in bots, chat, rematches."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

from core.decisions import Decision
from net import bots as net_bots
from net.client import ChatReceived, Client, TableChanged
from net.clock import LoopFakeClock

from .helpers import Raw, pick, play_client, play_raw, running_host, table_config, ticking


async def _two_people(port: int) -> tuple[Raw, Raw, dict[str, Any], dict[str, Any]]:
    a, b = await Raw.open(port), await Raw.open(port)
    await a.hello("Ada", table=1)
    await b.hello("Bob", table=1)
    ua = await a.recv("update")
    ub = await b.recv("update")
    return a, b, ua, ub


async def test_out_of_turn_stale_and_illegal_choices_change_nothing() -> None:
    async with running_host(table_config(seats=2, bots=0)) as host:
        a, b, ua, ub = await _two_people(host.port)
        mover, idle, update = (a, b, ua) if ua["decisions"] else (b, a, ub)
        decision = Decision.from_dict(update["decisions"][0])
        table = host.tables[1]
        assert table.state is not None
        before = table.state.to_dict()

        idle.send({"t": "choose", "id": decision.id, "option": decision.options[0].value, "aid": 1})
        r = await idle.recv("result")
        assert (r["ok"], r["code"]) == (False, "not_your_decision")
        mover.send({"t": "choose", "id": decision.id + 1000, "option": "draw", "aid": 2})
        r = await mover.recv("result")
        assert (r["ok"], r["code"]) == (False, "stale_decision")
        snap = await mover.recv("snapshot")
        assert snap["decisions"] == update["decisions"], "a stale choice brings a fresh snapshot"
        mover.send({"t": "choose", "id": decision.id, "option": "fly to the moon", "aid": 3})
        r = await mover.recv("result")
        assert (r["ok"], r["code"]) == (False, "option_not_offered")
        mover.send({"t": "choose", "id": decision.id, "option": {"not": "an option"}, "aid": 4})
        r = await mover.recv("result")
        assert (r["aid"], r["ok"], r["code"]) == (4, False, "bad_field")
        assert table.state.to_dict() == before

        option = pick(decision, random.Random(1))
        mover.send({"t": "choose", "id": decision.id, "option": list(option) if isinstance(option, tuple) else option})
        assert (await mover.recv("result"))["ok"]
        mover.send({"t": "choose", "id": decision.id, "option": decision.options[0].value, "aid": 5})
        r = await mover.recv("result")
        assert (r["ok"], r["code"]) in {(False, "stale_decision"), (False, "not_your_decision")}
        await a.close()
        await b.close()


async def test_requests_out_of_place_are_refused_with_reasons() -> None:
    async with running_host(table_config(seats=3, bots=1)) as host:
        raw = await Raw.open(host.port)
        raw.send({"t": "join", "table": 1})
        r = await raw.recv("result")
        assert r["code"] == "unexpected", "hello comes first"
        await raw.hello("Eve")
        asks: list[tuple[dict[str, Any], str]] = [
            ({"t": "choose", "id": 1, "option": "draw"}, "not_seated"),
            ({"t": "start"}, "not_seated"),
            ({"t": "join", "table": 42}, "no_such_table"),
            ({"t": "create"}, "not_allowed"),
            ({"t": "leave"}, "not_seated"),
        ]
        for msg, code in asks:
            raw.send(msg)
            r = await raw.recv("result")
            assert (r["ok"], r["code"]) == (False, code), msg
        raw.send({"t": "join", "table": 1, "aid": 9})
        assert (await raw.recv("result"))["ok"]
        raw.send({"t": "rematch"})
        assert (await raw.recv("result"))["code"] == "wrong_phase"
        await raw.close()


async def test_owner_starts_early_and_the_game_has_the_seated_players() -> None:
    async with running_host(table_config(seats=5, bots=1)) as host:
        a = await Raw.open(host.port)
        await a.hello("Ada", table=1)
        b = await Raw.open(host.port)
        await b.hello("Bob", table=1)
        b.send({"t": "start", "aid": 1})
        assert (await b.recv("result"))["code"] == "not_allowed", "only the first to sit starts"
        a.send({"t": "start", "aid": 1})
        assert (await a.recv("result"))["ok"]
        update = await a.recv("update")
        assert update["view"]["players"] == 3
        await asyncio.gather(play_raw(a, random.Random(1)), play_raw(b, random.Random(2)))
        await a.close()
        await b.close()


async def test_turn_limit_lets_a_bot_play_an_idle_seat_until_they_return() -> None:
    clock = LoopFakeClock()
    cfg = table_config(seats=2, bots=1, turn_limit=120.0, reaction_limit=20.0)
    async with running_host(cfg, clock=clock) as host, ticking(clock, 10.0):
        idle = Client("127.0.0.1", host.port, "Zzz", table=1)
        await idle.connect()
        away_seen = False
        async for u in idle.updates():
            if isinstance(u, TableChanged):
                me = u.table.seats[idle.seat or 0]
                away_seen = away_seen or (me is not None and me.away)
            if idle.result is not None:
                break
        assert away_seen, "the seat was marked away while a bot played it"
        table = host.tables[1]
        assert table.state is not None and table.state.over
        out = await idle.here()
        assert out.ok
        await idle.close()


async def test_disconnected_seat_is_played_after_the_grace_period_and_handed_back() -> None:
    clock = LoopFakeClock()
    cfg = table_config(seats=3, bots=1, away_grace=20.0)
    async with running_host(cfg, clock=clock) as host, ticking(clock, 1.0):
        a = Client("127.0.0.1", host.port, "Ada", table=1)
        b = Client("127.0.0.1", host.port, "Bob", table=1, reconnect=False)
        await a.connect()
        await b.connect()
        token = None
        async for _ in b.updates():
            if b.token and b.view is not None:
                token = b.token
                break
        await b.close()  # Bob walks away; a bot plays for him after the grace period
        await play_client(a, random.Random(1))
        table = host.tables[1]
        assert table.state is not None and table.state.over
        bob = next(m for m in table.humans if m.name == "Bob")
        assert bob.away
        back = Client("127.0.0.1", host.port, "Bob", token=token)
        await back.connect()
        async for _ in back.updates():
            if back.result is not None:
                break
        assert not bob.away and bob.conn is not None, "back with the token, the seat is his again"
        await back.close()
        await a.close()


async def test_bots_think_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a bot is busy (blocking its worker thread), chat still flows between two people."""
    release = threading.Event()
    started = threading.Event()
    real = net_bots.make_bot

    class Stuck:
        def __init__(self, seed: int) -> None:
            self.inner = real("random", seed)

        def choose(self, view: Any, decision: Decision) -> Any:
            started.set()
            release.wait(timeout=30)
            return self.inner.choose(view, decision)

    monkeypatch.setattr(net_bots, "make_bot", lambda level, seed, clock=None, game_id="pigeons": Stuck(seed))
    async with running_host(table_config(seats=3, bots=1)) as host:
        a = Client("127.0.0.1", host.port, "Ada", table=1)
        b = Client("127.0.0.1", host.port, "Bob", table=1)
        await a.connect()
        await b.connect()
        players = [asyncio.create_task(play_client(c, random.Random(i))) for i, c in enumerate((a, b))]
        while not started.is_set():
            await asyncio.sleep(0.01)
        # The bot is blocked in its thread. The event loop must still relay chat and pings.
        heard: list[str] = []
        got = asyncio.Event()

        def listen(update: Any) -> None:
            if isinstance(update, ChatReceived) and update.line.text == "still here?":
                heard.append(update.line.name)
                got.set()

        b_updates = b._updates
        original_put = b_updates.put_nowait

        def tap(item: Any) -> None:
            listen(item)
            original_put(item)

        b_updates.put_nowait = tap  # type: ignore[method-assign]
        a.say("still here?")
        await asyncio.wait_for(got.wait(), timeout=10)
        assert heard == ["Ada"]
        release.set()
        await asyncio.gather(*players)
        await a.close()
        await b.close()


async def test_chat_and_names_are_stripped_of_control_characters() -> None:
    async with running_host(table_config(seats=3, bots=1)) as host:
        a, b = await Raw.open(host.port), await Raw.open(host.port)
        welcome = await a.hello("\x1b[31mAda\x1b]0;owned\x07\u202e", table=1)
        assert welcome["name"] == "Ada"
        await b.hello("Bob", table=1)
        a.send({"t": "say", "text": "\x1b[2J\x1b[Hhello\x9b1m \r\nworld\x07" + "!" * 500})
        line = await b.recv("chat")
        assert line["name"] == "Ada"
        assert line["text"].startswith("hello world!") and len(line["text"]) == 200
        assert not any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in line["text"])
        await a.close()
        await b.close()


async def test_rematch_rotates_the_seats() -> None:
    async with running_host(table_config(seats=3, bots=1)) as host:
        a, b = await Raw.open(host.port), await Raw.open(host.port)
        await a.hello("Ada", table=1)
        await b.hello("Bob", table=1)
        seat_a = (await a.recv("seated"))["seat"]
        seat_b = (await b.recv("seated"))["seat"]
        await asyncio.gather(play_raw(a, random.Random(1)), play_raw(b, random.Random(2)))
        a.send({"t": "rematch", "aid": 1})
        assert (await a.recv("result"))["ok"]
        assert host.tables[1].state is not None and host.tables[1].state.over, "waits for everyone"
        b.send({"t": "rematch", "aid": 1})
        new_b = (await b.recv("seated"))["seat"]  # the new game starts before Bob's result is sent
        assert (await b.recv("result"))["ok"]
        new_a = (await a.recv("seated"))["seat"]
        assert (new_a, new_b) == ((seat_a + 1) % 3, (seat_b + 1) % 3)
        assert host.tables[1].game_no == 2
        await asyncio.gather(play_raw(a, random.Random(3)), play_raw(b, random.Random(4)))
        await a.close()
        await b.close()


def test_bot_levels_per_seat_and_unknown_levels() -> None:
    from net.bots import BotPool
    from net.table import Table, TableConfig

    table = Table(1, TableConfig(seats=4, bots=3, bot_levels=("greedy", "random")), BotPool())
    assert [m.level for m in table.members] == ["greedy", "random", "random"]
    with pytest.raises(ValueError, match="unknown bot level"):
        TableConfig(bot_level="grandmaster").check()


async def test_bots_in_worker_processes_answer_with_offered_options() -> None:
    from core.setup import new_game
    from core.views import view
    from net.bots import BotPool

    pool = BotPool(processes=1)
    try:
        state = new_game(3, 9)
        decision = state.open[0]
        for level in ("random", "greedy"):
            option = await pool.choose(level, 5, view(state, decision.player), decision)
            assert option in decision.values()
    finally:
        pool.close()


async def test_a_searching_bot_spreads_its_samples_over_two_worker_processes() -> None:
    """Both cores: each worker plays part of the samples, the pool merges them into one offered
    option; quick bots and unsearched decisions are answered whole."""
    from core.setup import new_game
    from core.views import view
    from net.bots import BotPool, default_processes

    assert default_processes({"hard"}, 2) == 2 and default_processes({"greedy"}, 2) == 0
    assert default_processes({"easy"}, 2) == 0, "Pigeons & Guano's easy is one ply: no worker processes"
    assert default_processes({"easy"}, 2, "cubirds") == 2, "CuBirds' easy searches"
    pool = BotPool(processes=2)
    try:
        state = new_game(4, 12)
        decision = state.open[0]
        for level in ("easy", "medium", "greedy"):
            option = await pool.choose(level, 5, view(state, decision.player), decision)
            assert option in decision.values() and option != "back"
    finally:
        pool.close()


def test_windows_are_paced_for_two_people_or_one_against_searching_bots() -> None:
    from net.bots import BotPool
    from net.table import Kind, Member, Table, TableConfig

    def paced(humans: int, level: str) -> bool:
        table = Table(1, TableConfig(seats=4, bots=4 - humans, bot_level=level), BotPool())
        for seat in range(humans):
            table.seats[seat] = Member(Kind.HUMAN, f"P{seat}", table, seat=seat)
        return table.paced

    assert paced(2, "random") and paced(3, "greedy")
    assert not paced(1, "random") and not paced(1, "greedy")
    assert paced(1, "hard") and paced(1, "medium") and paced(2, "easy")
    assert not paced(1, "easy"), "Pigeons & Guano's easy is one ply, as quick as greedy"


async def test_unanswered_reactions_are_passed_when_their_time_runs_out() -> None:
    from core.decisions import REACTIONS, DecisionKind

    clock = LoopFakeClock()
    cfg = table_config(seats=3, bots=1, reaction_window=1.5, reaction_limit=20.0, seed=21, blind_windows=True)
    async with running_host(cfg, clock=clock) as host, ticking(clock, 2.0):
        a, b = await Raw.open(host.port), await Raw.open(host.port)
        await a.hello("Slow", table=1)
        await b.hello("Bob", table=1)

        async def only_turns(raw: Raw, rng: random.Random) -> int:
            ignored = 0
            while True:
                msg = await raw.recv("update", "snapshot", "over", timeout=30.0)
                if msg["t"] == "over":
                    return ignored
                for d in msg["decisions"][:1]:
                    decision = Decision.from_dict(d)
                    if DecisionKind(decision.kind) in REACTIONS:
                        ignored += 1
                        continue
                    option = pick(decision, rng)
                    raw.send(
                        {
                            "t": "choose",
                            "id": decision.id,
                            "option": list(option) if isinstance(option, tuple) else option,
                        }
                    )

        ignored, _ = await asyncio.gather(only_turns(a, random.Random(1)), play_raw(b, random.Random(2)))
        assert ignored > 0, "Slow was asked to react and let the time run out"
        table = host.tables[1]
        assert table.state is not None and table.state.over
        slow = next(m for m in table.humans if m.name == "Slow")
        assert not slow.away, "a reaction left to time out is a pass, not an absence"
        await a.close()
        await b.close()
