"""R3 The turn: two actions (play, convert, draw), the played pile and the Invasion."""

from __future__ import annotations

from core.cards import ACTION_IDS
from core.decisions import DecisionKind
from core.effects import playable, targets
from core.events import Event, EventKind
from core.state import Trophy
from tests.core.games import configs
from tests.core.games import play as play_game
from tests.core.scenario import (
    BIRDSEED,
    BLAM,
    COMMON,
    FAT,
    FINE,
    GUANO,
    INFAMOUS,
    LADY,
    MOUNTAIN,
    STUPID,
    SWEEPER,
    WROOM,
    ZOT,
    build,
    choose,
    decision,
    guano_on,
    kind,
    of_kind,
    options,
    play,
    zone,
)

# ---- R3.1 ------------------------------------------------------------------------------------


def test_r3_1_action_choices_are_play_convert_or_draw() -> None:
    """R3.1: the active player may play a card with a legal target, convert a card of their own
    Balcony, or draw; Fine (no active use) is not offered."""
    state = build(
        zones={"road": [COMMON[0]], "b0": [STUPID[0]], "b1": [STUPID[1]]},
        guano={"b0": [GUANO[1]], "b1": [GUANO[2]]},
        hands=[[WROOM[0], FINE[0], GUANO[0]], [], []],
    )
    assert kind(state, 0) is DecisionKind.ACTION
    assert set(options(state, 0)) == {
        "draw",
        ("play", WROOM[0]),
        ("play", GUANO[0]),
        ("convert", STUPID[0]),
        ("convert", GUANO[1]),
    }


def test_r3_1_a_card_is_playable_exactly_when_it_has_a_target() -> None:
    """R3.1, R5: the action options offer a card when it has a legal target; the quick check
    they use (effects.playable) agrees with the full list of targets for every card, every seat
    and every seventh position of 10 random games over 2-6 players and both editions."""
    checked = 0
    for seed, players, edition in configs(10):
        for state, _ in play_game(seed, players, edition):
            if checked % 7 == 0:  # a sample keeps the test quick
                for seat in range(state.players):
                    for card in ACTION_IDS:
                        assert playable(state, seat, card) == bool(targets(state, seat, card)), (seed, card)
            checked += 1
    assert checked > 500


def test_r3_1_exactly_two_actions_then_the_next_player() -> None:
    """R3.1: the same action may be taken twice; after two actions the turn ends."""
    events: list[Event] = []
    state = build(hands=[[], [], []], flock=[FAT[0], FAT[1]], spare_actions="deck")
    assert decision(state, 0).prompt.startswith("Action 1 of 2")
    events += choose(state, 0, "draw")
    assert state.actions_left == 1
    assert decision(state, 0).prompt.startswith("Action 2 of 2")
    events += choose(state, 0, "draw")
    assert state.active == 1
    assert state.actions_left == 2
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [1]
    assert [d.player for d in state.open] == [1]


def test_r3_1_stepping_back_costs_no_action() -> None:
    """R3.1: backing out of a play before choosing its target leaves both actions."""
    state = build(zones={"road": [COMMON[0]], "statue": [STUPID[0]]}, hands=[[GUANO[0]], [], []])
    choose(state, 0, ("play", GUANO[0]))
    assert kind(state, 0) is DecisionKind.TARGET
    choose(state, 0, "back")
    assert kind(state, 0) is DecisionKind.ACTION
    assert state.actions_left == 2
    assert state.hands[0] == [GUANO[0]]


# ---- R3.2 ------------------------------------------------------------------------------------


