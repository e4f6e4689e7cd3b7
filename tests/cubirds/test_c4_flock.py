"""C4: flying a flock into the collection."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.cubirds.cards import CARD_IDS, SPECIES, SPECIES_OF
from core.cubirds.events import EventKind
from core.cubirds.rules import has_flock
from core.cubirds.state import GameState
from core.decisions import PASS, DecisionKind
from tests.cubirds.scenario import build, choose, decision, lay, species, values

ROWS = [["flamingo", "owl", "toucan"], ["duck", "parrot", "magpie"], ["robin", "owl"], ["toucan", "duck"]]


def _flying(hand: list[str]) -> GameState:
    """A state where seat 0 has laid its robin (no capture, no draw) and may fly from `hand`."""
    state = build(rows=ROWS, hands=[["robin", *hand], ["duck"]])
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    return state


@pytest.mark.parametrize(
    ("hand", "kept", "discarded"),
    [
        (["owl"] * 3, 1, 2),  # small flock of owls (3)
        (["owl"] * 4, 2, 2),  # big flock of owls (4)
        (["flamingo"] * 2, 1, 1),  # small flock of flamingos (2)
        (["flamingo"] * 3, 2, 1),  # big flock of flamingos (3)
        (["magpie"] * 6, 1, 5),  # 6 magpies: still a small flock (big is 7)
        (["reed_warbler"] * 10, 2, 8),  # a big flock of reed warblers (9 or more): the rest discarded
    ],
)
def test_c4_1_a_flock_puts_one_or_two_birds_in_the_collection(hand: list[str], kept: int, discarded: int) -> None:
    """C4.1: all the cards of the species are revealed; 1 goes to the collection (small flock)
    or 2 (big flock); the rest are discarded."""
    state = _flying([*hand, "duck"])
    sp = hand[0]
    d = decision(state)
    assert d.kind is DecisionKind.FLY and values(state) == [sp, PASS]
    cards = [c for c in state.hands[0] if species([c]) == [sp]]
    events = choose(state, sp)
    assert list(state.collections[0]) == cards[:kept]
    assert list(state.discard[-discarded:]) == cards[kept:]
    assert species(state.hands[0]) == ["duck"]
    flew = next(e for e in events if e.kind is EventKind.FLEW)
    assert flew.cards == tuple(cards) and flew.kept == kept and not flew.secret


def test_c4_1_not_below_the_small_flock_size() -> None:
    """C4.1: a species below its small flock size cannot fly: with no flock to fly, nothing is
    asked and the turn ends."""
    state = build(rows=ROWS, hands=[["robin", "owl", "owl", "duck", "duck", "duck"], ["duck"]])
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    assert state.active == 1


def test_c4_1_only_the_species_that_can_fly_are_offered_and_declining_is_allowed() -> None:
    """C4.1: the flock is optional: the options are the species at their small flock size and pass."""
    state = _flying(["owl", "owl", "owl", "duck", "duck", "flamingo", "flamingo"])
    assert values(state) == ["flamingo", "owl", PASS]
    choose(state, PASS)
    assert state.collections[0] == () and state.active == 1


def test_c4_1_at_most_one_flock_a_turn() -> None:
    """C4.1: after one flock the turn ends, even with another flock in hand."""
    state = _flying(["owl", "owl", "owl", "flamingo", "flamingo"])
    choose(state, "owl")
    assert state.active == 1 and species(state.hands[0]) == ["flamingo", "flamingo"]


def test_c4_2_collection_cards_never_leave() -> None:
    """C4.2: a round ending (hands discarded, new hands dealt) leaves every collection as it was."""
    state = build(
        rows=ROWS,
        hands=[["robin"], ["duck", "duck"]],
        collections=[["owl", "owl"], ["magpie"]],
    )
    before = [c[:] for c in state.collections]
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    assert state.round == 2 and state.collections == before


def test_c4_1_a_flock_is_offered_exactly_when_a_species_has_its_small_flock_size() -> None:
    """C4.1: the engine's quick test for a flock in hand (every species counted at once in one
    integer) agrees with counting each species against its small flock size, on hands from
    empty to whole species, every species at and either side of its size."""
    rng = random.Random(41)
    hands: list[tuple[str, ...]] = [()]
    for s, d in SPECIES.items():
        cards = [c for c in CARD_IDS if SPECIES_OF[c] == s]
        hands += [tuple(cards[:k]) for k in (d.small - 1, d.small, d.small + 1, d.count)]
    hands += [tuple(rng.sample(CARD_IDS, rng.randint(1, 40))) for _ in range(3000)]
    for hand in hands:
        counts = Counter(SPECIES_OF[c] for c in hand)
        want = any(counts[s] >= d.small for s, d in SPECIES.items())
        assert has_flock(hand) is want, hand
    assert any(has_flock(h) for h in hands) and not all(has_flock(h) for h in hands)
