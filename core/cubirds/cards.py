"""The cards of CuBirds as data: one row per species, one id per physical card (C1.1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from core.cubirds import STEPS as STEPS  # defined with the package, which core.games reads alone
from core.decisions import DecisionKind


class Species(StrEnum):
    FLAMINGO = "flamingo"
    OWL = "owl"
    TOUCAN = "toucan"
    DUCK = "duck"
    PARROT = "parrot"
    MAGPIE = "magpie"
    REED_WARBLER = "reed_warbler"
    ROBIN = "robin"


@dataclass(frozen=True, slots=True)
class SpeciesDef:
    species: Species
    name: str
    """English name, singular; clients may show their own."""
    plural: str
    code: str
    """Two letters: the prefix of the species' card ids, and a short label for ASCII tables."""
    count: int
    """Cards of this species in the deck."""
    small: int
    """C4.1: cards in hand needed to fly a small flock (1 card to the collection)."""
    big: int
    """C4.1: cards in hand for a big flock (2 cards to the collection)."""


SPECIES_DEFS: Final[tuple[SpeciesDef, ...]] = (
    SpeciesDef(Species.FLAMINGO, "Flamingo", "Flamingos", "FL", 7, 2, 3),
    SpeciesDef(Species.OWL, "Owl", "Owls", "OW", 10, 3, 4),
    SpeciesDef(Species.TOUCAN, "Toucan", "Toucans", "TO", 10, 3, 4),
    SpeciesDef(Species.DUCK, "Duck", "Ducks", "DU", 13, 4, 6),
    SpeciesDef(Species.PARROT, "Parrot", "Parrots", "PA", 13, 4, 6),
    SpeciesDef(Species.MAGPIE, "Magpie", "Magpies", "MA", 17, 5, 7),
    SpeciesDef(Species.REED_WARBLER, "Reed Warbler", "Reed Warblers", "RW", 20, 6, 9),
    SpeciesDef(Species.ROBIN, "Robin", "Robins", "RO", 20, 6, 9),
)
"""C1.1: the printed cards' figures (rarest first, the table order of cubirds.md)."""
SPECIES: Final[Mapping[str, SpeciesDef]] = {d.species.value: d for d in SPECIES_DEFS}
"""Species id -> its row."""
SPECIES_ORDER: Final[tuple[str, ...]] = tuple(d.species.value for d in SPECIES_DEFS)

CARD_IDS: Final[tuple[str, ...]] = tuple(f"{d.code}{i:02d}" for d in SPECIES_DEFS for i in range(1, d.count + 1))
"""Every physical card, "FL01".."RO20": stable for the whole game. Code never parses an id:
it asks SPECIES_OF."""
SPECIES_OF: Final[Mapping[str, str]] = {
    f"{d.code}{i:02d}": d.species.value for d in SPECIES_DEFS for i in range(1, d.count + 1)
}
"""Card id -> species id."""
DECK_SIZE: Final = 110
ALL_IDS: Final = frozenset(CARD_IDS)

ROWS: Final = 4
"""C2.2: rows on the table."""
ROW_IDS: Final[tuple[str, ...]] = ("r0", "r1", "r2", "r3")
"""Row ids as decisions, events and refs name them (top row first)."""
LEFT: Final = "left"
RIGHT: Final = "right"
ENDS: Final[tuple[str, str]] = (LEFT, RIGHT)
ROW_START: Final = 3
"""C2.2: cards per row at setup, all of different species."""
HAND: Final = 8
"""C2.3, C5.2: cards dealt to each player at the start of a round."""
DRAW: Final = 2
"""C3.3: cards drawn when the laid birds enclose nothing."""
WIN_SPECIES: Final = 7
"""C5.1: different species in a collection that win at once."""
WIN_PAIRS: Final = (2, 3)
"""C5.1: (species, birds of each) that win at once: 3 birds of each of 2 species."""
MAX_TURNS: Final = 1000
"""C5.4: the safety stop for games of machines."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5

FORMAT: Final = 1
"""Version of the state's dict form (`GameState.to_dict`); here, with the card data, so that the
rules hash (core.games) is computed without loading the game."""
LAY_SPECIES: Final = DecisionKind.LAY_SPECIES
LAY_ROW: Final = DecisionKind.LAY_ROW
LAY_END: Final = DecisionKind.LAY_END
DRAW_TWO: Final = DecisionKind.DRAW_TWO
FLY: Final = DecisionKind.FLY
"""The steps as module constants, for code that runs at every decision: reading a member through
its enum class costs ~900 instructions on this interpreter (EnumType's attribute hook), a global
~20 (core's Pigeons & Guano hot paths do the same)."""

assert len(CARD_IDS) == DECK_SIZE == sum(d.count for d in SPECIES_DEFS)