def test_r3_2_convert_guano_for_one_card() -> None:
    """R3.2: a Guano of your Balcony converts by discarding 1 card of your choice: 1 trophy, 1 VP."""
    state = build(zones={"b0": [STUPID[0]]}, guano={"b0": [GUANO[0]]}, hands=[[BLAM[0], WROOM[0]], [], []])
    choose(state, 0, ("convert", GUANO[0]))
    assert kind(state, 0) is DecisionKind.DISCARD
    assert set(options(state, 0)) == {BLAM[0], WROOM[0], "back"}
    choose(state, 0, WROOM[0])
    assert state.trophies[0] == [Trophy((GUANO[0],), 1)]
    assert guano_on(state, "b0") == []
    assert state.hands[0] == [BLAM[0]]
    assert state.discard[-1] == WROOM[0]
    assert state.actions_left == 1


def test_r3_2_convert_mountain_for_two_cards() -> None:
    """R3.2: a Mountain of Guano converts by discarding 2 cards: 2 VP."""
    state = build(zones={"b0": [STUPID[0]]}, guano={"b0": [MOUNTAIN[0]]}, hands=[[BLAM[0], WROOM[0], ZOT[0]], [], []])
    choose(state, 0, ("convert", MOUNTAIN[0]))
    choose(state, 0, ZOT[0])
    assert state.trophies[0] == []
    choose(state, 0, BLAM[0])
    assert state.trophies[0] == [Trophy((MOUNTAIN[0],), 2)]
    assert state.hands[0] == [WROOM[0]]
    assert state.discard[-2:] == [ZOT[0], BLAM[0]]


def test_r3_2_convert_pigeon_for_two_cards() -> None:
    """R3.2: a pigeon of your Balcony converts by discarding 2 cards: 1 VP."""
    state = build(zones={"b0": [FAT[0], STUPID[0]]}, hands=[[BLAM[0], WROOM[0]], [], []])
    choose(state, 0, ("convert", FAT[0]))
    choose(state, 0, BLAM[0])
    choose(state, 0, WROOM[0])
    assert state.trophies[0] == [Trophy((FAT[0],), 1)]
    assert zone(state, "b0") == [STUPID[0]]
    assert state.hands[0] == []


def test_r3_2_convert_needs_enough_cards_and_your_own_balcony() -> None:
    """R3.2: a pigeon needs 2 cards in hand, a Guano 1; only your own Balcony converts."""
    state = build(
        zones={"b0": [STUPID[0]], "b1": [STUPID[1]]},
        guano={"b0": [GUANO[0], MOUNTAIN[0]], "b1": [GUANO[1]]},
        hands=[[FINE[0]], [], []],
    )
    assert set(options(state, 0)) == {"draw", ("convert", GUANO[0])}


def test_r3_2_one_action_converts_exactly_one_card() -> None:
    """R3.2 [D]: converting takes one action and one card; the rest of the Balcony stays."""
    state = build(
        zones={"b0": [STUPID[0], STUPID[1]]},
        guano={"b0": [GUANO[0], GUANO[1]]},
        hands=[[BLAM[0], WROOM[0], ZOT[0], FINE[0]], [], []],
    )
    choose(state, 0, ("convert", GUANO[0]))
    choose(state, 0, FINE[0])
    assert state.actions_left == 1
    assert zone(state, "b0") == [STUPID[0], STUPID[1]]
    assert guano_on(state, "b0") == [GUANO[1]]
    assert len(state.trophies[0]) == 1


def test_r3_2_discarded_cards_never_count_for_the_invasion() -> None:
    """R3.2: cards discarded to convert go to the discard pile at once, not to the played pile."""
    events: list[Event] = []
    state = build(
        zones={"b0": [STUPID[0]]},
        hands=[[FINE[0], SWEEPER[0]], [], []],
        flock=[FAT[0], FAT[1], FAT[2]],
        actions_left=1,
    )
    events += choose(state, 0, ("convert", STUPID[0]))
    events += choose(state, 0, FINE[0])
    events += choose(state, 0, SWEEPER[0])
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [1]
    assert len(of_kind(events, EventKind.REVEALED)) == 1
    assert {FINE[0], SWEEPER[0]} <= set(state.discard)


# ---- R3.3 ------------------------------------------------------------------------------------


