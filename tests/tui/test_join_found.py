"""The join screen lists the games LAN discovery finds (probes to 127.0.0.1 only) and joins
the one chosen; `pigeon-tui join` with no address opens it."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from pigeon_tui.app import PigeonApp
from pigeon_tui.joining import Joining
from pigeon_tui.screens.lobby import JoinScreen, LobbyScreen
from tests.net.helpers import running_host, table_config
from tests.tui.conftest import screen_text


async def test_join_without_an_address_lists_the_games_found_and_joins_one() -> None:
    async with running_host(table_config(seats=3, bots=1), discovery_port=0, name="Den") as host:
        assert host.discovery_port is not None
        joining = Joining(find=True, name="Ada", discover_at=(("127.0.0.1", host.discovery_port),))
        app = PigeonApp(joining=joining)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                if isinstance(app.screen, JoinScreen) and "Den" in screen_text(app):
                    break
                await pilot.pause(0.05)
            text = screen_text(app)
            # a host bound to 127.0.0.1 is said to be on this machine (issue 9)
            assert f"Den · this machine, port {host.port} (2 free seats" in text
            app.screen.query_one("#join-found", OptionList).focus()
            await pilot.press("enter")
            for _ in range(200):
                if isinstance(app.screen, LobbyScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, LobbyScreen)
            assert any(s.conn.name == "Ada" for s in host.sessions.values())
            await app.action_quit()


async def test_a_game_with_a_password_asks_for_it_first() -> None:
    async with running_host(table_config(), discovery_port=0, name="Locked", password="pw") as host:
        assert host.discovery_port is not None
        joining = Joining(find=True, discover_at=(("127.0.0.1", host.discovery_port),))
        app = PigeonApp(joining=joining)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                if "Locked" in screen_text(app):
                    break
                await pilot.pause(0.05)
            assert "password" in screen_text(app)
            app.screen.query_one("#join-found", OptionList).focus()
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert isinstance(app.screen, JoinScreen)
            assert app.focused is app.screen.query_one("#join-password", Input)
            assert app.screen.query_one("#join-address", Input).value == f"127.0.0.1:{host.port}"
            await app.action_quit()


async def test_enter_at_once_joins_the_game_found() -> None:
    """Issue 9: with nothing typed, Enter joins the game discovery found (the focus used to stay
    on the address field, and Enter complained that an address is needed)."""
    async with running_host(table_config(seats=3, bots=1), discovery_port=0, name="Den") as host:
        assert host.discovery_port is not None
        joining = Joining(find=True, name="Ada", discover_at=(("127.0.0.1", host.discovery_port),))
        app = PigeonApp(joining=joining)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                if isinstance(app.screen, JoinScreen) and "Den" in screen_text(app):
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            await pilot.press("enter")
            for _ in range(200):
                if isinstance(app.screen, LobbyScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, LobbyScreen)
            assert not [n for n in app._notifications if "address" in str(n.message)]
            await app.action_quit()
