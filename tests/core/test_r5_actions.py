"""R5 Action cards: Wroom!/Zot!, Blam!, Birdseed, Guano, Fine, Street Sweeper, and reaction windows."""

from __future__ import annotations

from core.decisions import DecisionKind
from core.events import Event, EventKind
from core.state import Trophy
from core.views import view
from tests.core.scenario import (
    BIRDSEED,
    BLAM,
    COMMON,
    FAT,
    FINE,
    GUANO,
    INFAMOUS,
    LAME,
    MOUNTAIN,
    STUPID,
    SWEEPER,
    WROOM,
    ZOT,
    asked,
    build,
    choose,
    decision,
    guano_on,
    invasion,
    kind,
    kinds,
    of_kind,
    options,
    play,
    zone,
)

# ---- R5.1 ------------------------------------------------------------------------------------


def test_r5_1_wroom_makes_every_road_pigeon_a_trophy() -> None:
    """R5.1: Wroom!: all pigeons on the Road become the player's trophies."""
    state = build(zones={"road": [COMMON[0], STUPID[0], FAT[0]], "statue": [LAME[0]]}, hands=[[WROOM[0]], [], []])
    play(state, 0, WROOM[0])
    assert zone(state, "road") == []
    assert state.trophies[0] == [Trophy((COMMON[0],), 1), Trophy((STUPID[0],), 1), Trophy((FAT[0],), 1)]
    assert zone(state, "statue") == [LAME[0]]
    assert state.played == [WROOM[0]]


def test_r5_1_zot_makes_every_cables_pigeon_a_trophy() -> None:
    """R5.1: Zot!: the same for the Cables."""
    state = build(zones={"cables": [STUPID[0], FAT[0]], "road": [COMMON[0]]}, hands=[[ZOT[0]], [], []])
    play(state, 0, ZOT[0])
    assert zone(state, "cables") == []
    assert state.trophies[0] == [Trophy((STUPID[0],), 1), Trophy((FAT[0],), 1)]
    assert zone(state, "road") == [COMMON[0]]


def test_r5_wroom_and_zot_need_no_pigeon_and_their_recall_counts() -> None:
    """R5 intro [D]: with an empty Road and Cables, Wroom! and Zot! may still be played; they
    ask for no target, take nothing, and their recall still counts for the Invasion (R3.5)."""
    state = build(zones={"statue": [COMMON[0]], "crowd": [STUPID[0]]}, hands=[[WROOM[0], ZOT[0]], [], []])
    assert options(state, 0) == ["draw", ("play", WROOM[0]), ("play", ZOT[0])]
    events = choose(state, 0, ("play", WROOM[0]))  # no target asked: the Road is the only one
    assert [(e.player, e.zone) for e in of_kind(events, EventKind.PLAYED)] == [(0, "road")]
    events += choose(state, 0, ("play", ZOT[0]))
    assert of_kind(events, EventKind.TROPHY) == [] and state.trophies[0] == []
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [3]  # 1 + Wroom! 1 + Zot! 1


def test_r5_wroom_on_an_empty_road_may_still_be_shared() -> None:
    """R5 intro, R5.1: Wroom! played onto an empty Road still opens its share window; a share
    takes nothing and adds its recall."""
    state = build(hands=[[WROOM[0]], [WROOM[1]], []], zones={"statue": [COMMON[0]]})
    events = choose(state, 0, ("play", WROOM[0]))
    assert asked(state) == [1]
    events += choose(state, 1, WROOM[1])
    assert state.played == [WROOM[0], WROOM[1]] and state.trophies == [[], [], []]
    assert of_kind(events, EventKind.TROPHY) == []


def test_r5_1_other_players_may_share() -> None:
    """R5.1: when another player plays Wroom!, every other holder of a Wroom! is asked at once;
    holders of Zot! are not, nor is the player who played it."""
    state = build(
        4,
        active=1,
        zones={"road": [COMMON[0], COMMON[1]]},
        hands=[[WROOM[2]], [WROOM[0], WROOM[1]], [ZOT[0]], [WROOM[3]]],
    )
    play(state, 1, WROOM[0])
    assert asked(state) == [0, 3]
    assert kind(state, 0) is DecisionKind.REACT_SHARE
    assert options(state, 3) == ["pass", WROOM[3]]


