"""Concurrency (issue 11): 50 tables play at once at one host process while it writes its
games database; the host is killed (SIGKILL) in the middle of it and started again with
`--resume`. No choice is lost: every choice whose result reached its person is in the
database, in the order made, before the crash and after; and every table plays on."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from core.decisions import plain
from net.client import Client
from net.spawn import HostProcess, HostSpec, start_host
from tests.net.crash import choices_in, free_port
from tests.net.helpers import pick

TABLES = 50


@dataclass
class Person:
    client: Client
    made: list[Any] = field(default_factory=list)
    """The options of this seat's choices whose result came back, in order (JSON form)."""
    refused: list[str] = field(default_factory=list)
    """Why a choice got no result (the host went, a stale decision, a timeout)."""


def spec(db: Path, port: int, resume: bool = False) -> HostSpec:
    extra = ("--reaction-window", "0", "--grace", "300", "--bot-processes", "0", "--tables", str(TABLES))
    return HostSpec(
        seats=2,
        bots=1,
        seed=3,
        bot_delay=0,
        reaction_limit=0,
        turn_limit=0,
        port=port,
        db=str(db),
        levels=("random",),
        log_file=str(db.with_suffix(".log")),
        extra=(*extra, "--resume") if resume else extra,
    )


async def plays(p: Person, rng: random.Random) -> None:
    """Answer this seat's decisions at random, through the host's crash, until cancelled or
    the game is over."""
    client = p.client
    updates = client.updates()
    tried: set[int] = set()
    while client.result is None:
        todo = [d for d in client.decisions if d.id not in tried]
        if todo:
            d = todo[0]
            tried.add(d.id)
            option = pick(d, rng)
            outcome = await client.choose(d.id, option)
            if outcome.ok:
                p.made.append(json.loads(json.dumps(plain(option))))
                continue
            p.refused.append(str(outcome.code))
            tried.discard(d.id)  # lost with the host, or stale: the next snapshot says
        try:
            await anext(updates)
        except StopAsyncIteration:
            return


def written(db: Path, token: str) -> list[Any]:
    """The options the database holds for the seat of `token`, in order."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for uid, seats in conn.execute("SELECT uid, seats FROM games"):
            mine = [i for i, s in enumerate(json.loads(seats)) if s.get("token") == token]
            if mine:
                rows = conn.execute(
                    "SELECT option FROM choices WHERE game=? AND seat=? ORDER BY n", (uid, mine[0])
                ).fetchall()
                return [json.loads(o) for (o,) in rows]
    raise AssertionError(f"no game holds the token {token}")


def check_none_lost(db: Path, people: list[Person]) -> None:
    """Each person's answered choices are in the database in their order (it may hold more:
    a choice written whose result the crash kept from its person, who then chose again)."""
    for p in people:
        assert p.client.token is not None
        kept = iter(written(db, p.client.token))
        missing = [option for option in p.made if not any(k == option for k in kept)]
        assert not missing, f"{p.client.name}: {len(p.made)} answered, not kept from {missing[0]} ({p.refused})"


def from_many_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each connection from its own loopback address (127.0.0.2, .3...): a host lets one
    address open only a couple of tables."""
    opened = itertools.count()
    connect = asyncio.open_connection

    async def open_connection(host: str, port: int, **kw: Any) -> Any:
        n = next(opened)
        return await connect(host, port, local_addr=(f"127.0.{n // 250}.{n % 250 + 2}", 0), **kw)

    monkeypatch.setattr(asyncio, "open_connection", open_connection)


async def test_50_tables_killed_and_resumed_lose_no_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from_many_addresses(monkeypatch)
    db = tmp_path / "games.sqlite"
    port = free_port()
    host: HostProcess = await start_host(spec(db, port))
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        for i in range(TABLES):  # one at a time: a connection holds no seat only until it creates
            client = Client("127.0.0.1", port, f"P{i}", table=1 if i == 0 else None)
            await client.connect()
            if i:  # the host's own table, then one more each
                out = await client.create(seats=2, bots=1, level="random")
                assert out.ok, out
            people.append(Person(client))
        tasks = [asyncio.create_task(plays(p, random.Random(i))) for i, p in enumerate(people)]
        async with asyncio.timeout(120):
            while choices_in(db) < TABLES * 6:
                await asyncio.sleep(0.01)
        host.process.kill()  # in the middle of every table's writes
        host.process.wait()
        await host.stop()
        check_none_lost(db, people)
        before = [len(p.made) for p in people]
        assert sum(before) >= TABLES

        host = await start_host(spec(db, port, resume=True))
        async with asyncio.timeout(120):  # every table plays on: each person answers again
            while not all(len(p.made) > n or p.client.result is not None for p, n in zip(people, before, strict=True)):
                await asyncio.sleep(0.02)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for p in people:
            await p.client.close()
        await host.stop()  # a clean stop writes what is queued
        check_none_lost(db, people)
    finally:
        for t in tasks:
            t.cancel()
        for p in people:
            await p.client.close()
        await host.stop()
