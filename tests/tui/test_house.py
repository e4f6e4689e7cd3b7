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
    from pigeon_tui.widgets.scores import DeckInfo

    v = view(new_game(4, 1), 0)
    trophy = replace(v, house=HouseRules(InfamousEmpty.TROPHY))
    info = DeckInfo(UNICODE)
    info.show(trophy)
    assert any("House Infamous: trophy" in str(line) for line in info._lines(40))
    info.show(v)
    assert not any("House" in str(line) for line in info._lines(40))
    about = TableScreen._about(None, trophy)  # type: ignore[arg-type]
    assert about[0] == "4 players, rules edition 3.5, house rule Infamous: trophy"


async def test_r9_the_start_screen_defines_the_custom_cards() -> None:
    """§9: the start screen's Cards line opens a form for the two customizable cards, a field for
    each thing a card may change; an impossible card is refused there, saying why; the cards go to
    the game's private host."""
    from textual.widgets import Static

    from pigeon_tui.screens.custom import CustomCardsForm

    app = make_app(play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert "Cards    < plain >" in screen_text(app)
        screen.query_one("#set-custom").focus()
        await pilot.press("enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, CustomCardsForm)
        assert "[x] Road [x] Statue [x] Cables [x] Crowd [ ] Balcony" in screen_text(app)
        await pilot.press(*"Racing", "space", *"Pigeon", "down", "down")  # name; past the size, to the places
        await pilot.press("space", "right", "space", "right", "right", "space")  # only the Cables
        await pilot.press("enter")
        await pilot.pause()
        error = str(form.query_one("#custom-error", Static).render())
        assert app.screen is form and "places must include the Road, the Crowd or the Balcony" in error
        await pilot.press("left", "space", "left", "space", "left", "space", "down", "right", "right", "right")
        assert "lady: pulls another pigeon to her Zone" in screen_text(app)  # the rule's hint
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "Cards    < Racing Pigeon >" in screen_text(app)
        options = screen.chosen_options()
        assert options.custom == ("name=Racing Pigeon,size=1,places=road+statue,rule=lady",)
        assert options.host_spec().options().count("--custom-card") == 1


def test_r9_custom_cards_are_named_in_the_zones_help_and_log() -> None:
    """§9: a custom card shows under its name in a Zone, in help's card list and in the log."""
    from rich.console import Console

    from core.cards import CUSTOM_IDS
    from core.events import Event, EventKind, describe
    from core.games import PIGEONS
    from pigeon_tui.widgets.zone import pigeon_word

    state = PIGEONS.new_game(3, 1, {"custom_1": "name=Racing Pigeon,rule=lady"})
    v = view(state, 0)
    assert pigeon_word(v.book[CUSTOM_IDS[0]]) == "Racing"
    console = Console(width=100, record=True)
    console.print(help_text(UNICODE, v.edition, v.custom, v.house))
    assert "Racing Pigeon" in console.export_text()
    landed = Event(EventKind.LANDED, cards=(CUSTOM_IDS[0],), to="road")
    assert "Racing Pigeon" in describe(landed, v.book, None)
