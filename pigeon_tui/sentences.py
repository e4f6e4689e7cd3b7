"""The game log's sentences, written here from the events' typed fields (core.events), in the
reader's person: "You discard your whole hand", "Ada fines you". Nothing rewrites the engine's
own English (`core.events.describe`, kept for other clients and tools)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from core.cards import CITY, PigeonDef
from core.events import Event, EventKind, card_name
from pigeon_tui.themes import ZONE_NAMES


class Reader:
    """Who the log is written for: `me` is "you"; the others go by their names."""

    def __init__(self, book: Mapping[str, PigeonDef], names: Sequence[str], me: int | None) -> None:
        self.book, self.names, self.me = book, names, me

    def who(self, seat: int | None, *, start: bool = False) -> str:
        if seat is None:
            return "Someone"
        if seat == self.me:
            return "You" if start else "you"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Player {seat + 1}"

    def whose(self, seat: int | None, *, start: bool = False) -> str:
        if seat is not None and seat == self.me:
            return "Your" if start else "your"
        return f"{self.who(seat)}'s"

    def verb(self, seat: int | None, plain: str, third: str) -> str:
        """`plain` after "you" ("discard"), `third` after anyone else ("discards")."""
        return plain if seat is not None and seat == self.me else third

    def where(self, zone: str | None) -> str:
        if zone is None:
            return "a Zone"
        if zone in CITY:
            return f"the {ZONE_NAMES[zone]}"
        if zone == "deck":
            return "the Flock deck"
        return f"{self.whose(int(zone[1:]))} Balcony"

    def on(self, zone: str | None, subject: int | None = None) -> str:
        """ "on the Statue", "in the Crowd", "on Ada's Balcony"; "on their Balcony" when it is
        the Balcony of the sentence's `subject`."""
        if subject is not None and subject != self.me and zone == f"b{subject}":
            return "on their Balcony"
        return f"{'in' if zone == 'crowd' else 'on'} {self.where(zone)}"

    def card(self, card: str) -> str:
        return card_name(card, self.book)

    def cards(self, cards: Sequence[str], *, the: bool = False) -> str:
        """ "2 Guano and Blam!": alike cards once, with how many."""
        names = [self.card(c) for c in cards]
        seen = dict.fromkeys(names)
        if the:
            return and_list([f"the {n}" if names.count(n) == 1 else f"{names.count(n)} {n}s" for n in seen])
        return and_list([n if names.count(n) == 1 else f"{names.count(n)} {n}" for n in seen])


def and_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "AEIOU" else f"a {noun}"


def end(text: str) -> str:
    """A full stop, unless the sentence ends on a card's own "!" (Blam!, Wroom!, Zot!)."""
    return text if text.endswith(("!", ".", "?")) else text + "."


def _turn(e: Event, r: Reader) -> str:
    return f"Turn {e.turn}: {r.whose(e.player)} turn."


def _drew(e: Event, r: Reader) -> str:
    who, draw = r.who(e.player, start=True), r.verb(e.player, "draw", "draws")
    if e.cards:
        return end(f"{who} {draw} {r.cards(e.cards)}")
    if e.card_count == 0:
        return f"{who} {draw} no card."
    return f"{who} {draw} {count(e.card_count, 'card')}."


def _reshuffled(e: Event, r: Reader) -> str:
    return f"The discard pile is shuffled into a new Action deck ({count(e.card_count, 'card')})."


def _played(e: Event, r: Reader) -> str:
    who = r.who(e.player, start=True)
    card = r.card(e.cards[0]) if e.cards else "a card"
    if e.reaction:
        text = f"{who} {r.verb(e.player, 'react', 'reacts')} with {card}"
    else:
        text = f"{who} {r.verb(e.player, 'play', 'plays')} {card}"
    return end(text + (f" {r.on(e.zone, e.player)}" if e.zone else ""))


def _returned(e: Event, r: Reader) -> str:
    hand = "your" if e.player == r.me else "their"
    return f"{r.whose(e.player, start=True)} Fine comes second: it does not count and goes back to {hand} hand."