def test_r5_1_shares_are_dealt_from_the_active_player_clockwise() -> None:
    """R5.1 [D]: the converted cards are dealt one at a time, active player first, then the
    reacting players clockwise (whatever order they answered in)."""
    state = build(
        4,
        active=1,
        zones={"road": [COMMON[0], COMMON[1]]},
        hands=[[WROOM[2]], [WROOM[0]], [], [WROOM[3]]],
    )
    play(state, 1, WROOM[0])
    choose(state, 0, WROOM[2])
    choose(state, 3, WROOM[3])
    assert state.trophies[1] == [Trophy((COMMON[0],), 1)]
    assert state.trophies[3] == [Trophy((COMMON[1],), 1)]
    assert state.trophies[0] == []
    assert state.played == [WROOM[0], WROOM[3], WROOM[2]]


def test_r5_1_shares_deal_round_robin() -> None:
    """R5.1 [D]: five pigeons shared by three players: 2, 2 and 1, in clockwise order."""
    state = build(
        4,
        active=1,
        zones={"road": [STUPID[0], STUPID[1], STUPID[2], STUPID[3], COMMON[1]]},
        hands=[[WROOM[2]], [WROOM[0]], [], [WROOM[3]]],
    )
    play(state, 1, WROOM[0])
    choose(state, 3, WROOM[3])
    choose(state, 0, WROOM[2])
    assert [len(state.trophies[s]) for s in range(4)] == [1, 2, 0, 2]
    assert [t.cards[0] for t in state.trophies[1]] == [STUPID[0], STUPID[3]]
    assert [t.cards[0] for t in state.trophies[3]] == [STUPID[1], COMMON[1]]
    assert [t.cards[0] for t in state.trophies[0]] == [STUPID[2]]


# ---- R5.2 ------------------------------------------------------------------------------------


def test_r5_2_blam_converts_two_pigeons_on_the_statue() -> None:
    """R5.2: Blam! on a Statue holding two pigeons converts both."""
    state = build(zones={"statue": [COMMON[0], FAT[0]]}, hands=[[BLAM[0]], [], []])
    play(state, 0, BLAM[0], "statue")
    assert state.trophies[0] == [Trophy((COMMON[0],), 1), Trophy((FAT[0],), 1)]
    assert zone(state, "statue") == []
    assert state.played == [BLAM[0]]


def test_r5_2_blam_converts_the_only_pigeon() -> None:
    """R5.2: the only one, if one is there."""
    state = build(zones={"statue": [COMMON[0]]}, hands=[[BLAM[0]], [], []])
    play(state, 0, BLAM[0], "statue")
    assert state.trophies[0] == [Trophy((COMMON[0],), 1)]


def test_r5_2_player_picks_which_two() -> None:
    """R5.2: with more than two on the Statue, the player picks the two to convert."""
    state = build(zones={"statue": [COMMON[0], COMMON[1], STUPID[0]]}, hands=[[BLAM[0]], [], []])
    play(state, 0, BLAM[0], "statue")
    assert kind(state, 0) is DecisionKind.PICK
    assert options(state, 0) == [COMMON[0], COMMON[1], STUPID[0]]
    choose(state, 0, STUPID[0])
    assert options(state, 0) == [COMMON[0], COMMON[1]]
    choose(state, 0, COMMON[1])
    assert state.trophies[0] == [Trophy((STUPID[0],), 1), Trophy((COMMON[1],), 1)]


