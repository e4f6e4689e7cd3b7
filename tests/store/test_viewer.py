"""The replay viewer, driven with keys at 80x24: stepping by point and by turn, jumping to a
turn, whose view is shown; every card only for a finished game, and an unfinished game never
shows another seat's hand (issue 11)."""

from __future__ import annotations

import pytest

from core.events import redact
from core.views import view
from pigeon_tui.replay_app import ReplayApp
from pigeon_tui.screens.replay import ALL, ReplayScreen
from pigeon_tui.themes import Glyphs, glyphs
from pigeon_tui.widgets.hand import Hand
from pigeon_tui.widgets.log import GameLog, sentences
from tests.store.games import played, saved
from tests.tui.conftest import screen_text


def _screen(app: ReplayApp) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_stepping_and_jumping_with_keys() -> None:
    game = saved(played(21))
    app = ReplayApp(game, viewer=0)
    async with app.run_test(size=(80, 24)) as pilot:
        s = _screen(app)
        assert s.at == 0
        await pilot.press("right", "right", "right")
        assert s.at == 3
        await pilot.press("left")
        assert s.at == 2
        await pilot.press("down")
        assert s.replay.points[s.at].turn == 2 and s.replay.points[s.at - 1].turn == 1
        await pilot.press("down", "down", "up")
        assert s.replay.points[s.at].turn == 3 and s.at == s.replay.turn_start(3)
        await pilot.press("t")
        await pilot.press(*"5", "enter")
        assert s.replay.points[s.at].turn == 5 and s.at == s.replay.turn_start(5)
        await pilot.press("end")
        assert s.at == len(s.replay) - 1
        assert "Game over" in screen_text(app)
        assert s.current_view() == view(game.record.replay(), 0)
        await pilot.press("home")
        assert s.at == 0


async def test_a_turn_out_of_range_is_asked_again() -> None:
    app = ReplayApp(saved(played(21)), viewer=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", *"999", "enter")
        assert "A turn from 1 to" in screen_text(app)
        await pilot.press("escape")
        assert _screen(app).at == 0


async def test_a_finished_game_shows_every_view_and_every_card() -> None:
    game = saved(played(21))
    app = ReplayApp(game, viewer=0)
    async with app.run_test(size=(80, 24)) as pilot:
        s = _screen(app)
        await pilot.press("right", "right")
        shown = []
        for _ in range(game.record.players + 2):
            shown.append(s.viewer)
            await pilot.press("v")
        assert shown == [0, 1, 2, None, ALL]
        assert s.viewer == 0
        await pilot.press("v", "v", "v", "v")
        assert s.viewer == ALL
        text = screen_text(app)
        hands = s.replay.points[s.at].state.hands
        for seat, cards in enumerate(hands):
            assert f"{game.names[seat]} ({len(cards)})" in text


async def test_an_unfinished_game_never_shows_other_hands() -> None:
    game = saved(played(21, upto=40))
    assert not game.over
    with pytest.raises(ValueError, match="finished game"):
        ReplayScreen(game, app_glyphs(), ALL)
    with pytest.raises(ValueError, match="hidden"):
        ReplayScreen(game, app_glyphs(), 1)
    app = ReplayApp(game)
    async with app.run_test(size=(80, 24)) as pilot:
        s = _screen(app)
        seen = set()
        for _ in range(6):
            seen.add(s.viewer)
            await pilot.press("end", "v")
        assert seen == {0, None}  # the person's own seat (a private game) and a spectator's
        state = s.replay.points[-1].state
        for viewer in (0, None):
            s.viewer = viewer
            s.show()
            await pilot.pause()
            assert not s.query_one("#replay-hands").display
            hand = s.query_one(Hand)
            assert hand.display == (viewer == 0)
            assert s.current_view() == view(state, viewer)
            if viewer == 0:
                assert hand._cards == tuple(state.hands[0])
            shown = [e for p in s.replay.points for e in p.events]
            log = s.query_one(GameLog).lines
            assert log == sentences([redact(e, viewer) for e in shown], s.current_view().book, game.names)


def app_glyphs() -> Glyphs:
    return glyphs(False)
