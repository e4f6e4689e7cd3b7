"""CuBirds events: the public story of a game, redacted per viewer, told in plain sentences."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Final, NamedTuple

from core.cubirds.cards import ROW_IDS, SPECIES, SPECIES_OF, SPECIES_ORDER, WIN_PAIRS, WIN_SPECIES


class EventKind(StrEnum):
    TURN = "turn"  # player begins turn number `turn`
    LAID = "laid"  # player laid cards at the `side` end of `row` (C3.1)
    CAPTURED = "captured"  # player took the enclosed cards of `row` into their hand (C3.2)
    DREW = "drew"  # player drew `card_count` cards (cards: secret to the player) (C3.3)
    REFILLED = "refilled"  # cards added to the right end of `row` (C3.4)
    RESHUFFLED = "reshuffled"  # the discard pile (`card_count` cards) became the draw pile (C3.5, C5.2)
    FLEW = "flew"  # player flew cards; the first `kept` went to their collection, the rest to the discard (C4.1)
    ROUND_OVER = "round_over"  # player's hand is empty: round number `round` is over (C5.2)
    HAND_DISCARDED = "hand_discarded"  # player discarded their hand, face up (C5.2)
    DEALT = "dealt"  # player was dealt `card_count` cards for a new round (cards: secret) (C5.2)
    WON = "won"  # player wins at once; cards: their collection (C5.1)
    DECK_OUT = "deck_out"  # 8 cards cannot be dealt to every player: the game ends (C5.3)
    TURN_LIMIT = "turn_limit"  # the safety stop after `turn` turns (C5.4)
    GAME_OVER = "game_over"


class Event(NamedTuple):
    """One thing that happened. `kind`, `player`, `cards`, `row`, `side` and `secret` are common;
    each kind's number has a field of its own (docs/engine.md, "Events" of CuBirds, lists which
    kind sets which); the others keep their defaults."""

    kind: EventKind
    player: int | None = None
    cards: tuple[str, ...] = ()
    row: str | None = None
    """A row id ("r0".."r3")."""
    side: str | None = None
    """"left" or "right"."""
    secret: bool = False
    """The card ids are visible only to `player`; others learn how many (C6.1)."""
    turn: int = 0
    card_count: int = 0
    kept: int = 0
    round: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The wire form, unchanged since events had one number `n` whose meaning depended on
        the kind: clients, hosts and records of either shape read each other."""
        field = _WIRE_N.get(self.kind)
        return {
            "kind": self.kind.value,
            "player": self.player,
            "cards": list(self.cards),
            "row": self.row,
            "side": self.side,
            "n": getattr(self, field) if field else 0,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """Raises ValueError on a malformed event."""
        try:
            kind = EventKind(d["kind"])
            field = _WIRE_N.get(kind)
            typed = {field: int(d.get("n") or 0)} if field else {}
            return cls(
                kind,
                d.get("player"),
                tuple(map(str, d.get("cards") or ())),
                d.get("row"),
                d.get("side"),
                bool(d.get("secret")),
                **typed,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed event {d!r}: {exc}") from None


_WIRE_N: Final[Mapping[EventKind, str]] = {
    EventKind.TURN: "turn",
    EventKind.TURN_LIMIT: "turn",
    EventKind.DREW: "card_count",
    EventKind.DEALT: "card_count",
    EventKind.RESHUFFLED: "card_count",
    EventKind.FLEW: "kept",
    EventKind.ROUND_OVER: "round",
}
"""The field a kind's number `n` of the wire form is."""


def redact(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it (None: a spectator)."""
    if event.secret and event.player != viewer and event.cards:
        return event._replace(cards=())
    return event


def birds(cards: Sequence[str]) -> str:
    """Cards as a phrase grouped by species, rarest first: "2 Owls, a Robin"."""
    counts: dict[str, int] = {}
    for c in cards:
        s = _OF[c]
        if s in counts:
            counts[s] += 1
        else:
            counts[s] = 1
    if len(counts) == 1:  # a third of the calls (an end's label: rules._end_options)
        for s, k in counts.items():
            return _PHRASES[s][k]
    parts = []
    for s in SPECIES_ORDER:
        if s in counts:
            parts.append(_PHRASES[s][counts[s]])
    return ", ".join(parts) if parts else "nothing"


def row_name(row: str | None) -> str:
    return f"row {ROW_IDS.index(row) + 1}" if row in ROW_IDS else "a row"


def won_by(collection: Sequence[str]) -> str:
    """Which C5.1 condition a collection meets, in words ('' if none)."""
    counts = Counter(SPECIES_OF[c] for c in collection)
    if len(counts) >= WIN_SPECIES:
        return f"{WIN_SPECIES} different species"
    species, each = WIN_PAIRS
    if sum(1 for k in counts.values() if k >= each) >= species:
        return f"{each} birds of each of {species} species"
    return ""


def describe(event: Event, names: Sequence[str] | None = None) -> str:
    """One plain sentence for the log."""
    who = _who(event.player, names)
    row = row_name(event.row)
    fmt: dict[EventKind, Callable[[], str]] = {
        EventKind.TURN: lambda: f"Turn {event.turn}: {who} to play.",
        EventKind.LAID: lambda: f"{who} lays {birds(event.cards)} at the {event.side} end of {row}.",
        EventKind.CAPTURED: lambda: f"{who} encloses and takes {birds(event.cards)} from {row}.",
        EventKind.DREW: lambda: (
            f"{who} draws {birds(event.cards)}." if event.cards else f"{who} draws {_n(event.card_count, 'card')}."
        ),
        EventKind.REFILLED: lambda: (
            f"{row.capitalize()} holds one species: {birds(event.cards)} added at its right end."
        ),
        EventKind.RESHUFFLED: lambda: (
            f"The discard pile is shuffled into a new draw pile ({_n(event.card_count, 'card')})."
        ),
        EventKind.FLEW: lambda: (
            f"{who} flies a flock of {birds(event.cards)}: {event.kept} to their collection"
            + (f", {len(event.cards) - event.kept} discarded." if len(event.cards) > event.kept else ".")
        ),
        EventKind.ROUND_OVER: lambda: f"{who}'s hand is empty: round {event.round} is over.",
        EventKind.HAND_DISCARDED: lambda: f"{who} discards their hand ({birds(event.cards)}).",
        EventKind.DEALT: lambda: (
            f"{who} is dealt {birds(event.cards)}."
            if event.cards
            else f"{who} is dealt {_n(event.card_count, 'card')}."
        ),
        EventKind.WON: lambda: f"{who} wins with {won_by(event.cards) or 'their collection'}!",
        EventKind.DECK_OUT: lambda: "Not enough cards to deal a new round: the biggest collection wins.",
        EventKind.TURN_LIMIT: lambda: f"The game stops after {event.turn} turns: the biggest collection wins.",
        EventKind.GAME_OVER: lambda: "The game is over.",
    }
    return fmt[event.kind]()


def _who(seat: int | None, names: Sequence[str] | None) -> str:
    if seat is None:
        return "Someone"
    if names and 0 <= seat < len(names):
        return names[seat]
    return f"Player {seat + 1}"


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "AEIOU" else f"a {noun}"


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


_OF: Final = SPECIES_OF
_PHRASES: Final = {s: ("", _a(d.name), *(f"{k} {d.plural}" for k in range(2, d.count + 1))) for s, d in SPECIES.items()}
"""By species and count, birds()'s phrase: made once, not for every label and event."""
