"""Issue 10: a step with one option is taken for you and said in the log, only where taking it
at once tells nobody anything (`pigeon_tui.explain.forced_step`)."""

from __future__ import annotations

import random

from core.decisions import PASS, REACTIONS, Decision, DecisionKind, Option
from core.views import PlayerView
from pigeon_tui.explain import forced_step
from pigeon_tui.widgets.log import GameLog
from pigeon_tui.widgets.prompt import BACK_KEY, PASS_KEY
from tests.tui.conftest import make_app, wait_for_prompt

DRAW_ONLY = Decision(
    7, 0, DecisionKind.ACTION, "Action 1 of 2: what do you do?", (Option("draw", "Draw up to 5 cards"),)
)


async def test_a_forced_draw_is_taken_for_you_and_logged() -> None:
    """Against bots: the only move (draw) is made without a key, and the log says so."""
    app = make_app(players=5, seed=3)
    rng = random.Random(3)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            shown = await wait_for_prompt(pilot)
            assert shown is not None
            lines = [line for line, _ in app.screen.query_one(GameLog).lines]
            taken = [i for i, line in enumerate(lines) if line.startswith("Your only move, taken for you: Draw")]
            if taken:
                assert any(line.startswith("You draw") for line in lines[taken[0] :]), lines[taken[0] :]
                return
            d = shown.decision
            assert (d is not None and len(d.options) > 1) or d.kind in REACTIONS
            numbered = [e.key for e in shown.entries if e.key not in (PASS_KEY, BACK_KEY, "")]
            if numbered and rng.random() < 0.7:
                key = rng.choice(numbered)
            else:
                key = PASS_KEY if d.kind in REACTIONS or not numbered else numbered[0]
            await pilot.press(key)
        raise AssertionError("no forced step in 40 decisions")


def _view(hand: int) -> PlayerView:
    from core.setup import new_game
    from core.views import view

    v = view(new_game(3, seed=1), 0)
    from dataclasses import replace

    return replace(v, hand_sizes=(hand, *v.hand_sizes[1:]))


def test_forced_steps_are_taken_only_where_it_tells_nobody_anything() -> None:
    """With other people at the table, a forced move is taken for you only when they can see
    it is forced (an empty hand); a reaction with only Pass never is (R5.7)."""
    assert forced_step(_view(3), DRAW_ONLY, private=True) == DRAW_ONLY.options[0]
    assert forced_step(_view(3), DRAW_ONLY, private=False) is None
    assert forced_step(_view(0), DRAW_ONLY, private=False) == DRAW_ONLY.options[0]
    only_pass = Decision(8, 0, DecisionKind.REACT_FINE, "Fine?", (Option(PASS, "Pass"),))
    assert forced_step(_view(0), only_pass, private=True) is None
    two = Decision(9, 0, DecisionKind.ACTION, "?", (*DRAW_ONLY.options, Option(("play", "A01"), "Play")))
    assert forced_step(_view(0), two, private=True) is None
