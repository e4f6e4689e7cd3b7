"""A rematch from the results: the new game dealt on the new table (issue 9), and until
everyone agreed, whom it waits for."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest
from textual.pilot import Pilot

from net.client import Client
from net.limits import Limits
from net.spawn import HostSpec
from pigeon_tui.app import PigeonApp
from pigeon_tui.remote import HostHere
from pigeon_tui.screens import table as table_screen
from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.screens.help import LogScreen
from pigeon_tui.screens.lobby import LobbyScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions
from pigeon_tui.widgets.zone import ZoneBox
from tests.net.helpers import running_host, table_config
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


async def test_a_rematch_asked_first_names_who_has_not_agreed_then_deals_when_they_do() -> None:
    """Bob (the app, joined over the LAN) asks for a rematch before Ada and Carl: until they
    agree, his results say whom they wait for, by name, as each agrees (he had an empty table
    saying "Dealing…"); when the last agrees, the new game is dealt."""
    async with _at_the_results_with("Ada", "Carl") as (app, pilot, (ada, carl)):
        await pilot.press("r")
        await _until(pilot, lambda: "Waiting for Ada and Carl to agree" in screen_text(app))
        assert "Dealing" not in screen_text(app) and "Bob" not in _waiting_line(app)
        assert (await carl.rematch()).ok
        await _until(pilot, lambda: "Waiting for Ada to agree to a" in screen_text(app))
        assert (await ada.rematch()).ok
        await _until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None)
        assert isinstance(app.screen, TableScreen) and app.screen.view is not None
        assert not app.screen.view.over, "the new game is dealt"
        assert "Waiting for" not in screen_text(app)


async def test_a_rematch_dealt_while_the_log_is_open_replaces_the_results_and_the_log() -> None:
    """The log read over the results while a rematch waits: once dealt, the new table is the
    only game screen, not one over the log, the results and the final board."""
    async with _at_the_results_with("Ada") as (app, pilot, (ada,)):
        await pilot.press("r")
        await _until(pilot, lambda: "Waiting for Ada" in screen_text(app))
        await pilot.press("l")
        await _until(pilot, lambda: isinstance(app.screen, LogScreen))
        assert (await ada.rematch()).ok
        await _until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None)
        await pilot.pause(0.1)
        kinds = [type(s) for s in app.screen_stack]
        assert kinds.count(TableScreen) == 1 and LogScreen not in kinds and GameOverScreen not in kinds, kinds


@asynccontextmanager
async def _at_the_results_with(*names: str) -> AsyncIterator[tuple[PigeonApp, Pilot[None], tuple[Client, ...]]]:
    """Bob (the app, joined over the LAN) and the people named (clients) at the results of a
    game on a real host, all there and none having asked for a rematch. Every seat goes away
    at once (a short time limit) and the host's stand-in bots play the game out; then the
    limits go and everyone is back."""
    quick = table_config(seats=1 + len(names), bots=0, seed=5, turn_limit=0.01, reaction_limit=0.01)
    async with running_host(quick, limits=Limits()) as host:
        app = PigeonApp(GameOptions(), join=("127.0.0.1", host.port, "Bob", None))
        others = tuple(Client("127.0.0.1", host.port, name, table=1) for name in names)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "Table 1" in screen_text(app))
                await pilot.press("enter")
                await _until(pilot, lambda: "You sit at" in screen_text(app))
                for other in others:
                    await other.connect()
                await _until(pilot, lambda: isinstance(app.screen, GameOverScreen), seconds=60)
                table = host.tables[1]
                table.config = replace(table.config, turn_limit=0, reaction_limit=0)
                assert app.session is not None and (await app.session.client.here()).ok
                for other in others:
                    assert (await other.here()).ok
                yield app, pilot, others
                await app.action_quit()
        finally:
            for other in others:
                await other.close()


def _waiting_line(app: PigeonApp) -> str:
    """The line of the results that says whom a rematch waits for (it wraps), up to "rematch"."""
    text = " ".join(line.strip(" │") for line in screen_text(app).splitlines())
    return text[text.index("Waiting for") :].split("rematch", 1)[0]


async def _until(pilot: Pilot[None], check: Callable[[], bool], seconds: float = 10.0) -> None:
    try:
        async with asyncio.timeout(seconds):
            while not check():
                await pilot.pause(0.05)
    except TimeoutError:
        raise AssertionError(f"timed out; the screen:\n{screen_text(pilot.app)}") from None
