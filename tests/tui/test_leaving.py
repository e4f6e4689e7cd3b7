"""Issue 10: no surprises when leaving. Ctrl+Q at a game under way asks first; the results
show the final board and the whole log, and Esc there asks before leaving them."""

from __future__ import annotations

from typing import Any

from pigeon_tui.screens.confirm import ConfirmScreen
from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.screens.help import LogScreen
from pigeon_tui.screens.start import StartScreen
from pigeon_tui.screens.table import TableScreen
from tests.tui.conftest import make_app, play_by_keys, play_decisions, screen_text


async def test_ctrl_q_during_a_game_asks_first() -> None:
    app = make_app(players=3, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_decisions(pilot, 2, seed=1)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Quit in the middle of the game?" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("ctrl+q")  # a second Ctrl+Q says yes
        await pilot.pause(0.3)
    assert app.return_code == 0


async def test_game_over_shows_the_final_board_and_the_log_and_asks_before_leaving() -> None:
    app = make_app(players=3, seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_by_keys(pilot, seed=1)
        await pilot.pause(0.1)
        results = app.screen
        assert isinstance(results, GameOverScreen)
        text = screen_text(app)
        assert "See the final board (b)" in text and "Read the whole log (l)" in text
        assert "Trophies" in text and "Balcony" in text  # the score breakdown stays
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.view is not None and app.screen.view.over
        assert "The game is over." in screen_text(app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen)
        assert any("New game" in line for line, _ in app.screen.lines)
        assert app.screen.lines[-1][0] == "The game is over."
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause(0.2)
        assert isinstance(app.screen, StartScreen)


async def test_alone_in_a_lobby_starting_says_how_to_play_against_bots() -> None:
    """Issue 10: alone at a host's table (as over SSH), s says how to play against bots
    instead of "a game needs at least two players"."""
    from net.spawn import HostSpec, start_host
    from pigeon_tui.app import PigeonApp
    from pigeon_tui.session import GameOptions
    from tests.tui.test_net import _until

    host = await start_host(HostSpec(seats=2, bots=0))
    app = PigeonApp(GameOptions(), join=("127.0.0.1", host.port, "Eve", None))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _in_a_lobby(pilot, app)
            await pilot.press("s")
            await _until(pilot, lambda: bool(app._notifications))
            toasts = [n.message for n in app._notifications]
            assert any("play against bots" in m and "Play against bots" in m for m in toasts), toasts
            await app.action_quit()
    finally:
        await host.stop()


async def _in_a_lobby(pilot: Any, app: Any) -> None:
    from pigeon_tui.screens.lobby import LobbyScreen
    from tests.tui.test_net import _until

    await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "Table 1" in screen_text(app))
    await pilot.press("enter")
    await _until(pilot, lambda: "You sit at" in screen_text(app))


async def test_leaving_a_lobby_is_not_reported_as_a_lost_connection() -> None:
    """Leaving a host's lobby (Esc, or a game against bots from an SSH guest's start screen)
    closes its connection while the lobby screen may still wait on it: no "Disconnected"
    toast for that, since the player closed it and nothing was lost."""
    from pigeon_tui.app import PigeonApp
    from pigeon_tui.session import GameOptions
    from tests.net.helpers import running_host, table_config

    async with running_host(table_config(seats=2, bots=0)) as host:
        app = PigeonApp(GameOptions(), join=("127.0.0.1", host.port, "Eve", None))
        async with app.run_test(size=(80, 24)) as pilot:
            await _in_a_lobby(pilot, app)
            await app.drop_session(leave=True)  # as leaving does, before the lobby screen is gone
            await pilot.pause(0.3)
            toasts = [str(n.message) for n in app._notifications]
            assert not any("Disconnected" in m for m in toasts), toasts
            await app.action_quit()