def test_r3_3_draw_fills_the_hand_to_five_from_the_top() -> None:
    """R3.3: drawing takes the top cards of the Action deck until the hand holds 5."""
    state = build(hands=[[BLAM[0], BLAM[1]], [], []], deck=[GUANO[0], GUANO[1], GUANO[2], GUANO[3]])
    choose(state, 0, "draw")
    assert state.hands[0] == [BLAM[0], BLAM[1], GUANO[3], GUANO[2], GUANO[1]]
    assert state.deck == [GUANO[0]]


def test_r3_3_draw_with_a_full_hand_is_legal_and_draws_nothing() -> None:
    """R3.3 [D]: drawing is always legal, even when it draws nothing; it still uses an action."""
    hand = [FINE[0], FINE[1], FINE[2], FINE[3], FINE[4]]
    state = build(hands=[hand, [], []], deck=[GUANO[0]])
    assert options(state, 0) == ["draw"]
    events = choose(state, 0, "draw")
    assert state.hands[0] == hand
    assert [e.card_count for e in of_kind(events, EventKind.DREW)] == [0]
    assert state.actions_left == 1


def test_r3_3_draw_is_always_offered() -> None:
    """R3.3 [D]: with nothing playable and nothing to convert, a player can still draw."""
    state = build(zones={}, hands=[[FINE[0]], [], []])
    assert options(state, 0) == ["draw"]


def test_r3_3_empty_deck_reshuffles_the_discard_pile() -> None:
    """R3.3: when the Action deck runs out, the discard pile is shuffled into a new deck."""
    state = build(hands=[[], [], []], deck=[GUANO[0]], discard=[BLAM[0], BLAM[1]], spare_actions="played")
    events = choose(state, 0, "draw")
    assert state.hands[0][0] == GUANO[0]
    assert sorted(state.hands[0]) == sorted([GUANO[0], BLAM[0], BLAM[1]])
    assert [e.card_count for e in of_kind(events, EventKind.RESHUFFLED)] == [2]
    assert state.discard == [] and state.deck == []


def test_r3_3_drawing_stops_when_deck_and_discard_are_empty() -> None:
    """R3.3: if both the deck and the discard pile are empty, drawing stops."""
    state = build(hands=[[BLAM[0]], [], []], deck=[GUANO[0]], spare_actions="played")
    events = choose(state, 0, "draw")
    assert state.hands[0] == [BLAM[0], GUANO[0]]
    assert [e.card_count for e in of_kind(events, EventKind.DREW)] == [1]
    assert kind(state, 0) is DecisionKind.ACTION


# ---- R3.4 ------------------------------------------------------------------------------------


def test_r3_4_action_card_played_is_set_aside() -> None:
    """R3.4: a card played as an action goes to the turn's played pile."""
    state = build(zones={"statue": [STUPID[0]]}, hands=[[BLAM[0]], [], []])
    play(state, 0, BLAM[0], "statue")
    assert state.played == [BLAM[0]]
    assert BLAM[0] not in state.discard


def test_r3_4_reactions_by_anyone_are_set_aside() -> None:
    """R3.4: cards played as reactions, by any player, go to the played pile too."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[WROOM[0]], [WROOM[1]], [FINE[0]]])
    play(state, 0, WROOM[0])
    choose(state, 1, WROOM[1])
    assert state.played == [WROOM[0], WROOM[1]]


def test_r3_4_guano_stays_in_its_zone() -> None:
    """R3.4: guano cards are not set aside: they stay in their Zone."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0]], [], []])
    play(state, 0, GUANO[0], "road")
    assert state.played == []
    assert guano_on(state, "road") == [GUANO[0]]


# ---- R3.5 ------------------------------------------------------------------------------------


def test_r3_5_invasion_reveals_one_plus_the_recall_values() -> None:
    """R3.5: 1 + recall of the played pile (Blam! 1, Fine 2, Sweeper 2, Guano 0) Flock cards
    are revealed; the rest of the Flock deck stays."""
    events: list[Event] = []
    build(
        played=[BLAM[0], FINE[0], SWEEPER[0]],
        flock=[COMMON[0], *list(INFAMOUS)],
        actions_left=0,
        events=events,
    )
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [6]
    assert [e.cards[0] for e in of_kind(events, EventKind.REVEALED)] == list(reversed(INFAMOUS))


