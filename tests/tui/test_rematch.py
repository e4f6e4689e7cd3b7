"""A rematch from the results deals the new game on the new table (issue 9)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from net.spawn import HostSpec
from pigeon_tui.app import PigeonApp
from pigeon_tui.remote import HostHere
from pigeon_tui.screens import table as table_screen
from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions
from pigeon_tui.widgets.zone import ZoneBox
from tests.tui.conftest import make_app, screen_text


async def test_rematch_deals_the_new_game_on_the_new_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: r at the results drew the new table "Dealing…" for good: the final board's
    reader of the session, still there under the results, took the new game's first update.

    The first game goes by quickly: with a short time limit the host's stand-in bot plays the
    seat (away; the table takes no forced step for it, which would bring the person back).
    Before the rematch the limits go and the person is back, so nothing happens in the new
    game until the new table shows its first view and the person answers."""
    spec = GameOptions.host_spec

    def quick(options: GameOptions) -> HostSpec:
        return spec(options)._replace(turn_limit=0.01, reaction_limit=0.01)

    monkeypatch.setattr(GameOptions, "host_spec", quick)
    monkeypatch.setattr(table_screen, "forced_step", lambda *_: None)
    app = make_app(players=2, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        async with asyncio.timeout(30):
            while not isinstance(app.screen, GameOverScreen):
                await pilot.pause(0.05)
        session = app.session
        assert session is not None and isinstance(session.host, HostHere)
        assert _balconies(app) == ["b0", "b1"] and session.seat == 0
        table = session.host.table_of(session)
        assert table is not None
        table.config = replace(table.config, turn_limit=0, reaction_limit=0)
        assert (await session.client.here()).ok
        await pilot.press("r")
        async with asyncio.timeout(10):
            while not (isinstance(app.screen, TableScreen) and app.screen.view is not None):
                await pilot.pause(0.05)
        assert not app.screen.view.over
        await pilot.pause(0.1)
        assert "Dealing" not in screen_text(app)
        assert app.screen.view.seat == 1 and _balconies(app) == ["b1", "b0"], "your Balcony keeps its place"


def _balconies(app: PigeonApp) -> list[str]:
    """The Balconies' Zone ids, left to right, on the table (under the results, if shown)."""
    table = next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))
    return [z.zone for z in table.query("#balconies ZoneBox").results(ZoneBox)]
