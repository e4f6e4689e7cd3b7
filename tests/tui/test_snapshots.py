"""Snapshots (pytest-textual-snapshot) of the main screens, from seeded games against random bots.

Update them only with `pytest tests/tui/test_snapshots.py --snapshot-update` on Python 3.11.7
(style §5.7), then look at every changed SVG.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from pigeon_tui.app import PigeonApp
from pigeon_tui.screenshots import hold_still
from tests.tui.conftest import make_app as game_app
from tests.tui.conftest import play_by_keys, play_decisions, settle

SnapCompare = Callable[..., bool]


def make_app(**kw: Any) -> PigeonApp:
    """A game as in the other tests, without the marks of what changed: they span the updates
    drawn in one frame, and how many arrive in one frame is up to the machine's speed
    (tests/tui/test_changes.py checks the marks)."""
    app = game_app(**kw)
    app.flash_seconds = 0
    return app


def test_start_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(play_now=False), terminal_size=(80, 24))


async def _mid_game(pilot: Pilot[Any]) -> None:
    await play_decisions(pilot, 5, seed=4)
    await hold_still(pilot)


def test_table_mid_game_80x24(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(players=4, seed=21), terminal_size=(80, 24), run_before=_mid_game)


def test_table_mid_game_120x40(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(players=4, seed=21), terminal_size=(120, 40), run_before=_mid_game)


async def _reaction(pilot: Pilot[Any]) -> None:
    await play_decisions(pilot, 60, seed=4, stop_at_reaction=True)
    await hold_still(pilot)


def test_reaction_prompt(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(players=5, seed=3), terminal_size=(80, 24), run_before=_reaction)


async def _help(pilot: Pilot[Any]) -> None:
    await play_decisions(pilot, 0)
    await pilot.press("question_mark")
    await settle(pilot)


def test_help_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(players=4, seed=21), terminal_size=(80, 24), run_before=_help)


async def _game_over(pilot: Pilot[Any]) -> None:
    await play_by_keys(pilot, seed=1)
    await pilot.pause(0.1)


def test_game_over_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(players=3, seed=8), terminal_size=(80, 24), run_before=_game_over)


async def _final_board(pilot: Pilot[Any]) -> None:
    await play_by_keys(pilot, seed=1)
    await pilot.pause(0.1)
    await pilot.press("b")
    await hold_still(pilot)


def test_final_board_from_game_over(snap_compare: SnapCompare) -> None:
    """Issue 10: the final board, seen from the results (g goes back to them)."""
    assert snap_compare(make_app(players=3, seed=8), terminal_size=(80, 24), run_before=_final_board)


async def _ask_quit(pilot: Pilot[Any]) -> None:
    await play_decisions(pilot, 1, seed=4)
    await hold_still(pilot)
    await pilot.press("ctrl+q")
    await pilot.pause()


def test_quit_during_a_game_asks(snap_compare: SnapCompare) -> None:
    """Issue 10: Ctrl+Q at a game under way asks first."""
    assert snap_compare(make_app(players=4, seed=21), terminal_size=(80, 24), run_before=_ask_quit)


async def _host_entry(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.press("down")
    await pilot.pause()


def test_start_screen_side_panel_describes_the_entry(snap_compare: SnapCompare) -> None:
    """Issue 10: the side panel says what the highlighted entry does."""
    assert snap_compare(make_app(play_now=False), terminal_size=(80, 24), run_before=_host_entry)
