"""§10 Editions: 3.5 (default, French) against 3.0 (English 3rd edition)."""

from __future__ import annotations

import pytest

from core.cards import Edition
from core.decisions import DecisionKind
from core.scoring import score
from core.setup import new_game
from core.state import GameState, Trophy
from tests.core.scenario import (
    BIRDSEED,
    BLAM,
    COMMON,
    FAT,
    FINE,
    GUANO,
    LAME,
    MOUNTAIN,
    STUPID,
    SWEEPER,
    asked,
    build,
    choose,
    decision,
    guano_on,
    invasion,
    kind,
    options,
    play,
    zone,
)


def test_editions_3_5_is_the_default() -> None:
    """§10: the later edition (3.5) is the default; 3.0 is a variant; others are refused."""
    assert new_game(3, seed=1).edition is Edition.V35
    assert new_game(3, seed=1, edition="3.0").edition is Edition.V30
    with pytest.raises(ValueError):
        new_game(3, seed=1, edition="2.0")


def test_editions_edition_survives_a_save() -> None:
    """§10: the edition is part of the saved state, and with it the Lame Pigeon's entry rule."""
    state = GameState.from_dict(build(edition="3.0", flock=[LAME[0]], stack=invasion()).to_dict())
    assert state.edition is Edition.V30
    assert decision(state, 0).values() == ["statue", "road"]


def test_r4_1_lame_entry_3_0_statue_or_road() -> None:
    """R4.1 §10: edition 3.0: the Lame Pigeon enters the Statue or the Road."""
    state = build(edition="3.0", flock=[LAME[0]], stack=invasion())
    assert decision(state, 0).values() == ["statue", "road"]
    choose(state, 0, "road")
    assert zone(state, "road") == [LAME[0]]


def test_r4_1_lame_entry_3_5_statue_or_crowd() -> None:
    """R4.1 §10: edition 3.5: the Lame Pigeon enters the Statue or the Crowd."""
    state = build(edition="3.5", flock=[LAME[0]], stack=invasion())
    assert decision(state, 0).values() == ["statue", "crowd"]


def test_r4_1_lame_3_0_full_statue_goes_to_the_road() -> None:
    """R4.1 §10: edition 3.0 with a full Statue: the Road, no choice asked."""
    state = build(edition="3.0", zones={"statue": [FAT[0], FAT[1]]}, flock=[LAME[0]], stack=invasion())
    assert zone(state, "road") == [LAME[0]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r5_5_fine_3_5_onto_a_balcony() -> None:
    """R5.5 §10: edition 3.5: guano onto a Balcony may be fined."""
    state = build(edition="3.5", zones={"b1": [STUPID[0]]}, hands=[[GUANO[0], BLAM[0]], [FINE[0]], []])
    play(state, 0, GUANO[0], "b1")
    assert asked(state) == [1]
    choose(state, 1, FINE[0])
    assert state.hands[0] == []


def test_r5_5_fine_3_0_not_onto_a_balcony() -> None:
    """R5.5 §10: edition 3.0: guano onto a Balcony cannot be fined; nobody is asked."""
    state = build(edition="3.0", zones={"b1": [STUPID[0]]}, hands=[[GUANO[0], BLAM[0]], [FINE[0]], []])
    play(state, 0, GUANO[0], "b1")
    assert asked(state) == [0]
    assert guano_on(state, "b1") == [GUANO[0]]
    assert state.hands == [[BLAM[0]], [FINE[0]], []]


def test_r5_5_fine_3_0_onto_a_city_location() -> None:
    """R5.5 §10: edition 3.0: guano onto a City Location may be fined."""
    state = build(edition="3.0", zones={"road": [STUPID[0]]}, hands=[[GUANO[0], BLAM[0]], [FINE[0]], []])
    play(state, 0, GUANO[0], "road")
    assert asked(state) == [1]
    choose(state, 1, FINE[0])
    assert state.hands[0] == []


def test_r5_5_fine_3_0_not_onto_a_balcony_by_birdseed() -> None:
    """R5.5 §10: edition 3.0: Birdseed onto a Balcony cannot be fined either."""
    state = build(edition="3.0", zones={"road": [STUPID[0]]}, hands=[[BIRDSEED[0], BLAM[0]], [FINE[0]], []])
    play(state, 0, BIRDSEED[0], "b0")
    assert asked(state) == [0]
    assert zone(state, "b0") == [STUPID[0]]
    assert state.hands[0] == [BLAM[0]]


def test_r5_6_sweeper_3_0_may_sweep_a_balcony() -> None:
    """R5.6 §10: edition 3.0: the Sweeper may aim at a City Location or a Balcony."""
    state = build(
        edition="3.0",
        zones={"statue": [COMMON[0]], "b2": [STUPID[0]]},
        guano={"statue": [GUANO[0]], "b2": [GUANO[1]]},
        hands=[[SWEEPER[0]], [], []],
    )
    choose(state, 0, ("play", SWEEPER[0]))
    assert decision(state, 0).values() == ["statue", "b2", "back"]


def test_r5_6_sweeper_3_0_all_guano_make_one_trophy_worth_1_vp() -> None:
    """R5.6 §10: edition 3.0: all the guano cards swept together make one trophy worth 1 VP."""
    state = build(
        edition="3.0",
        zones={"b0": [STUPID[0]]},
        guano={"b0": [GUANO[0], MOUNTAIN[0], GUANO[1]]},
        hands=[[SWEEPER[0]], [], []],
    )
    play(state, 0, SWEEPER[0], "b0")
    assert kind(state, 0) is DecisionKind.ACTION
    assert guano_on(state, "b0") == []
    assert state.trophies[0] == [Trophy((GUANO[0], MOUNTAIN[0], GUANO[1]), 1)]
    assert score(state, 0).total == 1 - 1
    assert GUANO[0] not in state.discard


def test_r5_6_sweeper_3_0_a_lone_mountain_is_worth_1_vp() -> None:
    """R5.6 §10: edition 3.0: one trophy worth 1 VP, even for a single Mountain of Guano."""
    state = build(
        edition="3.0",
        zones={"road": [STUPID[0]]},
        guano={"road": [MOUNTAIN[0]]},
        hands=[[SWEEPER[0]], [], []],
    )
    play(state, 0, SWEEPER[0], "road")
    assert state.trophies[0] == [Trophy((MOUNTAIN[0],), 1)]
    assert score(state, 0).total == 1


def test_r5_6_sweeper_3_5_keeps_one_the_rest_discarded() -> None:
    """R5.6 §10: edition 3.5: keep one card of your choice; a kept Mountain is worth 2 VP."""
    state = build(
        edition="3.5",
        zones={"road": [STUPID[0]]},
        guano={"road": [GUANO[0], MOUNTAIN[0]]},
        hands=[[SWEEPER[0]], [], []],
    )
    play(state, 0, SWEEPER[0], "road")
    assert set(options(state, 0)) == {GUANO[0], MOUNTAIN[0]}
    choose(state, 0, MOUNTAIN[0])
    assert state.trophies[0] == [Trophy((MOUNTAIN[0],), 2)]
    assert GUANO[0] in state.discard
    assert score(state, 0).total == 2