def test_r5_2_blam_on_own_balcony_converts_one_and_scares_the_rest() -> None:
    """R5.2: on your own Balcony Blam! converts one pigeon (your pick); the others are scared."""
    state = build(
        zones={
            "b0": [COMMON[0], LAME[0]],
            "road": [FAT[0]],
            "statue": [FAT[1]],
            "cables": [FAT[2]],
            "b1": [FAT[3]],
            "b2": [FAT[4]],
        },
        hands=[[BLAM[0]], [], []],
    )
    play(state, 0, BLAM[0], "b0")
    assert kind(state, 0) is DecisionKind.PICK
    assert options(state, 0) == [COMMON[0], LAME[0]]
    choose(state, 0, COMMON[0])
    assert state.trophies[0] == [Trophy((COMMON[0],), 1)]
    assert zone(state, "b0") == []
    assert zone(state, "crowd") == [LAME[0]]


def test_r5_2_blam_targets_are_the_statue_and_your_own_balcony() -> None:
    """R5.2: Blam! aims at the Statue or the player's own Balcony, never another Balcony."""
    state = build(zones={"statue": [COMMON[0]], "b0": [STUPID[0]], "b1": [STUPID[1]]}, hands=[[BLAM[0]], [], []])
    choose(state, 0, ("play", BLAM[0]))
    assert decision(state, 0).values() == ["statue", "b0", "back"]


def test_r5_2_blam_needs_no_pigeon_and_always_asks_where() -> None:
    """R5 intro [D], R5.2: with the Statue and your own Balcony empty, Blam! may still be played
    (it always asks: Statue or your Balcony); it takes nothing, scares nothing, and its recall
    counts."""
    state = build(zones={"road": [COMMON[0]], "b1": [STUPID[1]]}, hands=[[BLAM[0]], [], []])
    assert ("play", BLAM[0]) in options(state, 0)
    choose(state, 0, ("play", BLAM[0]))
    assert decision(state, 0).values() == ["statue", "b0", "back"]
    events = choose(state, 0, "statue")
    assert of_kind(events, EventKind.TROPHY) == [] and of_kind(events, EventKind.SCARED) == []
    assert zone(state, "road") == [COMMON[0]] and zone(state, "b1") == [STUPID[1]]
    assert state.played == [BLAM[0]]
    events = choose(state, 0, "draw")
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [2]


def test_r5_2_blam_opens_no_reaction_window() -> None:
    """R5.2: no reaction: nobody is asked, whatever they hold."""
    state = build(
        zones={"statue": [COMMON[0], COMMON[1]]},
        hands=[[BLAM[0]], [BLAM[1], FINE[0], WROOM[0], SWEEPER[0]], [BIRDSEED[0], GUANO[0]]],
    )
    events = play(state, 0, BLAM[0], "statue")
    assert EventKind.WINDOW not in kinds(events)
    assert asked(state) == [0]


# ---- R5.3 ------------------------------------------------------------------------------------


def test_r5_3_birdseed_pulls_one_pigeon_from_each_zone_in_table_order() -> None:
    """R5.3 [D]: one pigeon (the player's pick) from every other Zone, taken Road, Statue,
    Cables, Crowd, then Balconies clockwise from the player."""
    events: list[Event] = []
    state = build(
        3,
        active=1,
        zones={
            "road": [STUPID[0]],
            "statue": [COMMON[0], COMMON[1]],
            "cables": [STUPID[1]],
            "crowd": [LAME[0]],
            "b0": [STUPID[4]],
            "b1": [STUPID[2]],
            "b2": [STUPID[3]],
        },
        hands=[[], [BIRDSEED[0]], []],
    )
    events += play(state, 1, BIRDSEED[0], "road")
    assert kind(state, 1) is DecisionKind.PICK
    assert options(state, 1) == [COMMON[0], COMMON[1]]
    events += choose(state, 1, COMMON[1])
    assert zone(state, "road") == [STUPID[0], COMMON[1], STUPID[1], LAME[0], STUPID[2], STUPID[3], STUPID[4]]
    assert zone(state, "statue") == [COMMON[0]]
    assert state.played == [BIRDSEED[0]]


