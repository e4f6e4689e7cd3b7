"""The game in a real browser: Debian's Chromium, headless, driven by Playwright, on
`pigeon-tui serve-web` run as a user runs it. The screen is the page's terminal's text."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext

from tests.procs import descendants
from tests.web.browser import (
    WAIT,
    GamePage,
    chromium,
    process_group,
    process_group_of,
    serve_web,
    wait_gone,
)

PASSWORD = "pigeons at dawn"


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    with chromium(1280, 800) as context:
        yield context


def relaid(game: GamePage, columns: int) -> bool:
    """The table drawn anew at `columns`: the City's row of boxes reaches the edge, every Zone's
    box whole, its top-right corner light or heavy (a Zone a prompt points at is drawn heavy).
    (A game against bots shows no connection on the top bar: its host is private.)"""
    state = game.state()  # the size and the text at one moment
    if state is None or state["columns"] != columns:
        return False
    lines = str(state["text"]).split("\n")
    city = lines[1].rstrip() if len(lines) > 1 else ""
    return city.endswith(("╮", "┓")) and len(city) >= columns - 2 and any("Crowd" in ln for ln in lines)


def test_play_against_bots_in_a_browser(browser: BrowserContext) -> None:
    with serve_web("--password", PASSWORD) as server:
        game = GamePage(browser.new_page())
        game.open(server.url)
        assert game.log_in("pigeons at dusk") == "Wrong password. Try again."
        assert game.log_in(PASSWORD) == ""
        game.wait_for("Play against bots")
        columns, rows = game.size
        assert columns > 120 and rows > 30  # the window's size, not a terminal's 80x24
        app = server.apps()[-1]
        assert len(process_group(app)) >= 2  # the app and its game host

        game.press("Enter")  # Play against bots, with the settings shown
        game.wait_for("Your hand")
        questions: list[str] = []
        while "Action 2 of 2: what do you do?" not in questions:  # a whole turn of ours, and reactions
            assert len(questions) < 20, questions
            questions.append(game.decide())
        # Action 2 is offered once our first action came back from the host (the first may have
        # been taken for us, the only move: not in `questions` then).
        text = game.text
        # A Zone's box, light or heavy, its title marked when the prompt points at it.
        assert re.search(r"[╭┏][─━] (?:◆ )?Road", text), text
        for drawn in ("Statue", "Cables", "Crowd", "You", "bot greedy", "Your hand", "Flock"):
            assert drawn in text, drawn

        game.page.set_viewport_size({"width": 960, "height": 640})
        game.wait_until(
            "the table drawn at the new size", lambda _: game.size[0] < columns and relaid(game, game.size[0])
        )
        game.page.set_viewport_size({"width": 1280, "height": 800})
        game.wait_until("the table drawn at the first size", lambda _: relaid(game, columns))

        game.page.close()
        wait_gone(lambda: process_group(app))
        assert server.stop() == 0


def test_stopping_the_server_says_so_in_the_page_and_leaves_no_process(browser: BrowserContext) -> None:
    with serve_web("--open") as server:
        game = GamePage(browser.new_page())
        game.open(server.url)
        game.wait_for("Play against bots")
        groups = {process_group_of(pid) for pid in descendants(server.pid)} - {0}
        assert len(groups) >= 1
        assert server.stop() == 0
        message = game.page.locator(".closed-dialog .message")
        message.wait_for(state="visible", timeout=WAIT * 1000)
        assert message.inner_text() == "The server is shutting down."
        wait_gone(lambda: [pid for group in groups for pid in process_group(group)])
        game.page.close()
