"""How CuBirds' species look at the terminal: a colour, a letter and short names (never in core)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Final

from core.structs import Struct


class Look(Struct):  # a Struct (core.structs, a NamedTuple cheap to define): defined at every start (issue 9)
    letter: str
    """One letter, for --ascii and NO_COLOR: species stay apart without colour."""
    short: str
    """A name short enough for a row of many birds."""
    colour: str
    """The theme variable's default (`$bird-<species>` in app.tcss and Content styles)."""


LOOKS: Final[Mapping[str, Look]] = {
    "flamingo": Look("F", "Flamingo", "#f070c0"),
    "owl": Look("O", "Owl", "#e8e8e8"),
    "toucan": Look("T", "Toucan", "#f0c030"),
    "duck": Look("D", "Duck", "#50c050"),
    "parrot": Look("P", "Parrot", "#40c8c8"),
    "magpie": Look("M", "Magpie", "#7090f0"),
    "reed_warbler": Look("W", "Warbler", "#c09060"),
    "robin": Look("R", "Robin", "#e85040"),
}
"""Species id -> its look. Hues picked to map onto distinct colours of a 16-colour terminal
(magenta, white, yellow, green, cyan, blue, dim yellow, red)."""

BIRD_COLOURS: Final[Mapping[str, str]] = {f"bird-{sp.replace('_', '-')}": look.colour for sp, look in LOOKS.items()}
"""Theme variables for the app (`$bird-reed-warbler`, ...)."""

# The species' own data (core.cubirds.cards) is imported by the functions that read it: the app
# imports this module for BIRD_COLOURS, and a Pigeons & Guano game never loads CuBirds' cards
# (issue 9). tests/tui/test_cubirds_table.py checks that LOOKS has every species.


def bird_style(species: str) -> str:
    return f"$bird-{species.replace('_', '-')}"


def species_of(card: str) -> str:
    from core.cubirds.cards import SPECIES_OF

    return SPECIES_OF[card]


def counts(cards: Iterable[str]) -> Counter[str]:
    """Cards per species."""
    from core.cubirds.cards import SPECIES_OF

    return Counter(SPECIES_OF[c] for c in cards if c in SPECIES_OF)


def in_order(tally: Mapping[str, int]) -> list[tuple[str, int]]:
    """(species, count) rarest first, the species table's order, leaving out zero counts."""
    from core.cubirds.cards import SPECIES_ORDER

    return [(sp, tally[sp]) for sp in SPECIES_ORDER if tally.get(sp)]


def flock_text(species: str, have: int) -> str:
    """What `have` cards of a species in hand can fly (C4.1): "big", "small" or how many more."""
    from core.cubirds.cards import SPECIES

    d = SPECIES[species]
    if have >= d.big:
        return "big flock"
    if have >= d.small:
        return "small flock"
    return f"{d.small - have} more"


def species_table() -> list[tuple[str, str, int, int, int]]:
    """(letter, name, cards, small, big) for help: the species table of C1.1."""
    from core.cubirds.cards import SPECIES

    return [(LOOKS[d.species.value].letter, d.name, d.count, d.small, d.big) for d in SPECIES.values()]


_YOU: Final = (
    (" lays ", " lay "),
    (" encloses and takes ", " enclose and take "),
    (" draws ", " draw "),
    (" flies ", " fly "),
    (" discards their ", " discard your "),
    (" is dealt ", " are dealt "),
    (" wins ", " win "),
    (" to their collection", " to your collection"),
)


def you_text(text: str, name: str) -> str:
    """A log sentence about the reader's own move in the second person: "Ada lays" -> "You lay"."""
    if text.startswith(f"{name}'s "):
        return "Your " + text[len(name) + 3 :]
    if not text.startswith(f"{name} "):
        return text
    text = "You" + text[len(name) :]
    for theirs, yours in _YOU:
        text = text.replace(theirs, yours)
    return text