def test_r5_3_with_room_short_the_player_picks_which_zone_gives_next() -> None:
    """R5.3 [D]: when the chosen Zone cannot take one pigeon from every eligible Zone, the player
    picks, one at a time, the Zone and pigeon that move next (not table order), until it is full;
    the Zones not picked keep theirs."""
    state = build(
        3,
        active=1,
        zones={"statue": [STUPID[0], STUPID[1]], "b0": [LAME[0]], "b1": [COMMON[0]], "b2": [COMMON[1]]},
        hands=[[], [BIRDSEED[0]], []],
    )
    play(state, 1, BIRDSEED[0], "statue")
    d = decision(state, 1)
    assert d.kind is DecisionKind.PICK and "no room for one from every Zone" in d.prompt
    assert d.values() == [COMMON[0], COMMON[1], LAME[0]]  # every eligible Zone's, table order
    assert [o.refs for o in d.options] == [(COMMON[0], "b1"), (COMMON[1], "b2"), (LAME[0], "b0")]
    choose(state, 1, COMMON[1])
    assert options(state, 1) == [COMMON[0], LAME[0]]  # b2 has given one
    choose(state, 1, LAME[0])
    assert zone(state, "statue") == [STUPID[0], STUPID[1], COMMON[1], LAME[0]]
    assert zone(state, "b1") == [COMMON[0]] and zone(state, "b0") == []


def test_r5_3_with_room_for_all_no_pick_leaves_another_zone_without_room() -> None:
    """R5.3 [D]: when the chosen Zone has room for one pigeon from every eligible Zone, every
    such Zone gives one: a pick that would leave no room for the others (a Fat Pigeon) is not
    offered."""
    state = build(
        zones={"statue": [STUPID[0], STUPID[1]], "road": [FAT[0], STUPID[2]], "crowd": [COMMON[0]]},
        hands=[[BIRDSEED[0]], [], []],
    )
    play(state, 0, BIRDSEED[0], "statue")
    assert zone(state, "statue") == [STUPID[0], STUPID[1], STUPID[2], COMMON[0]]
    assert zone(state, "road") == [FAT[0]]


def test_r5_3_with_room_short_a_fat_pigeon_may_fill_the_zone() -> None:
    """R5.3 [D]: with room short, any pigeon that fits now may be picked, a Fat Pigeon too; the
    Birdseed ends as soon as nothing more fits."""
    state = build(
        zones={"statue": [STUPID[0], STUPID[1]], "road": [FAT[0]], "crowd": [COMMON[0]], "b1": [COMMON[1]]},
        hands=[[BIRDSEED[0]], [], []],
    )
    play(state, 0, BIRDSEED[0], "statue")
    assert options(state, 0) == [FAT[0], COMMON[0], COMMON[1]]
    choose(state, 0, FAT[0])
    assert zone(state, "statue") == [STUPID[0], STUPID[1], FAT[0]]
    assert zone(state, "crowd") == [COMMON[0]] and zone(state, "b1") == [COMMON[1]]


def test_r5_3_birdseed_moves_only_legal_pigeons() -> None:
    """R5.3: only a pigeon that may legally land there moves: no Lame onto the Cables, no Fat
    Pigeon into too little room."""
    state = build(
        zones={"cables": [STUPID[0], STUPID[1], STUPID[2]], "crowd": [LAME[0], COMMON[0]], "road": [FAT[0]]},
        hands=[[BIRDSEED[0]], [], []],
    )
    play(state, 0, BIRDSEED[0], "cables")
    assert zone(state, "cables") == [STUPID[0], STUPID[1], STUPID[2], COMMON[0]]
    assert zone(state, "crowd") == [LAME[0]]
    assert zone(state, "road") == [FAT[0]]


