"""How the store commits (issue 11: writes never block the event loop for long): a turn of the
loop's writes are committed at its end; while another process holds the database's write lock,
they wait in the writer thread, in order, and the loop goes on."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from net.store import Store


async def until_saved(store: Store, ticket: int, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while store.saved < ticket:
            await asyncio.sleep(0.005)


async def test_a_turns_writes_are_durable_at_its_end(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    store.begin(None)
    tickets = [store.put("INSERT INTO meta VALUES (?, ?)", (f"k{i}", str(i))) for i in range(3)]
    assert store.saved < tickets[0]  # nothing is durable, so nothing waiting on it goes, before the commit
    await asyncio.sleep(0)
    assert store.saved == tickets[-1]
    await store.close()


async def test_another_process_holding_the_lock_never_blocks_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(path)
    store.begin(None)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another host writing the same file
    first = store.put("INSERT INTO meta VALUES ('a', '1')", ())
    t0 = time.monotonic()
    await asyncio.sleep(0.2)
    assert time.monotonic() - t0 < 1.0  # the loop ran on
    assert store.saved < first
    second = store.put("INSERT INTO meta VALUES ('b', '2')", ())  # after the first, in order
    other.execute("COMMIT")
    await until_saved(store, second)
    third = store.put("INSERT INTO meta VALUES ('c', '3')", ())  # on the loop again
    await until_saved(store, third, 1.0)
    await store.close()
    rows = dict(other.execute("SELECT key, value FROM meta WHERE key IN ('a', 'b', 'c')").fetchall())
    other.close()
    assert rows == {"a": "1", "b": "2", "c": "3"}
    assert store.failed == 0
