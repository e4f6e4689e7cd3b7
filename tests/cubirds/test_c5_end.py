"""C5: winning at once, the end of a round, and the end of the game."""

from __future__ import annotations

import random
from collections import Counter

from core.cubirds import load, scores, winners
from core.cubirds.cards import CARD_IDS, HAND, SPECIES, SPECIES_OF
from core.cubirds.events import EventKind, describe
from core.cubirds.state import Ending
from core.cubirds.turn import wins
from core.decisions import PASS
from tests.cubirds.scenario import build, choose, decision, kinds, lay, species

ROWS = [["flamingo", "owl", "toucan"], ["duck", "parrot", "magpie"], ["robin", "owl"], ["toucan", "duck"]]
SIX = ["flamingo", "owl", "toucan", "duck", "parrot", "magpie"]


def test_c5_1_seven_species_win_at_once() -> None:
    """C5.1: a flock that brings the collection to 7 species ends the game: that player wins."""
    state = build(rows=ROWS, hands=[["robin"] + ["reed_warbler"] * 6, ["duck"]], collections=[SIX, ["duck"]])
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    events = choose(state, "reed_warbler")
    assert state.over and state.ending is Ending.COLLECTION
    assert winners(state) == [0]
    won = next(e for e in events if e.kind is EventKind.WON)
    assert won.player == 0 and "7 different species" in describe(won)
    assert kinds(events)[-1] is EventKind.GAME_OVER and state.open == ()


def test_c5_1_three_birds_of_two_species_win_at_once() -> None:
    """C5.1: 3 birds of each of 2 species win."""
    state = build(
        rows=ROWS,
        hands=[["robin", "duck", "duck", "duck", "duck"], ["duck"]],
        collections=[["owl", "owl", "owl", "duck", "duck"], ["magpie"]],
    )
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    choose(state, "duck")
    assert state.over and winners(state) == [0]
    assert scores(state)[0].triples == 2


def test_c5_1_the_win_test_agrees_with_counting_each_species() -> None:
    """C5.1: the engine's win test (every species counted at once in one integer) agrees with
    counting: 7 species or more, or 3 birds or more of 2 species; on collections at and either
    side of both conditions and 3,000 random ones."""
    by_species = {s: [c for c in CARD_IDS if SPECIES_OF[c] == s] for s in SPECIES}
    kinds_ = list(by_species)
    cols: list[tuple[str, ...]] = [()]
    for n in (6, 7, 8):  # one bird each of n species
        cols.append(tuple(by_species[s][0] for s in kinds_[:n]))
    for a, b in ((3, 3), (2, 3), (3, 2), (3, 20), (20, 2)):  # two species, a and b birds
        cols.append(tuple(by_species["owl"][:a] + by_species["robin"][:b]))
    rng = random.Random(51)
    cols += [tuple(rng.sample(CARD_IDS, rng.randint(1, 40))) for _ in range(3000)]
    for col in cols:
        counts = Counter(SPECIES_OF[c] for c in col)
        want = len(counts) >= 7 or sum(1 for k in counts.values() if k >= 3) >= 2
        assert wins(col) is want, col
    assert any(wins(c) for c in cols) and not all(wins(c) for c in cols)


def test_c5_1_is_checked_at_the_end_of_the_turn_only() -> None:
    """C5.1: short of either condition, the turn passes and nobody has won."""
    state = build(
        rows=ROWS,
        hands=[["robin", "magpie", "duck", "duck", "duck", "duck"], ["duck"]],
        collections=[["owl", "owl", "owl", "duck"], ["magpie"]],
    )
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    choose(state, "duck")
    assert not state.over and winners(state) == [] and state.active == 1