def test_r5_3_birdseed_reaction_redirects_pigeons_heading_for_your_balcony() -> None:
    """R5.3: when pigeons of a batch are about to land on your Balcony, you may choose another
    Zone and which of them go there instead."""
    state = build(
        3,
        zones={"road": [COMMON[0]], "statue": [STUPID[0]]},
        hands=[[BIRDSEED[0]], [BIRDSEED[1]], [BIRDSEED[2]]],
    )
    play(state, 0, BIRDSEED[0], "b1")
    assert asked(state) == [1]
    assert options(state, 1) == ["pass", BIRDSEED[1]]
    choose(state, 1, BIRDSEED[1])
    assert kind(state, 1) is DecisionKind.TARGET
    assert set(options(state, 1)) == {"road", "statue", "cables", "crowd", "b0", "b2"}
    choose(state, 1, "crowd")
    assert set(options(state, 1)) == {COMMON[0], STUPID[0]}
    choose(state, 1, STUPID[0])
    assert options(state, 1) == ["done", COMMON[0]]
    choose(state, 1, "done")
    assert zone(state, "crowd") == [STUPID[0]]
    assert zone(state, "b1") == [COMMON[0]]
    assert state.played == [BIRDSEED[0], BIRDSEED[1]]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r5_3_birdseed_reaction_offers_legal_landings_only() -> None:
    """R5.3: the redirect Zone must be a legal landing: a Lame Pigeon cannot be sent to the Cables."""
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
        hands=[[], [BIRDSEED[0]], []],
        stack=[{"k": "action"}, {"k": "scare", "zone": 1, "by": 0, "cause": "blam"}],
    )
    choose(state, 1, BIRDSEED[0])
    assert set(options(state, 1)) == {"road", "statue", "crowd", "b0", "b2"}


# ---- R5.4 ------------------------------------------------------------------------------------


def test_r5_4_guano_onto_a_zone_with_a_pigeon() -> None:
    """R5.4: Guano is played onto a Zone holding at least one pigeon and stays there."""
    state = build(zones={"road": [COMMON[0]], "b1": [STUPID[0]]}, hands=[[GUANO[0], MOUNTAIN[0]], [], []])
    choose(state, 0, ("play", MOUNTAIN[0]))
    assert decision(state, 0).values() == ["road", "b1", "back"]
    choose(state, 0, "road")
    assert guano_on(state, "road") == [MOUNTAIN[0]]
    assert state.hands[0] == [GUANO[0]]
    assert state.actions_left == 1


def test_r5_4_guano_needs_a_pigeon_somewhere() -> None:
    """R5.4: with no pigeon in any Zone, guano cannot be played."""
    state = build(zones={}, hands=[[GUANO[0], MOUNTAIN[0]], [], []])
    assert options(state, 0) == ["draw"]


def test_r5_4_fat_pigeon_bonus_adds_other_guano_for_free() -> None:
    """R5.4: with a Fat Pigeon in the Zone, the player may add any or all other guano cards,
    free and within the same play (one Fine window)."""
    events: list[Event] = []
    state = build(zones={"road": [FAT[0]]}, hands=[[GUANO[0], GUANO[1], MOUNTAIN[0], BLAM[0]], [], []])
    events += play(state, 0, GUANO[0], "road")
    assert kind(state, 0) is DecisionKind.BONUS
    assert set(options(state, 0)) == {"done", GUANO[1], MOUNTAIN[0]}
    events += choose(state, 0, MOUNTAIN[0])
    assert set(options(state, 0)) == {"done", GUANO[1]}
    events += choose(state, 0, GUANO[1])
    assert guano_on(state, "road") == [GUANO[0], MOUNTAIN[0], GUANO[1]]
    assert state.hands[0] == [BLAM[0]]
    assert state.actions_left == 1
    assert [e.window for e in of_kind(events, EventKind.WINDOW)] == ["fine"]
    assert kind(state, 0) is DecisionKind.ACTION


def test_r5_4_fat_pigeon_bonus_is_optional() -> None:
    """R5.4: the bonus is optional."""
    state = build(zones={"road": [FAT[0]]}, hands=[[GUANO[0], GUANO[1]], [], []])
    play(state, 0, GUANO[0], "road")
    choose(state, 0, "done")
    assert guano_on(state, "road") == [GUANO[0]]
    assert state.hands[0] == [GUANO[1]]


def test_r5_4_no_bonus_without_a_fat_pigeon() -> None:
    """R5.4: without a Fat Pigeon in that Zone there is no bonus."""
    state = build(zones={"road": [COMMON[0]], "statue": [FAT[0]]}, hands=[[GUANO[0], GUANO[1]], [], []])
    play(state, 0, GUANO[0], "road")
    assert kind(state, 0) is DecisionKind.ACTION
    assert state.hands[0] == [GUANO[1]]


