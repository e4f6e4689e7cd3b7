"""A board that is always true (issue 9): every update and snapshot a client gets shows the
public state as of the last event it has been sent, never older and never ahead, checked
against the game's record replayed with `core.rules.apply(..., at_window=...)`."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from core.decisions import REACTIONS, Decision

from .boards import Truth, public_board
from .helpers import BOTH_ASKED, Raw, both_asked, pick, play_raw, running_host, table_config


def check_boards(raw: Raw, truth: Truth) -> int:
    """Every update and snapshot `raw` got shows the board as of the last event it had then.
    Returns how many were shown during a reaction window."""
    shown = windows = 0
    for f in raw.frames:
        if f["t"] == "update":
            shown += len(f["events"])
        elif f["t"] == "snapshot":
            continue  # checked where it is taken (its log restarts the count)
        else:
            continue
        assert f["events"] == truth.events[shown - len(f["events"]) : shown], f"update {f['seq']}: its events"
        assert f["view"] is not None, f"update {f['seq']} has no view"
        assert f["view"]["decisions"] == f["decisions"]
        window = f["window"] is not None
        expected = truth.board(shown, window)
        assert public_board(f["view"]) == expected, f"update {f['seq']} (window {window}) shows another board"
        windows += window
    assert shown == len(truth.events), "every event arrived"
    return windows


async def test_every_update_shows_the_board_as_of_its_last_event() -> None:
    """Issue 9, R5.7: over whole games (one person against quick bots, windows not paced; two
    people, paced windows, blind or not: when nobody may react the game goes on at once and
    what follows is held), each update's view is the public state as of its last event, for
    every seat and for a spectator."""
    for cfg, people in (
        (table_config(seats=4, bots=3, seed=45, reaction_window=1.5), 1),
        (table_config(seats=3, bots=1, seed=42, reaction_window=0.003, blind_windows=True, edition="3.0"), 2),
        (table_config(seats=4, bots=2, seed=43, reaction_window=0.003), 2),
    ):
        async with running_host(cfg) as host:
            watcher = await Raw.open(host.port)
            await watcher.hello("Eve", table=1, watch=True)
            raws = [await Raw.open(host.port) for _ in range(people)]
            seats = []
            for i, raw in enumerate(raws):
                await raw.hello(f"P{i}", table=1)
                seats.append((await raw.recv("seated"))["seat"])
            overs = await asyncio.gather(*(play_raw(r, random.Random(i)) for i, r in enumerate(raws)))
            await watcher.recv("over")
            record = overs[0]["record"]
            windows = 0
            everyone = [*raws, watcher]
            for raw, truth in zip(everyone, Truth.each(record, [*seats, None]), strict=True):
                windows += check_boards(raw, truth)
                await raw.close()
            assert windows > 10, "windows were shown, with their boards"


async def test_a_snapshot_taken_during_a_window_shows_that_window() -> None:
    """Issue 9: while a window waits for Bob, Ada (who answered) and Bob come back from new
    processes with their tokens, and a spectator starts watching: each snapshot has the board
    as of the window's event, only the decisions still open (Ada's answer is gone, Bob's
    reaction is there with the same id), the window, and the game's log so far."""
    async with running_host(BOTH_ASKED) as host:
        table = host.tables[1]
        a, b, seated, ua, ub = await both_asked(host)
        d = Decision.from_dict(ua["decisions"][0])
        a.send({"t": "choose", "id": d.id, "option": "pass", "aid": 1})
        await a.recv("result")
        assert table.record is not None

        def log_of(raw: Raw) -> list[dict[str, Any]]:
            return [e for f in raw.frames if f["t"] == "update" for e in f["events"]]

        for old, s, asked in ((a, seated[0], ()), (b, seated[1], tuple(ub["decisions"]))):
            again = await Raw.open(host.port)
            welcome = await again.hello("Someone", token=s["token"])  # a new process: no last_seq
            assert welcome["resumed"]
            snap = await again.recv("snapshot")
            truth = Truth.of(table.record.to_dict(), s["seat"])
            assert snap["events"] == log_of(old) == truth.events and snap["complete"], "the game's log"
            assert snap["window"] == ua["window"] and snap["window"] is not None
            assert tuple(snap["decisions"]) == asked and snap["view"]["decisions"] == snap["decisions"]
            assert public_board(snap["view"]) == truth.board(len(truth.events), window=True)
            if asked:
                assert Decision.from_dict(snap["decisions"][0]).kind in REACTIONS
            assert snap["seq"] == (ua if old is a else ub)["seq"] + (1 if old is a else 0)
            rest = await old.until_closed()
            assert any(f["t"] == "bye" and f["code"] == "replaced" for f in rest)
            await again.close()
        eve = await Raw.open(host.port)
        await eve.hello("Eve", table=1, watch=True)
        snap = await eve.recv("snapshot")
        truth = Truth.of(table.record.to_dict(), None)
        assert snap["events"] == truth.events and snap["complete"] and snap["decisions"] == []
        assert public_board(snap["view"]) == truth.board(len(truth.events), window=True)
        assert snap["view"]["hand"] == [] and snap["window"] == ua["window"]
        await eve.close()


async def test_a_client_that_rejoins_gets_the_games_log_within_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: a seat that comes back with its token and no `last_seq` gets the current
    game's events (redacted for it), the most recent ones if there are too many for a frame
    (`complete: false`), never the previous game's."""
    cfg = table_config(seats=2, bots=1, seed=9)
    async with running_host(cfg) as host:
        table = host.tables[1]
        a = await Raw.open(host.port)
        await a.hello("Ada", table=1)
        seated = await a.recv("seated")
        rng = random.Random(1)
        made, decisions, waiting = 0, [], False
        while made < 25:
            f = await a.recv("update", "result")
            if f["t"] == "result":
                waiting = False
            else:
                decisions = f["decisions"]
            if decisions and not waiting:
                d = Decision.from_dict(decisions[0])
                a.send({"t": "choose", "id": d.id, "option": _plain(pick(d, rng)), "aid": made})
                made, waiting = made + 1, True
        await asyncio.sleep(0.05)
        again = await Raw.open(host.port)
        await again.hello("Ada", token=seated["token"])
        snap = await again.recv("snapshot")
        assert table.record is not None
        truth = Truth.of(table.record.to_dict(), seated["seat"])
        assert snap["complete"] and snap["events"] == truth.events
        assert any(e["kind"] == "drew" and e["cards"] for e in snap["events"]), "its own draws, with the cards"
        await a.close()
        # a small bound: only the latest events, and the snapshot says so
        from net.table import streams

        monkeypatch.setattr(streams, "SNAPSHOT_EVENTS", 10)
        third = await Raw.open(host.port)
        await third.hello("Ada", token=seated["token"])
        snap = await third.recv("snapshot")
        assert not snap["complete"] and snap["events"] == truth.events[-10:]
        await again.close()
        await third.close()


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v
