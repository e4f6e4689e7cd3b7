"""C6: hidden and public information in views and events."""

from __future__ import annotations

from core.cubirds import apply, redact, view
from core.cubirds.events import Event, EventKind, describe
from core.cubirds.record import Record
from core.decisions import DecisionKind
from tests.cubirds.games import hidden_from, leaks, play
from tests.cubirds.scenario import build, choose, lay

ROWS = [["flamingo", "owl", "toucan"], ["duck", "parrot", "magpie"], ["robin", "owl"], ["toucan", "duck"]]
SECRET = {EventKind.DREW, EventKind.DEALT}


def test_c6_1_a_view_holds_its_own_hand_and_nothing_else_hidden() -> None:
    """C6.1: each seat sees its own hand; no other hand's card and no card of the draw pile
    appears anywhere in its view (the spectator sees no hand at all)."""
    checked = 0
    for seed, players in [(1, 2), (2, 5)]:
        for state, _ in play(seed, players):
            for seat in [*range(players), None]:
                v = view(state, seat)
                assert v.hand == (tuple(state.hands[seat]) if seat is not None else ())
                assert not leaks(v.to_dict(), hidden_from(state, seat))
                checked += 1
    assert checked > 500


def test_c6_1_the_draw_pile_shows_only_its_size() -> None:
    """C6.1: the draw pile's order is private: a view has its size only."""
    state = build(rows=ROWS, hands=[["robin"], ["duck"]])
    d = view(state, 0).to_dict()
    assert d["draw_count"] == len(state.draw)
    assert not leaks(d, set(state.draw))


def test_c6_1_drawn_and_dealt_cards_are_told_to_their_owner_only() -> None:
    """C6.1: events of drawn and dealt cards name the cards to their owner; others (and
    spectators) learn how many."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]])
    lay(state, "robin", "r3", "right")
    events = choose(state, "draw")
    drew = next(e for e in events if e.kind is EventKind.DREW)
    assert redact(drew, 0).cards == drew.cards and len(drew.cards) == 2
    for other in (1, None):
        hidden = redact(drew, other)
        assert hidden.cards == () and hidden.card_count == 2
        assert describe(hidden, ["Ada", "Bo"]) == "Ada draws 2 cards."


def test_c6_1_a_move_in_progress_is_its_players_own() -> None:
    """C6.1: the species and row a player picked are not announced until the birds are laid:
    others see the turn's first step, no decision and no choice."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]])
    choose(state, "robin")
    choose(state, "r1")
    mine, theirs, spectator = view(state, 0), view(state, 1), view(state, None)
    assert (mine.step, mine.laying, mine.row) == (DecisionKind.LAY_END, "robin", 1)
    for v in (theirs, spectator):
        assert (v.step, v.laying, v.row, v.decisions) == (DecisionKind.LAY_SPECIES, None, None, ())


def test_c6_2_the_table_is_public() -> None:
    """C6.2: rows, collections, hand sizes, the draw pile's size and the discard pile are the
    same in every view, the spectator's included."""
    for state, _ in play(7, 4):
        views = [view(state, s) for s in [0, 1, 2, 3, None]]
        first = views[0]
        for v in views[1:]:
            assert (v.rows, v.collections, v.hand_sizes, v.draw_count, v.discard) == (
                first.rows,
                first.collections,
                first.hand_sizes,
                first.draw_count,
                first.discard,
            )
        assert first.rows == tuple(map(tuple, state.rows)) and first.discard == tuple(state.discard)


def test_c6_2_the_log_of_play_is_public() -> None:
    """C6.2: every event but drawn and dealt cards is the same for every viewer, and each kind
    tells its story in a sentence (over games that show every kind but the safety stop)."""
    seen: set[EventKind] = set()
    for seed in range(12):
        players = 2 + seed % 4
        *_, (_, choices) = play(seed, players)
        state = Record(players, seed).start()
        for p, i, o in choices:
            for e in apply(state, p, i, o):
                seen.add(e.kind)
                for viewer in [*range(players), None]:
                    r = redact(e, viewer)
                    if e.kind not in SECRET or viewer == e.player:
                        assert r == e
                    assert describe(r, ["Ada", "Bo", "Cy", "Di", "Ed"]).endswith((".", "!"))
    assert seen == set(EventKind) - {EventKind.TURN_LIMIT}


def test_c6_2_events_round_trip_through_plain_data() -> None:
    """Events cross the wire as plain data and come back equal."""
    e = Event(EventKind.LAID, 1, ("OW01", "OW02"), "r2", "left")
    assert Event.from_dict(e.to_dict()) == e