def test_r5_4_guano_on_the_crowd_scares_once_per_card() -> None:
    """R5.4 [D]: each guano card played onto the Crowd scares its pigeons once."""
    events: list[Event] = []
    state = build(
        zones={
            "crowd": [FAT[0], STUPID[0]],
            "statue": [STUPID[1]],
            "cables": [STUPID[2]],
            "b0": [LAME[0]],
            "b1": [LAME[1]],
            "b2": [LAME[2]],
        },
        hands=[[GUANO[0], GUANO[1]], [], []],
    )
    events += play(state, 0, GUANO[0], "crowd")
    events += choose(state, 0, GUANO[1])
    assert [e.zone for e in of_kind(events, EventKind.SCARED)] == ["crowd", "crowd"]
    assert zone(state, "road") == [FAT[0]]
    assert zone(state, "crowd") == [STUPID[0]]
    assert guano_on(state, "crowd") == [GUANO[0], GUANO[1]]


def test_r5_4_guano_reaction_gets_the_fat_pigeon_bonus() -> None:
    """R5.4: a guano reaction onto a Zone holding a Fat Pigeon may bring the other guano too."""
    state = build(
        zones={"b0": [FAT[0]]},
        hands=[[], [GUANO[0], MOUNTAIN[0]], []],
        flock=[INFAMOUS[0]],
        stack=invasion(),
    )
    choose(state, 1, GUANO[0])
    assert kind(state, 1) is DecisionKind.BONUS
    choose(state, 1, MOUNTAIN[0])
    assert guano_on(state, "b0") == [GUANO[0], MOUNTAIN[0]]
    assert state.hands[1] == []


# ---- R5.5 ------------------------------------------------------------------------------------


def test_r5_5_fine_has_no_active_use() -> None:
    """R5.5: Fine is a reaction only: it is never offered as an action."""
    state = build(zones={"road": [COMMON[0]]}, guano={"road": [GUANO[0]]}, hands=[[FINE[0], FINE[1]], [], []])
    assert options(state, 0) == ["draw"]


def test_r5_5_fine_discards_the_whole_hand_and_the_card_is_still_played() -> None:
    """R5.5: every other holder of a Fine is asked at once (not the player who played); the
    fined player discards their whole hand; the guano is still played."""
    events: list[Event] = []
    state = build(
        zones={"road": [COMMON[0]]},
        hands=[[GUANO[0], FINE[2], BLAM[0]], [FINE[0]], [FINE[1], WROOM[0]]],
    )
    events += play(state, 0, GUANO[0], "road")
    assert asked(state) == [1, 2]
    assert kind(state, 1) is DecisionKind.REACT_FINE
    events += choose(state, 1, "pass")
    events += choose(state, 2, FINE[1])
    assert state.hands[0] == []
    assert state.discard[-2:] == [FINE[2], BLAM[0]]
    assert guano_on(state, "road") == [GUANO[0]]
    assert state.played == [FINE[1]]
    assert state.hands[1] == [FINE[0]]
    assert [(e.player, e.by) for e in of_kind(events, EventKind.FINED)] == [(0, 2)]
    assert [e.cards for e in of_kind(events, EventKind.HAND_DISCARDED)] == [(FINE[2], BLAM[0])]


def test_r5_5_only_the_first_fine_clockwise_from_the_active_player_counts() -> None:
    """R5.5 [D]: at most one Fine per play: the first clockwise from the active player counts,
    the others go back to their owners' hands."""
    events: list[Event] = []
    state = build(
        4,
        active=1,
        zones={"road": [COMMON[0]]},
        hands=[[FINE[0]], [GUANO[0], BLAM[0]], [], [FINE[1]]],
    )
    events += play(state, 1, GUANO[0], "road")
    assert asked(state) == [0, 3]
    events += choose(state, 0, FINE[0])
    events += choose(state, 3, FINE[1])
    assert [(e.player, e.by) for e in of_kind(events, EventKind.FINED)] == [(1, 3)]
    assert state.played == [FINE[1]]
    assert state.hands[0] == [FINE[0]]
    assert state.hands[3] == []
    assert state.hands[1] == []
    assert [e.player for e in of_kind(events, EventKind.RETURNED)] == [0]


