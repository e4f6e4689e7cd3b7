"""R1 Components: the cards, the four City Locations, Zones and sizes."""

from __future__ import annotations

from collections import Counter

import pytest

from core.bots.random import RandomBot
from core.cards import ACTION_IDS, ACTIONS, ALL_IDS, FLOCK_IDS, ActionKind, Edition, FlockKind, flock_book
from core.rules import apply
from core.setup import new_game
from core.state import GameState, all_cards, check
from core.views import view
from tests.core.scenario import (
    BIRDSEED,
    COMMON,
    FAT,
    GUANO,
    INFAMOUS,
    LADY,
    LAME,
    STUPID,
    build,
    choose,
    decision,
    guano_on,
    invasion,
    options,
    play,
    scare,
    zone,
)

# ---- R1.1 ------------------------------------------------------------------------------------


def test_r1_1_forty_flock_cards_with_the_section_9_composition() -> None:
    """R1.1: 40 Flock cards F01..F40: 12 Fat, 6 Infamous, 4 Lady, 8 Stupid, 8 Lame, 2 Common (§9)."""
    assert FLOCK_IDS == tuple(f"F{i:02d}" for i in range(1, 41))
    book = flock_book(Edition.V35)
    assert Counter(book[c].kind for c in FLOCK_IDS) == {
        FlockKind.FAT: 12,
        FlockKind.INFAMOUS: 6,
        FlockKind.LADY: 4,
        FlockKind.STUPID: 8,
        FlockKind.LAME: 8,
        FlockKind.COMMON: 2,
    }
    assert FAT == tuple(f"F{i:02d}" for i in range(1, 13))
    assert INFAMOUS == tuple(f"F{i:02d}" for i in range(13, 19))
    assert LADY == tuple(f"F{i:02d}" for i in range(19, 23))
    assert STUPID == tuple(f"F{i:02d}" for i in range(23, 31))
    assert LAME == tuple(f"F{i:02d}" for i in range(31, 39))
    assert COMMON == ("F39", "F40")


def test_r1_1_fifty_five_action_cards_with_the_section_9_composition() -> None:
    """R1.1: 55 Action cards A01..A55 with the §9 counts, recall values and active uses."""
    assert ACTION_IDS == tuple(f"A{i:02d}" for i in range(1, 56))
    assert Counter(ACTIONS[c].kind for c in ACTION_IDS) == {
        ActionKind.BLAM: 10,
        ActionKind.GUANO: 10,
        ActionKind.MOUNTAIN: 5,
        ActionKind.WROOM: 6,
        ActionKind.ZOT: 6,
        ActionKind.BIRDSEED: 7,
        ActionKind.FINE: 5,
        ActionKind.SWEEPER: 6,
    }
    recall = {ACTIONS[c].kind: ACTIONS[c].recall for c in ACTION_IDS}
    assert recall == {
        ActionKind.BLAM: 1,
        ActionKind.GUANO: 0,
        ActionKind.MOUNTAIN: 0,
        ActionKind.WROOM: 1,
        ActionKind.ZOT: 1,
        ActionKind.BIRDSEED: 1,
        ActionKind.FINE: 2,
        ActionKind.SWEEPER: 2,
    }
    assert [k for k in ActionKind if not ACTIONS[next(c for c in ACTION_IDS if ACTIONS[c].kind is k)].active] == [
        ActionKind.FINE
    ]


def test_r1_1_every_card_id_stays_in_exactly_one_place_through_a_game() -> None:
    """R1.1: each physical card keeps its id for the whole game: 95 ids, each in one place."""
    for players, seed in ((2, 11), (4, 12), (6, 13)):
        state = new_game(players, seed=seed)
        bots = [RandomBot(100 + s) for s in range(players)]
        for _ in range(5000):
            if state.over:
                break
            d = state.open[0]
            apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))
            cards = all_cards(state)
            assert len(cards) == 95
            assert set(cards) == ALL_IDS
            check(state)
        assert state.over


def test_r1_1_from_dict_rejects_a_missing_card() -> None:
    """R1.1: a saved state that lost a card is corrupt."""
    d = build(deck=[GUANO[0]]).to_dict()
    d["deck"].remove(GUANO[0])
    with pytest.raises(ValueError, match="missing"):
        GameState.from_dict(d)


