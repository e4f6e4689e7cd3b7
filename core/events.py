"""Events: the public story of a game, redacted per viewer, told in plain sentences."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from core.cards import ACTIONS, CITY, PigeonDef


class EventKind(StrEnum):
    TURN = "turn"  # player begins a turn (n = turn number)
    DREW = "drew"  # player drew n cards (cards: secret to the player)
    RESHUFFLED = "reshuffled"  # the discard pile became the Action deck (n cards)
    PLAYED = "played"  # player played cards[0] (zone: its target, if any); n = 1 if as a reaction
    RETURNED = "returned"  # a Fine that did not count went back to player's hand (R5.5)
    WINDOW = "window"  # a reaction window opened (zone: its kind, not a Zone); says nothing of who may react
    FINED = "fined"  # player is fined by `to` ... see describe
    FINE_CANCELLED = "fine_cancelled"
    HAND_DISCARDED = "hand_discarded"  # player discarded their whole hand (cards)
    DISCARDED = "discarded"  # player discarded cards to convert (R3.2)
    GUANO = "guano"  # cards placed onto zone
    SWEPT = "swept"  # cards removed from zone to the discard pile
    REVEALED = "revealed"  # cards[0] revealed from the Flock deck (n left to reveal)
    INVASION = "invasion"  # the Invasion begins: n Flock cards to reveal
    LANDED = "landed"  # cards[0] landed from zone (or the deck) on `to`
    HEADING = "heading"  # cards[0] is about to land on `to` (a batch, before reactions)
    SCARED = "scared"  # the pigeons of zone take off
    TROPHY = "trophy"  # player gains a trophy worth n (cards; empty when taken blind)
    RETURNED_TO_DECK = "returned_to_deck"  # cards[0] shuffled into the Flock deck (R4.6)
    FINAL_PHASE = "final_phase"  # the final phase begins (R6.1)
    FINAL_CANCELLED = "final_cancelled"  # R6.2
    GAME_OVER = "game_over"  # cards: empty; n unused


class Event(NamedTuple):
    kind: EventKind
    player: int | None = None
    cards: tuple[str, ...] = ()
    zone: str | None = None
    to: str | None = None
    n: int = 0
    secret: bool = False
    """The card ids are visible only to `player`; others learn how many (R8.1)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "player": self.player,
            "cards": list(self.cards),
            "zone": self.zone,
            "to": self.to,
            "n": self.n,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(
            EventKind(d["kind"]),
            d.get("player"),
            tuple(d.get("cards") or ()),
            d.get("zone"),
            d.get("to"),
            int(d.get("n") or 0),
            bool(d.get("secret")),
        )


def redact(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it (None: a spectator)."""
    if event.secret and event.player != viewer and event.cards:
        return event._replace(cards=())
    return event


def zone_name(zone: str | None, names: Sequence[str] | None = None) -> str:
    if zone is None:
        return "?"
    if zone in CITY:
        return {"road": "the Road", "statue": "the Statue", "cables": "the Cables", "crowd": "the Crowd"}[zone]
    if zone == "deck":
        return "the Flock deck"
    seat = int(zone[1:])
    return f"{_who(seat, names)}'s Balcony"


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
        EventKind.TURN: lambda: f"Turn {event.n}: {who} to play.",
        EventKind.DREW: lambda: f"{who} drew {cards}." if event.cards else f"{who} drew {_n(event.n, 'card')}.",
        EventKind.RESHUFFLED: lambda: f"The discard pile is shuffled into a new Action deck ({event.n} cards).",
        EventKind.PLAYED: lambda: (
            f"{who} {'reacts with' if event.n else 'plays'} {first}" + (f" onto {z}." if event.zone else ".")
        ),
        EventKind.RETURNED: lambda: f"{who}'s Fine does not count and goes back to their hand.",
        EventKind.FINED: lambda: f"{who} is fined by {_who(event.n, names)}.",
        EventKind.FINE_CANCELLED: lambda: f"{who}'s Street Sweeper cancels the Fine.",
        EventKind.HAND_DISCARDED: lambda: f"{who} discards their whole hand ({_n(len(event.cards), 'card')}).",
        EventKind.DISCARDED: lambda: f"{who} discards {cards}.",
        EventKind.GUANO: lambda: f"{cards} lands on {z}.",
        EventKind.SWEPT: lambda: f"{cards} swept from {z}.",
        EventKind.REVEALED: lambda: f"The Flock reveals {_a(first)}.",
        EventKind.INVASION: lambda: f"The Invasion: {_n(event.n, 'Flock card')} to reveal.",
        EventKind.LANDED: lambda: f"The {first} lands on {to}.",
        EventKind.HEADING: lambda: f"The {first} is about to land on {to}.",
        EventKind.SCARED: lambda: f"The pigeons on {z} are scared and take off!",
        EventKind.TROPHY: lambda: (
            f"{who} gains a trophy worth {event.n} VP"
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