def _fined(e: Event, r: Reader) -> str:
    return f"{r.who(e.by, start=True)} {r.verb(e.by, 'fine', 'fines')} {r.who(e.player)}."


def _fine_cancelled(e: Event, r: Reader) -> str:
    return f"{r.whose(e.player, start=True)} Diligent Street Sweeper cancels the Fine."


def _hand_discarded(e: Event, r: Reader) -> str:
    if e.player == r.me:
        return f"You discard your whole hand ({count(len(e.cards), 'card')})."
    return f"{r.who(e.player)} discards their whole hand ({count(len(e.cards), 'card')})."


def _discarded(e: Event, r: Reader) -> str:
    return end(f"{r.who(e.player, start=True)} {r.verb(e.player, 'discard', 'discards')} {r.cards(e.cards)} to convert")


def _guano(e: Event, r: Reader) -> str:
    return f"{r.cards(e.cards)} {'lands' if len(e.cards) == 1 else 'land'} {r.on(e.zone)}."


def _swept(e: Event, r: Reader) -> str:
    who, sweep = r.who(e.player, start=True), r.verb(e.player, "sweep", "sweeps")
    return f"{who} {sweep} {r.cards(e.cards)} off {r.where(e.zone)}."


def _revealed(e: Event, r: Reader) -> str:
    more = f" ({e.left} more to come)" if e.left else ""
    return f"The Flock reveals {a(r.card(e.cards[0]) if e.cards else 'card')}{more}."


def _invasion(e: Event, r: Reader) -> str:
    return f"{r.whose(e.player, start=True)} Invasion: {count(e.left, 'Flock card')} to reveal."


def _landed(e: Event, r: Reader) -> str:
    pigeon = f"The {r.card(e.cards[0])}" if e.cards else "A pigeon"
    if e.zone is not None:
        return f"{pigeon} flies from {r.where(e.zone)} to {r.where(e.to)}."
    return f"{pigeon} lands {r.on(e.to)}."


def _scared(e: Event, r: Reader) -> str | None:
    if not e.cards:
        return None
    return f"Scared off {r.where(e.zone)}: {r.cards(e.cards, the=True)}."


def _trophy(e: Event, r: Reader) -> str:
    what = f"({r.cards(e.cards)})" if e.cards else "(a Flock card taken face down)"
    return f"{r.who(e.player, start=True)} {r.verb(e.player, 'gain', 'gains')} a trophy worth {e.vp} VP {what}."


def _returned_to_deck(e: Event, r: Reader) -> str:
    return f"The {r.card(e.cards[0]) if e.cards else 'pigeon'} is shuffled back into the Flock deck."


SENTENCES: Final[Mapping[EventKind, Callable[[Event, Reader], str | None]]] = {
    EventKind.TURN: _turn,
    EventKind.DREW: _drew,
    EventKind.RESHUFFLED: _reshuffled,
    EventKind.PLAYED: _played,
    EventKind.RETURNED: _returned,
    EventKind.WINDOW: lambda e, r: None,  # a window says nothing (R5.7): the prompt, if any, does
    EventKind.FINED: _fined,
    EventKind.FINE_CANCELLED: _fine_cancelled,
    EventKind.HAND_DISCARDED: _hand_discarded,
    EventKind.DISCARDED: _discarded,
    EventKind.GUANO: _guano,
    EventKind.SWEPT: _swept,
    EventKind.REVEALED: _revealed,
    EventKind.INVASION: _invasion,
    EventKind.LANDED: _landed,
    EventKind.HEADING: lambda e, r: None,  # its landing follows, after any Birdseed
    EventKind.SCARED: _scared,
    EventKind.TROPHY: _trophy,
    EventKind.RETURNED_TO_DECK: _returned_to_deck,
    EventKind.FINAL_PHASE: lambda e, r: "The Flock deck is empty: everyone takes one last turn.",
    EventKind.FINAL_CANCELLED: lambda e, r: "A pigeon went back into the Flock deck: the last round is called off.",
    EventKind.GAME_OVER: lambda e, r: "The game is over.",
}
"""One sentence per kind (None: not logged)."""


def sentence(event: Event, reader: Reader) -> str | None:
    return SENTENCES[event.kind](event, reader)