def test_r1_1_from_dict_rejects_a_duplicated_card() -> None:
    """R1.1: a saved state holding a card twice is corrupt."""
    d = build(deck=[GUANO[0]]).to_dict()
    d["hands"][1].append(GUANO[0])
    with pytest.raises(ValueError, match="repeated"):
        GameState.from_dict(d)


def test_r1_1_from_dict_rejects_an_unknown_card() -> None:
    """R1.1: only F01..F40 and A01..A55 exist."""
    d = build(deck=[GUANO[0]]).to_dict()
    d["deck"] = ["A56" if c == GUANO[0] else c for c in d["deck"]]
    with pytest.raises(ValueError, match="unknown"):
        GameState.from_dict(d)


# ---- R1.2 ------------------------------------------------------------------------------------


def test_r1_2_full_statue_is_not_offered() -> None:
    """R1.2: the Statue holds 4 spaces; a full Statue is not offered to a Stupid Pigeon."""
    state = build(zones={"statue": [FAT[0], FAT[1]]}, flock=[STUPID[0]], stack=invasion())
    assert decision(state, 0).values() == ["cables", "road"]


def test_r1_2_full_cables_are_not_offered() -> None:
    """R1.2: the Cables hold 4 spaces; full Cables are not offered to a Lady Pigeon."""
    state = build(zones={"cables": list(STUPID[:4])}, flock=[LADY[0]], stack=invasion())
    assert decision(state, 0).values() == ["statue", "crowd"]


def test_r1_2_road_and_crowd_have_no_limit() -> None:
    """R1.2: Road and Crowd are unlimited: ten pigeons there, a Fat Pigeon may still land."""
    state = build(
        zones={
            "statue": [FAT[0], FAT[1]],
            "cables": [FAT[2], FAT[3]],
            "road": [*list(STUPID), COMMON[0], COMMON[1]],
            "crowd": [*list(LAME[:6]), FAT[5], FAT[6], FAT[7], FAT[8]],
        },
        flock=[FAT[4]],
        stack=invasion(),
    )
    assert decision(state, 0).values() == ["road", "crowd"]
    choose(state, 0, "crowd")
    assert len(zone(state, "crowd")) == 11
    assert zone(state, "crowd")[-1] == FAT[4]


def test_r1_2_lame_pigeon_is_never_pulled_onto_the_cables() -> None:
    """R1.2: a Lady on the Cables may pull other pigeons there, never a Lame Pigeon."""
    state = build(
        zones={"statue": [FAT[0], FAT[1]], "crowd": [LAME[0]], "road": [COMMON[0]]},
        flock=[LADY[0]],
        stack=invasion(),
    )
    choose(state, 0, "cables")
    offered = options(state, 0)
    assert LAME[0] not in offered
    assert set(offered) == {"done", COMMON[0], FAT[0], FAT[1]}


def test_r1_2_birdseed_cannot_aim_at_the_cables_with_only_lame_pigeons() -> None:
    """R1.2: Birdseed onto the Cables is not offered when only Lame Pigeons could come."""
    state = build(zones={"road": [LAME[0]], "crowd": [LAME[1]]}, hands=[[BIRDSEED[0]], [], []])
    choose(state, 0, ("play", BIRDSEED[0]))
    offered = options(state, 0)
    assert "cables" not in offered
    assert set(offered) == {"road", "statue", "crowd", "b0", "b1", "b2", "back"}


def test_r1_2_scared_lame_pigeon_skips_the_empty_cables() -> None:
    """R1.2: a scared Lame Pigeon never lands on the Cables, even when they are the least crowded."""
    state = build(
        2,
        zones={
            "statue": [LAME[0]],
            "road": [STUPID[0]],
            "crowd": [STUPID[1], STUPID[2]],
            "b0": [STUPID[3], STUPID[4]],
            "b1": [STUPID[5], STUPID[6]],
        },
        stack=scare(1),
    )
    assert zone(state, "cables") == []
    assert zone(state, "road") == [STUPID[0], LAME[0]]


def test_r1_2_from_dict_rejects_a_lame_pigeon_on_the_cables() -> None:
    """R1.2: the Lame Pigeon may never be on the Cables: such a save is corrupt."""
    d = build(zones={"crowd": [LAME[0]]}).to_dict()
    d["pigeons"]["crowd"].remove(LAME[0])
    d["pigeons"]["cables"].append(LAME[0])
    with pytest.raises(ValueError, match="Lame"):
        GameState.from_dict(d)


