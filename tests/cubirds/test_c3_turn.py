"""C3: laying birds, taking what they enclose, drawing, refilling rows."""

from __future__ import annotations

import pytest

from core.cubirds.cards import SPECIES_OF
from core.cubirds.events import EventKind
from core.cubirds.rules import load
from core.decisions import BACK, PASS, DecisionKind, IllegalChoice
from tests.cubirds.scenario import build, choose, decision, kinds, lay, species, values

ROWS = [["flamingo", "owl", "toucan"], ["duck", "parrot", "magpie"], ["robin", "owl"], ["toucan", "duck"]]


def test_c3_1_the_species_offered_are_those_in_hand() -> None:
    """C3.1: one option per species in hand, each naming all its cards."""
    state = build(hands=[["owl", "robin", "owl", "magpie"], ["duck"]])
    d = decision(state)
    assert d.kind is DecisionKind.LAY_SPECIES and d.player == 0
    assert values(state) == ["owl", "magpie", "robin"]
    owls = next(o for o in d.options if o.value == "owl")
    assert species(owls.refs) == ["owl", "owl"]
    assert set(owls.refs) <= set(state.hands[0])


@pytest.mark.parametrize("row", ["r0", "r1", "r2", "r3"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_c3_1_all_cards_of_the_species_go_together_to_any_row_and_end(row: str, side: str) -> None:
    """C3.1: any species on any row, at either end; all the cards of that species, together."""
    state = build(rows=ROWS, hands=[["magpie", "robin", "magpie", "magpie"], ["duck"]])
    magpies = [c for c in state.hands[0] if SPECIES_OF[c] == "magpie"]
    choose(state, "magpie")
    assert values(state) == ["r0", "r1", "r2", "r3", BACK]
    choose(state, row)
    assert values(state) == ["left", "right", BACK]
    events = choose(state, side)
    r = state.rows[int(row[1])]
    assert (r[:3] if side == "left" else r[-3:]) == tuple(magpies)
    assert "magpie" not in species(state.hands[0])
    laid = next(e for e in events if e.kind is EventKind.LAID)
    assert laid.cards == tuple(magpies) and laid.row == row and laid.side == side


def test_c3_1_back_steps_to_the_previous_choice() -> None:
    """C3.1: before the birds are laid, the row and the end can be taken back."""
    state = build(hands=[["owl", "robin"], ["duck"]])
    choose(state, "owl")
    choose(state, BACK)
    assert decision(state).kind is DecisionKind.LAY_SPECIES
    choose(state, "robin")
    choose(state, "r2")
    choose(state, BACK)
    assert decision(state).kind is DecisionKind.LAY_ROW


def test_c3_2_laid_birds_take_the_cards_up_to_the_nearest_bird_of_their_species() -> None:
    """C3.2 [D]: at the right end, the cards between the laid birds and the nearest owl go to
    the hand; the owls farther left and what lies beyond them stay."""
    rows = [["owl", "duck", "owl", "robin", "parrot"], ["duck", "parrot"], ["robin", "magpie"], ["toucan", "duck"]]
    state = build(rows=rows, hands=[["owl", "magpie"], ["duck"]])
    before = state.rows[0][:]
    events = lay(state, "owl", "r0", "right")
    assert species(state.rows[0]) == ["owl", "duck", "owl", "owl"]
    assert state.rows[0][:3] == before[:3]
    assert sorted(species(state.hands[0])) == ["magpie", "parrot", "robin"]
    took = next(e for e in events if e.kind is EventKind.CAPTURED)
    assert took.cards == tuple(before[3:]) and took.row == "r0"


def test_c3_2_at_the_left_end_too() -> None:
    """C3.2: laid at the left end, the birds take what lies between them and the nearest bird
    of their species from the left."""
    rows = [["duck", "robin", "owl", "parrot", "owl"], ["duck", "parrot"], ["robin", "magpie"], ["toucan", "duck"]]
    state = build(rows=rows, hands=[["owl"], ["duck"]])
    lay(state, "owl", "r0", "left")
    assert species(state.rows[0]) == ["owl", "owl", "parrot", "owl"]
    assert sorted(species(state.hands[0])) == ["duck", "robin"]


def test_c3_3_nothing_enclosed_offers_two_cards() -> None:
    """C3.3: no bird of the species in the row: the player may draw 2 cards from the pile."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]], draw_top=["magpie", "parrot", "owl"])
    lay(state, "robin", "r0", "right")
    d = decision(state)
    assert d.kind is DecisionKind.DRAW_TWO and values(state) == ["draw", PASS]
    events = choose(state, "draw")
    assert sorted(species(state.hands[0])) == ["duck", "magpie", "parrot"]
    drew = next(e for e in events if e.kind is EventKind.DREW)
    assert drew.card_count == 2 and drew.secret


def test_c3_3_the_draw_is_optional() -> None:
    """C3.3: the player may also not draw."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]])
    pile = len(state.draw)
    lay(state, "robin", "r0", "right")
    choose(state, PASS)
    assert species(state.hands[0]) == ["duck"] and len(state.draw) == pile


def test_c3_3_a_bird_of_the_species_right_next_to_them_encloses_nothing() -> None:
    """C3.3: the nearest bird of the species next to the laid ones encloses no card: the draw
    is offered."""
    state = build(rows=ROWS, hands=[["owl", "duck"], ["duck"]])
    events = lay(state, "owl", "r2", "right")
    assert EventKind.CAPTURED not in kinds(events)
    assert decision(state).kind is DecisionKind.DRAW_TWO


def test_c3_3_no_draw_after_taking_cards() -> None:
    """C3.3: birds that enclosed cards bring no draw: the turn goes on to the flock or ends."""
    state = build(rows=ROWS, hands=[["owl", "duck"], ["duck"]])
    lay(state, "owl", "r0", "left")
    assert state.active == 1 and decision(state).kind is DecisionKind.LAY_SPECIES


def test_c3_4_a_row_left_with_one_species_is_refilled_at_its_right_end() -> None:
    """C3.4 [D]: after a capture leaves only robins, cards from the pile go to the row's right
    end one at a time until it holds two species."""
    rows = [["robin", "duck", "owl"], ["duck", "parrot"], ["magpie", "owl"], ["toucan", "duck"]]
    state = build(rows=rows, hands=[["robin", "magpie"], ["duck"]], draw_top=["robin", "robin", "parrot", "owl"])
    events = lay(state, "robin", "r0", "right")
    assert species(state.rows[0]) == ["robin", "robin", "robin", "robin", "parrot"]
    refill = next(e for e in events if e.kind is EventKind.REFILLED)
    assert species(refill.cards) == ["robin", "robin", "parrot"] and refill.row == "r0"
    assert kinds(events).index(EventKind.CAPTURED) < kinds(events).index(EventKind.REFILLED)


def test_c3_4_a_row_with_two_species_is_not_refilled() -> None:
    """C3.4: rows are only refilled when one species is left."""
    rows = [["robin", "duck", "owl", "robin", "magpie"], ["duck", "parrot"], ["magpie", "owl"], ["toucan", "duck"]]
    state = build(rows=rows, hands=[["robin"], ["duck"]])
    pile = len(state.draw)
    events = lay(state, "robin", "r0", "right")
    assert EventKind.REFILLED not in kinds(events) and len(state.draw) == pile


def test_c3_4_a_refill_short_of_cards_is_completed_at_the_end_of_a_later_turn() -> None:
    """C3.4, C3.5 [D]: a capture leaves a row of robins with both piles empty: it stays so
    through the turns that bring no card back, and the turn whose flock discards a card ends
    with that card shuffled into a new pile and added to the row."""
    rows = [["robin", "duck", "owl"], ["duck", "parrot"], ["magpie", "owl"], ["toucan", "duck"]]
    hands = [["robin", "magpie"], ["duck", "flamingo", "flamingo", "toucan"], ["parrot"]]
    state = build(3, rows=rows, hands=hands, draw=[])
    d = state.to_dict()
    cols = d["collections"]
    assert isinstance(cols, list) and isinstance(d["discard"], list)
    cols[2] = d["discard"]  # no card left to draw, and no win for the two seats that play
    state = load({**d, "discard": [], "collections": cols})
    events = lay(state, "robin", "r0", "right")
    assert species(state.rows[0]) == ["robin", "robin"] and EventKind.REFILLED not in kinds(events)
    assert state.active == 1 and state.draw == [] and state.discard == ()
    lay(state, "duck", "r2", "left")
    assert decision(state).kind is DecisionKind.FLY
    events = choose(state, "flamingo")
    assert kinds(events).index(EventKind.FLEW) < kinds(events).index(EventKind.RESHUFFLED)
    refill = next(e for e in events if e.kind is EventKind.REFILLED)
    assert refill.row == "r0" and species(refill.cards) == ["flamingo"]
    assert species(state.rows[0]) == ["robin", "robin", "flamingo"] and state.active == 2


def test_c3_5_an_empty_pile_is_the_discard_pile_shuffled() -> None:
    """C3.5 [D]: a card to draw with the pile empty: the discard pile becomes the draw pile."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]], draw=[])
    discard = sorted(state.discard)
    lay(state, "robin", "r0", "right")
    events = choose(state, "draw")
    assert kinds(events)[:2] == [EventKind.RESHUFFLED, EventKind.DREW]
    assert next(e for e in events if e.kind is EventKind.RESHUFFLED).card_count == len(discard)
    assert state.discard == () and sorted(state.draw + list(state.hands[0][1:])) == discard


def test_c3_5_with_both_piles_empty_draw_what_there_is() -> None:
    """C3.5 [D]: with one card left in all, the draw gives one card and the game goes on."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]], draw=["owl"])
    state = load(_moved_to_collections(state.to_dict()))
    lay(state, "robin", "r0", "right")
    choose(state, "draw")
    assert sorted(species(state.hands[0])) == ["duck", "owl"] and state.draw == []
    assert state.active == 1


def test_c3_5_nothing_to_draw_asks_nothing() -> None:
    """C3.5: with both piles empty the draw is not offered."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]], draw=[])
    state = load(_moved_to_collections(state.to_dict()))
    lay(state, "robin", "r0", "right")
    assert state.active == 1


def test_c3_the_wrong_player_or_a_stale_decision_changes_nothing() -> None:
    """Bad choices are clear errors and leave the state as it was."""
    state = build(hands=[["robin", "duck"], ["duck"]])
    before = state.to_dict()
    d = decision(state)
    for player, did, value, code in [
        (1, d.id, "robin", "not_your_decision"),
        (0, d.id + 5, "robin", "stale_decision"),
        (0, d.id, "owl", "option_not_offered"),
        (0, d.id, ["robin"], "option_not_offered"),
    ]:
        with pytest.raises(IllegalChoice) as err:
            from core.cubirds import apply

            apply(state, player, did, value)
        assert err.value.code.value == code
        assert state.to_dict() == before


def _moved_to_collections(d: dict[str, object]) -> dict[str, object]:
    """The discard pile moved into seat 1's collection, so that no card is left to draw from it."""
    cols = d["collections"]
    assert isinstance(cols, list)
    discard = d["discard"]
    assert isinstance(discard, list)
    cols[1] = cols[1] + discard
    return {**d, "discard": [], "collections": cols}
