"""The engine's machinery: the frame stack, handler registries, decisions and Zone arithmetic.

A turn is a stack of frames (plain dicts, never mutated once pushed). `core.rules` pops the
top frame and runs its step until a decision is open; the answer goes to the frame that
asked, which the asker pushed back with whatever it needs to remember. The modules that own
frame kinds (`core.turn`, `core.pigeons`, `core.effects`) list their steps and answers in
tables of their own; `core.rules` joins them, so nothing registers by being imported.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, Final

from core.cards import ACTIONS, CITY, CITY_CAPACITY, ActionKind, Rule
from core.cards import BALCONY0 as BALCONY0  # with the table's layout (core.scoring reads it alone)
from core.decisions import REACTIONS, Decision, DecisionKind, Option, OptionValue
from core.events import Event, EventKind, card_name, zone_name
from core.frozen import slot_constructor
from core.state import MAX_PLAYERS, GameState

Frame = dict[str, Any]
Events = list[Event]
Step = Callable[[GameState, Frame, Events], None]
Answer = Callable[[GameState, Frame, int, OptionValue, Events], None]

Steps = Mapping[str, Step]
"""Frame kind -> what runs when the frame reaches the top of the stack."""
Answers = Mapping[str, Answer]
"""Frame kind -> what runs when a decision that frame opened is answered."""

# Enum members read on every step, as module constants: reading `EventKind.LANDED` goes through
# EnumType's __getattr__ hook, about 900 machine instructions a read on this interpreter (a global: 20).
_ACTION: Final = DecisionKind.ACTION
_LAME: Final = Rule.LAME
_PLAYED: Final = EventKind.PLAYED
_WINDOW: Final = EventKind.WINDOW

FORCED: Final = "forced"
"""The kind of the frame `ask` pushes over a question with one answer: `core.rules` (which
holds every kind's answer) answers it at once, on the next step, before anything else runs."""

ROAD_I: Final = 0
STATUE_I: Final = 1
CABLES_I: Final = 2
CROWD_I: Final = 3


def ask(
    state: GameState,
    frame: Frame,
    player: int,
    kind: DecisionKind,
    prompt: str,
    options: Sequence[Option],
) -> None:
    """Open a decision owned by `frame`. A forced choice (one option) outside a turn's action
    or a reaction is taken at once (a FORCED frame), so nobody is asked a question with one
    answer. Every caller asks last thing in its step, so the answer comes just as if it ran here."""
    state.stack.append(frame)
    if len(options) == 1 and kind is not _ACTION and kind not in REACTIONS:
        state.stack.append({"k": FORCED, "player": player, "value": options[0][0]})  # [0]: .value is a descriptor call
        return
    state.open.append(new_decision(state.next_id, player, kind, prompt, tuple(options)))
    state.next_id += 1


def ask_each(
    state: GameState, frame: Frame, kind: DecisionKind, prompt: str, asks: Iterable[tuple[int, tuple[Option, ...]]]
) -> None:
    """Open several decisions of one kind and prompt at once (a reaction window, R5.7), all
    owned by `frame`: `asks` gives each seat asked and its options.

    Ids come in a block of one per seat (seat s gets base + s) so that the ids a player sees
    never tell how many others were asked."""
    state.stack.append(frame)
    base = state.next_id
    for player, options in asks:
        state.open.append(new_decision(base + player, player, kind, prompt, options))
    state.next_id += state.players


new_decision: Final = slot_constructor(Decision)
"""Decision(...), made faster (one per question the engine asks)."""


def clockwise(state: GameState, seats: Iterable[int]) -> list[int]:
    """Seats in clockwise order starting from the active player (R5.7)."""
    return sorted(seats, key=seat_rank(state).__getitem__)


def seat_rank(state: GameState) -> tuple[int, ...]:
    """Each seat's place clockwise from the active player (0 for the active player)."""
    return _RANK[state.players][state.active]


def round_table(state: GameState) -> tuple[int, ...]:
    """Every seat, clockwise from the active player (R5.7)."""
    return _ROUND[state.players][state.active]


def others(state: GameState, by: int) -> tuple[int, ...]:
    """Every seat but `by`, clockwise from the active player (R5.7)."""
    return _OTHERS[state.players][state.active][by]


_RANK: Final = {n: [tuple((s - a) % n for s in range(n)) for a in range(n)] for n in range(1, MAX_PLAYERS + 1)}
"""Players -> active seat -> each seat's place clockwise from the active one."""
_ROUND: Final = {n: [tuple((a + k) % n for k in range(n)) for a in range(n)] for n in range(1, MAX_PLAYERS + 1)}
"""Players -> active seat -> the seats clockwise from it."""
_OTHERS: Final = {
    n: [[tuple(s for s in _ROUND[n][a] if s != by) for by in range(n)] for a in range(n)]
    for n in range(1, MAX_PLAYERS + 1)
}
"""Players -> active seat -> a seat -> the other seats, clockwise from the active one."""
OTHERS: Final = _OTHERS
ROUND: Final = _ROUND
"""`round_table` without the call."""
"""`others` without the call, for the commonest windows."""


# ---- Zones --------------------------------------------------------------------------------


def zid(state: GameState, z: int) -> str:
    return _ZIDS[z]


def zindex(state: GameState, zone: str) -> int:
    z = _ZINDEX.get(zone)
    return z if z is not None else BALCONY0 + int(zone[1:])


_ZIDS: Final = CITY + tuple(f"b{s}" for s in range(MAX_PLAYERS))
"""Zone index -> Zone id, for every table size (ids are the same whatever the players)."""
_ZINDEX: Final = {zone: z for z, zone in enumerate(_ZIDS)}


def spaces(state: GameState, z: int) -> int:
    """R1.4: spaces used in Zone z (a Fat Pigeon takes 2)."""
    book = state.book
    n = 0
    for p in state.pigeons[z]:
        n += book[p].size
    return n


def open_to_all(z: int) -> bool:
    """Whether Zone z takes any pigeon whatever its load: unlimited, no restriction (R1.2, R1.3)."""
    return z >= BALCONY0 or (z != CABLES_I and CITY_CAPACITY[z] is None)


def fits(state: GameState, z: int, pigeon: str, extra: int = 0) -> bool:
    """Whether `pigeon` may legally be in Zone z with `extra` spaces already promised (R1.2)."""
    if z >= BALCONY0 or (z != CABLES_I and CITY_CAPACITY[z] is None):
        return True  # open_to_all(z), inlined: this runs for every pigeon a move considers
    row = state.book[pigeon]
    if z == CABLES_I and row.rule is _LAME:
        return False
    cap = CITY_CAPACITY[z]
    if cap is None:
        return True
    book = state.book  # spaces(state, z), written out
    used = extra + row.size
    for p in state.pigeons[z]:
        used += book[p].size
    return used <= cap


def planned(state: GameState, moves: Iterable[tuple[Any, ...]]) -> dict[int, int]:
    """Spaces promised per Zone by (pigeon, from, to, ...) moves not yet landed."""
    out: dict[int, int] = {}
    book = state.book
    for m in moves:
        out[m[2]] = out.get(m[2], 0) + book[m[0]].size
    return out


def zone_count(state: GameState) -> int:
    return BALCONY0 + state.players


def zone_label(state: GameState, z: int) -> str:
    return zone_load_option(z, spaces(state, z)).label


def zone_option(state: GameState, z: int, label: str | None = None) -> Option:
    if label:
        zone = zid(state, z)
        return Option(zone, label, (zone,))
    book = state.book  # spaces(state, z), written out: every Zone offered comes here
    n = 0
    for p in state.pigeons[z]:
        n += book[p].size
    return (_ZONE_LOADS[z][n] if n < LOADS_KEPT else None) or zone_load_option(z, n)


@cache
def zone_load_option(z: int, used: int) -> Option:
    """A Zone as an option, labelled with its name and the spaces used (options are immutable:
    one per Zone and load, made once, and kept in `ZONE_LOADS` too)."""
    zone = _ZIDS[z]
    name = zone_name(zone)
    name = name[4:] if name.startswith("the ") else name
    cap = CITY_CAPACITY[z] if z < BALCONY0 else None
    option = Option(zone, f"{name} ({used}/{cap})" if cap else f"{name} ({used})", (zone,))
    if used < LOADS_KEPT:
        _ZONE_LOADS[z][used] = option
    return option


LOADS_KEPT: Final = 128
_ZONE_LOADS: Final[list[list[Option | None]]] = [[None] * LOADS_KEPT for _ in _ZIDS]
"""Zone index -> spaces used (below LOADS_KEPT) -> `zone_load_option(z, used)`, None until it is
first made: two list indexings, where a call through its cache costs ~1,000 machine
instructions, and every Zone offered comes here (~100 times a random game)."""
ZONE_LOADS: Final = _ZONE_LOADS


def card_label(state: GameState, card: str) -> str:
    return card_name(card, state.book)


def pigeon_option(state: GameState, pigeon: str, z: int | None = None) -> Option:
    return _pigeon_option(pigeon, state.book[pigeon].name, z)


@lru_cache(maxsize=4096)
def _pigeon_option(pigeon: str, name: str, z: int | None) -> Option:
    if z is None:
        return Option(pigeon, name, (pigeon,))
    zone = _ZIDS[z]
    return Option(pigeon, f"{name} on {zone_name(zone)}", (pigeon, zone))


def kind_of(card: str) -> ActionKind:
    return _KIND[card]


_KIND: Final = {cid: row.kind for cid, row in ACTIONS.items()}


def first_of(hand: Iterable[str], kinds: Container[ActionKind]) -> list[str]:
    """One card id per distinct kind among `kinds` in `hand`: copies of a card are one choice."""
    out: dict[ActionKind, str] = {}
    kind = _KIND
    for c in hand:
        k = kind[c]
        if k in kinds and k not in out:
            out[k] = c
    return [*out.values()]


def emit(
    ev: Events,
    kind: EventKind,
    player: int | None = None,
    cards: tuple[str, ...] = (),
    zone: str | None = None,
    to: str | None = None,
    secret: bool = False,
    *,
    turn: int = 0,
    card_count: int = 0,
    left: int = 0,
    reaction: bool = False,
    by: int | None = None,
    vp: int = 0,
    window: str | None = None,
) -> None:
    ev.append(_event(Event, (kind, player, cards, zone, to, secret, turn, card_count, left, reaction, by, vp, window)))


def emit_plain(
    ev: Events, kind: EventKind, player: int | None, cards: tuple[str, ...], zone: str | None, to: str | None
) -> None:
    """`emit` of an event that sets only the common fields, positionally: a third cheaper than
    emit's keywords matched against its 13 parameters, for the kinds of every step."""
    ev.append(_event(Event, (kind, player, cards, zone, to, False, 0, 0, 0, False, None, 0, None)))


def emit_played(ev: Events, player: int, card: str, zone: str | None, reaction: bool) -> None:
    """`emit(ev, EventKind.PLAYED, player, (card,), zone, reaction=reaction)`, positionally (see emit_plain)."""
    ev.append(_event(Event, (_PLAYED, player, (card,), zone, None, False, 0, 0, 0, reaction, None, 0, None)))


def emit_window(ev: Events, window: str) -> None:
    """`emit(ev, EventKind.WINDOW, window=window)`, positionally (see emit_plain)."""
    ev.append(_event(Event, (_WINDOW, None, (), None, None, False, 0, 0, 0, False, None, 0, window)))


_event: Final = tuple.__new__
"""Builds an Event without its Python-level __new__: events are made on every step."""
new_event: Final = _event
"""`ev.append(new_event(Event, (kind, player, cards, zone, to, secret, turn, card_count, left,
reaction, by, vp, window)))`: `emit` written out, for the events of the commonest steps (a call
with keywords matched against emit's 13 parameters costs more than the event)."""
ZIDS: Final = _ZIDS
"""Zone index -> Zone id (`zid` without the call, for hot loops)."""
ZINDEX: Final[Mapping[Any, int]] = _ZINDEX
"""Zone id -> Zone index (`zindex` without the call: every Zone id of the table is there), read
with the value of an option that names a Zone."""
pigeon_option_named: Final = _pigeon_option
"""`pigeon_option(state, pigeon, z)` given the pigeon's name (`state.book[pigeon].name`), a call less."""
assert Event._fields == (
    "kind",
    "player",
    "cards",
    "zone",
    "to",
    "secret",
    *("turn", "card_count", "left", "reaction", "by", "vp", "window"),
), "emit() lists Event's fields"
