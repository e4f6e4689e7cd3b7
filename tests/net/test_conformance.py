"""docs/protocol.md, section by section, through raw frames (never `net.client`): each test names
the section whose promise it checks. Every frame the host sends is also checked against the
frame reference by the `Raw` helper."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest

from net.clock import LoopFakeClock
from net.frames import HEADER, encode
from net.limits import CHAT_MAX, NAME_MAX, TABLES_MAX, Limits
from net.messages import PROTOCOL_VERSION, RULES_HASH
from net.table import Phase

from .helpers import FAST, Raw, due, play_raw, running_host, table_config, ticking


def hello(name: str = "Ada", **kw: Any) -> dict[str, Any]:
    return {"t": "hello", "v": PROTOCOL_VERSION, "rules": RULES_HASH, "name": name, **kw}


def body(data: bytes) -> bytes:
    return HEADER.pack(len(data)) + data


async def greeted(port: int, name: str = "Ada", **kw: Any) -> Raw:
    raw = await Raw.open(port)
    welcome = await raw.hello(name, **kw)
    assert welcome["t"] == "welcome", welcome
    return raw


async def bye_for(port: int, frame: dict[str, Any]) -> dict[str, Any]:
    raw = await Raw.open(port)
    raw.send(frame)
    got = await raw.recv("welcome", "bye")
    await raw.close()
    return got


# ---- Frames -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\xc1", "bad_frame"),
        (msgpack.packb({"t": "ping", "n": 1}) + b"\x00", "bad_frame"),
        (msgpack.packb({"t": "ping", "n": msgpack.Timestamp(1, 0)}), "bad_frame"),
        (msgpack.packb({"t": "ping", "x": [msgpack.Timestamp(2**40, 5)]}), "bad_frame"),
        (msgpack.packb({"t": "ping", "n": msgpack.ExtType(5, b"x")}), "bad_frame"),
        (msgpack.packb({1: 2}), "bad_frame"),
        (msgpack.packb([1, 2]), "not_a_map"),
        (msgpack.packb({"n": 1}), "unknown_type"),
        (msgpack.packb({"t": "launch"}), "unknown_type"),
        (msgpack.packb({"t": "ping", "n": "one"}), "bad_field"),
        (msgpack.packb({"t": "ping", "n": [[[[1]]]] * 100}), "bad_field"),
        (msgpack.packb({"t": "ping", "n": 2**63 - 1}), "bad_field"),
        (msgpack.packb({"t": "ping"}), "bad_field"),
    ],
    ids=[
        "reserved-byte",
        "trailing",
        "timestamp",
        "timestamp-96",
        "ext-type",
        "int-key",
        "array",
        "no-t",
        "unknown-t",
        "n-str",
        "n-nested",
        "n-huge",
        "n-missing",
    ],
)
async def test_frames_a_bad_frame_gets_one_typed_error_and_decoding_goes_on(data: bytes, code: str) -> None:
    """Frames: undecodable bodies (extension types, msgpack's Timestamp included), non-maps,
    unknown types and fields that do not fit are each one `error` with their code; the
    connection goes on."""
    async with running_host(table_config()) as host:
        raw = await greeted(host.port)
        raw.send_bytes(body(data))
        raw.send({"t": "sync", "aid": 1})
        err = await raw.recv("error", "result")
        assert (err["t"], err["code"]) == ("error", code), err
        assert (await raw.recv("result"))["aid"] == 1
        await raw.close()


async def test_frames_an_oversized_frame_is_skipped_unread() -> None:
    """Frames: a length over MAX_FRAME is refused before the body arrives; decoding goes on."""
    async with running_host(table_config()) as host:
        raw = await greeted(host.port)
        raw.send_bytes(HEADER.pack(70_000) + b"\0" * 70_000 + encode({"t": "sync", "aid": 2}))
        assert (await raw.recv("error"))["code"] == "frame_too_big"
        assert (await raw.recv("result"))["aid"] == 2
        await raw.close()


async def test_frames_optional_fields_may_be_null_and_unknown_fields_are_ignored() -> None:
    """Frames: an optional field absent or null means its default; unknown extra fields are
    ignored."""
    async with running_host(table_config(seats=3, bots=1)) as host:
        raw = await greeted(host.port)
        raw.send({"t": "join", "table": 1, "seat": None, "aid": None, "colour": "blue"})
        assert (await raw.recv("seated"))["seat"] == 0
        assert await raw.recv("result") == {"t": "result", "aid": None, "ok": True}
        await raw.close()


async def test_frames_integers_out_of_range_are_named_with_their_range() -> None:
    """Frames and Requests: a number out of its range is `bad_field`, and the text says the range."""
    async with running_host(table_config()) as host:
        raw = await greeted(host.port)
        raw.send({"t": "join", "table": 2**63 - 1, "aid": 3})
        r = await raw.recv("result")
        assert (r["aid"], r["code"], r["text"]) == (3, "bad_field", "`join.table` must be an integer from 0 to 2^53-1")
        await raw.close()


# ---- Limits -------------------------------------------------------------------------------


async def test_limits_rate_limited_requests_get_their_result_and_other_frames_an_error() -> None:
    """Limits: over FRAME_BURST a request is answered `result rate_limited`, a ping `error
    rate_limited`; MAX_ERRORS of them and the host says `bye too_many_errors`."""
    limits = Limits(ping_interval=30.0, idle_timeout=30.0, frame_burst=3, frames_per_second=0.01, max_errors=4)
    async with running_host(table_config(), limits=limits) as host:
        raw = await greeted(host.port)  # the hello took one token
        for i in range(2):
            raw.send({"t": "sync", "aid": i})
        raw.send({"t": "sync", "aid": 10})
        raw.send({"t": "ping", "n": 1})
        raw.send({"t": "sync", "aid": 11})
        raw.send({"t": "sync"})
        got = await raw.until_closed()
        answers = [(f["t"], f.get("aid"), f.get("code")) for f in got if f["t"] in ("result", "error", "bye")]
        assert answers == [
            ("result", 0, "not_seated"),  # a refusal, not a protocol error
            ("result", 1, "not_seated"),
            ("result", 10, "rate_limited"),
            ("error", None, "rate_limited"),
            ("result", 11, "rate_limited"),
            ("result", None, "rate_limited"),
            ("bye", None, "too_many_errors"),
        ]
        await raw.close()


def test_limits_the_largest_lobby_fits_in_a_frame() -> None:
    """Limits: TABLES_MAX tables of TABLE_SEATS_MAX seats, every name as long as it may be in the
    widest characters, still make one lobby frame under MAX_FRAME."""
    name = "\U0001f426" * NAME_MAX
    seat = {"seat": 5, "name": name, "kind": "human", "level": "expert", "connected": True, "away": False}
    table = {"id": 2**40, "name": name + "'s table", "phase": "waiting", "game": 10**6, "edition": "3.5"}
    table |= {"seats": [seat | {"left": False}] * 6, "watchers": 10**4}
    lobby = {"t": "lobby", "host": name, "tables": [table] * TABLES_MAX, "can_create": True}
    encode(lobby | {"levels": ["random", "greedy", "easy", "medium", "hard", "expert"]})


# ---- Who gets in --------------------------------------------------------------------------


async def test_who_gets_in_a_newer_silent_connection_closes_the_oldest_one() -> None:
    """Who gets in: past PENDING_PER_ADDRESS connections that have not said hello, the oldest
    of that address is closed with `bye host_full`; another address is not touched."""
    limits = Limits(ping_interval=30.0, idle_timeout=30.0, hello_timeout=30.0, pending_per_address=3)
    async with running_host(table_config(), limits=limits) as host:
        other = await Raw.open(host.port, local="127.0.0.2")
        silent = [await Raw.open(host.port) for _ in range(3)]
        while len(host.sessions) < 4:  # the host has taken all four in
            await asyncio.sleep(0.005)
        newest = await Raw.open(host.port)
        got = await silent[0].until_closed()
        assert [(f["t"], f["code"]) for f in got] == [("bye", "host_full")]
        newest.send(hello())
        other.send(hello("Bob"))
        assert (await newest.recv("welcome", "bye"))["t"] == "welcome"
        assert (await other.recv("welcome", "bye"))["t"] == "welcome"
        for raw in (other, *silent, newest):
            await raw.close()


async def test_who_gets_in_an_address_holds_per_address_connections_without_a_seat() -> None:
    """Who gets in: past PER_ADDRESS connections without a seat from one address, a `hello` that
    would not sit down is `bye host_full`; one that sits at a table is welcomed."""
    limits = Limits(ping_interval=30.0, idle_timeout=30.0, per_address=2)
    async with running_host(table_config(seats=3, bots=1)) as host, running_host(limits=limits) as small:
        del host
        lobby = [await greeted(small.port, f"P{i}") for i in range(2)]
        third = await Raw.open(small.port)
        got = await third.hello("P3")
        assert (got["t"], got["code"]) == ("bye", "host_full")
        sitter = await Raw.open(small.port)
        assert (await sitter.hello("P4", table=1))["t"] == "welcome"
        for raw in (*lobby, third, sitter):
            await raw.close()


# ---- A session ----------------------------------------------------------------------------


async def test_session_only_hello_comes_first_and_no_ping_before_welcome() -> None:
    """A session, Handshake: before `hello`, a ping is `error unexpected`, a request `result
    unexpected`; the host sends no ping before its welcome."""
    clock = LoopFakeClock()
    limits = Limits(ping_interval=5.0, idle_timeout=300.0, hello_timeout=300.0)
    async with running_host(table_config(), limits=limits, conn_clock=clock) as host:
        raw = await Raw.open(host.port)
        for n in range(1, 11):  # ten ping intervals
            await due(clock, 5.0 * n)
            clock.advance(5.0)
        raw.send({"t": "ping", "n": 1})
        raw.send({"t": "leave", "aid": 4})
        assert (await raw.recv("error"))["code"] == "unexpected"
        r = await raw.recv("result")
        assert (r["aid"], r["code"]) == (4, "unexpected")
        assert not [f for f in raw.frames if f["t"] == "ping"]
        await raw.hello("Ada")
        await due(clock, 55.0)
        clock.advance(5.0)
        await raw.recv("ping")
        raw.send(hello())
        assert (await raw.recv("error"))["code"] == "unexpected", "a second hello"
        await raw.close()


async def test_session_handshake_refusals_in_their_order() -> None:
    """A session, Handshake: version, rules hash (the bye names the expected value), password,
    token (an empty one too), table."""
    async with running_host(table_config(seats=2, bots=1), password="sesame") as host:
        p = host.port
        assert (await bye_for(p, hello(v=2, password="sesame")))["code"] == "version_mismatch"
        rules = await bye_for(p, hello(rules="0" * 16, password="sesame"))
        assert rules["code"] == "rules_mismatch" and RULES_HASH in rules["text"]
        assert (await bye_for(p, hello()))["code"] == "bad_password"
        assert (await bye_for(p, hello(password="nope")))["code"] == "bad_password"
        assert (await bye_for(p, hello(password="sesame", token="")))["code"] == "bad_token"
        assert (await bye_for(p, hello(password="sesame", token="f" * 32)))["code"] == "bad_token"
        assert (await bye_for(p, hello(password="sesame", table=9)))["code"] == "no_such_table"
        sitter = await greeted(p, "Ada", password="sesame", table=1)
        await sitter.recv("update")
        playing = await bye_for(p, hello(password="sesame", table=1))
        assert (playing["code"], playing["text"]) == ("wrong_phase", "Table 1 is already playing; you may watch it")
        watch = await bye_for(p, hello(password="sesame", table=1, watch=True))
        assert watch["t"] == "welcome"
        await sitter.close()


async def test_session_a_full_table_and_a_seat_that_does_not_exist() -> None:
    """A session, Lobby: `join` a taken seat is `table_full`, a seat the table does not have is
    `bad_field` naming its seats; a full table refuses `hello {table}` with `bye table_full`."""
    async with running_host(table_config(seats=3, bots=0)) as host:
        ada = await greeted(host.port, table=1)
        bob = await greeted(host.port, "Bob")
        for seat, code, text in [
            (0, "table_full", "seat 0 of Table 1 is taken"),
            (4, "bad_field", "Table 1 has seats 0 to 2"),
            (9, "bad_field", "`join.seat` must be an integer from 0 to 5"),
        ]:
            bob.send({"t": "join", "table": 1, "seat": seat, "aid": seat})
            r = await bob.recv("result")
            assert (r["aid"], r["code"], r["text"]) == (seat, code, text)
        bob.send({"t": "join", "table": 1, "seat": 2, "aid": 1})
        assert (await bob.recv("seated"))["seat"] == 2
        assert (await bob.recv("result"))["ok"]
        third = await Raw.open(host.port)
        third.send(hello("Cy"))
        await third.recv("welcome")
        third.send({"t": "join", "table": 1, "aid": 1})
        assert (await third.recv("result"))["ok"]  # the last seat: the game starts
        late = await bye_for(host.port, hello("Dee", table=1))
        assert late["code"] == "wrong_phase"
        for raw in (ada, bob, third):
            await raw.close()


async def test_session_seated_comes_again_at_each_game_start() -> None:
    """A session, `seated` at each game's start: before a game's first update every person gets
    `seated` with the seat they play in it (rotated after a rematch)."""
    async with running_host(table_config(seats=2, bots=1)) as host:
        raw = await greeted(host.port, table=1)
        await play_raw(raw, random.Random(4))
        raw.send({"t": "rematch", "aid": 1})
        await raw.recv("update")
        kinds = [(f["t"], f.get("seat")) for f in raw.frames if f["t"] in ("seated", "update", "over")]
        first_update = kinds.index(("update", None))
        assert kinds[:first_update] == [("seated", 0), ("seated", 0)]
        over = kinds.index(("over", None))
        assert kinds[over + 1 : over + 3] == [("seated", 1), ("update", None)]
        await raw.close()


# ---- Requests -----------------------------------------------------------------------------


async def test_requests_every_request_gets_exactly_one_result_with_its_aid() -> None:
    """Requests: each of the ten requests, done or refused, valid or not, gets one result
    carrying its aid (null when it had none or an unusable one)."""
    async with running_host(table_config(seats=3, bots=1)) as host:
        raw = await greeted(host.port)
        requests: list[dict[str, Any]] = [
            {"t": "say", "text": "anyone?", "aid": 1},
            {"t": "leave", "aid": 2},
            {"t": "start", "aid": 3},
            {"t": "rematch", "aid": 4},
            {"t": "here", "aid": 5},
            {"t": "choose", "id": 1, "option": "draw", "aid": 6},
            {"t": "sync", "aid": 7},
            {"t": "watch", "table": 1, "aid": 8},
            {"t": "say", "text": "hello all", "aid": 9},
            {"t": "join", "table": 1, "aid": 10},
            {"t": "create", "aid": 11},
            {"t": "choose", "id": 1, "option": {"x": 1}, "aid": 12},
            {"t": "join", "table": "one", "aid": "x"},
            {"t": "start"},
        ]
        for r in requests:
            raw.send(r)
        raw.send({"t": "sync", "aid": 99})
        results: list[dict[str, Any]] = []
        while not results or results[-1]["aid"] != 99:
            results.append(await raw.recv("result"))
        assert [r["aid"] for r in results] == [*range(1, 13), None, None, 99]
        codes = [r.get("code") for r in results]
        assert codes[:5] == ["not_seated", "not_seated", "not_seated", "not_seated", "not_seated"]
        assert codes[5:12] == ["not_seated", "not_seated", None, None, None, "not_allowed", "bad_field"]
        assert codes[12] == "bad_field"
        await raw.close()


# ---- Updates, sequence numbers, snapshots -------------------------------------------------


async def test_updates_seq_counts_up_and_follows_the_person_through_a_rematch() -> None:
    """Updates: a person's `seq` goes 1, 2, 3, ... across games and the rotation of seats;
    `sync {seq}` brings a snapshot with the events after it."""
    async with running_host(table_config(seats=2, bots=1)) as host:
        raw = await greeted(host.port, table=1)
        await play_raw(raw, random.Random(5))
        raw.send({"t": "rematch", "aid": 1})
        await play_raw(raw, random.Random(6))
        seqs = [f["seq"] for f in raw.frames if f["t"] == "update"]
        assert seqs == list(range(1, len(seqs) + 1))
        raw.send({"t": "sync", "seq": seqs[-1] - 2, "aid": 2})
        snap = await raw.recv("snapshot")
        updates = [f for f in raw.frames if f["t"] == "update"]
        assert snap["seq"] == seqs[-1] and snap["complete"]
        assert snap["events"] == [e for f in updates[-2:] for e in f["events"]]
        await raw.close()


async def test_updates_a_spectator_gets_a_snapshot_then_the_public_stream() -> None:
    """Updates: a spectator who starts watching a game gets a snapshot, then updates without a
    hand or decisions."""
    async with running_host(table_config(seats=2, bots=1, bot_delay=0.01)) as host:
        ada = await greeted(host.port, table=1)
        while host.tables[1].phase is not Phase.PLAYING:
            await asyncio.sleep(0.01)
        fan = await greeted(host.port, "Fan", table=1, watch=True)
        snap = await fan.recv("snapshot")
        assert snap["seat"] is None and snap["view"]["hand"] == []
        game = asyncio.create_task(play_raw(ada, random.Random(1)))
        update = await fan.recv("update")
        assert update["seq"] == snap["seq"] + 1 and update["decisions"] == []
        await game
        for raw in (ada, fan):
            await raw.close()


# ---- Decisions and choices ----------------------------------------------------------------


async def test_decisions_ids_are_per_seat_and_refusals_say_why() -> None:
    """Decisions and choices: ids on the wire start at 1 for each seat; a stale id brings
    `stale_decision` and a snapshot; a value not offered `option_not_offered`; after the game,
    `game_over`."""
    async with running_host(table_config(seats=2, bots=1)) as host:
        raw = await greeted(host.port, table=1)
        first = await raw.recv("update")
        while not first["decisions"]:
            first = await raw.recv("update")
        assert first["decisions"][0]["id"] == 1
        raw.send({"t": "choose", "id": 77, "option": "draw", "aid": 1})
        assert (await raw.recv("result"))["code"] == "stale_decision"
        assert (await raw.recv("snapshot"))["decisions"] == first["decisions"]
        raw.send({"t": "choose", "id": 1, "option": ["fly", "away"], "aid": 2})
        assert (await raw.recv("result"))["code"] == "option_not_offered"
        raw.send({"t": "sync", "aid": 3})  # play from the snapshot it brings
        await play_raw(raw, random.Random(2))
        raw.send({"t": "choose", "id": 1, "option": "draw", "aid": 4})
        r = await raw.recv("result")
        while r["aid"] != 4:  # the last choices' results may come after `over`
            r = await raw.recv("result")
        assert r["code"] == "game_over"
        await raw.close()


# ---- Time, absence and bots ---------------------------------------------------------------


async def test_time_an_idle_turn_goes_to_a_bot_until_here() -> None:
    """Time, absence and bots: past the turn limit the seat is `away` in `table` frames and a bot
    plays; `here` hands it back."""
    clock = LoopFakeClock()
    cfg = table_config(seats=2, bots=1, turn_limit=120.0, bot_delay=1.0)
    async with running_host(cfg, clock=clock) as host, ticking(clock, 5.0):
        raw = await greeted(host.port, table=1)
        while True:
            table = await raw.recv("table")
            mine = table["seats"][0]
            if mine is not None and mine["away"]:
                break
        raw.send({"t": "here", "aid": 1})
        assert (await raw.recv("result"))["ok"]
        last = [f for f in raw.frames if f["t"] == "table"][-1]
        assert not last["seats"][0]["away"], "the table frame saying so came before the result"
        await raw.close()


# ---- Reconnection -------------------------------------------------------------------------


async def test_reconnection_the_token_brings_seat_table_and_snapshot() -> None:
    """Reconnection: `hello {token, last_seq}` gets `welcome {resumed}`, `seated` with the same
    seat, `table`, and a snapshot with the events missed."""
    async with running_host(table_config(seats=2, bots=1, away_grace=30.0)) as host:
        raw = await greeted(host.port, table=1)
        seated = await raw.recv("seated")
        first = await raw.recv("update")
        await raw.close()
        back = await Raw.open(host.port)
        welcome = await back.hello("Anyone", token=seated["token"], last_seq=first["seq"])
        assert welcome["resumed"] and welcome["name"] == "Ada"
        again = await back.recv("seated")
        assert (again["table"], again["seat"], again["token"]) == (1, seated["seat"], seated["token"])
        await back.recv("table")
        snap = await back.recv("snapshot")
        assert snap["seat"] == seated["seat"] and snap["seq"] >= first["seq"]
        await back.close()


# ---- Chat and names -----------------------------------------------------------------------


async def test_chat_and_names_are_cleaned_and_cut_never_refused() -> None:
    """Chat and names: control characters and escapes go, long names and lines are cut to
    NAME_MAX and CHAT_MAX, the lobby has no chat, and `say` gets its result."""
    async with running_host(table_config(seats=2, bots=1)) as host:
        raw = await Raw.open(host.port)
        welcome = await raw.hello("\x1b[31mMallory\x07" + "y" * 5000)
        assert welcome["name"] == ("Mallory" + "y" * 5000)[:NAME_MAX]
        raw.send({"t": "say", "text": "hi", "aid": 1})
        assert (await raw.recv("result"))["code"] == "not_seated"
        raw.send({"t": "join", "table": 1})
        await raw.recv("seated")
        raw.send({"t": "say", "text": "\x1b]0;pwned\x07" + "z" * 3000, "aid": 2})
        chat = await raw.recv("chat")
        assert chat["text"] == "z" * CHAT_MAX and chat["name"] == welcome["name"]
        assert (await raw.recv("result"))["ok"]
        raw.send({"t": "say", "text": "\x1b[2J\u202e", "aid": 3})
        assert (await raw.recv("result"))["ok"]  # nothing left to send, and nothing sent
        raw.send({"t": "sync", "aid": 4})
        await raw.recv("result")
        assert [f["text"] for f in raw.frames if f["t"] == "chat"] == ["z" * CHAT_MAX]
        await raw.close()


# ---- Frame reference ----------------------------------------------------------------------


async def test_frame_reference_a_whole_game_sends_only_frames_it_describes() -> None:
    """Frame reference: everything a host sends over a game with a spectator, chat, errors and a
    refusal fits the tables (the `Raw` helper checks each frame)."""
    async with running_host(table_config(seats=2, bots=1), limits=FAST) as host:
        fan = await greeted(host.port, "Fan", table=1, watch=True)
        ada = await greeted(host.port, table=1)
        ada.send({"t": "say", "text": "good luck", "aid": 1})
        ada.send({"t": "nonsense"})
        ada.send({"t": "sync", "aid": 2})
        await play_raw(ada, random.Random(9))
        await fan.recv("over")
        seen = {f["t"] for raw in (ada, fan) for f in raw.frames}
        assert seen >= {"welcome", "table", "seated", "update", "snapshot", "result", "error", "chat", "over"}
        for raw in (ada, fan):
            await raw.close()