def test_r5_5_fine_against_a_reaction_counts_clockwise_from_the_active_player() -> None:
    """R5.5 [D]: a guano reaction by seat 1 fined by seats 0 and 2: seat 0, the active player,
    comes first clockwise and is the one that counts."""
    events: list[Event] = []
    state = build(
        hands=[[FINE[0]], [GUANO[0], BLAM[0]], [FINE[1]]],
        flock=[INFAMOUS[0]],
        stack=invasion(),
        events=events,
    )
    events += choose(state, 1, GUANO[0])
    assert asked(state) == [0, 2]
    events += choose(state, 2, FINE[1])
    events += choose(state, 0, FINE[0])
    assert [(e.player, e.by) for e in of_kind(events, EventKind.FINED)] == [(1, 0)]
    assert state.hands[1] == []
    assert state.hands[2] == [FINE[1]]
    assert guano_on(state, "b0") == [GUANO[0]]


def test_r5_5_fine_against_birdseed() -> None:
    """R5.5: a Birdseed play may be fined too; the Birdseed still resolves."""
    state = build(
        zones={"road": [COMMON[0]]},
        hands=[[BIRDSEED[0], BLAM[0]], [FINE[0]], []],
    )
    play(state, 0, BIRDSEED[0], "crowd")
    choose(state, 1, FINE[0])
    assert state.hands[0] == []
    assert zone(state, "crowd") == [COMMON[0]]
    assert state.played == [BIRDSEED[0], FINE[0]]


def test_r5_5_fine_against_a_birdseed_reaction() -> None:
    """R5.5: a Birdseed played as a reaction may be fined."""
    state = build(
        3,
        zones={"road": [COMMON[0]]},
        hands=[[BIRDSEED[0], FINE[0]], [BIRDSEED[1], BLAM[0]], []],
    )
    play(state, 0, BIRDSEED[0], "b1")
    choose(state, 1, BIRDSEED[1])
    choose(state, 1, "crowd")
    assert asked(state) == [0]
    assert kind(state, 0) is DecisionKind.REACT_FINE
    choose(state, 0, FINE[0])
    assert state.hands[1] == []
    assert zone(state, "crowd") == [COMMON[0]]


# ---- R5.6 ------------------------------------------------------------------------------------


def test_r5_6_sweeper_keeps_one_guano_card_of_your_choice() -> None:
    """R5.6: all guano leaves one City Location; you keep one of your choice as a trophy, the
    rest go to the discard pile."""
    state = build(
        zones={"road": [COMMON[0]]},
        guano={"road": [GUANO[0], MOUNTAIN[0]]},
        hands=[[SWEEPER[0]], [], []],
    )
    play(state, 0, SWEEPER[0], "road")
    assert kind(state, 0) is DecisionKind.KEEP
    assert set(options(state, 0)) == {GUANO[0], MOUNTAIN[0]}
    choose(state, 0, MOUNTAIN[0])
    assert guano_on(state, "road") == []
    assert state.trophies[0] == [Trophy((MOUNTAIN[0],), 2)]
    assert state.discard[-1] == GUANO[0]
    assert state.played == [SWEEPER[0]]


def test_r5_6_sweeper_aims_at_city_locations_with_guano_only() -> None:
    """R5.6: only City Locations holding guano are targets (3.5): not a Balcony."""
    state = build(
        zones={"statue": [COMMON[0]], "b0": [STUPID[0]]},
        guano={"statue": [GUANO[0]], "b0": [GUANO[1]]},
        hands=[[SWEEPER[0]], [], []],
    )
    choose(state, 0, ("play", SWEEPER[0]))
    assert decision(state, 0).values() == ["statue", "back"]
    state = build(zones={"b0": [STUPID[0]]}, guano={"b0": [GUANO[1]]}, hands=[[SWEEPER[0]], [], []])
    assert ("play", SWEEPER[0]) not in options(state, 0)


