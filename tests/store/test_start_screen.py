"""The store from the app (issue 11): the start screen offers "Resume your game" when a game
against bots was left unfinished and takes it up where it stopped; "Your games" shows the
history and lists the finished games to watch; the results offer "Watch the replay".

Each game is played at the host level (a `net` client on an in-process private host with the
games database of the test's data directory), never through the app's keys: the app is
started on the record the host wrote.
"""

from __future__ import annotations

import asyncio
import os
import random
from dataclasses import dataclass

from textual.pilot import Pilot

from core.record import Record
from core.replay import Replay
from core.views import view
from net.archive import game_of_seat, load, open_db
from net.client import Client
from net.resume import unfinished
from net.store import StoreConfig, default_path
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.screens.replay import GameListScreen, ReplayScreen
from pigeon_tui.screens.start import StartScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import Seat
from pigeon_tui.themes import glyphs
from pigeon_tui.widgets.log import GameLog
from tests.net.helpers import play_client, running_host, table_config
from tests.tui.conftest import make_app, screen_text


@dataclass(frozen=True, slots=True)
class Left:
    gid: int
    token: str
    seat: int


async def private_game(seed: int, stop_after: int | None) -> Left:
    """A game of the person ("You", seat 0) against two bots at a private host with the
    default games database, played at random; with `stop_after`, left after that many choices
    (the host stopped as by Ctrl+Q), else played to the end."""
    store = StoreConfig(default_path(), private=True)
    async with running_host(table_config(seats=3, bots=2, seed=seed), store=store) as host:
        client = Client("127.0.0.1", host.port, "You", table=1)
        await client.connect()
        async with asyncio.timeout(60):
            await play_client(client, random.Random(seed), stop_after)
        token, seat = client.token, client.seat
        await client.close()
    assert token is not None and seat is not None
    db = open_db(default_path())
    try:
        if stop_after is None:
            gid = game_of_seat(db, token)
        else:
            (left,) = unfinished(db, private=True)
            gid = left.id
    finally:
        db.close()
    assert gid is not None
    return Left(gid, token, seat)


def start_screen(app: PigeonApp) -> StartScreen:
    screen = app.screen
    assert isinstance(screen, StartScreen)
    return screen


async def until(pilot: Pilot[None], done: object, what: str, timeout: float = 20.0) -> None:
    """Pause until `done()` is true."""
    async with asyncio.timeout(timeout):
        while not done():  # type: ignore[operator]
            await pilot.pause(0.02)


async def test_a_game_left_unfinished_is_offered_and_taken_up_where_it_stopped() -> None:
    left = await private_game(3, stop_after=6)
    db = open_db(default_path())
    try:
        record = load(db, left.gid).record
    finally:
        db.close()
    stopped = record.replay()
    app = make_app(players=3, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: start_screen(app).yours.token == left.token, "the look-up")
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "Resume your game" in text
        panel = str(start_screen(app).query_one("#start-about").render())  # on the entry
        assert "left unfinished" in panel and f"({len(record.choices)} moves made)" in panel
        await pilot.press("enter")
        await until(
            pilot,
            lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None,
            "the table",
        )
        assert isinstance(app.screen, TableScreen)
        shown = app.screen.view
        assert shown is not None and shown.seat == left.seat
        assert shown.hand == view(stopped, left.seat).hand
        assert shown.turn == stopped.turn
        assert app.session is not None and app.session.client.token == left.token
        log = app.screen.query_one(GameLog).lines
        assert log[0][0].startswith("Back in your seat") and len(log) > len(record.choices) // 2  # the game so far


async def test_nothing_is_offered_without_a_game_left() -> None:
    await private_game(4, stop_after=None)
    app = make_app(players=3, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: start_screen(app).yours.stats is not None, "the look-up")
        assert start_screen(app).yours.token is None
        assert "Resume your game" not in screen_text(app)


async def test_your_games_shows_the_history_and_opens_a_finished_game() -> None:
    finished = await private_game(4, stop_after=None)
    app = make_app(players=3, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: start_screen(app).yours.stats is not None, "the look-up")
        menu = start_screen(app).query_one("#start-menu")
        await pilot.press(*["down"] * 3)  # Play, Host, Join, Your games
        await pilot.pause()
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "games"  # type: ignore[attr-defined]
        text = screen_text(app)
        assert "Your games against bots" in text and "1 played" in text
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameListScreen), "the list")
        assert f"#{finished.gid} " in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        assert isinstance(app.screen, ReplayScreen) and app.screen.saved.id == finished.gid
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)


async def test_the_results_offer_the_replay_of_the_game_just_over() -> None:
    finished = await private_game(5, stop_after=None)
    db = open_db(default_path())
    try:
        saved = load(db, finished.gid)
    finally:
        db.close()
    final = view(saved.record.replay(), finished.seat)
    seats = tuple(Seat(s.name, s.level) for s in saved.seats)
    app = make_app(players=3, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(GameOverScreen(final, seats, glyphs(False), replay=(default_path(), finished.token)))
        await pilot.pause()
        assert "Watch the replay (w)" in screen_text(app)
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.saved.id == finished.gid and screen.viewer == finished.seat
        await pilot.press("end")
        assert screen.current_view() == final
        assert isinstance(saved.record, Record)  # a game of Pigeons & Guano
        assert len(screen.replay) == len(Replay(saved.record))
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_results_of_a_game_kept_elsewhere_offer_no_replay() -> None:
    from tests.store.games import played

    state = played(21).replay()
    app = make_app(players=3, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(GameOverScreen(view(state, 0), (Seat("You"), Seat("A"), Seat("B")), glyphs(False)))
        await pilot.pause()
        assert "Watch the replay" not in screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_the_game_the_apps_own_private_host_brought_back_is_still_offered() -> None:
    """The CLI starts the private host before the app (it brings the game back at once): a
    game held by a running host is not offered, unless that host is the app's own."""
    left = await private_game(6, stop_after=4)
    async with running_host(table_config(seats=3, bots=2), store=StoreConfig(default_path(), private=True)) as host:
        assert host.store is not None
        async with asyncio.timeout(10):  # until the writer has noted the table's new host
            while host.store.saved < host.store._tickets:
                await asyncio.sleep(0.01)
        db = open_db(default_path())
        try:
            assert unfinished(db, private=True) == []
            (mine,) = unfinished(db, private=True, ours=(os.getpid(),))
        finally:
            db.close()
    assert mine.id == left.gid and mine.tokens == (left.token,)
