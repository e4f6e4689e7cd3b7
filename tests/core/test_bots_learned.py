"""The learned leaf evaluation (core.bots.learned): its weights, its chances, and hard using it."""

from __future__ import annotations

import math

import pytest

from core import new_game
from core.bots import learned, weights
from core.bots.expert import PRESETS
from core.bots.playout import rewards
from tests.core.test_bots_determinize import decision_points


def test_the_weights_load_one_per_feature_and_its_lateness() -> None:
    for w in (weights.DUEL, weights.MANY):
        assert len(w) == 2 * len(learned.NAMES) == 34
        assert all(math.isfinite(v) for v in w) and any(w)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_win_chances_are_a_distribution_over_the_seats(players: int) -> None:
    checked = 0
    for i, (state, _) in enumerate(decision_points(25, seed=700)):
        if state.players != players or state.over or i % 7:
            continue
        chances = learned.win_chances(state)
        assert len(chances) == players and all(0.0 < c < 1.0 for c in chances)
        assert math.isclose(sum(chances), 1.0)
        assert all(len(x) == 34 for x in learned.rows(state))
        checked += 1
    assert checked > 5


def test_a_learned_reward_mixes_the_chances_with_the_lead() -> None:
    state = new_game(4, 3)
    got = rewards(state, learned=True)
    assert all(0.0 <= r <= 1.0 for r in got) and got != rewards(state)


def test_medium_and_hard_judge_unfinished_playouts_by_the_learned_evaluation() -> None:
    """Issue 14: medium and hard use it, easy the hand-made guess (the step from easy to medium);
    the seeded-bot, every-kind and no-peeking tests of test_bots.py run it through the `learned`
    maker and the real presets."""
    assert PRESETS["hard"].learned and PRESETS["medium"].learned and not PRESETS["easy"].learned
