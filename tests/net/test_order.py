"""Answers in order (issue 9): a choice's `result` comes after the update carrying its events,
so a client that follows docs/protocol.md never sees the decision it answered as still open."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from core.decisions import REACTIONS, Decision
from core.events import EventKind, redact
from core.record import Record
from core.rules import apply

from .helpers import BOTH_ASKED, Raw, both_asked, pick, running_host, table_config


@dataclass
class Player:
    """A client as docs/protocol.md describes one: it answers a decision of its latest update,
    waits for the result, then answers from its latest update again."""

    raw: Raw
    rng: random.Random
    seat: int = -1
    events: list[dict[str, Any]] = field(default_factory=list)
    """Every event received, in order."""
    answered: list[tuple[int, int, int, bool]] = field(default_factory=list)
    """Accepted choices: (wire id, events received when the result came, decisions open then
    that have that id, whether the decision was a reaction)."""
    refused: list[str] = field(default_factory=list)
    over: dict[str, Any] | None = None

    async def play(self) -> None:
        decisions: list[dict[str, Any]] = []
        waiting: tuple[int, int, bool] | None = None  # (aid, wire id, reaction)
        aid = 0
        while True:
            f = await self.raw.recv("update", "snapshot", "result", "over", "seated", timeout=30.0)
            if f["t"] == "seated":
                self.seat = f["seat"]
            elif f["t"] == "over":
                self.over = f
                if waiting is None:
                    return
                decisions = []  # the last choice's result may follow the `over` frame
            elif f["t"] == "result":
                assert waiting is not None and f["aid"] == waiting[0], f"a result nobody waits for: {f}"
                if f["ok"]:
                    still = sum(1 for d in decisions if d["id"] == waiting[1])
                    self.answered.append((waiting[1], len(self.events), still, waiting[2]))
                else:
                    self.refused.append(f["code"])
                waiting = None
                if self.over is not None:
                    return
            else:
                assert f["t"] == "update", "no snapshot: nothing was lost or stale"
                self.events.extend(f["events"])
                decisions = f["decisions"]
            if waiting is None and decisions:
                d = Decision.from_dict(decisions[0])
                aid += 1
                value = pick(d, self.rng)
                waiting = (aid, d.id, d.kind in REACTIONS)
                self.raw.send({"t": "choose", "id": d.id, "option": _plain(value), "aid": aid})


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def check_order(p: Player) -> tuple[int, int]:
    """Replay the game's record: the events the client received are exactly the game's
    (redacted for it), and each of its choices' events had all arrived when its result came.
    Returns (choices checked, of which opened or answered a reaction window)."""
    assert p.over is not None and not p.refused, p.refused
    record = Record.from_dict(p.over["record"])
    state = record.start()
    story: list[dict[str, Any]] = []
    ends: list[tuple[int, bool]] = []  # for each of p's choices: events up to its last, window?
    for player, decision_id, option in record.choices:
        decision = next(d for d in state.open if d.id == decision_id)
        events = apply(state, player, decision_id, option)
        story += [redact(e, p.seat).to_dict() for e in events]
        if player == p.seat:
            windowed = decision.kind in REACTIONS or any(e.kind is EventKind.WINDOW for e in events)
            ends.append((len(story), windowed))
    assert p.events == story, "every event once, in order"
    assert len(ends) == len(p.answered), "one result per choice applied"
    windowed_count = 0
    for (end, window), (wire_id, received, still_open, _) in zip(ends, p.answered, strict=True):
        assert received >= end, f"decision {wire_id}: its result came before its events"
        assert not still_open, f"decision {wire_id} was still open when its result came"
        windowed_count += window
    return len(ends), windowed_count


async def test_results_follow_the_updates_carrying_their_events() -> None:
    """Issue 9: over a few hundred choices against quick bots (no delay; windows not paced,
    since the bots answer at once), and at a paced table of two people asked in every window,
    no `result` comes before the update carrying its choice's events, and no client is left
    holding the decision it answered. The order is the host's: the eight games against bots are
    played through memory (`Raw.pipe`, served as accepted sockets, in order), the paced one over
    sockets."""
    checked = windowed = 0
    for seed in (0, 2, 10, 11, 12, 13, 14, 15):  # eight games of both editions, 240 choices or so
        cfg = table_config(seats=4, bots=3, seed=100 + seed, reaction_window=1.5, edition=("3.5", "3.0")[seed % 2])
        async with running_host(cfg) as host:
            p = Player(Raw.pipe(host), random.Random(seed))
            await p.raw.hello("Ada", table=1)
            await p.play()
            assert not host.tables[1].paced
            c, w = check_order(p)
            checked, windowed = checked + c, windowed + w
            await p.raw.close()
    cfg = table_config(seats=3, bots=1, seed=200, reaction_window=0.003, blind_windows=True)
    async with running_host(cfg) as host:
        people = [Player(await Raw.open(host.port), random.Random(10 + i)) for i in range(2)]
        for i, p in enumerate(people):
            await p.raw.hello(f"P{i}", table=1)
        await asyncio.gather(*(p.play() for p in people))
        assert host.tables[1].paced
        for p in people:
            c, w = check_order(p)
            checked, windowed = checked + c, windowed + w
            await p.raw.close()
    assert checked >= 300 and windowed >= 60, (checked, windowed)


async def test_an_answer_while_others_decide_is_acknowledged_before_its_result() -> None:
    """Issue 9, R5.7: a person who answers a reaction while another person is still asked gets
    an update with no events and without that decision, then the result; the other person's
    frames show nothing of it."""
    async with running_host(BOTH_ASKED) as host:
        a, b, _, ua, _ = await both_asked(host)
        before_b = len(b.frames)
        d = Decision.from_dict(ua["decisions"][0])
        a.send({"t": "choose", "id": d.id, "option": "pass", "aid": 1})
        ack = await a.recv("update")
        result = await a.recv("result")
        assert result["ok"] and result["aid"] == 1
        assert ack["seq"] == ua["seq"] + 1 and ack["events"] == [] and ack["decisions"] == []
        assert ack["window"] == ua["window"], "the window is still shown"
        assert {**ack["view"], "decisions": []} == {**ua["view"], "decisions": []}, "the same board"
        await asyncio.sleep(0.05)
        assert [f["t"] for f in b.frames[before_b:]] in ([], ["ping"]), "Bob sees nothing of it"
        await a.close()
        await b.close()
