"""Issue 10: bots' moves paced so a person can follow them; the pace lives in the host."""

from __future__ import annotations

from pigeon_tui.cli import bot_delay_of, parser
from pigeon_tui.launch import PACE, PACES
from pigeon_tui.screens.start import StartScreen
from pigeon_tui.session import GameOptions
from tests.tui.conftest import make_app, screen_text


def test_pace_on_the_command_line_sets_the_private_hosts_bot_delay() -> None:
    """`play --pace slow` waits longest, `instant` not at all; `--bot-delay` wins over both."""
    assert bot_delay_of(parser().parse_args(["play", "--pace", "slow"])) == PACES["slow"]
    assert bot_delay_of(parser().parse_args(["play", "--pace", "instant"])) == 0.0
    assert bot_delay_of(parser().parse_args(["play", "--bot-delay", "0.1", "--pace", "slow"])) == 0.1
    assert bot_delay_of(parser().parse_args(["play"])) == PACES[PACE] == PACES["readable"]
    assert bot_delay_of(parser().parse_args([])) == PACES[PACE]
    assert GameOptions().host_spec().bot_delay == PACES[PACE]
    assert PACES["instant"] < PACES["fast"] < PACES["readable"] < PACES["slow"]


async def test_the_start_screens_pace_setting_is_the_games_bot_delay() -> None:
    """The Pace setting of the start screen goes into the game's options (its private host)."""
    app = make_app(play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert "Pace     < instant >" in screen_text(app)  # the tests' own pace
        pace = screen.query_one("#set-pace")
        pace.focus()
        await pilot.press("right", "right")
        await pilot.pause()
        assert "Pace     < readable >" in screen_text(app)
        assert screen.chosen_options().bot_delay == PACES["readable"]
        assert screen.chosen_options().host_spec().bot_delay == PACES["readable"]


async def test_the_start_screens_side_panel_describes_the_highlighted_entry() -> None:
    """Issue 10: the side panel shows the bots' settings by "Play", and what any other entry does."""
    app = make_app(play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Players  < 4 >" in screen_text(app)
        await pilot.press("down")
        await pilot.pause()
        text = screen_text(app)
        assert "Host a LAN game: open a" in text and "Players  <" not in text
        await pilot.press("down", "down", "down")
        await pilot.pause()
        assert "Rules and cards: how a" in screen_text(app)
        await pilot.press("up", "up", "up", "up")
        await pilot.pause()
        assert "Players  < 4 >" in screen_text(app)