def test_r1_2_from_dict_rejects_a_statue_over_four_spaces() -> None:
    """R1.2: the Statue holds at most 4 spaces: two Fat Pigeons and a third pigeon is corrupt."""
    d = build(zones={"statue": [FAT[0], FAT[1]], "road": [STUPID[0]]}).to_dict()
    d["pigeons"]["road"].remove(STUPID[0])
    d["pigeons"]["statue"].append(STUPID[0])
    with pytest.raises(ValueError, match="statue"):
        GameState.from_dict(d)


def test_r1_2_from_dict_rejects_cables_over_four_spaces() -> None:
    """R1.2: the Cables hold at most 4 spaces."""
    d = build(zones={"cables": [FAT[0], FAT[1]], "road": [FAT[2]]}).to_dict()
    d["pigeons"]["road"].remove(FAT[2])
    d["pigeons"]["cables"].append(FAT[2])
    with pytest.raises(ValueError, match="cables"):
        GameState.from_dict(d)


# ---- R1.3 ------------------------------------------------------------------------------------


def test_r1_3_zones_are_the_city_locations_then_the_balconies() -> None:
    """R1.3: a Zone is a City Location or a player's Balcony."""
    state = build(3)
    assert state.zone_ids() == ("road", "statue", "cables", "crowd", "b0", "b1", "b2")
    assert [z.id for z in view(state, 0).zones] == ["road", "statue", "cables", "crowd", "b0", "b1", "b2"]


def test_r1_3_balcony_has_no_capacity_limit() -> None:
    """R1.3: an Infamous Pigeon lands on a Balcony already holding eight pigeons."""
    state = build(zones={"b0": list(FAT[:8])}, flock=[INFAMOUS[0]], stack=invasion())
    assert zone(state, "b0") == [*list(FAT[:8]), INFAMOUS[0]]


def test_r1_3_zones_hold_guano_cards_including_balconies() -> None:
    """R1.3: guano may be played onto any Zone holding a pigeon, a Balcony included, and stays there."""
    state = build(zones={"road": [COMMON[0]], "b1": [STUPID[0]]}, hands=[[GUANO[0]], [], []])
    choose(state, 0, ("play", GUANO[0]))
    assert decision(state, 0).values() == ["road", "b1", "back"]
    choose(state, 0, "b1")
    assert guano_on(state, "b1") == [GUANO[0]]
    assert GUANO[0] not in state.played


# ---- R1.4 ------------------------------------------------------------------------------------


def test_r1_4_fat_pigeon_takes_two_spaces_of_the_statue() -> None:
    """R1.4: a Fat Pigeon and two others fill the Statue's 4 spaces."""
    state = build(zones={"statue": [FAT[0], COMMON[0], COMMON[1]]}, flock=[STUPID[0]], stack=invasion())
    assert decision(state, 0).values() == ["cables", "road"]


def test_r1_4_fat_pigeon_does_not_fit_in_one_free_space() -> None:
    """R1.4: with 3 spaces used, the Statue has no room for a Fat Pigeon: it goes to the Cables."""
    state = build(zones={"statue": [STUPID[0], STUPID[1], STUPID[2]]}, flock=[FAT[0]], stack=invasion())
    assert zone(state, "cables") == [FAT[0]]
    assert decision(state, 0).kind == "action"


def test_r1_4_least_crowded_counts_spaces_not_pigeons() -> None:
    """R1.4: two Fat Pigeons (4 spaces) are more crowded than three small pigeons (3 spaces)."""
    state = build(
        2,
        zones={
            "statue": [COMMON[0]],
            "road": [FAT[0], FAT[1]],
            "crowd": [STUPID[0], STUPID[1], STUPID[2]],
            "cables": [STUPID[3], STUPID[4], STUPID[5], STUPID[6]],
            "b0": list(LAME[:4]),
            "b1": list(LAME[4:]),
        },
        stack=scare(1),
    )
    assert zone(state, "crowd") == [STUPID[0], STUPID[1], STUPID[2], COMMON[0]]
    assert zone(state, "road") == [FAT[0], FAT[1]]


def test_r1_4_zone_labels_count_spaces() -> None:
    """R1.4: a Statue holding one Fat Pigeon is shown as 2 of its 4 spaces used."""
    state = build(zones={"statue": [FAT[0]], "road": [COMMON[0]]}, hands=[[GUANO[0]], [], []])
    play(state, 0, GUANO[0])
    labels = {o.value: o.label for o in decision(state, 0).options}
    assert "2/4" in labels["statue"]
