"""R7 Scoring: trophies and Balconies, and the tie-breaks."""

from __future__ import annotations

from core.scoring import score, scores, tie_break, winners
from core.state import Trophy
from tests.core.scenario import BLAM, COMMON, FAT, GUANO, LADY, MOUNTAIN, STUPID, build


def test_r7_1_trophies_and_balcony_cards_are_scored() -> None:
    """R7.1: +1 a pigeon trophy (a blind one too), +1 a Guano trophy, +2 a Mountain trophy;
    -1 a pigeon on your Balcony, -1 a Guano there, -2 a Mountain there."""
    state = build(
        zones={"b0": [STUPID[1], COMMON[0]]},
        guano={"b0": [GUANO[1], MOUNTAIN[1]]},
        trophies={
            0: [
                Trophy((STUPID[0],), 1),
                Trophy((LADY[0],), 1, hidden=True),
                Trophy((GUANO[0],), 1),
                Trophy((MOUNTAIN[0],), 2),
            ]
        },
    )
    s = score(state, 0)
    assert (s.pigeon_trophies, s.guano_trophies, s.mountain_trophies, s.trophy_vp) == (2, 1, 1, 5)
    assert (s.balcony_pigeons, s.balcony_guano, s.balcony_mountains) == (2, 1, 1)
    assert s.total == 5 - 2 - 1 - 2
    assert s.balcony_penalty == 2 + 1 + 2 == s.trophy_vp - s.total
    assert [x.total for x in scores(state)] == [0, 0, 0]


def test_r7_1_a_balcony_pigeon_costs_one_whatever_its_size() -> None:
    """R7.1: a Fat Pigeon on your Balcony costs 1 VP, like any pigeon."""
    state = build(zones={"b1": [FAT[0]], "b2": [STUPID[0]]})
    assert [s.total for s in scores(state)] == [0, -1, -1]


def test_r7_2_highest_score_wins() -> None:
    """R7.2: the highest score wins outright."""
    state = build(trophies={1: [Trophy((FAT[0],), 1)]})
    assert winners(state) == [1]
    assert tie_break(scores(state)) == "score"


def test_r7_2_tie_goes_to_fewer_pigeons_on_the_balcony() -> None:
    """R7.2: tied scores: fewer pigeons on the Balcony wins (pigeons, not spaces)."""
    state = build(
        zones={"b0": [FAT[2]], "b1": [STUPID[0], STUPID[1]]},
        trophies={
            0: [Trophy((FAT[0],), 1), Trophy((FAT[1],), 1)],
            1: [Trophy((MOUNTAIN[0],), 2), Trophy((GUANO[0],), 1)],
        },
        hands=[[], [BLAM[0], BLAM[1]], []],
    )
    assert [s.total for s in scores(state)][:2] == [1, 1]
    assert winners(state) == [0]
    assert tie_break(scores(state)) == "balcony"


def test_r7_2_then_more_action_cards_in_hand() -> None:
    """R7.2: then more Action cards in hand wins."""
    state = build(
        trophies={0: [Trophy((FAT[0],), 1)], 2: [Trophy((FAT[1],), 1)]},
        hands=[[BLAM[0]], [BLAM[1], BLAM[2], BLAM[3]], [BLAM[4], BLAM[5]]],
    )
    assert winners(state) == [2]
    assert tie_break(scores(state)) == "hand"


def test_r7_2_then_the_tied_players_share_the_win() -> None:
    """R7.2: still tied: they share the win."""
    state = build(
        trophies={0: [Trophy((FAT[0],), 1)], 2: [Trophy((FAT[1],), 1)]},
        hands=[[BLAM[0]], [BLAM[1], BLAM[2], BLAM[3]], [BLAM[4]]],
    )
    assert winners(state) == [0, 2]
    assert tie_break(scores(state)) == "shared"
