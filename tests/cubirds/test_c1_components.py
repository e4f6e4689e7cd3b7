"""C1: the cards and the player count."""

from __future__ import annotations

from collections import Counter

import pytest

from core.cubirds import new_game
from core.cubirds.cards import CARD_IDS, DECK_SIZE, SPECIES, SPECIES_DEFS, SPECIES_OF

PRINTED = {
    "flamingo": (7, 2, 3),
    "owl": (10, 3, 4),
    "toucan": (10, 3, 4),
    "duck": (13, 4, 6),
    "parrot": (13, 4, 6),
    "magpie": (17, 5, 7),
    "reed_warbler": (20, 6, 9),
    "robin": (20, 6, 9),
}


def test_c1_1_110_cards_in_8_species_with_their_flock_sizes() -> None:
    """C1.1: 110 cards, the printed count and small/big flock sizes of each of the 8 species."""
    assert len(CARD_IDS) == len(set(CARD_IDS)) == DECK_SIZE == 110
    assert {d.species.value: (d.count, d.small, d.big) for d in SPECIES_DEFS} == PRINTED
    assert Counter(SPECIES_OF[c] for c in CARD_IDS) == {s: n for s, (n, _, _) in PRINTED.items()}
    assert set(SPECIES) == set(PRINTED)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_c1_2_two_to_five_players(players: int) -> None:
    """C1.2: 2 to 5 players can start a game."""
    state = new_game(players, 1)
    assert state.players == players and len(state.hands) == players


@pytest.mark.parametrize("players", [0, 1, 6, 7, True, "3"])
def test_c1_2_other_player_counts_are_refused(players: object) -> None:
    """C1.2: any other count is a clear error."""
    with pytest.raises(ValueError, match="2 to 5 players"):
        new_game(players, 1)  # type: ignore[arg-type]
