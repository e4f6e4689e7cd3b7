"""A replay shows each seat exactly what the live game showed it: every view a client was sent
by the real host comes back, in order, when the game's record is stepped through (issue 11)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from core.record import Record
from core.replay import Replay
from core.views import PlayerView, view
from net.client import Client, GameChanged
from tests.net.helpers import pick, running_host, table_config


def _shown(v: PlayerView) -> dict[str, Any]:
    """A view without its decisions (numbered per connection on the wire) and the search-only flow."""
    d = v.to_dict()
    d.pop("decisions", None)
    d.pop("flow", None)
    return d


async def _play(c: Client, rng: random.Random, seen: list[PlayerView]) -> None:
    answered: set[int] = set()
    updates = c.updates()
    while c.result is None:
        todo = [d for d in c.decisions if d.id not in answered]
        if todo:
            answered.add(todo[0].id)
            await c.choose(todo[0].id, pick(todo[0], rng))
            continue
        update = await anext(updates)
        if isinstance(update, GameChanged) and update.view is not None:
            seen.append(update.view)


async def test_stepping_a_replay_gives_every_view_the_seat_was_sent() -> None:
    for seed in (3, 8):
        async with running_host(table_config(seats=3, bots=1, seed=seed)) as host:
            clients = [Client("127.0.0.1", host.port, name, table=1) for name in ("Ada", "Bob")]
            for c in clients:
                await c.connect()
            seen: list[list[PlayerView]] = [[], []]
            async with asyncio.timeout(120):
                await asyncio.gather(*(_play(c, random.Random(seed + i), seen[i]) for i, c in enumerate(clients)))
            assert clients[0].result is not None
            replay = Replay(Record.from_dict(clients[0].result.record))
            for c, views in zip(clients, seen, strict=True):
                assert c.seat is not None
                steps = [_shown(view(p.state, c.seat)) for p in replay.points]
                at = 0
                for v in views:
                    live = _shown(v)
                    while at < len(steps) and steps[at] != live:
                        at += 1
                    assert at < len(steps), f"seed {seed}, seat {c.seat}: a live view is not in the replay"
                assert len(views) > 20
            for c in clients:
                await c.close()
