"""The engine's machinery: the frame stack, handler registries, decisions and Zone arithmetic.

A turn is a stack of frames (plain dicts, never mutated once pushed). `core.rules` pops the
top frame and runs its step until a decision is open; the answer goes to the frame that
asked, which the asker pushed back with whatever it needs to remember.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Iterable, Sequence

from core.cards import ACTIONS, CITY, CITY_CAPACITY, ActionKind, Rule
from core.decisions import REACTIONS, Decision, DecisionKind, Option, OptionValue
from core.events import Event, EventKind, card_name, zone_name
from core.state import GameState

Frame = dict[str, Any]
Events = list[Event]
Step = Callable[[GameState, Frame, Events], None]
Answer = Callable[[GameState, Frame, int, OptionValue, Events], None]

STEPS: Final[dict[str, Step]] = {}
"""Frame kind -> what runs when the frame reaches the top of the stack."""
ANSWERS: Final[dict[str, Answer]] = {}
"""Frame kind -> what runs when a decision that frame opened is answered."""

STATUE_I: Final = 1
CABLES_I: Final = 2
CROWD_I: Final = 3
BALCONY0: Final = 4
"""Zone index of seat 0's Balcony; seat s is at BALCONY0 + s."""


def step(kind: str) -> Callable[[Step], Step]:
    def register(fn: Step) -> Step:
        STEPS[kind] = fn
        return fn

    return register


def answer(kind: str) -> Callable[[Answer], Answer]:
    def register(fn: Answer) -> Answer:
        ANSWERS[kind] = fn
        return fn

    return register


def ask(
    state: GameState,
    frame: Frame,
    player: int,
    kind: DecisionKind,
    prompt: str,
    options: Sequence[Option],
    ev: Events,
) -> None:
    """Open a decision owned by `frame`. A forced choice (one option) outside a turn's action
    or a reaction is taken at once, so nobody is asked a question with one answer."""
    if len(options) == 1 and kind is not DecisionKind.ACTION and kind not in REACTIONS:
        ANSWERS[frame["k"]](state, frame, player, options[0].value, ev)
        return
    state.stack.append(frame)
    state.open.append(Decision(state.next_id, player, kind, prompt, tuple(options)))
    state.next_id += 1


def ask_each(state: GameState, frame: Frame, asks: Iterable[tuple[int, DecisionKind, str, Sequence[Option]]]) -> None:
    """Open several decisions at once (a reaction window, R5.7), all owned by `frame`.

    Ids come in a block of one per seat (seat s gets base + s) so that the ids a player sees
    never tell how many others were asked."""
    state.stack.append(frame)
    base = state.next_id
    for player, kind, prompt, options in asks:
        state.open.append(Decision(base + player, player, kind, prompt, tuple(options)))
    state.next_id += state.players


def clockwise(state: GameState, seats: Iterable[int]) -> list[int]:
    """Seats in clockwise order starting from the active player (R5.7)."""
    n, a = state.players, state.active
    return sorted(seats, key=lambda s: (s - a) % n)


# ---- Zones --------------------------------------------------------------------------------


def zid(state: GameState, z: int) -> str:
    return CITY[z] if z < BALCONY0 else f"b{z - BALCONY0}"


def zindex(state: GameState, zone: str) -> int:
    if zone in CITY:
        return CITY.index(zone)
    return BALCONY0 + int(zone[1:])


def spaces(state: GameState, z: int) -> int:
    """R1.4: spaces used in Zone z (a Fat Pigeon takes 2)."""
    book = state.book
    return sum(book[p].size for p in state.pigeons[z])


def fits(state: GameState, z: int, pigeon: str, extra: int = 0) -> bool:
    """Whether `pigeon` may legally be in Zone z with `extra` spaces already promised (R1.2)."""
    row = state.book[pigeon]
    if z == CABLES_I and row.rule is Rule.LAME:
        return False
    cap = CITY_CAPACITY[z] if z < BALCONY0 else None
    return cap is None or spaces(state, z) + extra + row.size <= cap


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
    name = zone_name(zid(state, z))
    name = name[4:] if name.startswith("the ") else name
    cap = CITY_CAPACITY[z] if z < BALCONY0 else None
    used = spaces(state, z)
    return f"{name} ({used}/{cap})" if cap else f"{name} ({used})"


def zone_option(state: GameState, z: int, label: str | None = None) -> Option:
    zone = zid(state, z)
    return Option(zone, label or zone_label(state, z), (zone,))


def card_label(state: GameState, card: str) -> str:
    return card_name(card, state.book)


def pigeon_option(state: GameState, pigeon: str, z: int | None = None) -> Option:
    refs = (pigeon,) if z is None else (pigeon, zid(state, z))
    where = "" if z is None else f" on {zone_name(zid(state, z))}"
    return Option(pigeon, f"{card_label(state, pigeon)}{where}", refs)


def kind_of(card: str) -> ActionKind:
    return ACTIONS[card].kind


def first_of(hand: Iterable[str], kinds: Iterable[ActionKind]) -> list[str]:
    """One card id per distinct kind among `kinds` in `hand`: copies of a card are one choice."""
    want = set(kinds)
    out: dict[ActionKind, str] = {}
    for c in hand:
        k = ACTIONS[c].kind
        if k in want and k not in out:
            out[k] = c
    return list(out.values())


def emit(ev: Events, kind: EventKind, **fields: Any) -> None:
    ev.append(Event(kind, **fields))
