"""The TUI's session (no app): the client's game updates reach the screens in the one shape
they left the client in, with their deadlines on the one clock the prompt counts with."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from core.games import PIGEONS
from net.client import Client, ClientUpdate, GameChanged, Status, TableChanged
from net.clock import LoopFakeClock
from net.messages import TableInfo
from pigeon_tui.session import Session
from tests.net.helpers import running_host, table_config


async def test_a_deadline_reaches_the_session_on_the_monotonic_clock() -> None:
    """Issue 17: one time base for deadlines: the client's `GameChanged.deadline` is
    `time.monotonic()` plus the host's limit, and the session hands it on as it is."""
    clock = LoopFakeClock()  # the host's 120 s limit stays 120 s: its time does not move
    async with running_host(table_config(seats=2, bots=1, turn_limit=120.0), clock=clock) as host:
        client = Client("127.0.0.1", host.port, "Ada", table=1)
        await client.connect()
        session = Session(client)
        try:
            async with asyncio.timeout(10):
                await session.first_view()
                async for update in session.updates():
                    if update.decisions:
                        break
            assert type(update) is GameChanged and update.decisions == update.view.decisions
            assert update.deadline is not None and update.deadline == client.deadline
            assert 119.0 < update.deadline - time.monotonic() <= 120.0
        finally:
            await session.close()


class _Scripted:
    """Enough of a `Client` for a session to read: updates from a list, then the end."""

    seat = 0
    table = None
    status = Status.CONNECTED
    latency = None
    token = None

    def __init__(self, script: list[ClientUpdate]) -> None:
        self.script = script

    async def updates(self) -> AsyncIterator[ClientUpdate]:
        for item in self.script:
            yield item

    async def close(self) -> None:
        pass


async def test_the_session_hands_on_the_clients_game_update_itself_and_redraws_it_without_events() -> None:
    """Issue 17: one shape from the client to the screen: the session passes on the very
    `GameChanged` the client made; a change of the table (seats, the link) repeats the last one
    with no events, so nothing is logged twice."""
    view = PIGEONS.view(PIGEONS.new_game(2, 3, {}), 0)
    game = GameChanged(view, ("an event",), view.decisions, None, 123.0)
    table = TableChanged(TableInfo(1, "Table 1", "playing", 1, "3.5", (), 0))
    session = Session(_Scripted([game, table]))  # type: ignore[arg-type]
    session.start()
    got = [u async for u in session.updates()]
    assert got[0] is game
    assert got[1] == GameChanged(view, (), view.decisions, None, 123.0) and got[1].view is view
    assert len(got) == 2