def test_r5_6_sweeper_cancels_a_fine_which_still_counts() -> None:
    """R5.6: a Sweeper played against a Fine cancels it; the Fine still counts for the Invasion."""
    events: list[Event] = []
    state = build(
        zones={"road": [COMMON[0]]},
        hands=[[GUANO[0], SWEEPER[0], BLAM[0]], [FINE[0]], []],
        actions_left=1,
    )
    events += play(state, 0, GUANO[0], "road")
    choose(state, 1, FINE[0])
    assert asked(state) == [0]
    assert kind(state, 0) is DecisionKind.REACT_SWEEPER
    events += choose(state, 0, SWEEPER[0])
    assert state.hands[0] == [BLAM[0]]
    assert EventKind.FINE_CANCELLED in kinds(events)
    assert EventKind.HAND_DISCARDED not in kinds(events)
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [1 + 2 + 2]


def test_r5_6_accepting_the_fine() -> None:
    """R5.6: the fined player may decline the Sweeper and discard their hand."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0], SWEEPER[0]], [FINE[0]], []])
    play(state, 0, GUANO[0], "road")
    choose(state, 1, FINE[0])
    choose(state, 0, "pass")
    assert state.hands[0] == []
    assert state.discard[-1] == SWEEPER[0]


# ---- R5.7 ------------------------------------------------------------------------------------


def test_r5_7_fined_player_has_no_hand_left_for_the_fat_bonus() -> None:
    """R5.7: the window opens before the effect resolves, so a fined player has no hand left
    for the Fat Pigeon bonus."""
    state = build(zones={"road": [FAT[0]]}, hands=[[GUANO[0], GUANO[1]], [FINE[0]], []])
    play(state, 0, GUANO[0], "road")
    assert guano_on(state, "road") == []
    choose(state, 1, FINE[0])
    assert guano_on(state, "road") == [GUANO[0]]
    assert state.hands[0] == []
    assert kind(state, 0) is DecisionKind.ACTION


def test_r5_7_reactions_resolve_clockwise_from_the_active_player() -> None:
    """R5.7: everyone who may react is asked at once; played reactions resolve clockwise from
    the active player, whatever order they were chosen in."""
    state = build(4, active=2, hands=[[GUANO[0]], [GUANO[1]], [], [GUANO[2]]], flock=[INFAMOUS[0]], stack=invasion())
    assert asked(state) == [0, 1, 3]
    choose(state, 1, GUANO[1])
    choose(state, 0, GUANO[0])
    choose(state, 3, GUANO[2])
    assert guano_on(state, "b2") == [GUANO[2], GUANO[0], GUANO[1]]


def test_r5_7_window_event_says_nothing_about_who_may_react() -> None:
    """R5.7: a window opens on every guano play, even when nobody could react, and its event
    names no player."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0]], [], []])
    events = play(state, 0, GUANO[0], "road")
    windows = of_kind(events, EventKind.WINDOW)
    assert [(e.window, e.player) for e in windows] == [("fine", None)]


def test_r5_7_views_show_only_your_own_pending_decision() -> None:
    """R5.7: while seat 1 decides on a Fine, nobody else's view shows that decision."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0]], [FINE[0]], [BLAM[0]]])
    play(state, 0, GUANO[0], "road")
    assert asked(state) == [1]
    assert len(view(state, 1).decisions) == 1
    for seat in (0, 2, None):
        assert view(state, seat).decisions == ()
        assert view(state, seat).to_dict()["decisions"] == []


def test_r5_7_others_chosen_reactions_stay_hidden_until_resolved() -> None:
    """R5.7: a reaction chosen by one player is not visible to the others while the window is open."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0]], [FINE[0]], [FINE[1]]])
    play(state, 0, GUANO[0], "road")
    choose(state, 1, FINE[0])
    assert asked(state) == [2]
    for seat in (0, 2, None):
        d = view(state, seat).to_dict()
        assert FINE[0] not in str(d["flow"])
        assert d["hand_sizes"][1] == 1
