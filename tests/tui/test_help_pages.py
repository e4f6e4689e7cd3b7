"""Issue 10: help keeps its indentation when a card's text wraps; End and Home go all the way
in help and in the log on the first press."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from textual.app import App
from textual.containers import VerticalScroll

from core.cards import DEFAULT_CUSTOM, Edition
from pigeon_tui.screens.help import HelpScreen, LogScreen, help_text
from pigeon_tui.themes import UNICODE


def test_help_card_texts_keep_their_indentation_when_wrapped() -> None:
    """Every line of a card's text, wrapped ones too, is indented under the card's name; the
    keys' descriptions wrap under themselves."""
    console = Console(width=50, record=True)
    console.print(help_text(UNICODE, Edition.V35, DEFAULT_CUSTOM))
    lines = console.export_text().splitlines()
    cards = lines[lines.index("Action cards (55)") + 1 : next(i for i, x in enumerate(lines) if x.startswith("On the"))]
    texts = [line for line in cards if line.strip() and not re.match(r"^\S.*  x\d+", line)]
    assert len(texts) > 24 and all(line.startswith("   ") for line in texts if line != "Pigeons (40 Flock cards)"), (
        cards
    )
    first = lines.index("Keys") + 1
    keys = lines[first : lines.index("Action cards (55)")]
    wrapped = [line for line in keys if line.strip() and not line[:13].strip()]
    assert wrapped and all(line.startswith(" " * 13) and line[13] != " " for line in wrapped), keys


class _Host(App[None]):
    pass


def _watch(body: VerticalScroll) -> list[tuple[str, object]]:
    """Record how `body` is asked to scroll to its ends (whether animated)."""
    asked: list[tuple[str, object]] = []
    real_end, real_home = body.scroll_end, body.scroll_home

    def end(**kw: Any) -> None:
        asked.append(("end", kw.get("animate")))
        real_end(**kw)

    def home(**kw: Any) -> None:
        asked.append(("home", kw.get("animate")))
        real_home(**kw)

    body.scroll_end, body.scroll_home = end, home  # type: ignore[method-assign]
    return asked


async def test_end_and_home_go_all_the_way_at_the_first_press() -> None:
    """End reaches the end at once, in the help and in the log, and Home the top: not the
    scroll container's own binding, which animates for a second (a terminal shows it stop half
    way; the pilot waits for animations, so the test watches how the scroll is asked for)."""
    app = _Host()
    async with app.run_test(size=(80, 24)) as pilot:
        for screen, body_id in (
            (HelpScreen(UNICODE), "#help-body"),
            (LogScreen([(f"Turn {i}: Ada's turn. " * 6, False) for i in range(60)], UNICODE), "#log-body"),
        ):
            await app.push_screen(screen)
            await pilot.pause()
            body = app.screen.query_one(body_id, VerticalScroll)
            asked = _watch(body)
            await pilot.press("home")
            assert body.scroll_y == 0
            await pilot.press("end")
            assert body.scroll_y == body.max_scroll_y > 20
            assert asked == [("home", False), ("end", False)]
            app.pop_screen()
