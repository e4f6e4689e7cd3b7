"""Issue 13: the house rule infamous_empty (R4.6) on the start and host screens, at the table and
in help. Short pilot tests from the screens, no whole games."""

from __future__ import annotations

from dataclasses import replace

from core.house import HouseRules, InfamousEmpty
from core.setup import new_game
from core.views import view
from pigeon_tui.cli import parser
from pigeon_tui.screens.help import help_text
from pigeon_tui.screens.lobby import HostScreen
from pigeon_tui.screens.start import StartScreen, chosen_house
from pigeon_tui.themes import UNICODE
from tests.tui.conftest import make_app, screen_text


async def test_r4_6_the_start_screen_offers_the_house_rule() -> None:
    """R4.6: the start screen's Infamous setting (resume, the book's, by default) goes into the
    game's options and its private host's `--house-rule`."""
    app = make_app(play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert "Infamous < resume (book) >" in screen_text(app)
        assert screen.chosen_options().house == ()
        screen.query_one("#set-infamous-empty").focus()
        await pilot.press("right")
        await pilot.pause()
        assert "Infamous < trophy >" in screen_text(app)
        options = screen.chosen_options()
        assert options.house == (("infamous_empty", "trophy"),)
        assert "infamous_empty=trophy" in options.host_spec().options()


async def test_r4_6_the_host_screen_offers_the_house_rule() -> None:
    app = make_app(play_now=False)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        host = HostScreen(app.glyphs, "Ada")
        await app.push_screen(host)
        await pilot.pause()
        assert "Infamous < resume (book) >" in screen_text(app)
        host.query_one("#host-infamous-empty").focus()
        await pilot.press("right")
        await pilot.pause()
        assert chosen_house(host, "host-") == (("infamous_empty", "trophy"),)


def test_r4_6_the_house_rule_is_shown_in_help_and_on_the_command_line() -> None:
    """R4.6: help lists the game's house rules with what they do; `--help` of play, host and
    selfplay names `--house-rule`."""
    trophy = HouseRules(InfamousEmpty.TROPHY)
    from rich.console import Console

    v = view(new_game(3, 1), 0)
    console = Console(width=100, record=True)
    console.print(help_text(UNICODE, v.edition, v.custom, trophy))
    text = console.export_text()
    assert "Pigeons & Guano, edition 3.5, house rule Infamous: trophy" in text
    assert "infamous_empty=trophy  R4.6: converting the Infamous with the Flock deck empty makes it" in text
    args = parser().parse_args(
        ["play", "--house-rule", "infamous_empty=trophy", "--house-rule", "infamous_empty=resume"]
    )
    assert args.house_rule == ["infamous_empty=trophy", "infamous_empty=resume"]
    assert parser().parse_args(["host", "--house-rule", "infamous_empty=trophy"]).house_rule == [
        "infamous_empty=trophy"
    ]


def test_r4_6_the_table_shows_a_house_rule_away_from_the_book() -> None:
    """R4.6: the table's info panel and its first log line name a house rule set away from the
    book; a game of the book's rules shows nothing more."""
    from pigeon_tui.screens.table import TableScreen
    from pigeon_tui.widgets.scores import TableInfo

    v = view(new_game(4, 1), 0)
    trophy = replace(v, house=HouseRules(InfamousEmpty.TROPHY))
    info = TableInfo(UNICODE)
    info.show(trophy)
    assert any("House Infamous: trophy" in str(line) for line in info._lines(40))
    info.show(v)
    assert not any("House" in str(line) for line in info._lines(40))
    about = TableScreen._about(None, trophy)  # type: ignore[arg-type]
    assert about[0] == "4 players, rules edition 3.5, house rule Infamous: trophy"
