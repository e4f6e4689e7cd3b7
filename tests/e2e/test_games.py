"""Issue 9: whole games through the real CLI in an 80x24 pseudo-terminal, keys only, to the
game-over screen; after every frame the board must equal the public state as of the last event
its log shows. A private game (you and three bots) in edition 3.0 and a LAN game of two people in
3.5, with bots that answer at once so that CI spends a minute or two. The 20-game figure of the
Bars, both editions and three bot levels: `python -m tests.e2e.run --games 20 --lan 1`.
"""

from __future__ import annotations

import asyncio
from typing import Final

from tests.e2e.game import GameRun, lan_game, private_game

GAME_LIMIT: Final = 240.0
"""Seconds a whole game may take here (about a minute on a loaded 2-core machine)."""
QUICK_BOTS: Final = ("random", "greedy", "random")
"""Bots that answer at once (searching bots make every reaction window wait its minimum)."""


def _verdict(run: GameRun) -> str:
    lines = [f"{run.label}: {run.error or 'finished'} in {run.seconds:.0f} s"]
    for seat in run.seats:
        report = seat.report
        if report is None:
            continue
        lines.append(f"{seat.name}: {report.frames} frames judged, {report.bad} wrong")
        for v in report.verdicts[:5]:
            diffs = "; ".join(f"{k} shows {a!r}, truth {b!r}" for k, (a, b) in list(v.diffs.items())[:6])
            lines.append(f"  frame {v.frame} {v.kind} {v.lag:+d} sentences: {diffs}")
        lines.extend(f"  {n}" for n in seat.problems)
    return "\n".join(lines)


def _assert_true_throughout(run: GameRun) -> None:
    assert run.error is None and run.record is not None, _verdict(run)
    for seat in run.seats:
        assert seat.report is not None and seat.report.frames > 20, _verdict(run)
        assert seat.report.bad == 0, _verdict(run)
        assert not seat.problems, _verdict(run)


async def test_a_whole_private_game_never_shows_a_stale_board() -> None:
    """Issue 9: `pigeon-tui play`, you and three bots, every frame true to the log."""
    async with asyncio.timeout(GAME_LIMIT + 30):
        run = await private_game(
            "3.0", QUICK_BOTS, seed=11, player_seed=11, timeout=GAME_LIMIT, extra=("--pace", "fast")
        )
    _assert_true_throughout(run)


async def test_a_whole_lan_game_of_two_people_never_shows_a_stale_board() -> None:
    """Issue 9: `pigeon-tui host` and two `pigeon-tui join`, both screens true to their logs."""
    async with asyncio.timeout(GAME_LIMIT + 30):
        run = await lan_game("3.5", ("greedy", "random"), seed=12, player_seed=12, timeout=GAME_LIMIT)
    _assert_true_throughout(run)
    assert len(run.seats) == 2
