"""What a seat's view says about the moment: the reaction window it is asked in, the Invasion
under way, what an answer would bring. Read from the view's public frames (docs/engine.md), so
a client explains a prompt without re-deriving a rule."""

from __future__ import annotations

from typing import Any, Final, Protocol

from core.cards import ACTIONS, ActionKind, recall
from core.structs import Struct


class _Zone(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def pigeons(self) -> tuple[str, ...]: ...


class Seen(Protocol):
    """What this module reads of a seat's view: `core.views.PlayerView` is one, and calls these
    functions (so this module cannot import it)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def played(self) -> tuple[str, ...]: ...
    @property
    def zones(self) -> tuple[_Zone, ...]: ...
    @property
    def flow(self) -> tuple[dict[str, Any], ...]: ...


BALCONY_COST: Final = {ActionKind.GUANO: 1, ActionKind.MOUNTAIN: 2}
"""R7.1: VP a guano card lying on a Balcony costs its owner (a pigeon there costs 1)."""


class Incoming(Struct):
    """A pigeon of a batch about to land on a Balcony (R4.3)."""

    pigeon: str
    source: str | None
    """The Zone it leaves; None: revealed from the Flock deck."""
    mover: int
    """Who moved it (the active player for the Invasion)."""


class Reaction(Struct):
    """The reaction window a seat is asked in (R5.7), from its frame. (Structs, core.structs:
    every client defines them at start, and no bot reads them, issue 9.)"""

    window: str
    """share, fine, sweeper, birdseed or guano (the frame's `w`)."""
    by: int | None
    """Who played the card this window answers (share, fine); the fined player (sweeper); who
    moved the Infamous Pigeon (guano: the active player in an Invasion)."""
    card: str | None
    """What they played: an Action card id (fine), or an ActionKind value (share)."""
    zone: str | None
    """The Zone it aims at: the Road/Cables (share), the card's Zone (fine), where the
    Infamous Pigeon arrived (guano)."""
    pigeons: tuple[str, ...] = ()
    """The pigeons of that Zone now."""
    incoming: tuple[Incoming, ...] = ()
    """birdseed: the pigeons about to land on this seat's Balcony."""
    fined_by: int | None = None
    """sweeper: who played the Fine."""


def reaction(view: Seen) -> Reaction | None:
    """The window open last (`view.seat` is asked in it if it has a reaction decision; the
    view a host sends with a window is the board as of its announcement); None: none."""
    frame = next((f for f in reversed(view.flow) if f["k"] == "window"), None)
    if frame is None or view.seat is None:
        return None
    w = frame["w"]
    zone = _zone(view, frame.get("zone"))
    pigeons = next((z.pigeons for z in view.zones if z.id == zone), ())
    if w == "share":
        return Reaction(w, frame["by"], frame["card"], zone, pigeons)
    if w == "fine":
        then = frame["then"]
        card = then["cards"][0] if then["k"] == "guano" else _birdseed()
        return Reaction(w, frame["by"], card, zone, pigeons)
    if w == "sweeper":
        return Reaction(w, frame["by"], None, None, fined_by=frame.get("fined_by"))
    if w == "birdseed":
        return Reaction(w, None, None, f"b{view.seat}", incoming=_incoming(view))
    return Reaction(w, frame.get("by"), None, zone, pigeons)


def _zone(view: Seen, index: Any) -> str | None:
    return view.zones[index].id if isinstance(index, int) and 0 <= index < len(view.zones) else None


def _birdseed() -> str:
    return next(c for c, row in ACTIONS.items() if row.kind is ActionKind.BIRDSEED)


def _incoming(view: Seen) -> tuple[Incoming, ...]:
    batch = next((f for f in reversed(view.flow) if f["k"] == "batch"), None)
    if batch is None:
        return ()
    home = f"b{view.seat}"
    return tuple(
        Incoming(p, _zone(view, src), mover) for p, src, dst, mover in batch["moves"] if _zone(view, dst) == home
    )


def share_take(pigeons: int, sharers: int = 2) -> int:
    """R5.1: pigeons the first sharing player gets when `sharers` players (the one who played
    the card first) share `pigeons`, dealt one at a time."""
    return len(range(1, pigeons, sharers))


def invasion_size(view: Seen) -> int:
    """R3.5: Flock cards the coming Invasion reveals, from the cards played this turn."""
    return 1 + sum(recall(c) for c in view.played if c in ACTIONS)


def invasion_progress(view: Seen) -> tuple[int, int] | None:
    """(revealed, of): the Invasion under way, counting Flock reveals only; None outside one."""
    frame = next((f for f in reversed(view.flow) if f["k"] == "invasion"), None)
    if frame is None:
        return None
    of = frame.get("of", frame["left"])
    return of - frame["left"], of