def test_r3_5_invasion_pigeons_are_resolved_one_at_a_time() -> None:
    """R3.5: each revealed card lands before the next is revealed."""
    events: list[Event] = []
    build(played=[BLAM[0]], flock=[FAT[1], FAT[0]], actions_left=0, events=events)
    order = [(e.kind, e.cards[0]) for e in events if e.kind in (EventKind.REVEALED, EventKind.LANDED)]
    assert order == [
        (EventKind.REVEALED, FAT[0]),
        (EventKind.LANDED, FAT[0]),
        (EventKind.REVEALED, FAT[1]),
        (EventKind.LANDED, FAT[1]),
    ]


def test_r3_5_next_reveal_waits_for_triggers_and_reactions() -> None:
    """R3.5: a revealed Lady's landing choice and pull, and the guano reactions to an Infamous,
    are all resolved before the next card is revealed."""
    state = build(
        spare_flock="removed",
        zones={"road": [STUPID[0]]},
        hands=[[], [GUANO[0]], []],
        flock=[FAT[0], INFAMOUS[0], LADY[0]],
        played=[BLAM[0], BLAM[1]],
        actions_left=0,
    )
    assert state.flock == [FAT[0], INFAMOUS[0]]
    choose(state, 0, "crowd")
    assert kind(state, 0) is DecisionKind.LADY
    assert state.flock == [FAT[0], INFAMOUS[0]]
    choose(state, 0, STUPID[0])
    assert zone(state, "b0") == [INFAMOUS[0]]
    assert kind(state, 1) is DecisionKind.REACT_GUANO
    assert state.flock == [FAT[0]]
    choose(state, 1, GUANO[0])
    assert zone(state, "statue") == [FAT[0]]
    assert state.active == 1


def test_r3_5_reactions_during_the_invasion_add_nothing() -> None:
    """R3.5 [D]: the count is fixed when the Invasion starts; a Birdseed reaction (recall 1)
    played during it reveals no extra card."""
    events: list[Event] = []
    state = build(
        spare_flock="removed",
        hands=[[BIRDSEED[0]], [], []],
        flock=[COMMON[0], INFAMOUS[0]],
        actions_left=0,
        events=events,
    )
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [1]
    events += choose(state, 0, BIRDSEED[0])
    events += choose(state, 0, "road")
    assert zone(state, "road") == [INFAMOUS[0]]
    assert len(of_kind(events, EventKind.REVEALED)) == 1
    assert state.flock == [COMMON[0]]
    assert state.active == 1
    assert BIRDSEED[0] in state.discard


def test_r3_5_reveals_are_lost_when_the_flock_deck_runs_out() -> None:
    """R3.5: if the Flock deck runs out, the remaining reveals are lost."""
    events: list[Event] = []
    state = build(spare_flock="removed", played=[BLAM[0], BLAM[1]], flock=[FAT[0]], actions_left=0, events=events)
    assert [e.left for e in of_kind(events, EventKind.INVASION)] == [3]
    assert len(of_kind(events, EventKind.REVEALED)) == 1
    assert zone(state, "statue") == [FAT[0]]
    assert state.active == 1


def test_r3_5_played_pile_goes_to_discard_and_next_player_begins() -> None:
    """R3.5: after the Invasion the played pile goes to the discard pile and the next player
    (clockwise) begins."""
    events: list[Event] = []
    state = build(played=[BLAM[0]], flock=[FAT[0], FAT[1], FAT[2]], actions_left=0, active=1, events=events)
    assert state.played == []
    assert state.discard[-1] == BLAM[0]
    assert state.active == 2
    assert [e.player for e in of_kind(events, EventKind.TURN)] == [2]