def test_c5_2_an_empty_hand_ends_the_round() -> None:
    """C5.2 [D]: the hand empty at the end of the turn: the others discard their hands, the
    rows stay, everyone gets 8 new cards, and the same player plays first."""
    state = build(
        3, rows=ROWS, hands=[["robin"], ["duck", "owl"], ["magpie"]], collections=[["owl"], ["duck"], ["toucan"]]
    )
    others = [state.hands[1][:], state.hands[2][:]]
    lay(state, "robin", "r3", "right")
    rows_before = [r[:] for r in state.rows]
    events = choose(state, PASS)
    assert kinds(events)[:3] == [EventKind.ROUND_OVER, EventKind.HAND_DISCARDED, EventKind.HAND_DISCARDED]
    assert state.rows == rows_before
    assert all(c in state.discard for h in others for c in h)
    assert [len(h) for h in state.hands] == [HAND] * 3
    assert state.round == 2 and state.active == 0 and decision(state).player == 0
    dealt = [e for e in events if e.kind is EventKind.DEALT]
    assert [e.player for e in dealt] == [1, 2, 0] and all(e.secret for e in dealt)


def test_c5_2_the_round_ends_after_the_flock_too() -> None:
    """C5.2: a hand emptied by the flock also ends the round."""
    state = build(rows=ROWS, hands=[["robin", "owl", "owl", "owl"], ["duck"]])
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    events = choose(state, "owl")
    assert EventKind.ROUND_OVER in kinds(events) and state.round == 2 and state.active == 0


def test_c5_2_a_win_comes_before_the_round_end() -> None:
    """C5.2: when C5.1 ends the game, the round does not end (nobody discards)."""
    state = build(
        rows=ROWS,
        hands=[["robin", "duck", "duck", "duck", "duck"], ["owl"]],
        collections=[["owl", "owl", "owl", "duck", "duck"], ["magpie"]],
    )
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    events = choose(state, "duck")
    assert EventKind.ROUND_OVER not in kinds(events) and species(state.hands[1]) == ["owl"]


def test_c5_3_no_new_round_without_8_cards_for_everyone() -> None:
    """C5.3: when 8 cards cannot be dealt to each player even with the discard pile shuffled
    in, the game ends; the biggest collection wins."""
    state = build(
        rows=ROWS, hands=[["robin"], ["duck", "owl"]], draw=["magpie"] * 10, collections=[["owl"], ["duck", "duck"]]
    )
    _empty_discard(state)
    state = load(state.to_dict())
    lay(state, "robin", "r3", "right")
    events = choose(state, PASS)
    assert state.over and state.ending is Ending.DEAL
    assert EventKind.DECK_OUT in kinds(events)
    assert winners(state) == [1]


def test_c5_3_the_discard_pile_is_shuffled_in_to_deal() -> None:
    """C5.2, C5.3: a short pile is topped up from the discard pile (reshuffled) to deal."""
    state = build(rows=ROWS, hands=[["robin"], ["duck", "owl"]], draw=["magpie"] * 3)
    lay(state, "robin", "r3", "right")
    events = choose(state, PASS)
    assert not state.over and EventKind.RESHUFFLED in kinds(events)
    assert [len(h) for h in state.hands] == [HAND, HAND]


def test_c5_3_a_tie_shares_the_win() -> None:
    """C5.3: equal biggest collections share the win."""
    state = build(
        rows=ROWS, hands=[["robin"], ["duck"]], draw=["magpie"] * 10, collections=[["owl", "duck"], ["duck", "toucan"]]
    )
    _empty_discard(state)
    state = load(state.to_dict())
    lay(state, "robin", "r3", "right")
    choose(state, PASS)
    assert state.over and winners(state) == [0, 1]


def test_c5_4_the_safety_stop_at_1000_turns() -> None:
    """C5.4 [D]: the 1,000th turn ends the game, scored as C5.3."""
    state = build(rows=ROWS, hands=[["robin", "duck"], ["duck"]], turn=1000, collections=[["owl"], ["duck", "magpie"]])
    lay(state, "robin", "r3", "right")
    events = choose(state, PASS)
    assert state.over and state.ending is Ending.TURNS
    assert EventKind.TURN_LIMIT in kinds(events) and winners(state) == [1]
    stop = next(e for e in events if e.kind is EventKind.TURN_LIMIT)
    assert describe(stop) == "The game stops after 1000 turns: the biggest collection wins."


def _empty_discard(state: object) -> None:
    """Move the discard pile to the left end of row 1, so that no card is left to deal from it."""
    from core.cubirds.state import GameState

    assert isinstance(state, GameState)
    state.rows[0] = state.discard + state.rows[0]
    state.discard = ()
