"""What a prompt means: who did what, where, and what answering would do, in one sentence
made from the view's data (`PlayerView.reaction()`), never from the engine's English."""

from __future__ import annotations

from collections.abc import Sequence

from core.cards import ACTIONS, ActionKind, Rule
from core.context import BALCONY_COST, Reaction, share_take
from core.decisions import REACTIONS, Decision, DecisionKind, Option
from core.house import InfamousEmpty
from core.views import PlayerView
from pigeon_tui.themes import ZONE_NAMES


def who(seat: int | None, names: Sequence[str], me: int | None) -> str:
    if seat is None:
        return "Someone"
    if seat == me:
        return "You"
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def where(zone: str | None, names: Sequence[str], me: int | None) -> str:
    """ "the Road", "your Balcony", "Percy's Balcony"."""
    if zone is None:
        return "a Zone"
    if zone in ZONE_NAMES:
        return f"the {ZONE_NAMES[zone]}"
    seat = int(zone[1:])
    return "your Balcony" if seat == me else f"{who(seat, names, me)}'s Balcony"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _card_name(card: str | None) -> str:
    if card is not None and card in ACTIONS:
        return ACTIONS[card].name
    kind = next((k for k in ActionKind if k.value == card), None)
    return next((row.name for row in ACTIONS.values() if row.kind is kind), "a card")


def reaction_context(view: PlayerView, names: Sequence[str]) -> str:
    """The sentence above a reaction prompt ("" when the view holds no window for this seat)."""
    r = view.reaction()
    if r is None:
        return ""
    me = view.seat
    text = {
        "share": _share,
        "fine": _fine,
        "sweeper": _sweeper,
        "birdseed": _birdseed,
        "guano": _guano,
    }.get(r.window)
    return text(view, r, names, me) if text is not None else ""


def _share(view: PlayerView, r: Reaction, names: Sequence[str], me: int | None) -> str:
    n = len(r.pigeons)
    head = f"{who(r.by, names, me)} played {_card_name(r.card)} on {where(r.zone, names, me)}"
    if n == 0:
        return f"{head} (no pigeons there): sharing would take nothing."
    others = view.players > 2
    tail = " if nobody else shares" if others else ""
    take = share_take(n)
    return f"{head} ({_count(n, 'pigeon')}): share? You would take {take} of {n}{tail}."


def _fine(view: PlayerView, r: Reaction, names: Sequence[str], me: int | None) -> str:
    by = who(r.by, names, me)
    hand = view.hand_sizes[r.by] if r.by is not None and r.by < len(view.hand_sizes) else 0
    lost = "have no cards to lose" if hand == 0 else f"would discard their whole hand ({_count(hand, 'card')})"
    return f"{by} played {_card_name(r.card)} onto {where(r.zone, names, me)}: Fine them? They {lost}."


def _sweeper(view: PlayerView, r: Reaction, names: Sequence[str], me: int | None) -> str:
    fined_by = who(r.fined_by, names, me) if r.fined_by is not None else "Someone"
    hand = view.hand_sizes[me] if me is not None else 0
    return (
        f"{fined_by} fined you: cancel it with your Street Sweeper? "
        f"If not, you discard your whole hand ({_count(hand, 'card')})."
    )


def _birdseed(view: PlayerView, r: Reaction, names: Sequence[str], me: int | None) -> str:
    book = view.book
    coming = [f"the {book[i.pigeon].name}" if i.pigeon in book else "a pigeon" for i in r.incoming]
    if not coming:
        return "Pigeons are about to land on your Balcony: send some elsewhere with Birdseed?"
    movers = {i.mover for i in r.incoming}
    if {i.source for i in r.incoming} == {None}:
        cause = f"{_possessive(view.active, names, me)} Invasion brings"
    elif len(movers) == 1:
        mover = movers.pop()
        cause = "You send" if mover == me else f"{who(mover, names, me)} sends"
    else:
        cause = "Coming:"
    what = ", ".join(coming[:-1]) + " and " + coming[-1] if len(coming) > 1 else coming[0]
    cost, them = ("-1 VP each", "them") if len(coming) > 1 else ("-1 VP", "it")
    return f"{cause} {what} to your Balcony ({cost}): redirect {them} with Birdseed?"


def _possessive(seat: int | None, names: Sequence[str], me: int | None) -> str:
    return "Your" if seat == me else f"{who(seat, names, me)}'s"


def _guano(view: PlayerView, r: Reaction, names: Sequence[str], me: int | None) -> str:
    place = where(r.zone, names, me)
    if view.invasion() is not None and r.by == view.active:
        how = f" in {_possessive(r.by, names, me).replace('Your', 'your')} Invasion"
    elif r.by is not None:
        how = f", moved by {'you' if r.by == me else who(r.by, names, me)}"
    else:
        how = ""
    head = f"The Infamous Pigeon landed on {place}{how}: play guano there?"
    if r.zone is not None and r.zone not in ZONE_NAMES:
        owner = "you" if r.zone == f"b{me}" else who(int(r.zone[1:]), names, me)
        g, m = BALCONY_COST[ActionKind.GUANO], BALCONY_COST[ActionKind.MOUNTAIN]
        return f"{head} It would cost {owner} {g} VP (a Mountain {m})."
    return head


def forced_sentence(label: str) -> str:
    """The log's line for a step taken for the player (`forced_step`)."""
    return f"Your only move, taken for you: {label}."


def forced_step(view: PlayerView, decision: Decision, private: bool) -> Option | None:
    """The one option of a step the client may take for the player, or None.

    A step is forced when it has one option. It is taken at once only where the speed of the
    answer tells no one anything: at a private table (every other seat a bot), or when the
    table can see it is forced (an action with an empty hand: drawing is all there is). A
    reaction with only Pass (blind windows, R5.7) is never taken: answering it at the speed
    of a person is what hides who holds a card."""
    if len(decision.options) != 1 or view.seat is None or view.over:
        return None
    if decision.kind in REACTIONS:
        return None
    if private or (decision.kind is DecisionKind.ACTION and view.hand_sizes[view.seat] == 0):
        return decision.options[0]
    return None


def option_note(view: PlayerView, option: Option) -> str:
    """What an option of a turn does that its label does not say ("" if nothing).

    R4.6: converting the Infamous Pigeon with the Flock deck empty gains nothing and calls the
    last round off (R6.2), unless the house rule `infamous_empty=trophy` is on."""
    value = option.value
    if not (isinstance(value, tuple) and len(value) == 2 and value[0] == "convert" and view.flock_count == 0):
        return ""
    row = view.book.get(str(value[1]))
    if row is None or row.rule is not Rule.INFAMOUS:
        return ""
    if view.house.infamous_empty is InfamousEmpty.TROPHY:
        return "the Infamous itself becomes your face-down trophy (1 VP); the last round goes on"
    return "gains nothing: it goes back into the empty Flock deck and the last round is called off"
