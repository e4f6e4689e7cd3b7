"""C5: who wins a game of CuBirds, and each seat's figures toward the two ways to win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.cubirds.cards import SPECIES_OF, WIN_PAIRS
from core.cubirds.state import Ending, GameState
from core.cubirds.turn import wins


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    total: int
    """Cards in the collection: what C5.3 and C5.4 rank."""
    species: int
    """Different species in the collection (C5.1: 7 win at once)."""
    triples: int
    """Species with at least 3 birds in the collection (C5.1: 2 win at once)."""
    hand: int
    """Cards in hand."""


def tally(seat: int, collection: Sequence[str], hand: int) -> Score:
    counts: dict[str, int] = {}
    for c in collection:
        s = SPECIES_OF[c]
        counts[s] = counts.get(s, 0) + 1
    each = WIN_PAIRS[1]
    return Score(seat, len(collection), len(counts), sum(1 for k in counts.values() if k >= each), hand)


def scores(state: GameState) -> list[Score]:
    return [tally(s, state.collections[s], len(state.hands[s])) for s in range(state.players)]


def winners(state: GameState) -> list[int]:
    """The seats that share the win once the game is over: the collection that meets C5.1, or
    else the most cards in a collection (C5.3, C5.4; a tie shares the win)."""
    if not state.over:
        return []
    return best(state.ending, state.collections)


def best(ending: Ending | None, collections: Sequence[Sequence[str]]) -> list[int]:
    if ending is Ending.COLLECTION:
        won = [s for s, c in enumerate(collections) if wins(tuple(c))]
        if won:
            return won
    top = max(len(c) for c in collections)
    return [s for s, c in enumerate(collections) if len(c) == top]
