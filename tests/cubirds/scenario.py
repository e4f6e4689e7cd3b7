"""Hand-built CuBirds states for the clause tests (style.md §5.7): cards named by species.

`build(rows=[["owl", "duck", "owl"], ...], hands=[["owl", "owl"], ...])` picks fresh card ids
of each named species and puts every card not named on the draw pile (see `build`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.cubirds.cards import CARD_IDS, SPECIES, SPECIES_OF
from core.cubirds.events import Event, EventKind
from core.cubirds.rules import apply, load
from core.cubirds.state import GameState
from core.decisions import Decision, DecisionKind, OptionValue

Names = Sequence[str]


class Picker:
    """Fresh card ids by species, in the deck's order."""

    def __init__(self) -> None:
        self.free: dict[str, list[str]] = {s: [c for c in CARD_IDS if SPECIES_OF[c] == s] for s in SPECIES}

    def take(self, species: str) -> str:
        if not self.free[species]:
            raise ValueError(f"no {species} left to place")
        return self.free[species].pop(0)

    def many(self, names: Names) -> list[str]:
        return [self.take(s) for s in names]

    def rest(self) -> list[str]:
        out = [c for cards in self.free.values() for c in cards]
        order = {c: i for i, c in enumerate(CARD_IDS)}
        return sorted(out, key=order.__getitem__)


def build(
    players: int = 2,
    *,
    rows: Sequence[Names] | None = None,
    hands: Sequence[Names] | None = None,
    collections: Sequence[Names] | None = None,
    discard: Names = (),
    draw_top: Names = (),
    draw: Names | None = None,
    active: int = 0,
    **fields: Any,
) -> GameState:
    """A state with the named cards placed; every other card goes to the draw pile, under
    `draw_top` (whose first name is the first card drawn). With `draw` given, the draw pile is
    exactly those cards (first name drawn first) and the rest go to the discard pile, after
    `discard`. Extra `fields` go to the dict form as they are (step, laying, turn, ...)."""
    pick = Picker()
    rows = rows or [["flamingo", "owl", "toucan"], ["duck", "parrot", "magpie"], ["robin", "owl"], ["toucan", "duck"]]
    hands = hands or [["robin"] for _ in range(players)]
    collections = collections or [[] for _ in range(players)]
    placed_rows = [pick.many(r) for r in rows]
    placed_hands = [pick.many(h) for h in hands]
    placed_cols = [pick.many(c) for c in collections]
    placed_discard = pick.many(discard)
    if draw is not None:
        pile = pick.many(draw)[::-1]
        placed_discard += pick.rest()
    else:
        top = pick.many(draw_top)
        pile = pick.rest() + top[::-1]
    d = {
        "players": players,
        "rows": placed_rows,
        "hands": placed_hands,
        "collections": placed_cols,
        "discard": placed_discard,
        "draw": pile,
        "active": active,
        **fields,
    }
    return load(d)


def species(cards: Sequence[str]) -> list[str]:
    return [SPECIES_OF[c] for c in cards]


def decision(state: GameState) -> Decision:
    assert len(state.open) == 1, state.open
    return state.open[0]


def values(state: GameState) -> list[OptionValue]:
    return decision(state).values()


def choose(state: GameState, value: OptionValue) -> list[Event]:
    d = decision(state)
    return apply(state, d.player, d.id, value)


def lay(state: GameState, kind: str, row: str, side: str) -> list[Event]:
    """Answer the three lay decisions (C3.1); returns the events of the last one."""
    assert decision(state).kind is DecisionKind.LAY_SPECIES
    choose(state, kind)
    choose(state, row)
    return choose(state, side)


def kinds(events: Sequence[Event]) -> list[EventKind]:
    return [e.kind for e in events]
