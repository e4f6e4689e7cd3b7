"""R8 Hidden information: what a view (and an event) shows each seat, and what it never shows."""

from __future__ import annotations

from core.events import Event, EventKind, redact
from core.state import Trophy
from core.views import view
from tests.core.scenario import (
    BLAM,
    COMMON,
    FAT,
    FINE,
    GUANO,
    INFAMOUS,
    LADY,
    STUPID,
    WROOM,
    ZOT,
    all_strings,
    build,
    choose,
    of_kind,
)


def test_r8_1_a_player_sees_their_own_hand_only() -> None:
    """R8.1: each hand is private: its owner sees it; the others and spectators see its size."""
    state = build(hands=[[BLAM[0]], [GUANO[0], WROOM[0]], [ZOT[0]]])
    assert view(state, 1).hand == (GUANO[0], WROOM[0])
    assert view(state, 1).hand_sizes == (1, 2, 1)
    for seat in (0, 2, None):
        seen = all_strings(view(state, seat).to_dict())
        assert not seen & {GUANO[0], WROOM[0]}
    assert view(state, None).hand == ()


def test_r8_1_hidden_cards_never_appear_in_another_seats_view() -> None:
    """R8.1: no id of another hand, either deck, or a removed card appears in a view."""
    state = build(
        zones={"road": [COMMON[0]]},
        hands=[[BLAM[0]], [GUANO[0]], [ZOT[0]]],
        flock=[FAT[0], FAT[1]],
        deck=[FINE[0], FINE[1]],
        spare_actions="played",
    )
    for seat in (0, 1, 2, None):
        hidden = set(state.flock) | set(state.deck) | set(state.removed)
        hidden |= {c for s, h in enumerate(state.hands) if s != seat for c in h}
        assert not all_strings(view(state, seat).to_dict()) & hidden


def test_r8_1_views_do_not_depend_on_hidden_cards() -> None:
    """R8.1: swapping a card between another hand and the deck, reordering a deck, or changing
    which Flock cards were removed leaves a seat's view unchanged."""
    a = build(hands=[[BLAM[0]], [GUANO[0]], []], deck=[WROOM[0], ZOT[0]], flock=[FAT[0]], spare_actions="played")
    b = build(hands=[[BLAM[0]], [ZOT[0]], []], deck=[GUANO[0], WROOM[0]], flock=[FAT[1]], spare_actions="played")
    assert view(a, 0).to_dict() == view(b, 0).to_dict()
    assert view(a, None).to_dict() == view(b, None).to_dict()
    assert view(a, 1).to_dict() != view(b, 1).to_dict()


def test_r8_1_blind_trophy_face_is_hidden_even_from_its_owner() -> None:
    """R8.1: a trophy taken blind (R4.6) shows as a pigeon worth 1 VP, whatever it is."""
    a = build(trophies={0: [Trophy((LADY[0],), 1, hidden=True)]})
    b = build(trophies={0: [Trophy((FAT[0],), 1, hidden=True)]})
    for seat in (0, 1, None):
        va, vb = view(a, seat), view(b, seat)
        assert va.to_dict() == vb.to_dict()
        assert [(t.cards, t.vp) for t in va.trophies[0]] == [((), 1)]
        assert LADY[0] not in all_strings(va.to_dict())


def test_r8_1_blind_trophy_event_carries_no_card() -> None:
    """R8.1: the event of a blind trophy names no card."""
    state = build(zones={"b0": [INFAMOUS[0]]}, hands=[[BLAM[0], WROOM[0]], [], []], flock=[STUPID[0], COMMON[0]])
    events = choose(state, 0, ("convert", INFAMOUS[0]))
    events += choose(state, 0, BLAM[0])
    events += choose(state, 0, WROOM[0])
    trophy = state.trophies[0][0]
    assert trophy.hidden
    for e in events:
        assert trophy.cards[0] not in e.cards or e.kind is EventKind.RETURNED_TO_DECK


def test_r8_1_drawn_cards_are_redacted_for_others() -> None:
    """R8.1: the cards a player draws are shown to them and counted for everyone else."""
    state = build(hands=[[], [], []], deck=[GUANO[0], GUANO[1]], spare_actions="played")
    events = choose(state, 0, "draw")
    drew = of_kind(events, EventKind.DREW)[0]
    assert redact(drew, 0).cards == (GUANO[1], GUANO[0])
    for seat in (1, 2, None):
        assert redact(drew, seat).cards == ()
        assert redact(drew, seat).card_count == 2


def test_r8_2_public_information_is_in_every_view() -> None:
    """R8.2: Zones, hand sizes, deck sizes, the discard and played piles, trophies and scores
    are public."""
    state = build(
        spare_flock="removed",
        zones={"road": [COMMON[0]], "b1": [STUPID[0]]},
        guano={"b1": [GUANO[0]]},
        hands=[[BLAM[0]], [WROOM[0], ZOT[0]], []],
        flock=[FAT[0], FAT[1]],
        deck=[FINE[0]],
        discard=[FINE[1]],
        played=[BLAM[1]],
        trophies={2: [Trophy((LADY[0],), 1)]},
        spare_actions="played",
    )
    for seat in (0, 1, 2, None):
        v = view(state, seat)
        zones = {z.id: (z.pigeons, z.guano) for z in v.zones}
        assert zones["road"] == ((COMMON[0],), ())
        assert zones["b1"] == ((STUPID[0],), (GUANO[0],))
        assert v.hand_sizes == (1, 2, 0)
        assert (v.flock_count, v.deck_count, v.removed_count) == (2, 1, 40 - 5)
        assert v.discard == (FINE[1],)
        assert v.played[0] == BLAM[1]
        assert [(t.cards, t.vp) for t in v.trophies[2]] == [((LADY[0],), 1)]
        assert [s.total for s in v.scores()] == [0, -2, 1]


def test_r8_2_the_log_of_plays_is_public() -> None:
    """R8.2: the events of what was played are not redacted for anyone."""
    state = build(zones={"statue": [COMMON[0], STUPID[0]]}, hands=[[BLAM[0]], [], []])
    events = choose(state, 0, ("play", BLAM[0]))
    events += choose(state, 0, "statue")
    public = [e for e in events if not e.secret]
    assert public == events
    for seat in (1, None):
        assert [redact(e, seat) for e in events] == events
    assert of_kind(events, EventKind.PLAYED) == [Event(EventKind.PLAYED, 0, (BLAM[0],), "statue")]


def test_r8_1_the_playthroughs_scan_finds_a_hidden_id_anywhere_and_nothing_else() -> None:
    """R8.1: the scan the playthroughs make of every view (tests.hidden) finds a hidden card id
    as a key, a value, inside a label and deep in nested tuples, ignores ids the seat may see,
    and does not take integers whose packed bytes read as "F01" or "A07" for cards."""
    from tests.core.games import leaks

    hidden = {"F01", "A07", "F33", "A12", "F40"}
    data = {"F01": 1, "x": ["A07"], "label": "Take the A12 back", "deep": (((0, ("F33",)),),), "mine": "F02"}
    assert leaks(data, hidden) == {"F01", "A07", "A12", "F33"}
    assert leaks({"hand_sizes": [70, 48, 49], "n": [65, 48, 55]}, {"F01", "A07"}) == set()
    assert leaks({"prompt": "Dove played F40 (é)"}, hidden) == {"F40"}
