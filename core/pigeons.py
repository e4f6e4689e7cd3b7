"""R4: pigeons arriving, landing in batches, being scared, pulled by the Lady, made trophies."""

from __future__ import annotations

from functools import cache
from typing import Final

from core.cards import BALCONY, CITY, CITY_CAPACITY, Rule
from core.decisions import DONE, DecisionKind, Option, OptionValue
from core.events import Event, EventKind
from core.flow import (
    BALCONY0,
    CABLES_I,
    LOADS_KEPT,
    ZIDS,
    ZINDEX,
    ZONE_LOADS,
    Answers,
    Events,
    Frame,
    Steps,
    ask,
    clockwise,
    emit,
    emit_plain,
    fits,
    new_decision,
    new_event,
    open_to_all,
    pigeon_option_named,
    planned,
    zindex,
    zone_load_option,
    zone_option,
)
from core.house import InfamousEmpty
from core.rng import shuffle
from core.state import GameState, trophy

# Enum members read on every step, as module constants: reading `EventKind.LANDED` goes through
# EnumType's __getattr__ hook, about 900 machine instructions a read on this interpreter (a global: 20).
_LAND: Final = DecisionKind.LAND
_LADY_ASKS: Final = DecisionKind.LADY
_HEADING: Final = EventKind.HEADING
_LANDED: Final = EventKind.LANDED
_SCARED: Final = EventKind.SCARED
_TROPHY: Final = EventKind.TROPHY
_RETURNED_TO_DECK: Final = EventKind.RETURNED_TO_DECK
_FINAL_CANCELLED: Final = EventKind.FINAL_CANCELLED
_INFAMOUS: Final = Rule.INFAMOUS
_LADY: Final = Rule.LADY
_STUPID: Final = Rule.STUPID
_LAME: Final = Rule.LAME
_AS_TROPHY: Final = InfamousEmpty.TROPHY

AIR = -1
"""`from` of a move whose pigeon was just revealed and is in `state.air`."""


def landing_places(state: GameState, pigeon: str) -> list[int]:
    """R4.1: the Zones a revealed pigeon may enter, from the first tier with room."""
    home = BALCONY0 + state.active
    book = state.book
    row = book[pigeon]
    for tier in _entry_zones(row.entry):
        legal = []
        for z in tier:  # loops, not comprehensions (each a call): every revealed pigeon comes here
            if z == _HOME:
                legal.append(home)  # fits(): a Balcony takes any pigeon (R1.3)
                continue
            # fits(state, z, pigeon), written out
            if z == CABLES_I and row.rule is _LAME:
                continue
            cap = CITY_CAPACITY[z]
            if cap is None:
                legal.append(z)
                continue
            used = row.size
            for p in state.pigeons[z]:
                used += book[p].size
            if used <= cap:
                legal.append(z)
        if legal:
            return legal
    return [0]  # custom cards always include an unlimited place; this is a safety net


_CITY_INDEX: Final = {place: z for z, place in enumerate(CITY)}
_HOME: Final = -1
"""In `_entry_zones`: the active player's Balcony."""


