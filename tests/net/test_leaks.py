"""R8 over the wire: over whole games, no client receives a card id it may not see (other
hands, the decks, cards removed unseen, trophies taken face down)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from core.state import GameState
from net.host import Host
from net.table import Stream, Table

from .helpers import Raw, card_ids, play_raw, running_host, table_config


def secrets_for(state: GameState, seat: int | None) -> set[str]:
    hidden = set(state.deck) | set(state.flock) | set(state.removed)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand)
    for trophies in state.trophies:
        for t in trophies:
            if t.hidden:
                hidden |= set(t.cards)
    return hidden


Seen = dict[tuple[int, int], tuple[set[str], int]]
"""(stream id, seq) -> (what the recipient may not see then, seq of the view it holds)."""


def spy(table: Table) -> Seen:
    """Record, for every update the table sends, what its recipient may not see at that moment."""
    seen: Seen = {}
    original = table._send_update
    last_view: dict[int, int] = {}

    def send_update(
        stream: Stream, conn: Any, seat: int | None, events: Any, window: Any, full: bool, *rest: Any
    ) -> None:
        assert table.state is not None
        hidden = secrets_for(table.state, seat)
        original(stream, conn, seat, events, window, full, *rest)
        if full:
            last_view[id(stream)] = stream.seq
        seen[(id(stream), stream.seq)] = (hidden, last_view.get(id(stream), 0))

    table._send_update = send_update  # type: ignore[method-assign]
    return seen


def check(raw: Raw, stream: Stream, seat: int | None, seen: Seen, public: Stream) -> int:
    """Every card id in every game frame `raw` got was visible to it when the frame was made.

    Views and decisions are built when a frame is sent, so they are checked against the state
    at that moment (a snapshot repeats the last view sent, checked against the state when it
    was sent). Events tell what happened earlier (a pigeon shown, then shuffled back into the
    Flock deck), so they are checked for what they may show: a secret event's cards only to
    its player."""
    checked = 0
    for frame in raw.frames:
        if frame["t"] in ("update", "snapshot"):
            key = (id(stream), frame["seq"])
            sid = id(stream) if key in seen else id(public)  # a spectator starts from the public stream
            hidden, view_seq = seen[(sid, frame["seq"])]
            view_hidden = seen[(sid, view_seq)][0] if view_seq else set()
            leaked = card_ids(frame["view"]) & (hidden if frame["t"] == "update" else view_hidden)
            leaked |= card_ids(frame["decisions"]) & hidden
            assert not leaked, f"{frame['t']} {frame['seq']} shows {sorted(leaked)}"
            for e in frame["events"]:
                if e["secret"] and e["player"] != seat:
                    assert not e["cards"], f"{frame['t']} {frame['seq']}: {e}"
            checked += 1
        elif frame["t"] != "over":  # the record of a finished game may show everything
            assert not card_ids(frame), frame
    return checked


def streams(host: Host, table: Table, names: list[str]) -> list[tuple[Stream, int | None]]:
    out: list[tuple[Stream, int | None]] = []
    for name in names:
        member = next((m for m in table.humans if m.name == name), None)
        if member is not None:
            out.append((member.stream, member.seat))
        else:
            watcher = next(s.watching for s in host.sessions.values() if s.name == name and s.watching)
            out.append((watcher.stream, None))
    return out


@pytest.mark.parametrize(
    ("humans", "bots", "window", "seed"),
    [(3, 1, 0.002, 11), (1, 3, 0.0, 12), (2, 0, 0.002, 13)],
)
async def test_no_frame_shows_a_card_its_recipient_may_not_see(
    humans: int, bots: int, window: float, seed: int
) -> None:
    cfg = table_config(seats=humans + bots, bots=bots, reaction_window=window, seed=seed)
    async with running_host(cfg) as host:
        table = host.tables[1]
        seen = spy(table)
        watcher = await Raw.open(host.port)
        await watcher.hello("Eve", table=1, watch=True)
        players = [await Raw.open(host.port) for _ in range(humans)]
        names = [f"P{i}" for i in range(humans)]
        for raw, name in zip(players, names, strict=True):
            await raw.hello(name, table=1)
        # a player asks for a snapshot mid-game, and a latecomer starts watching
        late = await Raw.open(host.port)
        tasks = [asyncio.create_task(play_raw(p, random.Random(seed + i))) for i, p in enumerate(players)]
        await players[0].recv("update")
        players[0].send({"t": "sync", "seq": 0})
        await late.hello("Late", table=1, watch=True)
        await asyncio.gather(*tasks)
        await watcher.recv("over")
        await late.recv("over")
        raws = [*players, watcher, late]
        total = 0
        for raw, (stream, seat) in zip(raws, streams(host, table, [*names, "Eve", "Late"]), strict=True):
            total += check(raw, stream, seat, seen, table.public)
        assert total > 50
        assert any(card_ids(f["view"]) for f in players[0].frames if f["t"] == "update" and f["view"]), "real cards"
        drew = [e for f in players[0].frames if f["t"] == "update" for e in f["events"] if e["kind"] == "drew"]
        assert any(e["cards"] for e in drew) and any(not e["cards"] for e in drew), "own draws shown, others' not"
        for r in raws:
            await r.close()
