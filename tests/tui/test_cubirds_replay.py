"""The replay viewer on a game of CuBirds at 80x24 (issue 15, 'everything else follows'): the
same keys as a game of Pigeons & Guano, the CuBirds table at each point, and a seat's view
never shows a card that seat could not see."""

from __future__ import annotations

from core.cubirds import redact, view
from net.archive import SavedRecord, SeatInfo, from_export
from net.store import GameStatus
from pigeon_tui.replay_app import ReplayApp
from pigeon_tui.screens.cubirds import log_lines
from pigeon_tui.screens.cubirds_replay import BirdsReplayScreen
from pigeon_tui.screens.replay import ALL
from pigeon_tui.widgets.birds import BirdHand
from pigeon_tui.widgets.log import GameLog
from tests.cubirds.test_replay import played
from tests.tui.conftest import screen_text


def saved(seed: int, upto: int | None = None) -> SavedRecord:
    record = played(seed, upto=upto)
    over = record.replay().over
    seats = (SeatInfo("You", "human"), SeatInfo("Bot 1", "bot", "random"), SeatInfo("Bot 2", "bot", "random"))
    status = GameStatus.OVER if over else GameStatus.PLAYING
    game = SavedRecord(7, status, record, seats, "test", True, None, (), 1.0, None)
    return from_export(game.to_export())  # as `pigeon-tui replay FILE` reads it


async def test_a_cubirds_game_steps_by_keys_to_its_end_and_shows_every_card_once_over() -> None:
    game = saved(4)
    app = ReplayApp(game, viewer=0)
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.screen
        assert isinstance(s, BirdsReplayScreen)
        await pilot.press("right", "right", "down")
        assert s.replay.points[s.at].turn == 2
        shown = [text for text, _ in s.query_one(GameLog).lines]
        events = [redact(e, 0) for e in s.replay.events_to(s.at)]
        assert shown == [text for text, _ in log_lines(events, s.names, 0)]
        assert "Rows" in screen_text(app) and "Your hand" in screen_text(app)
        await pilot.press("end")
        assert s.current_view() == view(game.record.replay(), 0)
        for _ in range(len(s.allowed) - 1):
            await pilot.press("v")
        assert s.viewer == ALL and not s.query_one(BirdHand).display
        assert "Bot 2 (" in screen_text(app)


async def test_an_unfinished_cubirds_game_shows_no_other_hand() -> None:
    game = saved(4, upto=25)
    app = ReplayApp(game, viewer=None)
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.screen
        assert isinstance(s, BirdsReplayScreen)
        assert ALL not in s.allowed and 1 not in s.allowed and 2 not in s.allowed
        await pilot.press("end")
        for _ in s.allowed:
            await pilot.press("v")
            seen = s.query_one(BirdHand).seen
            assert seen is not None and seen.view.seat == s.viewer
            assert seen.view.hand == (s.replay.points[s.at].state.hands[0] if s.viewer == 0 else ())
            assert not s.query_one("#replay-hands").display