@cache
def _entry_zones(entry: tuple[tuple[str, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """A pigeon's entry tiers as Zone indices (the Balcony as _HOME), made once per row."""
    return tuple(tuple(_HOME if p == BALCONY else _CITY_INDEX[p] for p in tier) for tier in entry)


def enter(state: GameState, f: Frame, ev: Events) -> None:
    """R4.1: a revealed pigeon's entry rule; the active player picks where there is a choice."""
    enter_card(state, f["card"], f, ev)


def enter_card(state: GameState, pigeon: str, f: Frame | None, ev: Events) -> None:
    """`enter` of `pigeon`, whose frame `f` (None: {"k": "enter", "card": pigeon}) is made only
    if a question needs it: most pigeons have one place to land."""
    places = landing_places(state, pigeon)
    if len(places) == 1:  # a forced choice, answered here as `ask`'s FORCED frame would (no id, no event)
        # batch(...), written out: most revealed pigeons come here
        state.stack.append({"k": "batch", "moves": ((pigeon, AIR, places[0], state.active),), "asked": ()})
        return
    book, pigeons = state.book, state.pigeons
    opts = []
    for z in places:  # zone_option(state, z), written out: a call per Zone offered
        used = 0
        for p in pigeons[z]:
            used += book[p].size
        # zone_load_option(z, used), from its table when made before
        opts.append((ZONE_LOADS[z][used] if used < LOADS_KEPT else None) or zone_load_option(z, used))
    # ask(state, f, state.active, _LAND, ...), written out: with two places or more, never forced
    state.stack.append({"k": "enter", "card": pigeon} if f is None else f)
    state.open.append(new_decision(state.next_id, state.active, _LAND, _land_prompt(book[pigeon].name), (*opts,)))
    state.next_id += 1


@cache
def _land_prompt(name: str) -> str:
    return f"Where does the {name} land?"


def enter_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    state.stack.append(batch(((f["card"], AIR, ZINDEX[value], state.active),)))  # zindex(), a call less


def batch(moves: tuple[tuple[str, int, int, int], ...]) -> Frame:
    """R4.3: a batch of (pigeon, from Zone, to Zone, who moved it) about to land."""
    return {"k": "batch", "moves": moves, "asked": ()}


def land_batch(state: GameState, f: Frame, ev: Events) -> None:
    """R4.3: owners of Balconies receiving pigeons may redirect them (R5.3), then all land,
    then arrival triggers fire in landing order (R4.4, R4.5)."""
    moves, asked = f["moves"], f["asked"]
    new = []
    for m in moves:  # a loop, not a comprehension (a call): every pigeon that lands comes here
        if m[2] >= BALCONY0 and (m[2] - BALCONY0, m[0]) not in asked:
            new.append((m[2] - BALCONY0, m[0]))
    if new:
        for m in moves:  # emit_plain(ev, _HEADING, None, (m[0],), None, ZIDS[m[2]]), positionally
            ev.append(
                new_event(Event, (_HEADING, None, (m[0],), None, ZIDS[m[2]], False, 0, 0, 0, False, None, 0, None))
            )
        state.stack.append({**f, "asked": asked + tuple(new)})
        if len(new) == 1:
            owners: tuple[int, ...] = (new[0][0],)
        else:  # a loop, not a set comprehension (a function made and called)
            seats = set()
            for s, _ in new:
                seats.add(s)
            owners = tuple(clockwise(state, seats))
        state.stack.append({"k": "window", "w": "birdseed", "owners": owners})
        return
    air, pigeons, book = state.air, state.pigeons, state.book
    for pigeon, src, dst, _ in moves:
        if src == AIR:
            air.remove(pigeon)
            frm = None
        else:  # without(pigeons[src], pigeon), written out
            left = pigeons[src]
            i = left.index(pigeon)
            pigeons[src] = left[:i] + left[i + 1 :]
            frm = ZIDS[src]
        pigeons[dst] += (pigeon,)
        # emit_plain(ev, _LANDED, None, (pigeon,), ...), positionally: every pigeon that lands comes here
        ev.append(new_event(Event, (_LANDED, None, (pigeon,), frm, ZIDS[dst], False, 0, 0, 0, False, None, 0, None)))
    for pigeon, _, dst, mover in reversed(moves) if len(moves) > 1 else moves:  # most batches are one pigeon
        rule = book[pigeon].rule
        if rule is _INFAMOUS:
            state.stack.append({"k": "window", "w": "guano", "zone": dst, "by": mover})
        elif rule is _LADY:
            state.stack.append({"k": "lady", "pigeon": pigeon, "zone": dst, "mover": mover})


def lady(state: GameState, f: Frame, ev: Events) -> None:
    """R4.4: the Lady's mover may pull one other pigeon from another Zone to hers."""
    z = f["zone"]
    if f["pigeon"] not in state.pigeons[z]:
        return  # she was moved on before her trigger resolved
    opts = [_LEAVE]
    anything_fits = open_to_all(z)  # then no pigeon needs checking one by one
    book = state.book
    for src in range(BALCONY0 + state.players):  # zone_count(state)
        if src != z:
            for p in state.pigeons[src]:  # loops, not a comprehension (a call) per Zone
                if anything_fits or fits(state, z, p):
                    opts.append(pigeon_option_named(p, book[p].name, src))  # pigeon_option(), a call less
    prompt = f"The Lady Pigeon arrived on {zone_option(state, z).label}: pull another pigeon there?"
    ask(state, f, f["mover"], _LADY_ASKS, prompt, opts)


_LEAVE: Final = Option(DONE, "Leave the others where they are")


def lady_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    if value != DONE:
        pigeon = str(value)
        src = 0
        for ps in state.pigeons:  # a loop, not next() of a generator (a function made and called)
            if pigeon in ps:
                break
            src += 1
        state.stack.append(batch(((pigeon, src, f["zone"], player),)))


def scare(zone: int, by: int, cause: str) -> Frame:
    """R4.2: the pigeons of `zone` take off; `by` caused it (and breaks ties)."""
    return {"k": "scare", "zone": zone, "by": by, "cause": cause}


_NOTHING_PLANNED: Final[dict[int, int]] = {}
"""`planned` of no moves (read, never written)."""


def scare_step(state: GameState, f: Frame, ev: Events) -> None:
    """R4.2: biggest first, each to the least crowded legal Zone but the one it left."""
    z = f["zone"]
    if "todo" not in f:
        proof = f["cause"] in ("blam", "crowd")
        todo = []  # a loop, not a comprehension (a function made and called)
        for p in state.pigeons[z]:
            if not (proof and state.book[p].rule is _STUPID):
                todo.append(p)
        todo.sort(key=lambda p: -state.book[p].size)
        emit_plain(ev, _SCARED, f["by"], tuple(todo), ZIDS[z], None)
        f = {**f, "todo": tuple(todo), "moves": ()}
    todo, moves = f["todo"], f["moves"]
    book, pigeons = state.book, state.pigeons
    while todo:
        pigeon = todo[0]
        extra = planned(state, moves) if moves else _NOTHING_PLANNED
        row = book[pigeon]
        # The least loaded of the Zones it may legally go to (R1.2, R1.3), in Zone order
        tied: list[int] = []
        low = 0
        for y in range(BALCONY0 + state.players):  # fits() and spaces(), written out: a call each per Zone
            if y == z:
                continue
            load = extra.get(y, 0)
            for p in pigeons[y]:
                load += book[p].size
            if y < BALCONY0:
                if y == CABLES_I and row.rule is _LAME:
                    continue
                cap = CITY_CAPACITY[y]
                if cap is not None and load + row.size > cap:
                    continue
            if not tied or load < low:
                tied, low = [y], load
            elif load == low:
                tied.append(y)
        if len(tied) > 1:
            name = state.book[pigeon].name
            opts = []  # a loop, not a comprehension (a function made and called)
            for y in tied:
                opts.append(zone_option(state, y))
            prompt = f"The scared {name} lands on the least crowded Zone: which of these?"
            ask(state, {**f, "todo": todo, "moves": moves}, f["by"], _LAND, prompt, opts)
            return
        moves += ((pigeon, z, tied[0], f["by"]),)
        todo = todo[1:]
    if moves:
        state.stack.append(batch(moves))


def scare_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    pigeon = f["todo"][0]
    move = (pigeon, f["zone"], zindex(state, str(value)), f["by"])
    state.stack.append({**f, "todo": f["todo"][1:], "moves": f["moves"] + (move,)})


def make_trophy(state: GameState, seat: int, pigeon: str, z: int, ev: Events) -> None:
    """Convert a pigeon of Zone z into a trophy for `seat`; the Infamous Pigeon escapes (R4.6).

    R4.6 with the Flock deck empty: the Infamous goes back alone and the game resumes (R6.2),
    or, under the house rule infamous_empty=trophy, it is itself the face-down trophy."""
    left = state.pigeons[z]  # without(state.pigeons[z], pigeon), written out: every trophy comes here
    i = left.index(pigeon)
    state.pigeons[z] = left[:i] + left[i + 1 :]
    if state.book[pigeon].rule is not _INFAMOUS:
        state.trophies[seat] = [*state.trophies[seat], trophy((pigeon,), 1)]
        # emit(ev, _TROPHY, player=seat, cards=(pigeon,), vp=1), positionally
        ev.append(new_event(Event, (_TROPHY, seat, (pigeon,), None, None, False, 0, 0, 0, False, None, 1, None)))
        return
    if not state.flock and state.house.infamous_empty is _AS_TROPHY:
        state.trophies[seat] = [*state.trophies[seat], trophy((pigeon,), 1, True)]
        emit(ev, _TROPHY, player=seat, vp=1)
        return
    state.flock.append(pigeon)
    emit(ev, _RETURNED_TO_DECK, player=seat, cards=(pigeon,))
    if len(state.flock) > 1:
        state.rng = shuffle(state.rng, state.flock)
        state.trophies[seat] = [*state.trophies[seat], trophy((state.flock.pop(),), 1, True)]
        emit(ev, _TROPHY, player=seat, vp=1)
    if state.final_left is not None:
        state.final_left = None
        emit(ev, _FINAL_CANCELLED)


def redirect_targets(state: GameState, seat: int, moves: tuple[tuple[str, int, int, int], ...]) -> list[int]:
    """R5.3 reaction: Zones other than the seat's Balcony where one of its incoming pigeons fits."""
    home = BALCONY0 + seat
    incoming = []  # a loop, not a comprehension (a function made and called)
    for m in moves:
        if m[2] == home:
            incoming.append(m[0])
    extra = planned(state, moves)
    out = []
    for y in range(BALCONY0 + state.players):  # zone_count(state); loops, not any() of a generator (two calls)
        if y != home:
            promised = extra.get(y, 0)
            for p in incoming:
                if fits(state, y, p, promised):
                    out.append(y)
                    break
    return out


# The frame kinds this module owns: `core.rules` joins every module's tables.
STEPS: Final[Steps] = {"enter": enter, "batch": land_batch, "lady": lady, "scare": scare_step}
ANSWERS: Final[Answers] = {"enter": enter_answer, "lady": lady_answer, "scare": scare_answer}
