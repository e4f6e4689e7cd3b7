"""docs/protocol.md against the host, for the differences a client written from the document
alone found (issue 12, D1 to D10): each test names the section whose promise it checks and goes
through raw frames, never `net.client`. Every frame the host sends is checked against the frame
reference by the `Raw` helper."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from core.decisions import Decision
from net.clock import LoopFakeClock
from net.limits import Limits
from net.table import Phase

from .helpers import Raw, pick, play_raw, running_host, table_config
from .test_conformance import greeted


async def first_decision(raw: Raw) -> dict[str, Any]:
    """The first update that asks this seat something."""
    while True:
        f = await raw.recv("update", "snapshot", timeout=30.0)
        if f["decisions"]:
            return f


def plain(v: Any) -> Any:
    return [plain(x) for x in v] if isinstance(v, tuple) else v


async def choose_first(raw: Raw, f: dict[str, Any], rng: random.Random, aid: int) -> None:
    d = Decision.from_dict(f["decisions"][0])
    raw.send({"t": "choose", "id": d.id, "option": plain(pick(d, rng)), "aid": aid})


# ---- Decisions and choices (D1) -----------------------------------------------------------


async def test_decisions_option_not_offered_names_only_the_seats_own_decision_id() -> None:
    """Decisions and choices (D1): "the engine's running count never leaves the host": an
    `option_not_offered` text names the seat's wire id, never the engine's decision id, and a
    long value sent back does not make the text longer than the frame reference allows."""
    async with running_host(table_config(seats=2, bots=1, seed=3)) as host:
        raw = await greeted(host.port, table=1)
        rng = random.Random(1)
        f = await first_decision(raw)
        table = host.tables[1]
        for aid in range(1, 200):  # until the engine's count and the seat's differ
            engine = {d.id for _, d in table.seats[0].stream.decisions} if table.seats[0] else set()
            if f["decisions"][0]["id"] not in engine:
                break
            await choose_first(raw, f, rng, aid)
            f = await first_decision(raw)
        wire = f["decisions"][0]["id"]
        (engine_id,) = {d.id for w, d in table.seats[0].stream.decisions if w == wire}
        assert engine_id != wire
        for option in ("not an option", "x" * 200, ["fly", ["away", 1]]):
            raw.send({"t": "choose", "id": wire, "option": option, "aid": 999})
            r = await raw.recv("result")
            assert (r["ok"], r["code"]) == (False, "option_not_offered")
            assert str(engine_id) not in r["text"].replace(str(wire), ""), r["text"]
            assert r["text"] == f"that is not one of the options of decision {wire}"
        await raw.close()


# ---- Frame reference: choose.option (D4) --------------------------------------------------


async def test_frame_reference_a_negative_option_integer_is_bad_field() -> None:
    """Frames, Frame reference (D4): "Integers are 0 to 2^53-1 unless a table says otherwise",
    inside an option value too: a negative one is `bad_field`, not a refused choice."""
    async with running_host(table_config(seats=2, bots=1)) as host:
        raw = await greeted(host.port, table=1)
        f = await first_decision(raw)
        for option in (-1, ["play", -5], [[-(2**53) + 1]]):
            raw.send({"t": "choose", "id": f["decisions"][0]["id"], "option": option, "aid": 5})
            r = await raw.recv("result")
            assert (r["aid"], r["code"]) == (5, "bad_field"), r
            assert r["text"].startswith("`choose.option` must be an option value"), r["text"]
        await raw.close()


# ---- Updates: event-less updates (D5) -----------------------------------------------------


async def test_updates_a_step_of_someone_elses_move_sends_the_others_nothing() -> None:
    """Updates, Decisions and choices (D5): an update with no events goes only to a seat whose
    decisions or window it changes (the chooser's next step, an acknowledgement, a window that
    closes): the others learn nothing of a move under way until its events come."""
    async with running_host(table_config(seats=3, bots=1, seed=11)) as host:
        fan = await greeted(host.port, "Fan", table=1, watch=True)
        ada = await greeted(host.port, "Ada", table=1)
        bob = await greeted(host.port, "Bob", table=1)
        await asyncio.gather(play_raw(ada, random.Random(5)), play_raw(bob, random.Random(6)), fan.recv("over"))
        steps = 0
        for raw in (ada, bob, fan):
            prev: dict[str, Any] | None = None
            for f in raw.frames:
                if f["t"] in ("update", "snapshot"):
                    if f["t"] == "update" and not f["events"] and prev is not None:  # not a game's first
                        assert (f["decisions"], f["window"]) != (prev["decisions"], prev["window"]), f
                        steps += raw is not fan
                    prev = f
        assert steps, "the game had moves of several steps"
        for raw in (ada, bob, fan):
            await raw.close()


# ---- Requests: sync (D6) ------------------------------------------------------------------


async def test_requests_sync_in_the_lobby_is_refused() -> None:
    """Requests, Updates (D6): `sync` asks for a snapshot of a table's game: in the lobby it is
    refused `not_seated`, at a table with no game yet `wrong_phase`."""
    async with running_host(table_config(seats=3, bots=1)) as host:
        raw = await greeted(host.port)
        raw.send({"t": "sync", "seq": 3, "aid": 1})
        r = await raw.recv("result")
        assert (r["aid"], r["ok"], r["code"]) == (1, False, "not_seated")
        raw.send({"t": "watch", "table": 1, "aid": 2})
        assert (await raw.recv("result"))["ok"]
        raw.send({"t": "sync", "aid": 3})
        r = await raw.recv("result")
        assert (r["aid"], r["code"]) == (3, "wrong_phase")
        assert not [f for f in raw.frames if f["t"] in ("snapshot", "lobby")][1:], "one lobby frame, at hello"
        await raw.close()


# ---- A session: Lobby (D7) ----------------------------------------------------------------


async def test_session_join_watch_create_while_seated_are_refused() -> None:
    """A session, Lobby (D7): `join`, `watch` and `create` are asked from the lobby; seated, each
    is refused `not_allowed` saying to leave first, and the seat stays. A spectator may."""
    async with running_host(table_config(seats=3, bots=1), tables=4) as host:
        raw = await greeted(host.port, table=1)
        seated = await raw.recv("seated")
        other = await greeted(host.port, "Bob")
        other.send({"t": "create", "aid": 1})
        assert (await other.recv("result"))["ok"]
        asks: list[dict[str, Any]] = [
            {"t": "join", "table": 2},
            {"t": "watch", "table": 2},
            {"t": "create"},
            {"t": "watch", "table": 1},
        ]
        for aid, frame in enumerate(asks, 10):
            raw.send({**frame, "aid": aid})
            r = await raw.recv("result")
            assert (r["aid"], r["code"]) == (aid, "not_allowed")
            assert r["text"].startswith("you sit at Table 1: leave it before you "), r["text"]
        assert host.tables[1].seats[seated["seat"]] is not None and len(host.tables) == 2
        assert [f for f in raw.frames if f["t"] == "seated"] == [seated]
        fan = await greeted(host.port, "Fan", table=2, watch=True)
        fan.send({"t": "join", "table": 1, "aid": 1})
        assert (await fan.recv("seated"))["table"] == 1
        assert (await fan.recv("result"))["ok"]
        for client in (raw, other, fan):
            await client.close()


# ---- Reconnection: a seat given to a bot (D8) ---------------------------------------------


async def test_reconnection_the_token_of_someone_who_left_goes_with_the_rematch() -> None:
    """Reconnection (D8): a token is valid while its seat is the person's; one who left after
    the game gives the seat to a bot at the rematch, and the token is then `bye bad_token`."""
    async with running_host(table_config(seats=3, bots=1)) as host:
        ada = await greeted(host.port, table=1)
        bob = await greeted(host.port, "Bob", table=1)
        token = (await bob.recv("seated"))["token"]
        await asyncio.gather(play_raw(ada, random.Random(1)), play_raw(bob, random.Random(2)))
        bob.send({"t": "leave", "aid": 1})
        await bob.recv("lobby")
        ada.send({"t": "rematch", "aid": 2})
        await ada.recv("update")
        assert token not in host.lobby.tokens
        back = await Raw.open(host.port)
        got = await back.hello("Bob", token=token)
        assert (got["t"], got["code"]) == ("bye", "bad_token")
        for r in (ada, bob, back):
            await r.close()


# ---- Time: clocks run on the host (D2) ----------------------------------------------------


async def test_time_a_snapshot_carries_the_time_left() -> None:
    """Time, absence and bots, Clocks run on the host (D2): the update that asks carries the
    whole turn limit; after 30 s and a reconnect, the snapshot carries what is left."""
    clock = LoopFakeClock()
    async with running_host(table_config(seats=2, bots=1, turn_limit=120.0, away_grace=600.0), clock=clock) as host:
        raw = await greeted(host.port, table=1)
        seated = await raw.recv("seated")
        asked = await first_decision(raw)
        assert asked["limit"] == 120.0
        clock.advance(30.0)
        await raw.close()
        back = await Raw.open(host.port)
        await back.hello("Ada", token=seated["token"])
        snap = await back.recv("snapshot")
        assert snap["decisions"] == asked["decisions"] and snap["limit"] == 90.0
        back.send({"t": "sync", "aid": 1})
        clock.advance(10.0)
        assert (await back.recv("snapshot"))["limit"] in (80.0, 90.0)
        await back.close()


# ---- Reconnection: the order of frames (D3) -----------------------------------------------


def _kinds_to_snapshot(raw: Raw) -> list[str]:
    """The kinds of the frames `raw` read up to its first snapshot, pings left out: the game goes
    on meanwhile (a bot's move), so an update read in the same chunk may follow the snapshot."""
    kinds = [f["t"] for f in raw.frames if f["t"] != "ping"]
    return kinds[: kinds.index("snapshot") + 1]


async def test_reconnection_frames_come_in_the_documented_order() -> None:
    """Reconnection, A session (D3): back with a token: `welcome`, `seated`, `table`, the chat
    history, then the `snapshot`; sitting down: `seated`, `table`, then the chat; watching:
    `table`, then the chat."""
    async with running_host(table_config(seats=3, bots=1, away_grace=60.0)) as host:
        ada = await greeted(host.port, table=1)
        ada.send({"t": "say", "text": "hi", "aid": 1})
        await ada.recv("chat")
        bob = await Raw.open(host.port)
        await bob.hello("Bob", table=1)
        await bob.recv("update")
        kinds = [f["t"] for f in bob.frames if f["t"] != "ping"]
        assert kinds[:4] == ["welcome", "seated", "table", "chat"], kinds
        seated = next(f for f in bob.frames if f["t"] == "seated")
        await bob.close()
        back = await Raw.open(host.port)
        await back.hello("Bob", token=seated["token"])
        await back.recv("snapshot")
        kinds = _kinds_to_snapshot(back)
        assert kinds == ["welcome", "seated", "table", "chat", "snapshot"], kinds
        fan = await Raw.open(host.port)
        await fan.hello("Fan", table=1, watch=True)
        await fan.recv("snapshot")
        assert _kinds_to_snapshot(fan) == ["welcome", "table", "chat", "snapshot"]
        for r in (ada, back, fan):
            await r.close()


# ---- Leaving: the host's own table (D9) ---------------------------------------------------


async def test_leaving_the_hosts_table_whose_only_person_dropped_is_free_at_once() -> None:
    """Leaving (D9): before its game, a table whose last connected person dropped keeps nothing
    for the grace period, the host's own table included: it is reset at once (its seat free
    for the next person, the token `bad_token`)."""
    async with running_host(table_config(seats=3, bots=1, away_grace=60.0)) as host:
        gone = await greeted(host.port, table=1)
        token = (await gone.recv("seated"))["token"]
        assert host.tables[1].phase is Phase.WAITING  # a second person is awaited
        await gone.close()
        while host.tables[1].seats[0] is not None:
            await asyncio.sleep(0.005)
        again = await Raw.open(host.port)
        got = await again.hello("Ada", token=token)
        assert (got["t"], got["code"]) == ("bye", "bad_token")
        eve = await greeted(host.port, "Eve", table=1)
        assert (await eve.recv("seated"))["seat"] == 0
        for r in (again, eve):
            await r.close()


# ---- A session: Lobby, can_create (D10) ---------------------------------------------------


async def test_lobby_can_create_is_false_at_the_per_address_table_limit() -> None:
    """A session, Lobby, Who gets in (D10): `can_create` says whether this connection's `create`
    would be done: false once its address has TABLES_PER_ADDRESS tables open, still true for
    another address."""
    limits = Limits(ping_interval=30.0, idle_timeout=30.0, tables_per_address=1)
    async with running_host(table_config(), limits=limits, tables=5) as host:
        maker = await greeted(host.port, "Mo")
        assert (await maker.recv("lobby"))["can_create"]
        maker.send({"t": "create", "aid": 1})
        assert (await maker.recv("result"))["ok"]
        mate = await greeted(host.port, "Mate")
        assert not (await mate.recv("lobby"))["can_create"]
        mate.send({"t": "create", "aid": 2})
        assert (await mate.recv("result"))["code"] == "not_allowed"
        elsewhere = await Raw.open(host.port, local="127.0.0.2")
        await elsewhere.hello("Far")
        assert (await elsewhere.recv("lobby"))["can_create"]
        maker.send({"t": "leave", "aid": 3})
        while not (await mate.recv("lobby"))["can_create"]:
            pass
        for r in (maker, mate, elsewhere):
            await r.close()


# ---- Rematch: a table never stuck in `over` ------------------------------------------------


async def test_rematch_starts_when_the_last_person_who_had_not_asked_leaves() -> None:
    """Rematch: "once everyone still here asked": when the only person who had not asked drops
    or leaves, the others' rematch starts; a table whose people left while a spectator stayed
    closes when the spectator goes."""
    async with running_host(table_config(seats=3, bots=1, bot_delay=0.0), tables=3) as host:
        ada = await greeted(host.port, table=1)
        bob = await greeted(host.port, "Bob", table=1)
        await asyncio.gather(play_raw(ada, random.Random(3)), play_raw(bob, random.Random(4)))
        ada.send({"t": "rematch", "aid": 1})
        assert (await ada.recv("result"))["ok"]
        await bob.close()
        assert (await ada.recv("seated"))["seat"] == 1
        assert host.tables[1].phase is Phase.PLAYING
        ada.send({"t": "leave", "aid": 2})
        await ada.recv("lobby")

        ada.send({"t": "create", "seats": 2, "bots": 1, "aid": 3})
        tid = (await ada.recv("seated"))["table"]
        fan = await greeted(host.port, "Fan", table=tid, watch=True)
        ada.send({"t": "leave", "aid": 4})
        await ada.recv("lobby")
        await fan.recv("over", timeout=60.0)
        assert host.tables[tid].phase is Phase.OVER
        fan.send({"t": "leave", "aid": 5})
        await fan.recv("lobby")
        assert tid not in host.tables, "nobody is at it any more: it closes"
        for r in (ada, fan):
            await r.close()
