"""Issue 9 (start-up): a game against bots reaches its table having parsed only app.tcss; every
other screen's styles (screens/*.tcss, its CSS_PATH) are added when the screen is first made,
parsed alone, and applied to it, never by re-parsing the whole stylesheet."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.css.stylesheet import Stylesheet

from pigeon_tui.screens.confirm import ConfirmScreen
from pigeon_tui.screens.help import HelpScreen
from pigeon_tui.screens.start import StartScreen
from tests.tui.conftest import make_app, play_decisions, settle

SCREENS_DIR = Path(__file__).resolve().parents[2] / "pigeon_tui" / "screens"


@pytest.fixture
def reparses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a stylesheet re-parsed all its sources (Textual does on a screen's first
    push if its CSS_PATH was not loaded before)."""
    calls: list[int] = []
    reparse = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        calls.append(len(self.source))
        reparse(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    return calls


def _screen_files(stylesheet: Stylesheet) -> set[str]:
    return {Path(path).name for path, _ in stylesheet.source if Path(path).parent == SCREENS_DIR}


async def test_the_table_is_reached_with_app_tcss_alone(reparses: list[int]) -> None:
    """Issue 9: `play` parses no other screen's styles on its way to the table; help and the
    question before quitting bring theirs when first shown, styled at once, with no re-parse."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await play_decisions(pilot, 0)
        assert _screen_files(app.stylesheet) == set()
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert _screen_files(app.stylesheet) == {"help.tcss"}
        assert app.screen.query_one("#help-body").styles.max_width is not None  # help.tcss: max-width 100
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert _screen_files(app.stylesheet) == {"help.tcss", "confirm.tcss"}
        assert app.screen.query_one("#confirm").styles.width is not None  # confirm.tcss: width 56
        assert app.screen.styles.align_horizontal == "center"  # the screen itself, styled as it was registered
    assert reparses == []


async def test_the_start_screen_brings_its_styles(reparses: list[int]) -> None:
    """Issue 9: the start screen's files (its own and the settings') are added as it is made and
    applied to it; nothing is parsed twice."""
    app = make_app(play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, StartScreen)
        assert _screen_files(app.stylesheet) == {"forms.tcss", "start.tcss"}
        menu = app.screen.query_one("#start-menu")
        assert menu.styles.width is not None and menu.styles.width.value == 34
        assert app.screen.query_one("Setting").styles.height is not None
    assert reparses == []
