"""What an update changed, for a moment's mark on the table (Zones, Balconies, the hand, the
pigeons that just landed), and the events that hit the reader, for a toast."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from core.events import Event, EventKind, card_name
from core.structs import Struct
from core.views import PlayerView
from pigeon_tui.explain import who

TOAST_SECONDS: Final = 3.0
"""How long a toast of what hit the reader stays (it covers the corner of the table)."""
FLASH_SECONDS: Final = 1.5
"""How long what changed stays marked: one timer that stops (no CPU while the table is idle)."""
HAND: Final = "hand"


class Changes(Struct):  # a Struct (core.structs, a NamedTuple cheap to define): defined at every start (issue 9)
    """Zone ids (and `HAND`) whose contents changed; pigeons that just landed in their Zone."""

    zones: frozenset[str] = frozenset()
    landed: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.zones or self.landed)


NO_CHANGES: Final = Changes()


def changes(old: PlayerView | None, new: PlayerView) -> Changes:
    """What differs from `old` to `new`: each Zone's pigeons or guano, each Balcony's score
    parts (trophies, hand size), the reader's hand. Nothing for a first view."""
    if old is None or old.players != new.players:
        return NO_CHANGES
    zones: set[str] = set()
    landed: set[str] = set()
    before = {z.id: z for z in old.zones}
    for z in new.zones:
        was = before.get(z.id)
        if was is None or was.pigeons != z.pigeons or was.guano != z.guano:
            zones.add(z.id)
            landed.update(p for p in z.pigeons if was is None or p not in was.pigeons)
    for seat in range(new.players):
        if old.trophies[seat] != new.trophies[seat] or old.hand_sizes[seat] != new.hand_sizes[seat]:
            zones.add(f"b{seat}")
    if old.hand != new.hand:
        zones.add(HAND)
    return Changes(frozenset(zones), frozenset(landed))


def hits(events: Sequence[Event], view: PlayerView, names: Sequence[str]) -> list[str]:
    """The events of an update that hit the reader: a Fine, pigeons or guano on their Balcony,
    a trophy. One line each, for a toast."""
    me = view.seat
    if me is None:
        return []
    home = f"b{me}"
    book = view.book
    out: list[str] = []
    landed: list[str] = []
    for e in events:
        if e.kind is EventKind.FINED and e.player == me:
            out.append(f"{who(e.by, names, me)} fined you!")
        elif e.kind is EventKind.HAND_DISCARDED and e.player == me:
            out.append(f"You discard your whole hand ({len(e.cards)} cards).")
        elif e.kind is EventKind.LANDED and e.to == home:
            landed.append(card_name(e.cards[0], book) if e.cards else "pigeon")
        elif e.kind is EventKind.GUANO and e.zone == home:
            out.append(f"{', '.join(card_name(c, book) for c in e.cards)} landed on your Balcony.")
        elif e.kind is EventKind.TROPHY and e.player == me:
            out.append(f"You gain a trophy worth {e.vp} VP.")
    if len(landed) == 1:
        out.append(f"The {landed[0]} landed on your Balcony (-1 VP).")
    elif landed:
        out.append(f"{len(landed)} pigeons landed on your Balcony (-{len(landed)} VP).")
    return out
