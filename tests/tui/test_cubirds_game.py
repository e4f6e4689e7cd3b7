"""Issue 15: CuBirds at the terminal through the path players take: the real host (on the
test's loop), the start screen's game setting, a whole game by keys to the game over screen,
`pigeon-tui play --game` and `host --game` refusing what cannot be played."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core.cubirds import PlayerView
from core.cubirds.cards import SPECIES_OF
from core.cubirds.events import Event
from net.client import GameChanged
from pigeon_tui.screens.cubirds import BirdsOverScreen, CubirdsTableScreen, log_lines
from pigeon_tui.screenshots import game_app, prompt
from pigeon_tui.session import Session
from pigeon_tui.widgets.log import GameLog
from tests.tui.conftest import drawn_while_held, hold_results, play_by_keys, screen_text


async def test_a_whole_game_of_cubirds_by_keys_to_the_game_over_screen_with_every_event_logged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four seats (you and three random bots) on the real host; every decision answered with
    keys (numbers, Enter after arrows, Esc to step back), to the game over screen.

    Updates read faster than they are drawn replace each other on the way to the screen;
    their log lines do not: the log of the whole game says every event the seat was sent.
    (One game serves both: recording what the session hands on changes nothing it does.)"""
    sent: list[Event] = []
    updates = Session.updates

    async def recorded(self: Session) -> AsyncIterator[GameChanged]:
        async for update in updates(self):
            sent.extend(update.events)
            yield update

    ready = Session.ready_updates

    def recorded_ready(self: Session) -> list[GameChanged]:
        held = ready(self)  # drawn by a new table in its first frame, before it reads on
        for update in held:
            sent.extend(update.events)
        return held

    monkeypatch.setattr(Session, "updates", recorded)
    monkeypatch.setattr(Session, "ready_updates", recorded_ready)
    app = game_app(4, 3, "cubirds", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await prompt(pilot)
        table = app.screen
        assert shown is not None and isinstance(table, CubirdsTableScreen)
        first = screen_text(app)
        assert "Rows" in first and "Your hand" in first and "Collections" in first
        log, names = table.query_one(GameLog), table.names  # the table goes at game over
        counts = await play_by_keys(pilot, seed=5)
        assert isinstance(app.screen, BirdsOverScreen)
        over = screen_text(app)
        view = app.screen.birds
        assert isinstance(view, PlayerView) and view.over
    assert counts["presses"] > 20 and counts["back"] > 0
    assert "Game over" in over and "Rematch" in over
    winners = view.winners()
    assert winners and ("You win!" in over or "You share" in over) == (0 in winners)
    assert len(sent) > 100 and log.lines[1:] == log_lines(sent, names, 0)  # after the intro


async def test_the_start_screen_offers_cubirds() -> None:
    app = game_app(4, 3, play_now=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        assert "Pigeons & Guano" in screen_text(app)
        app.screen.query_one("#set-game").focus()
        await pilot.press("right")  # Game < CuBirds >
        await pilot.pause(0.1)
        assert "< CuBirds >" in screen_text(app)
        await pilot.press("enter")  # play with the settings shown
        shown = await prompt(pilot)
        assert shown is not None and isinstance(app.screen, CubirdsTableScreen)
        assert isinstance(app.screen.view, PlayerView) and app.screen.view.players == 4


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play", "--game", "chess"], "unknown game 'chess'"),
        (["play", "--game", "cubirds", "--players", "6"], "CuBirds is for 2 to 5 players"),
        (["host", "--game", "cubirds", "--seats", "6", "--port", "0"], "seats must be 2..5 for CuBirds"),
        (["host", "--game", "chess", "--port", "0"], "unknown game 'chess'"),
    ],
)
def test_play_and_host_refuse_a_game_they_cannot_start(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """In this process: the CLI refuses before it starts anything (the command's own entry
    point, `python -m pigeon_tui`, is what tests/net/test_spawn.py's hosts and tests/e2e run)."""
    from pigeon_tui.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err, err


async def test_no_color_draws_a_letter_per_species(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR (as --ascii): the rows and collections name species by a letter."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = game_app(3, 3, "cubirds", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await prompt(pilot) is not None
        screen = app.screen
        assert isinstance(screen, CubirdsTableScreen) and screen.letters and screen.view is not None
        text = screen_text(app)
        view = screen.view
    letters = {"flamingo": "F", "owl": "O", "toucan": "T", "duck": "D", "parrot": "P", "magpie": "M"}
    letters |= {"reed_warbler": "W", "robin": "R"}
    for i, row in enumerate(view.rows):
        assert f"{i + 1} " + " ".join(letters[SPECIES_OF[c]] for c in row) in text


async def test_the_cubirds_table_draws_updates_while_a_choice_waits_for_its_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 9, as on the Pigeons table: a choice's result may come seconds after its updates.
    The choice is sent from a worker, so the updates that come meanwhile (the choice's own
    events first) are drawn at once: the table does not freeze on the answer."""
    release = hold_results(monkeypatch)
    app = game_app(4, 3, "cubirds", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await prompt(pilot)
        screen = app.screen
        assert shown is not None and shown.decision is not None and isinstance(screen, CubirdsTableScreen)
        before, answered = screen.view, shown.decision.id
        await drawn_while_held(pilot, "1", release, lambda: screen.view is not before)
        assert screen.view is not None and answered not in [d.id for d in screen.view.decisions]
        assert await prompt(pilot) is not None or isinstance(app.screen, BirdsOverScreen)
