"""R4 Pigeons: entry rules, scares, landing in batches, the Lady, the Infamous Pigeon."""

from __future__ import annotations

import pytest

from core.decisions import DecisionKind
from core.events import Event, EventKind
from core.house import BOOK, HouseRules, InfamousEmpty
from core.state import Trophy, TrophyView
from core.views import view
from tests.core.scenario import (
    BIRDSEED,
    BLAM,
    COMMON,
    FAT,
    GUANO,
    INFAMOUS,
    LADY,
    LAME,
    MOUNTAIN,
    STUPID,
    WROOM,
    ZOT,
    asked,
    build,
    choose,
    decision,
    guano_on,
    invasion,
    kind,
    of_kind,
    options,
    play,
    scare,
    zone,
)

# ---- R4.1 ------------------------------------------------------------------------------------


def test_r4_1_infamous_lands_on_the_active_players_balcony() -> None:
    """R4.1: a revealed Infamous Pigeon lands on the active player's Balcony."""
    state = build(active=1, flock=[INFAMOUS[0]], stack=invasion())
    assert zone(state, "b1") == [INFAMOUS[0]]
    assert kind(state, 1) is DecisionKind.ACTION


def test_r4_1_fat_takes_the_statue_when_it_has_room() -> None:
    """R4.1: a Fat Pigeon goes to the Statue if it has room, with no choice asked."""
    state = build(zones={"statue": [STUPID[0], STUPID[1]]}, flock=[FAT[0]], stack=invasion())
    assert zone(state, "statue") == [STUPID[0], STUPID[1], FAT[0]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r4_1_fat_takes_the_cables_when_the_statue_is_full() -> None:
    """R4.1: else a Fat Pigeon goes to the Cables if they have room."""
    state = build(
        zones={"statue": [FAT[1], FAT[2]], "cables": [STUPID[0], STUPID[1]]}, flock=[FAT[0]], stack=invasion()
    )
    assert zone(state, "cables") == [STUPID[0], STUPID[1], FAT[0]]


def test_r4_1_fat_lets_the_active_player_choose_road_or_crowd() -> None:
    """R4.1: with no room on the Statue or the Cables, the active player chooses Road or Crowd."""
    state = build(
        active=2,
        zones={"statue": [FAT[1], FAT[2]], "cables": [STUPID[0], STUPID[1], STUPID[2]]},
        flock=[FAT[0]],
        stack=invasion(),
    )
    d = decision(state, 2)
    assert d.kind is DecisionKind.LAND
    assert d.values() == ["road", "crowd"]
    choose(state, 2, "road")
    assert zone(state, "road") == [FAT[0]]


def test_r4_1_stupid_enters_statue_cables_or_road() -> None:
    """R4.1: Stupid Pigeon: Statue, Cables or Road."""
    state = build(flock=[STUPID[0]], stack=invasion())
    assert decision(state, 0).values() == ["statue", "cables", "road"]
    choose(state, 0, "cables")
    assert zone(state, "cables") == [STUPID[0]]


def test_r4_1_lady_enters_statue_cables_or_crowd() -> None:
    """R4.1: Lady Pigeon: Statue, Cables or Crowd."""
    state = build(flock=[LADY[0]], stack=invasion())
    assert decision(state, 0).values() == ["statue", "cables", "crowd"]


def test_r4_1_lame_enters_statue_or_crowd() -> None:
    """R4.1: Lame Pigeon (3.5): Statue or Crowd, never the Cables nor the Road."""
    state = build(flock=[LAME[0]], stack=invasion())
    assert decision(state, 0).values() == ["statue", "crowd"]


def test_r4_1_lame_goes_to_the_crowd_when_the_statue_is_full() -> None:
    """R4.1: a choice that would exceed a capacity is not offered: with the Statue full the
    Lame Pigeon goes to the Crowd."""
    state = build(zones={"statue": [FAT[0], FAT[1]]}, flock=[LAME[0]], stack=invasion())
    assert zone(state, "crowd") == [LAME[0]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r4_1_common_enters_any_city_location_with_room() -> None:
    """R4.1: a Common Pigeon lands on any City Location with room."""
    state = build(flock=[COMMON[0]], stack=invasion())
    assert decision(state, 0).values() == ["road", "statue", "cables", "crowd"]
    state = build(zones={"cables": [FAT[0], FAT[1]]}, flock=[COMMON[0]], stack=invasion())
    assert decision(state, 0).values() == ["road", "statue", "crowd"]


def test_r4_1_the_active_player_chooses() -> None:
    """R4.1: the active player chooses where a choice exists."""
    state = build(active=2, flock=[LADY[0]], stack=invasion())
    assert asked(state) == [2]
    assert kind(state, 2) is DecisionKind.LAND


# ---- R4.2 ------------------------------------------------------------------------------------


def test_r4_2_stupid_pigeon_stays_when_blam() -> None:
    """R4.2: Blam! on the Statue scares the rest, except a Stupid Pigeon."""
    state = build(
        2,
        zones={
            "statue": [COMMON[0], COMMON[1], STUPID[0], LAME[0]],
            "cables": [STUPID[1]],
            "crowd": [STUPID[2]],
            "b0": [STUPID[3]],
            "b1": [STUPID[4]],
        },
        hands=[[BLAM[0]], []],
    )
    play(state, 0, BLAM[0], "statue")
    choose(state, 0, COMMON[0])
    choose(state, 0, COMMON[1])
    assert state.trophies[0] == [Trophy((COMMON[0],), 1), Trophy((COMMON[1],), 1)]
    assert zone(state, "statue") == [STUPID[0]]
    assert zone(state, "road") == [LAME[0]]


def test_r4_2_stupid_pigeon_stays_when_blam_on_a_balcony() -> None:
    """R4.2: Blam! on your own Balcony: a Stupid Pigeon there is not scared."""
    state = build(
        zones={
            "b0": [STUPID[0], COMMON[0], LAME[0]],
            "road": [STUPID[1]],
            "statue": [STUPID[2]],
            "cables": [STUPID[3]],
            "b1": [STUPID[4]],
            "b2": [STUPID[5]],
        },
        hands=[[BLAM[0]], [], []],
    )
    play(state, 0, BLAM[0], "b0")
    choose(state, 0, LAME[0])
    assert zone(state, "b0") == [STUPID[0]]
    assert zone(state, "crowd") == [COMMON[0]]
    assert state.trophies[0] == [Trophy((LAME[0],), 1)]


def test_r4_2_stupid_pigeon_stays_when_crowd_is_guanoed() -> None:
    """R4.2: guano on the Crowd scares its pigeons, except a Stupid Pigeon."""
    state = build(
        2,
        zones={
            "crowd": [STUPID[0], COMMON[0]],
            "statue": [LAME[0]],
            "cables": [STUPID[1]],
            "b0": [LAME[1]],
            "b1": [LAME[2]],
        },
        hands=[[GUANO[0]], []],
    )
    play(state, 0, GUANO[0], "crowd")
    assert zone(state, "crowd") == [STUPID[0]]
    assert zone(state, "road") == [COMMON[0]]
    assert guano_on(state, "crowd") == [GUANO[0]]


def test_r4_2_the_scare_names_the_pigeons_that_take_off() -> None:
    """R4.2: the scare's event lists the pigeons that take off (public cards), none when only
    a Stupid Pigeon is left in the Crowd, so the log never has pigeons take off that do not."""
    state = build(
        2,
        zones={"crowd": [STUPID[0], COMMON[0]], "statue": [LAME[0]], "b0": [LAME[1]], "b1": [LAME[2]]},
        hands=[[GUANO[0]], []],
    )
    events = play(state, 0, GUANO[0], "crowd")
    assert [e.cards for e in of_kind(events, EventKind.SCARED)] == [(COMMON[0],)]
    state = build(2, zones={"crowd": [STUPID[0]], "statue": [LAME[0]]}, hands=[[GUANO[0]], []])
    events = play(state, 0, GUANO[0], "crowd")
    assert [(e.zone, e.cards) for e in of_kind(events, EventKind.SCARED)] == [("crowd", ())]


def test_r4_2_biggest_pigeon_lands_first() -> None:
    """R4.2: scared pigeons land one at a time, biggest first, each on the least crowded Zone."""
    events: list[Event] = []
    state = build(
        2,
        zones={
            "statue": [COMMON[0], FAT[0]],
            "cables": [STUPID[0], STUPID[1]],
            "crowd": [LAME[0]],
            "b0": [LAME[1], LAME[2]],
            "b1": [LAME[3], LAME[4]],
        },
        stack=scare(1),
        events=events,
    )
    assert zone(state, "road") == [FAT[0]]
    assert zone(state, "crowd") == [LAME[0], COMMON[0]]
    assert [e.cards[0] for e in of_kind(events, EventKind.LANDED)] == [FAT[0], COMMON[0]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r4_2_each_lands_on_the_least_crowded_counting_earlier_landings() -> None:
    """R4.2: the least crowded Zone is counted after the pigeons already placed, which spreads
    them equally."""
    state = build(
        2,
        zones={
            "statue": [COMMON[0], COMMON[1]],
            "cables": [STUPID[0]],
            "crowd": [LAME[0]],
            "b0": [LAME[1]],
            "b1": [LAME[2]],
        },
        stack=scare(1),
    )
    d = decision(state, 0)
    assert d.kind is DecisionKind.LAND
    assert d.values() == ["road", "cables", "crowd", "b0", "b1"]
    assert d.prompt.startswith(f"The scared {state.book[COMMON[1]].name}")


def test_r4_2_not_the_zone_they_left() -> None:
    """R4.2: a scared pigeon never lands back on the Zone it left, even when it is the emptiest."""
    state = build(
        2,
        zones={"statue": [COMMON[0]], "road": [LAME[0]], "cables": [STUPID[0]], "crowd": [LAME[1]]},
        stack=scare(1, by=0),
    )
    assert "statue" not in options(state, 0)
    assert set(options(state, 0)) == {"b0", "b1"}


def test_r4_2_balconies_count_like_city_locations() -> None:
    """R4.2: a scared pigeon may land on any Balcony when it is the least crowded Zone."""
    state = build(
        3,
        zones={
            "statue": [COMMON[0]],
            "road": [LAME[0]],
            "cables": [STUPID[0]],
            "crowd": [LAME[1]],
            "b0": [LAME[2]],
            "b2": [LAME[3]],
        },
        stack=scare(1),
    )
    assert zone(state, "b1") == [COMMON[0]]


def test_r4_2_only_where_it_may_legally_land() -> None:
    """R4.2: a Fat Pigeon scared from the Crowd skips the Statue and Cables (3 spaces used, no
    room for 2) although they are less crowded."""
    state = build(
        2,
        zones={
            "crowd": [FAT[0]],
            "statue": [LAME[0], LAME[1], LAME[2]],
            "cables": [STUPID[0], STUPID[1], STUPID[2]],
            "road": [FAT[1], FAT[2]],
            "b0": [FAT[3], FAT[4], FAT[5]],
            "b1": [FAT[6], FAT[7], FAT[8]],
        },
        stack=scare(3, cause="crowd"),
    )
    assert zone(state, "road") == [FAT[1], FAT[2], FAT[0]]
    assert zone(state, "statue") == [LAME[0], LAME[1], LAME[2]]


def test_r4_2_tie_is_chosen_by_the_player_who_caused_the_scare() -> None:
    """R4.2 [D]: on a tie, the player who caused the scare (not the active player) chooses among
    exactly the tied Zones."""
    state = build(
        2,
        active=0,
        zones={
            "statue": [COMMON[0]],
            "road": [LAME[0]],
            "cables": [STUPID[0]],
            "crowd": [LAME[1]],
            "b0": [LAME[2]],
            "b1": [LAME[3]],
        },
        stack=scare(1, by=1),
    )
    assert asked(state) == [1]
    d = decision(state, 1)
    assert d.kind is DecisionKind.LAND
    assert d.values() == ["road", "cables", "crowd", "b0", "b1"]
    choose(state, 1, "b0")
    assert zone(state, "b0") == [LAME[2], COMMON[0]]
    assert kind(state, 0) is DecisionKind.ACTION


# ---- R4.3 ------------------------------------------------------------------------------------


def test_r4_3_balcony_owner_may_react_before_the_batch_lands() -> None:
    """R4.3: only the owner of a Balcony receiving pigeons is asked about Birdseed, before they land."""
    events: list[Event] = []
    state = build(
        3,
        zones={
            "statue": [LAME[0]],
            "road": [FAT[0]],
            "cables": [FAT[1]],
            "crowd": [FAT[2]],
            "b0": [FAT[3]],
            "b2": [FAT[4]],
        },
        hands=[[BIRDSEED[0]], [BIRDSEED[1]], [BIRDSEED[2]]],
        stack=scare(1),
        events=events,
    )
    assert asked(state) == [1]
    assert kind(state, 1) is DecisionKind.REACT_BIRDSEED
    assert zone(state, "statue") == [LAME[0]]
    assert [(e.cards[0], e.to) for e in of_kind(events, EventKind.HEADING)] == [(LAME[0], "b1")]
    assert of_kind(events, EventKind.LANDED) == []
    choose(state, 1, "pass")
    assert zone(state, "b1") == [LAME[0]]
    assert zone(state, "statue") == []


def test_r4_3_no_reaction_asked_without_birdseed() -> None:
    """R4.3: a Balcony owner holding no Birdseed is not asked; the batch lands."""
    state = build(
        3,
        zones={
            "statue": [LAME[0]],
            "road": [FAT[0]],
            "cables": [FAT[1]],
            "crowd": [FAT[2]],
            "b0": [FAT[3]],
            "b2": [FAT[4]],
        },
        hands=[[], [GUANO[0]], []],
        stack=scare(1),
    )
    assert zone(state, "b1") == [LAME[0]]
    assert asked(state) == [0]


def test_r4_3_arrival_triggers_fire_in_landing_order() -> None:
    """R4.3: once the batch has landed, the Lady that landed first triggers first."""
    state = build(
        2,
        zones={
            "statue": [LADY[0], LADY[1]],
            "crowd": [STUPID[0]],
            "cables": [FAT[0]],
            "b0": [FAT[1]],
            "b1": [FAT[2]],
        },
        stack=scare(1),
    )
    choose(state, 0, "crowd")  # LADY[1]'s tie: Road and Crowd both hold one pigeon
    assert zone(state, "road") == [LADY[0]]
    assert zone(state, "crowd") == [STUPID[0], LADY[1]]
    assert kind(state, 0) is DecisionKind.LADY
    first = options(state, 0)
    assert LADY[1] in first and LADY[0] not in first
    choose(state, 0, "done")
    second = options(state, 0)
    assert LADY[0] in second and LADY[1] not in second


# ---- R4.4 ------------------------------------------------------------------------------------


def test_r4_4_lady_from_the_deck_pulls_one_pigeon() -> None:
    """R4.4: a revealed Lady lets the active player move one other pigeon from another Zone to
    hers, respecting capacity and restrictions."""
    state = build(
        zones={"statue": [STUPID[0]], "crowd": [LAME[0]], "road": [FAT[0]], "b1": [COMMON[0]]},
        flock=[LADY[0]],
        stack=invasion(),
    )
    choose(state, 0, "cables")
    assert kind(state, 0) is DecisionKind.LADY
    assert set(options(state, 0)) == {"done", STUPID[0], FAT[0], COMMON[0]}
    choose(state, 0, COMMON[0])
    assert zone(state, "cables") == [LADY[0], COMMON[0]]
    assert zone(state, "b1") == []
    assert kind(state, 0) is DecisionKind.ACTION


def test_r4_4_lady_respects_capacity() -> None:
    """R4.4: a Fat Pigeon is not offered when the Lady's Zone has one space left."""
    state = build(
        zones={"statue": [STUPID[0], STUPID[1]], "road": [FAT[0], COMMON[0]]}, flock=[LADY[0]], stack=invasion()
    )
    choose(state, 0, "statue")
    assert set(options(state, 0)) == {"done", COMMON[0]}


def test_r4_4_lady_pull_is_optional() -> None:
    """R4.4: the pull is optional."""
    state = build(zones={"road": [COMMON[0]]}, flock=[LADY[0]], stack=invasion())
    choose(state, 0, "crowd")
    choose(state, 0, "done")
    assert zone(state, "road") == [COMMON[0]]
    assert zone(state, "crowd") == [LADY[0]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r4_4_pulled_lady_chains() -> None:
    """R4.4: the pulled pigeon's arrival triggers too: another Lady chains."""
    state = build(zones={"road": [LADY[1]], "statue": [COMMON[0]]}, flock=[LADY[0]], stack=invasion())
    choose(state, 0, "crowd")
    choose(state, 0, LADY[1])
    assert zone(state, "crowd") == [LADY[0], LADY[1]]
    assert kind(state, 0) is DecisionKind.LADY
    assert set(options(state, 0)) == {"done", COMMON[0]}
    choose(state, 0, COMMON[0])
    assert zone(state, "crowd") == [LADY[0], LADY[1], COMMON[0]]


def test_r4_4_scare_causer_moves_the_lady() -> None:
    """R4.4: a Lady moved by a scare is moved by the player whose card caused it."""
    state = build(
        2,
        active=0,
        zones={"statue": [LADY[0]], "cables": [STUPID[0]], "crowd": [LAME[0]], "b0": [LAME[1]], "b1": [LAME[2]]},
        stack=scare(1, by=1),
    )
    assert zone(state, "road") == [LADY[0]]
    assert asked(state) == [1]
    assert kind(state, 1) is DecisionKind.LADY


def test_r4_4_birdseed_action_player_moves_the_lady() -> None:
    """R4.4: a Lady moved by Birdseed is moved by the player who played it."""
    state = build(zones={"road": [LADY[0], STUPID[0]], "statue": [COMMON[0]]}, hands=[[BIRDSEED[0]], [], []])
    play(state, 0, BIRDSEED[0], "crowd")
    choose(state, 0, LADY[0])
    assert zone(state, "crowd") == [LADY[0], COMMON[0]]
    assert asked(state) == [0]
    assert kind(state, 0) is DecisionKind.LADY
    assert set(options(state, 0)) == {"done", STUPID[0]}


def test_r4_4_birdseed_redirect_reacting_player_moves_the_lady() -> None:
    """R4.4: a Lady sent elsewhere by a Birdseed reaction is moved by the reacting player."""
    state = build(
        3,
        active=0,
        zones={
            "statue": [LADY[0]],
            "road": [FAT[0]],
            "cables": [FAT[1]],
            "crowd": [FAT[2]],
            "b0": [FAT[3]],
            "b2": [FAT[4]],
        },
        hands=[[], [BIRDSEED[0]], []],
        stack=scare(1, by=0),
    )
    choose(state, 1, BIRDSEED[0])
    choose(state, 1, "crowd")
    assert zone(state, "crowd") == [FAT[2], LADY[0]]
    assert asked(state) == [1]
    assert kind(state, 1) is DecisionKind.LADY


# ---- R4.5 ------------------------------------------------------------------------------------


def test_r4_5_everyone_holding_guano_may_react_to_the_infamous() -> None:
    """R4.5: when the Infamous arrives, every player holding guano, the active player included,
    is asked at once; the others are not."""
    state = build(
        hands=[[GUANO[0]], [MOUNTAIN[0], GUANO[1]], [BLAM[0]]],
        flock=[INFAMOUS[0]],
        stack=invasion(),
    )
    assert asked(state) == [0, 1]
    assert kind(state, 0) is DecisionKind.REACT_GUANO
    assert set(options(state, 0)) == {"pass", GUANO[0]}
    assert set(options(state, 1)) == {"pass", MOUNTAIN[0], GUANO[1]}
    choose(state, 1, MOUNTAIN[0])
    choose(state, 0, "pass")
    assert guano_on(state, "b0") == [MOUNTAIN[0]]
    assert state.hands[1] == [GUANO[1]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r4_5_infamous_arrival_by_any_cause() -> None:
    """R4.5: an Infamous moved by a scare arrives too: guano may be played onto its new Zone."""
    state = build(
        2,
        zones={"statue": [INFAMOUS[0]], "cables": [STUPID[0]], "crowd": [LAME[0]], "b0": [LAME[1]], "b1": [LAME[2]]},
        hands=[[], [GUANO[0]]],
        stack=scare(1),
    )
    assert zone(state, "road") == [INFAMOUS[0]]
    assert asked(state) == [1]
    choose(state, 1, GUANO[0])
    assert guano_on(state, "road") == [GUANO[0]]


def test_r4_5_infamous_pulled_by_a_lady_arrives_too() -> None:
    """R4.5, R4.4: an Infamous pulled by a Lady arrives in her Zone: guano may be played there."""
    state = build(zones={"road": [INFAMOUS[0]]}, hands=[[], [GUANO[0]], []], flock=[LADY[0]], stack=invasion())
    choose(state, 0, "statue")
    choose(state, 0, INFAMOUS[0])
    assert zone(state, "statue") == [LADY[0], INFAMOUS[0]]
    assert asked(state) == [1]
    assert kind(state, 1) is DecisionKind.REACT_GUANO
    choose(state, 1, GUANO[0])
    assert guano_on(state, "statue") == [GUANO[0]]


def test_r4_5_one_guano_card_per_player() -> None:
    """R4.5: each player reacts with one card (no Fat Pigeon there, so no bonus)."""
    state = build(hands=[[], [GUANO[0], GUANO[1]], []], flock=[INFAMOUS[0]], stack=invasion())
    assert options(state, 1) == ["pass", GUANO[0]]
    choose(state, 1, GUANO[0])
    assert guano_on(state, "b0") == [GUANO[0]]
    assert state.hands[1] == [GUANO[1]]
    assert asked(state) == [0]


# ---- R4.6 ------------------------------------------------------------------------------------


def test_r4_6_converted_infamous_goes_back_and_a_blind_card_is_the_trophy() -> None:
    """R4.6: converting the Infamous shuffles it into the Flock deck; the top card, face down,
    is the trophy (1 VP)."""
    events: list[Event] = []
    state = build(
        spare_flock="removed",
        zones={"b0": [INFAMOUS[0]]},
        hands=[[BLAM[0], WROOM[0]], [], []],
        flock=[COMMON[0], STUPID[0]],
    )
    events += choose(state, 0, ("convert", INFAMOUS[0]))
    events += choose(state, 0, BLAM[0])
    events += choose(state, 0, WROOM[0])
    assert zone(state, "b0") == []
    assert len(state.trophies[0]) == 1
    trophy = state.trophies[0][0]
    assert trophy.hidden and trophy.vp == 1 and len(trophy.cards) == 1
    assert sorted(state.flock + list(trophy.cards)) == sorted([COMMON[0], STUPID[0], INFAMOUS[0]])
    assert [e.cards for e in of_kind(events, EventKind.RETURNED_TO_DECK)] == [(INFAMOUS[0],)]
    assert [(e.player, e.cards, e.vp) for e in of_kind(events, EventKind.TROPHY)] == [(0, (), 1)]


def test_r4_6_empty_flock_deck_takes_the_infamous_back_alone() -> None:
    """R4.6 [D]: if the Flock deck was empty, the Infamous goes back alone and no trophy is gained."""
    state = build(spare_flock="removed", zones={"b0": [INFAMOUS[0]]}, hands=[[BLAM[0], WROOM[0]], [], []], flock=[])
    choose(state, 0, ("convert", INFAMOUS[0]))
    choose(state, 0, BLAM[0])
    choose(state, 0, WROOM[0])
    assert state.flock == [INFAMOUS[0]]
    assert state.trophies[0] == []
    assert state.hands[0] == []


def test_r4_6_blam_on_the_infamous() -> None:
    """R4.6: by any card: Blam! on a Statue holding the Infamous gives a blind trophy for it."""
    state = build(
        spare_flock="removed", zones={"statue": [INFAMOUS[0], COMMON[0]]}, hands=[[BLAM[0]], [], []], flock=[STUPID[0]]
    )
    play(state, 0, BLAM[0], "statue")
    assert zone(state, "statue") == []
    assert Trophy((COMMON[0],), 1) in state.trophies[0]
    blind = [t for t in state.trophies[0] if t.hidden]
    assert len(blind) == 1 and blind[0].vp == 1
    assert len(state.flock) == 1


def test_r4_6_zot_on_the_infamous() -> None:
    """R4.6: by any card: Zot! on Cables holding the Infamous, with an empty Flock deck, gives nothing for it."""
    state = build(spare_flock="removed", zones={"cables": [INFAMOUS[0], COMMON[0]]}, hands=[[ZOT[0]], [], []], flock=[])
    play(state, 0, ZOT[0])
    assert state.trophies[0] == [Trophy((COMMON[0],), 1)]
    assert state.flock == [INFAMOUS[0]]


def test_r4_6_wroom_on_the_infamous() -> None:
    """R4.6: by any card: Wroom! on a Road holding the Infamous."""
    state = build(
        spare_flock="removed", zones={"road": [INFAMOUS[0]]}, hands=[[WROOM[0]], [], []], flock=[FAT[0], FAT[1]]
    )
    play(state, 0, WROOM[0])
    assert zone(state, "road") == []
    assert [t.hidden for t in state.trophies[0]] == [True]
    assert len(state.flock) == 2


# ---- R4.6 house rule infamous_empty ----------------------------------------------------------

TROPHY_RULE = HouseRules(InfamousEmpty.TROPHY)


@pytest.mark.parametrize("edition", ["3.5", "3.0"])
def test_r4_6_house_rule_trophy_makes_the_infamous_itself_the_blind_trophy(edition: str) -> None:
    """R4.6 house rule infamous_empty=trophy: converting the Infamous with the Flock deck empty
    makes the Infamous itself the face-down trophy (1 VP); the deck stays empty (both editions)."""
    state = build(
        spare_flock="removed",
        edition=edition,
        zones={"b0": [INFAMOUS[0]]},
        hands=[[BLAM[0], WROOM[0]], [], []],
        flock=[],
        house=TROPHY_RULE,
    )
    events = choose(state, 0, ("convert", INFAMOUS[0]))
    events += choose(state, 0, BLAM[0])
    events += choose(state, 0, WROOM[0])
    assert state.flock == []
    assert state.trophies[0] == [Trophy((INFAMOUS[0],), 1, hidden=True)]
    assert of_kind(events, EventKind.RETURNED_TO_DECK) == []
    assert [(e.player, e.cards, e.vp) for e in of_kind(events, EventKind.TROPHY)] == [(0, (), 1)]
    assert view(state, 1).trophies[0] == (TrophyView((), 1),)  # R8.1: its face stays hidden


@pytest.mark.parametrize("house", [BOOK, TROPHY_RULE], ids=["resume", "trophy"])
def test_r4_6_house_rule_changes_nothing_while_the_flock_deck_has_cards(house: HouseRules) -> None:
    """R4.6: with cards in the Flock deck, both settings of infamous_empty shuffle the Infamous
    in and take the top card face down."""
    state = build(
        spare_flock="removed",
        zones={"road": [INFAMOUS[0]]},
        hands=[[WROOM[0]], [], []],
        flock=[FAT[0], FAT[1]],
        house=house,
    )
    play(state, 0, WROOM[0])
    assert [t.hidden for t in state.trophies[0]] == [True]
    assert len(state.flock) == 2 and INFAMOUS[0] in state.flock + list(state.trophies[0][0].cards)


@pytest.mark.parametrize("house", [BOOK, TROPHY_RULE], ids=["resume", "trophy"])
def test_r4_6_house_rule_decides_whether_the_final_phase_resumes(house: HouseRules) -> None:
    """R4.6, R6.2: in the final phase, the Infamous converted with the Flock deck empty calls the
    final phase off (resume, the book) or is the trophy and the final phase goes on (trophy)."""
    state = build(
        3,
        spare_flock="removed",
        final_left=2,
        flock=[],
        zones={"b0": [INFAMOUS[0]]},
        hands=[[BLAM[0], WROOM[0]], [], []],
        spare_actions="deck",
        house=house,
    )
    events = choose(state, 0, ("convert", INFAMOUS[0]))
    events += choose(state, 0, BLAM[0])
    events += choose(state, 0, WROOM[0])
    events += choose(state, 0, "draw")
    if house is BOOK:
        assert of_kind(events, EventKind.FINAL_CANCELLED) != []
        assert state.flock == [] and zone(state, "b0") == [INFAMOUS[0]]  # revealed again
        assert state.final_left == 3  # a new final phase: the deck emptied again
    else:
        assert of_kind(events, EventKind.FINAL_CANCELLED) == []
        assert state.final_left == 1 and state.active == 1
        assert state.trophies[0] == [Trophy((INFAMOUS[0],), 1, hidden=True)]
