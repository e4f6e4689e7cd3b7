"""Issue 9: a table the lobby lists as playing ("already playing; you may watch") is watched
with Enter: the spectator's view, live, with the game's log; no hand, no prompt; Esc leaves for
the lobby."""

from __future__ import annotations

import asyncio
import random

from net.client import Client
from net.table import Phase
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.lobby import LobbyScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.widgets.hand import Hand
from pigeon_tui.widgets.prompt import Prompt
from tests.net.helpers import play_client, running_host, table_config
from tests.tui.conftest import screen_text
from tests.tui.test_net import _until


async def test_enter_on_a_game_under_way_watches_it_live_and_esc_leaves() -> None:
    async with running_host(table_config(seats=3, bots=2, bot_delay=0.05)) as host:
        ada = Client("127.0.0.1", host.port, "Ada", table=1)
        await ada.connect()
        playing = asyncio.create_task(play_client(ada, random.Random(3)))
        try:
            await _wait(lambda: host.tables[1].phase is Phase.PLAYING)
            app = PigeonApp(join=("127.0.0.1", host.port, "Eve", None))
            async with app.run_test(size=(80, 24)) as pilot:
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "playing" in screen_text(app))
                await pilot.press("enter")
                await _until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                await _until(pilot, lambda: screen.view is not None)
                assert screen.view is not None and screen.view.seat is None and screen.view.hand == ()
                assert screen.query_one(Prompt).decision is None
                assert screen.query_one(Hand).border_title == "Watching (no hand)"
                assert _log(screen)[0][0].startswith("Watching a game (3 players")
                turn = screen.view.turn
                await _until(pilot, lambda: screen.view is not None and screen.view.turn > turn, rounds=600)
                assert len(_log(screen)) > 2, "the log goes on, live"
                assert [s.watching is not None for s in host.sessions.values() if s.name == "Eve"] == [True]
                await pilot.press("escape")
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await _until(pilot, lambda: not host.tables[1].watchers)
                await app.action_quit()
        finally:
            playing.cancel()
            await ada.close()


def _log(screen: TableScreen) -> list[tuple[str, bool]]:
    from pigeon_tui.widgets.log import GameLog

    return screen.query_one(GameLog).lines


async def _wait(check: object, seconds: float = 10.0) -> None:
    assert callable(check)
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")
