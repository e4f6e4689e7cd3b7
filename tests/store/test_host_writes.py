"""The host writes every table to its store as it plays: the record (header, every choice),
the seats with their tokens, chat and the result; a choice is in the database before its
`result` reaches the person who made it (issue 11)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from net.archive import games, load, open_db
from net.client import Client
from net.store import GameStatus, Store, StoreConfig
from tests.net.helpers import pick, play_client, running_host, table_config


async def test_a_game_is_written_as_it_is_played(tmp_path: Path) -> None:
    db_path = tmp_path / "games.sqlite"
    async with running_host(table_config(seats=3, bots=1, seed=5), store=StoreConfig(db_path)) as host:
        clients = [Client("127.0.0.1", host.port, name, table=1) for name in ("Ada", "Bob")]
        for c in clients:
            await c.connect()
        clients[0].say("good luck")
        async with asyncio.timeout(120):
            await asyncio.gather(*(play_client(c, random.Random(i)) for i, c in enumerate(clients)))
        result = clients[0].result
        assert result is not None
        tokens = [c.token for c in clients]
        for c in clients:
            await c.close()
    db = open_db(db_path)
    try:
        (line,) = games(db)
        saved = load(db, line.id)
        seats = db.execute("SELECT seats FROM games WHERE id=?", (line.id,)).fetchone()[0]
    finally:
        db.close()
    assert saved.status == GameStatus.OVER
    assert saved.record.to_dict() == dict(result.record)
    assert saved.record.replay().over
    assert saved.names == ("Ada", "Bob", "Rocky (bot)")
    assert saved.result is not None and saved.result["winners"] == list(result.winners)
    assert [c["text"] for c in saved.chat] == ["good luck"]
    assert all(t is not None and t in seats for t in tokens)


async def test_a_choice_is_durable_before_its_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """However slow the disk, the person's `result` comes only once their choice is written."""
    commit = Store._commit

    def slow(self: Store, db: sqlite3.Connection, batch: list[Any]) -> None:
        time.sleep(0.02)
        commit(self, db, batch)

    monkeypatch.setattr(Store, "_commit", slow)
    db_path = tmp_path / "games.sqlite"
    async with running_host(table_config(seats=2, bots=1, seed=9), store=StoreConfig(db_path)) as host:
        client = Client("127.0.0.1", host.port, "Ada", table=1)
        await client.connect()
        reader = sqlite3.connect(db_path)
        rng = random.Random(3)
        made = 0
        updates = client.updates()
        async with asyncio.timeout(120):
            while client.result is None and made < 40:
                if client.decisions:
                    d = client.decisions[0]
                    outcome = await client.choose(d.id, pick(d, rng))
                    assert outcome.ok, outcome
                    made += 1
                    assert client.seat is not None
                    (mine,) = reader.execute("SELECT count(*) FROM choices WHERE seat=?", (client.seat,)).fetchone()
                    assert mine >= made
                    continue
                await anext(updates)
        reader.close()
        await client.close()
    assert made > 5


def test_a_damaged_database_stops_the_host_with_its_path(tmp_path: Path) -> None:
    bad = tmp_path / "games.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    out = subprocess.run(
        [sys.executable, "-m", "pigeon_tui", "host", "--port", "0", "--no-discovery", "--db", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert str(bad) in out.stderr and "--db-reset" in out.stderr
    assert "Traceback" not in out.stderr
    assert bad.read_bytes().startswith(b"not a database")
