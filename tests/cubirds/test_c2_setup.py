"""C2: setting up a game from one seed."""

from __future__ import annotations

import pytest

from core.cubirds import new_game
from core.cubirds.cards import HAND, SPECIES_OF
from core.cubirds.setup import _lay_row
from core.cubirds.state import check
from core.rng import seed_state
from tests.cubirds.scenario import Picker


def test_c2_1_the_seed_decides_the_deal() -> None:
    """C2.1: the same seed deals the same game; other seeds deal others."""
    assert new_game(4, 7).to_dict() == new_game(4, 7).to_dict()
    deals = {tuple(new_game(4, seed).draw) for seed in range(20)}
    assert len(deals) == 20


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_c2_2_four_rows_of_three_different_species(players: int) -> None:
    """C2.2: over many deals, 4 rows of 3 face-up cards, 3 species in each."""
    for seed in range(150):
        state = new_game(players, seed)
        check(state)
        assert len(state.rows) == 4
        for row in state.rows:
            assert len(row) == 3 and len({SPECIES_OF[c] for c in row}) == 3


def test_c2_2_a_duplicate_is_replaced_and_shuffled_back() -> None:
    """C2.2: a card whose species is already in the row is replaced by the next card and goes
    back into the draw pile (not to the row, not lost)."""
    pick = Picker()
    owl1, owl2, duck, robin = pick.many(["owl", "owl", "duck", "robin"])
    rest = pick.many(["magpie"] * 10)
    draw = [*rest, robin, duck, owl2, owl1]  # the top is the end: owl1 comes first
    _, row = _lay_row(seed_state(1), draw)
    assert row == [owl1, duck, robin]
    assert owl2 in draw and len(draw) == len(rest) + 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_c2_3_eight_cards_each_one_in_each_collection(players: int) -> None:
    """C2.3: 8 cards in each hand, 1 face up in each collection, the rest the draw pile; the
    discard pile starts empty."""
    state = new_game(players, 3)
    assert [len(h) for h in state.hands] == [HAND] * players
    assert [len(c) for c in state.collections] == [1] * players
    assert state.discard == ()
    assert len(state.draw) == 110 - 12 - 9 * players


def test_c2_4_the_first_player_is_drawn_from_the_seed() -> None:
    """C2.4 [D]: the seeded generator draws the first player (every seat comes up), who plays
    first; a host may name the seat instead."""
    firsts = {new_game(4, seed).first for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    state = new_game(4, 5)
    assert state.active == state.first and state.open[0].player == state.first
    assert new_game(3, 5, first_player=2).active == 2
    with pytest.raises(ValueError, match="first player"):
        new_game(3, 5, first_player=3)


def test_c2_4_play_goes_clockwise() -> None:
    """C2.4: the turn passes to the next seat up (seat 0, 1, 2, back to 0)."""
    from tests.cubirds.scenario import build, choose, lay

    state = build(3, hands=[["robin", "duck"], ["robin", "duck"], ["robin", "duck"]], active=1)
    lay(state, "robin", "r0", "left")
    choose(state, "pass")
    assert state.active == 2 and state.turn == 2
    lay(state, "robin", "r0", "left")
    choose(state, "pass")
    assert state.active == 0


def test_c2_1_the_shuffle_is_fisher_yates_on_the_seeded_generator() -> None:
    """C2.1 (and R2.5): core.rng.shuffle makes exactly the draws of `below` (written out for
    speed), so every deal and record made before is dealt the same."""
    from core.rng import below, shuffle

    def reference(s: int, items: list[int]) -> int:
        for i in range(len(items) - 1, 0, -1):
            s, j = below(s, i + 1)
            items[i], items[j] = items[j], items[i]
        return s

    for seed in range(200):
        a, b = list(range(seed % 120)), list(range(seed % 120))
        assert shuffle(seed_state(seed), a) == reference(seed_state(seed), b) and a == b
