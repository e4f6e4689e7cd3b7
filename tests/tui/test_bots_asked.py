"""Issue 9: every bot seat plays the level asked for, from the command line (`play --bots`), the
start screen's "mixed" bots and the LAN host screen (they all used to play the first level)."""

from __future__ import annotations

from textual.widgets import Input

from core.cards import Edition
from net.spawn import HostSpec
from pigeon_tui.launch import MIXED_LEVELS
from pigeon_tui.remote import HostHere
from pigeon_tui.screens.lobby import HostScreen, LobbyScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions
from tests.tui.conftest import make_app, screen_text
from tests.tui.test_net import _until


def test_play_bots_per_seat_is_the_host_the_app_expects() -> None:
    """The CLI starts the private host before the app loads (from its own arguments); the app
    takes it only if it is the host of its options: the same spec, levels per seat included."""
    levels = ("hard", "greedy", "random")
    made_by_cli = HostSpec.private_game(4, levels, "3.0", 3, 0.25)
    options = GameOptions(players=4, bots=levels, seed=3, edition=Edition.V30, bot_delay=0.25)
    assert options.host_spec() == made_by_cli
    assert made_by_cli.levels == levels
    assert options.bot_levels() == levels


async def test_mixed_bots_on_the_start_screen_each_play_their_level() -> None:
    app = make_app(players=4, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab", "down", "left")  # Bots: random -> mixed
        await pilot.pause()
        assert "Bots     < mixed >" in screen_text(app)
        await pilot.press("enter")
        await _until(pilot, lambda: isinstance(app.screen, TableScreen) and app.session is not None)
        session = app.session
        assert session is not None and isinstance(session.host, HostHere)
        table = session.host.host.tables[1]
        assert [m.level if m else None for m in table.seats] == [None, *MIXED_LEVELS]
        assert not app._notifications, "no warning that the host plays one level"
        await app.action_quit()


async def test_mixed_bots_on_the_lan_host_screen_each_play_their_level() -> None:
    app = make_app(play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Host a LAN game
        await _until(pilot, lambda: isinstance(app.screen, HostScreen))
        await pilot.press("down", "right", "right", "down", "left")  # 4 seats, 2 bots, mixed
        await pilot.pause()
        assert "Level    < mixed >" in screen_text(app)
        app.screen.query_one("#host-port", Input).value = "0"
        await pilot.press("ctrl+s")
        await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), rounds=400)
        session = app.session
        assert session is not None
        await _until(pilot, lambda: session.client.table is not None)
        table = session.client.table
        assert table is not None
        assert [s.level if s else None for s in table.seats] == [None, None, *MIXED_LEVELS[:2]]
        await app.action_quit()
