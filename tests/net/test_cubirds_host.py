"""Issue 15: CuBirds through the real host (the same host, protocol and client as Pigeons &
Guano): whole games, a reconnection, spectators, and C6 on the wire (no hand but its owner's,
and nothing of the draw pile, ever leaves the host)."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from core.cubirds import GameState, PlayerView
from core.games import CUBIRDS, record_from_dict
from net.client import Client, GameChanged, GameOver, Status, StatusChanged
from net.table import Frame, Outbox, Phase, Recipient, Table

from .helpers import Raw, play_client, running_host, strings, table_config

BIRD_ID = re.compile(r"\b(?:FL|OW|TO|DU|PA|MA|RW|RO)\d\d\b")


def bird_ids(obj: Any) -> set[str]:
    return set(BIRD_ID.findall("\n".join(strings(obj))))  # as helpers.card_ids


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """C6.1: the draw pile, and every hand but the seat's own."""
    hidden = set(state.draw)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand)
    return hidden


class Spy(Outbox):
    """Checks every update and snapshot as its table sends it, against the game as it stands
    then (CuBirds has no reaction windows: a frame's board is the state now)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.checked = 0
        self.leaks: list[str] = []
        table.outbox = self

    def send(self, to: Recipient, frame: Frame) -> None:
        if frame["t"] in ("update", "snapshot"):
            state = self.table.state
            assert state is not None
            seat = next((m.seat for m in self.table.humans if m.conn is to), None)
            leaked = bird_ids([frame["view"], frame["decisions"]]) & hidden_from(state, seat)
            if leaked:
                self.leaks.append(f"{frame['t']} {frame['seq']} to seat {seat}: {sorted(leaked)}")
            if frame["view"] is not None and frame["view"]["hand"] != (
                list(state.hands[seat]) if seat is not None else []
            ):
                self.leaks.append(f"{frame['t']} {frame['seq']} to seat {seat}: not its own hand")
            for e in frame["events"]:
                if e["secret"] and e["player"] != seat and e["cards"]:
                    self.leaks.append(f"{frame['t']} {frame['seq']} to seat {seat}: {e}")
            self.checked += 1
        super().send(to, frame)


async def _watch(client: Client, out: list[GameChanged]) -> None:
    async for u in client.updates():
        if isinstance(u, GameChanged):
            out.append(u)
        if isinstance(u, GameOver):
            return


async def test_c6_a_whole_game_of_cubirds_two_people_a_bot_and_a_spectator() -> None:
    """C6 over the wire, a whole game to its end: each person sees their own hand and no other,
    the spectator none, nobody a card of the draw pile; the record replays to the same end."""
    cfg = table_config(game="cubirds", seats=3, bots=1, seed=11, bot_level="greedy")
    async with running_host(cfg) as host:
        table = host.tables[1]
        spy = Spy(table)
        eve = Client("127.0.0.1", host.port, "Eve", table=1, watch=True)
        await eve.connect()
        watched: list[GameChanged] = []
        watching = asyncio.create_task(_watch(eve, watched))
        a = Client("127.0.0.1", host.port, "Ada", table=1)
        b = Client("127.0.0.1", host.port, "Bob", table=1)
        await a.connect()
        await b.connect()
        made = await asyncio.gather(play_client(a, random.Random(1)), play_client(b, random.Random(2)))
        await watching
        assert min(made) > 0
        assert table.phase is Phase.OVER and table.state is not None and table.state.over
        assert spy.checked > 2 * sum(made) and spy.leaks == []
        for c in (a, b):
            assert isinstance(c.view, PlayerView) and c.view.over and c.seat is not None
            assert c.view == CUBIRDS.view(table.state, c.seat)._replace(decisions=c.view.decisions)
            assert c.result is not None and list(c.result.winners) == CUBIRDS.winners(table.state)
            assert c.result.record["game"] == "cubirds"
            replayed = record_from_dict(dict(c.result.record)).replay()
            assert replayed.to_dict() == table.state.to_dict()
        assert watched and all(isinstance(u.view, PlayerView) and u.view.hand == () for u in watched)
        assert watched[-1].view.over
        kinds = {e.kind.value for u in watched for e in u.events}
        assert {"turn", "laid"} <= kinds, kinds
        for c in (a, b, eve):
            await c.close()


async def test_cubirds_table_info_and_create_name_the_game() -> None:
    """The lobby lists each table's game; `create {game_id}` opens a table of that game."""
    async with running_host(table_config(seats=2, bots=1), tables=3) as host:
        raw = await Raw.open(host.port)
        await raw.hello("Ada")
        lobby = await raw.recv("lobby")
        assert [t["game_id"] for t in lobby["tables"]] == ["pigeons"]
        raw.send({"t": "create", "game_id": "cubirds", "seats": 2, "bots": 1, "aid": 1})
        info = await raw.recv("table")
        assert info["game_id"] == "cubirds"
        update = await raw.recv("update")
        assert update["view"]["game"] == "cubirds" and len(update["view"]["rows"]) == 4
        raw.send({"t": "leave", "aid": 9})  # seated, one asks from the lobby
        raw.send({"t": "create", "game_id": "cubirds", "seats": 6, "aid": 2})
        refused = await raw.recv("result")
        while refused.get("aid") != 2:
            refused = await raw.recv("result")
        assert not refused["ok"] and refused["code"] == "bad_field" and "2 to 5" in refused["text"]
        await raw.close()


async def test_cubirds_dropped_client_reconnects_with_its_token_and_finishes() -> None:
    async with running_host(table_config(game="cubirds", seats=3, bots=1, away_grace=30.0, seed=4)) as host:
        a = Client("127.0.0.1", host.port, "Ada", table=1)
        b = Client("127.0.0.1", host.port, "Bob", table=1)
        await a.connect()
        await b.connect()
        task_b = asyncio.create_task(play_client(b, random.Random(2)))
        await play_client(a, random.Random(1), stop_after=4)
        token, seat = a.token, a.seat
        assert a._conn is not None
        a._conn.writer.transport.abort()  # the network drops
        statuses: list[Status] = []
        snapshot: GameChanged | None = None
        async for u in a.updates():
            if isinstance(u, StatusChanged):
                statuses.append(u.status)
            if isinstance(u, GameChanged) and u.snapshot:
                snapshot = u
                break
        assert statuses[:2] == [Status.RECONNECTING, Status.CONNECTED]
        assert snapshot is not None and isinstance(snapshot.view, PlayerView)
        assert a.token == token and a.seat == seat
        await play_client(a, random.Random(3))
        await task_b
        table = host.tables[1]
        assert table.state is not None and table.state.over
        me = table.seats[seat] if seat is not None else None
        assert me is not None and me.human and not me.away, "the seat stayed the person's"
        await a.close()
        await b.close()
