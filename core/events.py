"""Events: the public story of a game, redacted per viewer, told in plain sentences."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Final, NamedTuple

from core.cards import ACTIONS, CITY, PigeonDef


class EventKind(StrEnum):
    TURN = "turn"  # player begins turn number `turn`
    DREW = "drew"  # player drew `card_count` cards (cards: secret to the player)
    RESHUFFLED = "reshuffled"  # the discard pile became the Action deck (`card_count` cards)
    PLAYED = "played"  # player played cards[0] (zone: its target, if any), as a `reaction` or not
    RETURNED = "returned"  # a Fine that did not count went back to player's hand (R5.5)
    WINDOW = "window"  # a reaction `window` of that kind opened; says nothing of who may react
    FINED = "fined"  # player is fined by seat `by`
    FINE_CANCELLED = "fine_cancelled"
    HAND_DISCARDED = "hand_discarded"  # player discarded their whole hand (cards)
    DISCARDED = "discarded"  # player discarded cards to convert (R3.2)
    GUANO = "guano"  # cards placed onto zone
    SWEPT = "swept"  # cards removed from zone to the discard pile
    REVEALED = "revealed"  # cards[0] revealed from the Flock deck (`left` still to reveal)
    INVASION = "invasion"  # the Invasion begins: `left` Flock cards to reveal
    LANDED = "landed"  # cards[0] landed from zone (or the deck) on `to`
    HEADING = "heading"  # cards[0] is about to land on `to` (a batch, before reactions)
    SCARED = "scared"  # the pigeons of zone take off (cards: those that do; player caused it)
    TROPHY = "trophy"  # player gains a trophy worth `vp` (cards; empty when taken blind)
    RETURNED_TO_DECK = "returned_to_deck"  # cards[0] shuffled into the Flock deck (R4.6)
    FINAL_PHASE = "final_phase"  # the final phase begins (R6.1)
    FINAL_CANCELLED = "final_cancelled"  # R6.2
    GAME_OVER = "game_over"


class Event(NamedTuple):
    """One thing that happened. `kind`, `player`, `cards`, `zone`, `to` and `secret` are common;
    each kind's number has a field of its own (docs/engine.md, "Events", lists which kind sets
    which); the others keep their defaults."""

    kind: EventKind
    player: int | None = None
    cards: tuple[str, ...] = ()
    zone: str | None = None
    to: str | None = None
    secret: bool = False
    """The card ids are visible only to `player`; others learn how many (R8.1)."""
    turn: int = 0
    card_count: int = 0
    left: int = 0
    reaction: bool = False
    by: int | None = None
    vp: int = 0
    window: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The wire form (docs/protocol.md), unchanged since events had one number `n` whose
        meaning depends on the kind, and a window's kind in `zone`: clients and hosts of
        either shape read each other."""
        field = _WIRE_N.get(self.kind)
        return {
            "kind": self.kind.value,
            "player": self.player,
            "cards": list(self.cards),
            "zone": self.window if self.kind is EventKind.WINDOW else self.zone,
            "to": self.to,
            "n": int(getattr(self, field) or 0) if field else 0,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        kind = EventKind(d["kind"])
        n = int(d.get("n") or 0)
        field = _WIRE_N.get(kind)
        typed: dict[str, Any] = {}
        if field == "reaction":
            typed[field] = bool(n)
        elif field:
            typed[field] = n
        zone = d.get("zone")
        if kind is EventKind.WINDOW:
            typed["window"], zone = zone, None
        return cls(
            kind, d.get("player"), tuple(d.get("cards") or ()), zone, d.get("to"), bool(d.get("secret")), **typed
        )


_WIRE_N: Final[Mapping[EventKind, str]] = {
    EventKind.TURN: "turn",
    EventKind.DREW: "card_count",
    EventKind.RESHUFFLED: "card_count",
    EventKind.PLAYED: "reaction",
    EventKind.FINED: "by",
    EventKind.INVASION: "left",
    EventKind.REVEALED: "left",
    EventKind.TROPHY: "vp",
}
"""The field each kind sends as the wire form's `n`."""


def redact(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it (None: a spectator)."""
    if event.secret and event.player != viewer and event.cards:
        return event._replace(cards=())
    return event


def zone_name(zone: str | None, names: Sequence[str] | None = None) -> str:
    if zone is None:
        return "?"
    city = _CITY_NAMES.get(zone)
    if city:
        return city
    if zone == "deck":
        return "the Flock deck"
    seat = int(zone[1:])
    return f"{_who(seat, names)}'s Balcony"


_CITY_NAMES: Final = {"road": "the Road", "statue": "the Statue", "cables": "the Cables", "crowd": "the Crowd"}
assert set(_CITY_NAMES) == set(CITY)


def _who(seat: int | None, names: Sequence[str] | None) -> str:
    if seat is None:
        return "Someone"
    if names and 0 <= seat < len(names):
        return names[seat]
    return f"Player {seat + 1}"


def card_name(card: str, book: Mapping[str, PigeonDef]) -> str:
    if card in ACTIONS:
        return ACTIONS[card].name
    row = book.get(card)
    return row.name if row else card


def describe(event: Event, book: Mapping[str, PigeonDef], names: Sequence[str] | None = None) -> str:
    """One plain sentence for the log."""
    if event.kind is EventKind.WINDOW:
        return "Reactions are open."
    who = _who(event.player, names)
    z = zone_name(event.zone, names) if event.zone else ""
    to = zone_name(event.to, names) if event.to else ""
    cards = ", ".join(card_name(c, book) for c in event.cards)
    first = card_name(event.cards[0], book) if event.cards else "a card"
    fmt: dict[EventKind, Callable[[], str]] = {
        EventKind.TURN: lambda: f"Turn {event.turn}: {who} to play.",
        EventKind.DREW: lambda: (
            f"{who} drew {cards}." if event.cards else f"{who} drew {_n(event.card_count, 'card')}."
        ),
        EventKind.RESHUFFLED: lambda: (
            f"The discard pile is shuffled into a new Action deck ({event.card_count} cards)."
        ),
        EventKind.PLAYED: lambda: (
            f"{who} {'reacts with' if event.reaction else 'plays'} {first}" + (f" onto {z}." if event.zone else ".")
        ),
        EventKind.RETURNED: lambda: f"{who}'s Fine does not count and goes back to their hand.",
        EventKind.FINED: lambda: f"{who} is fined by {_who(event.by, names)}.",
        EventKind.FINE_CANCELLED: lambda: f"{who}'s Street Sweeper cancels the Fine.",
        EventKind.HAND_DISCARDED: lambda: f"{who} discards their whole hand ({_n(len(event.cards), 'card')}).",
        EventKind.DISCARDED: lambda: f"{who} discards {cards}.",
        EventKind.GUANO: lambda: f"{cards} lands on {z}.",
        EventKind.SWEPT: lambda: f"{cards} swept from {z}.",
        EventKind.REVEALED: lambda: f"The Flock reveals {_a(first)}.",
        EventKind.INVASION: lambda: f"The Invasion: {_n(event.left, 'Flock card')} to reveal.",
        EventKind.LANDED: lambda: f"The {first} lands on {to}.",
        EventKind.HEADING: lambda: f"The {first} is about to land on {to}.",
        EventKind.SCARED: lambda: f"The pigeons on {z} are scared and take off!",
        EventKind.TROPHY: lambda: (
            f"{who} gains a trophy worth {event.vp} VP"
            + (f" ({cards})." if event.cards else " (a Flock card taken face down).")
        ),
        EventKind.RETURNED_TO_DECK: lambda: f"The {first} is shuffled back into the Flock deck.",
        EventKind.FINAL_PHASE: lambda: "The Flock deck is empty: everyone takes one last turn.",
        EventKind.FINAL_CANCELLED: lambda: "A pigeon went back into the Flock deck: the final phase is cancelled.",
        EventKind.GAME_OVER: lambda: "The game is over.",
    }
    return fmt[event.kind]()


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "AEIOU" else f"a {noun}"


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
