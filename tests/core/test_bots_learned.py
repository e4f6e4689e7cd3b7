"""The learned evaluation (core.bots.learned): its weights, its chances, and the bots using it."""

from __future__ import annotations

import math
import random

import pytest

from core import new_game
from core.bots import learned, make_bot, weights
from core.bots.expert import PRESETS, ExpertBot, Preset, shortlist
from core.bots.greedy import SHARE_VP, GreedyBot, judge, judge_share
from core.bots.playout import rewards
from core.decisions import BACK, Decision, DecisionKind
from core.rules import apply
from core.scoring import winners
from core.state import GameState
from core.views import view
from tests.core.test_bots_determinize import decision_points


def play_out(state: GameState, seed: int = 0) -> GameState:
    """The game played to its end by seeded random choices."""
    rng = random.Random(seed)
    while not state.over:
        d = state.open[0]
        apply(state, d.player, d.id, rng.choice([v for v in d.values() if v != BACK]))
    return state


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
    """Issue 14: medium and hard use it in their playouts, easy at the end of its one ply; the
    seeded-bot, every-kind and no-peeking tests of test_bots.py run both through the `learned`
    and `greedy_learned` makers and the real levels."""
    assert PRESETS["hard"].learned and PRESETS["medium"].learned
    easy, greedy = make_bot("easy", 1), make_bot("greedy", 1)
    assert isinstance(easy, GreedyBot) and easy.judge is judge_share
    assert isinstance(greedy, GreedyBot) and greedy.judge is judge


def test_r7_2_the_learned_judgement_is_the_win_chance_and_the_share_of_a_finished_game() -> None:
    """R7.2: once the game is over, a seat's judgement is its share of the win (ties split)."""
    state = new_game(3, 5)
    chances = learned.win_chances(state)
    assert [judge_share(state, s) for s in range(3)] == pytest.approx([SHARE_VP * c for c in chances])
    state = play_out(state)
    won = winners(state)
    got = [judge_share(state, s) for s in range(3)]
    assert got == [SHARE_VP / len(won) if s in won else 0.0 for s in range(3)]


def action_with_options(players: int, least: int) -> tuple[GameState, Decision]:
    """An action of a seeded random game with more than `least` options besides "back"."""
    for state, d in decision_points(60, seed=900):
        if state.players == players and d.kind is DecisionKind.ACTION and len(d.values()) > least:
            return state, d
    raise AssertionError(f"no {players}-player action with {least} options")


def test_a_shortlist_keeps_the_options_the_learned_look_ahead_rates_best() -> None:
    """medium plays out only a few options with 3+ players (Preset.shortlist): those the
    easy bot's look-ahead rates best, the same on every call (so on every process a search is
    spread over), in their order; every option with 2 players, for a minor decision or size 0."""
    for players, size in ((4, 2), (3, 3)):
        state, d = action_with_options(players, size + 1)
        seen = view(state, d.player)
        values = [v for v in d.values() if v != BACK]
        got = shortlist(seen, d, values, size)
        assert len(got) == size and got == shortlist(seen, d, values, size)
        assert got == [v for v in values if v in got]
    assert shortlist(seen, d, values, 0) == values
    duel, d2 = action_with_options(2, 3)
    values2 = [v for v in d2.values() if v != BACK]
    assert shortlist(view(duel, d2.player), d2, values2, 1) == values2


def test_a_shortlisted_search_split_in_parts_merges_into_a_shortlisted_option() -> None:
    state, d = action_with_options(4, 3)
    seen = view(state, d.player)
    preset = Preset(iterations=12, rounds=0.25, seconds=0.0, minor=0.5, learned=True, tree=False, shortlist=2)
    parts = [ExpertBot(5 + i, preset).tally(seen, d, i, 2) for i in range(2)]
    assert all(p is not None and len(p["sums"]) == 2 for p in parts)
    keep = shortlist(seen, d, [v for v in d.values() if v != BACK], 2)
    assert ExpertBot.merged(d, [p for p in parts if p is not None]) in keep
    whole = ExpertBot(5, preset)
    one = ExpertBot(5, preset).tally(seen, d, 0, 1)
    assert one is not None and ExpertBot.merged(d, [one]) == whole.choose(seen, d)
