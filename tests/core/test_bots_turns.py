"""Bots that do not waste turns: no draw with a full hand while a play helps (R3.3), no final
phase called off for nothing (R4.6, R6.2). Choices on hand-built positions, no timings."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from core.bots import make_bot
from core.bots.expert import PRESETS, ExpertBot, Preset
from core.bots.flat import CALM_ROUNDS, WASTE_EDGE, gains, waste_edge
from core.bots.greedy import pick
from core.bots.heuristic import Policy
from core.bots.playout import horizon
from core.bots.rollout import LookAhead
from core.setup import new_game
from core.state import Trophy
from core.turn import DRAW
from core.views import view
from tests.core.scenario import BLAM, COMMON, FINE, INFAMOUS, LAME, STUPID, SWEEPER, build, decision

LEVELS = ("greedy", "easy", "medium", "hard")


@pytest.mark.parametrize("level", LEVELS)
def test_r3_3_a_full_hand_plays_blam_on_a_crowded_statue_instead_of_drawing_nothing(level: str) -> None:
    """R3.3: drawing with 5 cards draws nothing; Blam! on a Statue of two pigeons takes two
    trophies (R5.2). Every level above random plays it."""
    hand = [BLAM[0], FINE[0], FINE[1], SWEEPER[0], SWEEPER[1]]
    for seed in range(3):
        state = build(zones={"statue": [COMMON[0], COMMON[1]]}, hands=[hand, [], []], spare_flock="flock")
        d = decision(state, 0)
        assert DRAW in d.values()
        assert make_bot(level, seed).choose(view(state, 0), d) == ("play", BLAM[0])


@pytest.mark.parametrize("level", LEVELS)
def test_r4_6_no_bot_sends_the_infamous_back_into_an_empty_deck_for_nothing(level: str) -> None:
    """R4.6, R6.2: in the final phase, converting the Infamous Pigeon with the Flock deck empty
    costs two cards, gives no trophy, calls the final phase off, and the seat's own Invasion
    brings the Infamous straight back (R4.1). A seat ahead by two trophies, on the game's last
    turn, draws instead."""
    lead = {0: [Trophy((STUPID[0],), 1), Trophy((LAME[0],), 1)]}
    for seed in range(3):
        state = build(
            zones={"b0": [INFAMOUS[0]], "b1": [COMMON[0]], "b2": [COMMON[1]]},
            hands=[[FINE[0], FINE[1]], [], []],
            trophies=lead,
            final_left=1,
        )
        d = decision(state, 0)
        assert ("convert", INFAMOUS[0]) in d.values()
        assert make_bot(level, seed).choose(view(state, 0), d) == DRAW


def test_r4_6_a_restart_is_taken_only_with_a_clear_edge() -> None:
    """The rule of both searches: the best option, unless it calls the final phase off (R4.6)
    without beating the best other option by the margin."""
    assert pick([1.0, 1.5], [False, True], margin=1.0) == 0
    assert pick([1.0, 2.5], [False, True], margin=1.0) == 1
    assert pick([1.0, 1.5], [True, True], margin=1.0) == 1
    small = {(k, 0): 0.52 + 0.01 * (k % 2) for k in range(40)}
    rival = {(k, 0): 0.5 for k in range(40)}
    assert not gains(small, rival, edge=0.03)
    assert gains({k: v + 0.1 for k, v in small.items()}, rival, edge=0.03)
    assert not gains({(0, 0): 1.0}, {(0, 0): 0.0}, edge=0.03)


def test_a_search_split_in_parts_merges_into_the_same_choice() -> None:
    """The flat search's samples add up: one part holding them all chooses as `choose` does, and
    parts of a search spread over processes merge into an offered option."""
    small = Preset(iterations=64, rounds=1, seconds=0.045, minor=0.5, steps=800, tree=False)
    state = new_game(4, 21)
    d = state.open[0]
    seen = view(state, d.player)
    whole = ExpertBot(3, small)
    part = ExpertBot(3, small).tally(seen, d, 0, 1)
    assert part is not None
    assert ExpertBot.merged(d, [part]) == whole.choose(seen, d)
    parts = [ExpertBot(3 + i, small).tally(seen, d, i, 2) for i in range(2)]
    assert all(p is not None for p in parts)
    assert ExpertBot.merged(d, [p for p in parts if p is not None]) in d.values()


def test_r6_2_calling_the_final_phase_off_needs_a_wider_edge_as_the_game_runs_long() -> None:
    """R6.2 (R4.6): a search's edge for a wasted turn grows every round past CALM_ROUNDS, so
    four search bots cannot keep a game alive by calling the final phase off at every chance."""
    v = view(new_game(4, 1), 0)
    assert waste_edge(replace(v, turn=4 * CALM_ROUNDS)) == WASTE_EDGE
    assert waste_edge(replace(v, turn=4 * (CALM_ROUNDS + 2))) == pytest.approx(3 * WASTE_EDGE)


def test_r3_3_greedy_playouts_play_blam_on_a_crowded_statue_rather_than_draw_nothing() -> None:
    """R3.3, R5.2: the playout policy of a ply search (core.bots.rollout) judges each action by
    one ply of look-ahead on the full sample: with 5 cards, Blam! on a Statue of two pigeons
    (two trophies) beats a draw that draws nothing, and the sample itself is left as it was."""
    hand = [BLAM[0], FINE[0], FINE[1], SWEEPER[0], SWEEPER[1]]
    for seed in range(3):
        state = build(zones={"statue": [COMMON[0], COMMON[1]]}, hands=[hand, [], []], spare_flock="flock")
        d = decision(state, 0)
        before = state.to_dict()
        assert LookAhead(Policy(random.Random(seed))).choose(state, d) == ("play", BLAM[0])
        assert state.to_dict() == before  # the look-ahead plays on copies


def test_r4_6_in_a_duel_the_seat_behind_in_the_final_phase_calls_it_off_on_the_base_edge() -> None:
    """R4.6, R6.2: in the final phase of a 2-player game, a seat that would lose if the game
    ended now needs only WASTE_EDGE to call the phase off, however long the game ran: it is its
    one chance. The seat ahead, and every seat of a larger game, keep the clock's wider edge."""
    lead = {1: [Trophy((STUPID[0],), 1), Trophy((LAME[0],), 1)]}
    duel = build(2, zones={"b0": [INFAMOUS[0]]}, trophies=lead, turn=30, final_left=1, spare_flock="removed")
    assert waste_edge(view(duel, 0)) == WASTE_EDGE
    assert waste_edge(view(duel, 1)) > 3 * WASTE_EDGE
    four = build(4, zones={"b0": [INFAMOUS[0]]}, trophies=lead, turn=60, final_left=1, spare_flock="removed")
    assert waste_edge(view(four, 0)) > 3 * WASTE_EDGE


def test_r6_1_duel_playouts_from_a_small_flock_deck_go_to_the_end() -> None:
    """R6.1: the player who empties the Flock deck plays the last turn, so hard's 2-player
    playouts from a deck of fewer than Preset.duel_end cards play the game out; before that, and
    with more players, they stop a round on."""
    end = PRESETS["hard"].duel_end
    assert end > 0
    short = build(2, flock=[STUPID[1]], turn=9, spare_flock="removed")
    assert len(short.flock) < end and horizon(short, 1, end) >= 1 << 30
    assert horizon(short, 1) == short.turn + 2, "no end given: a round on"
    long = build(2, turn=3)
    assert len(long.flock) >= end and horizon(long, 1, end) == long.turn + 2
