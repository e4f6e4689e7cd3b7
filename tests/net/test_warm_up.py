"""A host deals a game nobody plays before anyone sits (`net.table.warm_up`), so that a private game's
player, who sits at once, does not wait while the host loads the engine (issue 9: start-up)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from core.views import PlayerView
from net.client import Client
from net.host import Host, HostConfig, serve
from net.table import Phase, warm_up

from .helpers import FAST, running_host, table_config


async def _first_view(host: Host) -> PlayerView:
    client = Client("127.0.0.1", host.port, "Ada", table=1)
    await client.connect()
    try:
        async with asyncio.timeout(10):
            while client.view is None:
                await asyncio.sleep(0.01)
        assert isinstance(client.view, PlayerView)
        return client.view
    finally:
        await client.close()


@asynccontextmanager
async def _served(ready: list[Host]) -> AsyncIterator[asyncio.Task[None]]:
    """`serve` (as `pigeon-tui host` runs it) of a 2-seat table with a bot, as a task; each host it
    says is ready is put in `ready`. Cancelled at the end."""
    config = HostConfig(port=0, bind="127.0.0.1", table=table_config(seats=2, bots=1), limits=FAST)
    serving = asyncio.create_task(serve(config, ready.append))
    try:
        yield serving
    finally:
        serving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await serving


async def test_issue9_a_warmed_up_table_deals_the_same_game_and_keeps_nothing() -> None:
    """Issue 9: the thrown-away deal leaves the table as it was (waiting, no state, no record,
    no game counted) and the seeded game dealt when the player sits is the one a table that
    was not warmed up deals."""
    config = table_config(seats=2, bots=1, seed=11)
    async with running_host(config) as host:
        table = host.tables[1]
        warm_up(table)
        assert table.phase is Phase.WAITING and table.state is None and table.record is None
        assert table.game_no == 0
        warmed = await _first_view(host)
    async with running_host(config) as host:
        plain = await _first_view(host)
    assert warmed == plain and warmed.turn == plain.turn


async def test_issue9_a_host_warms_its_tables_up_once_it_listens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: `serve` (what `pigeon-tui host` runs, the private host of a game against bots
    too) warms each table up after it says it is ready."""
    warmed: list[int] = []
    ready: list[Host] = []
    monkeypatch.setattr("net.host.warm_up", lambda table: warmed.append(table.id))
    async with _served(ready):
        async with asyncio.timeout(10):
            while not warmed:
                await asyncio.sleep(0.01)
        assert ready and warmed == [1]


async def test_issue9_a_failing_warm_up_leaves_the_host_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: the warm-up is only a head start: if its deal raises, the host logs it and serves
    on, and a player who joins gets the table's game."""
    ready: list[Host] = []

    def broken(table: object) -> None:
        raise RuntimeError("warm-up failed")

    monkeypatch.setattr("net.host.warm_up", broken)
    async with _served(ready) as serving:
        async with asyncio.timeout(10):
            while not ready:
                await asyncio.sleep(0.01)
        view = await _first_view(ready[0])
        assert not serving.done() and view.turn >= 1
