"""--ascii draws with printable ASCII only; NO_COLOR draws in greys only; the table fits 80x24."""

from __future__ import annotations

import re

import pytest

from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.widgets.zone import ZoneBox
from tests.tui.conftest import make_app, play_by_keys, play_decisions, screen_text, settle

WINDOW_CHROME = {"#28c840", "#febc2e", "#ff5f57", "#c5c8c6"}
"""Colours of the SVG's window frame (traffic lights, title), not of the terminal."""


def non_ascii(text: str) -> set[str]:
    return {c for c in text if not (c == "\n" or 32 <= ord(c) < 127)}


async def test_ascii_mode_draws_every_screen_in_ascii() -> None:
    app = make_app(players=4, seed=21, ascii_only=True, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not non_ascii(screen_text(app)), "start screen"
        await pilot.press("enter")
        await play_decisions(pilot, 3, seed=4)
        assert not non_ascii(screen_text(app)), "table"
        await pilot.press("question_mark")
        await settle(pilot)
        assert not non_ascii(screen_text(app)), "help"
        await pilot.press("escape")
        await play_by_keys(pilot, seed=3)
        await pilot.pause(0.1)
        assert isinstance(app.screen, GameOverScreen)
        assert not non_ascii(screen_text(app)), "game over"


async def test_no_color_renders_only_greys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(players=4, seed=21)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_decisions(pilot, 3, seed=4)
        assert app.no_color
        colours = set(re.findall(r"#[0-9a-fA-F]{6}", app.export_screenshot())) - WINDOW_CHROME
        coloured = {c for c in colours if len({c[1:3].lower(), c[3:5].lower(), c[5:7].lower()}) > 1}
        assert not coloured


@pytest.mark.parametrize("players", [2, 6])
async def test_table_at_80x24_fits_every_zone_without_overlap(players: int) -> None:
    app = make_app(players=players, seed=21)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_decisions(pilot, 2, seed=4)
        regions = [z.region for z in app.screen.query(ZoneBox)]
        assert len(regions) == 4 + players
        for r in regions:
            assert r.right <= 80 and r.bottom <= 24 and r.height >= 4
        for i, a in enumerate(regions):
            for b in regions[i + 1 :]:
                assert not a.overlaps(b)
        text = screen_text(app)
        for name in ("Road", "Statue", "Cables", "Crowd", "Your hand", "Flock"):
            assert name in text


async def test_ascii_highlight_mark_is_not_a_border_corner() -> None:
    """Issue 5: in --ascii, a lit Zone's title mark must not read as border ("+- + Road")."""
    from pigeon_tui.screens.table import TableScreen
    from pigeon_tui.widgets.zone import Highlight

    app = make_app(players=4, seed=21, ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_decisions(pilot, 1, seed=4)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.highlight = Highlight(frozenset({"road", "b1"}), frozenset())
        screen.redraw()
        await pilot.pause()
        text = screen_text(app)
        assert "+- @ Road" in text
        assert "+- +" not in text
