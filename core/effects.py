"""R5: Action cards played, the reaction windows around them (R5.7), and their effects."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from core.cards import ACTIONS, CITY_CAPACITY, ActionKind, Edition, Rule
from core.decisions import DONE, PASS, DecisionKind, Option, OptionValue
from core.events import Event, EventKind, zone_name
from core.flow import (
    BALCONY0,
    CABLES_I,
    CROWD_I,
    OTHERS,
    ROUND,
    STATUE_I,
    ZIDS,
    ZINDEX,
    Answers,
    Events,
    Frame,
    Steps,
    ask,
    ask_each,
    card_label,
    emit,
    emit_played,
    emit_window,
    first_of,
    fits,
    kind_of,
    new_event,
    open_to_all,
    pigeon_option,
    pigeon_option_named,
    round_table,
    seat_rank,
    spaces,
    zid,
    zone_option,
)
from core.pigeons import batch, make_trophy, redirect_targets, scare
from core.state import MAX_PLAYERS, GameState, less, trophy

# Enum members read on every step, as module constants: reading `ActionKind.WROOM` goes through
# EnumType's __getattr__ hook, about 900 machine instructions a read on this interpreter (a global: 20).
_WROOM: Final = ActionKind.WROOM
_ZOT: Final = ActionKind.ZOT
_BLAM: Final = ActionKind.BLAM
_BIRDSEED: Final = ActionKind.BIRDSEED
_SWEEPER: Final = ActionKind.SWEEPER
_V30: Final = Edition.V30
_GUANO_LANDS: Final = EventKind.GUANO
_WINDOW: Final = EventKind.WINDOW
_PICK: Final = DecisionKind.PICK
_FAT: Final = Rule.FAT
_BONUS_ASKS: Final = DecisionKind.BONUS
_FINED: Final = EventKind.FINED
_FINE_CANCELLED: Final = EventKind.FINE_CANCELLED
_HAND_DISCARDED: Final = EventKind.HAND_DISCARDED
_HEADING: Final = EventKind.HEADING
_KEEP_ASKS: Final = DecisionKind.KEEP
_MOUNTAIN: Final = ActionKind.MOUNTAIN
_RETURNED: Final = EventKind.RETURNED
_SWEPT: Final = EventKind.SWEPT
_TARGET_ASKS: Final = DecisionKind.TARGET
_TROPHY: Final = EventKind.TROPHY

GUANO_KINDS: Final = (ActionKind.GUANO, ActionKind.MOUNTAIN)


def announce(state: GameState, by: int, card: str, z: int, reaction: bool, ev: Events) -> None:
    """R5.7: the card and its target are announced, its window opens, then it resolves.

    `z` is the Zone it aims at (for Wroom!/Zot! the Road/Cables). Pushes what follows."""
    state.hands[by] = less(state.hands[by], card)
    kind = _KIND[card]  # kind_of(card)
    (state.air if kind in GUANO_KINDS else state.played).append(card)
    emit_played(ev, by, card, ZIDS[z], reaction)
    if kind in (_WROOM, _ZOT):
        state.stack.append({"k": "window", "w": "share", "by": by, "card": _VALUE[kind], "zone": z})
    elif kind is _BLAM:
        state.stack.append({"k": "blam", "by": by, "zone": z, "picked": ()})
    elif kind is _SWEEPER:
        state.stack.append({"k": "sweep", "by": by, "zone": z})
    else:
        raise AssertionError(f"{kind} is announced through fine_window")


def fine_window(state: GameState, by: int, z: int, then: Frame) -> None:
    """R5.5: after Birdseed or guano onto a Zone (3.0: a City Location), others may Fine."""
    if state.edition is _V30 and z >= BALCONY0:
        state.stack.append(then)
    else:
        state.stack.append({"k": "window", "w": "fine", "by": by, "zone": z, "then": then})


def play_guano(state: GameState, by: int, card: str, z: int, reaction: bool, ev: Events) -> None:
    """R5.4: guano onto a Zone with a pigeon, as an action."""
    _lift_guano(state, by, card, z, reaction, ev)
    fine_window(state, by, z, {"k": "guano", "by": by, "zone": z, "cards": (card,)})


def _lift_guano(state: GameState, by: int, card: str, z: int, reaction: bool, ev: Events) -> None:
    state.hands[by] = less(state.hands[by], card)
    state.air.append(card)
    emit_played(ev, by, card, ZIDS[z], reaction)


# ---- Reaction windows (R5.7) ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Window:
    """One kind of reaction window (R5.7): who could react by the rules, with which cards."""

    kind: DecisionKind
    seats: Callable[[GameState, Frame], Iterable[int]]
    """Seats the rules let react, whatever they hold, clockwise from the active player: this
    much is public."""
    cards: Callable[[GameState, Frame, int], list[Option]]
    """The options a seat's hand gives it (empty: it cannot react)."""
    prompt: Callable[[GameState, Frame], str]
    decline: str = "Pass"
    held: Callable[[Frame], Mapping[str, Option]] | None = None
    """For a window answered by one kind of card: card id -> the option of playing it, whose
    first copy in a seat's hand is that seat's one option. `cards` gives the same; `_ask_window`
    looks the hands up itself, without a call per seat."""

    @property
    def pass_option(self) -> Option:
        return _PASS[self.decline]


ACTION_NAMES: Final = {row.kind: row.name for row in ACTIONS.values()}


def _others(state: GameState, f: Frame) -> Iterable[int]:
    return OTHERS[state.players][state.active][f["by"]]  # others(state, f["by"])


def _share_cards(state: GameState, f: Frame, s: int) -> list[Option]:
    kind = _BY_VALUE[f["card"]]
    for c in state.hands[s]:
        if _KIND[c] is kind:
            return [_SHARE[c]]
    return []


_BY_VALUE: Final = {k.value: k for k in ActionKind}
_VALUE: Final = {k: k.value for k in ActionKind}
"""`kind.value` without Enum's descriptor."""
_KIND: Final = {c: row.kind for c, row in ACTIONS.items()}
_SHARE: Final = {c: Option(c, f"Share with {row.name}", (c,)) for c, row in ACTIONS.items()}
"""Reaction options are immutable: one per card, made once."""


def _one_card(options: Mapping[str, Option]) -> Callable[[GameState, Frame, int], list[Option]]:
    """The reaction of one kind of card: the first copy in hand (copies are one choice)."""

    def cards(state: GameState, f: Frame, s: int) -> list[Option]:
        for c in state.hands[s]:
            if c in options:
                return [options[c]]
        return []

    return cards


def _guano_cards(state: GameState, f: Frame, s: int) -> list[Option]:
    hand = state.hands[s]
    for c in hand:
        if _KIND[c] in GUANO_KINDS:
            break
    else:
        return []  # most seats at most windows: answered without first_of's call
    z = f["zone"]
    return [_GUANO_PLAY[c][z] for c in first_of(hand, GUANO_KINDS)]


_GUANO_PLAY: Final = {
    c: tuple(Option(c, f"Play {row.name} onto {zone_name(zone)}", (c, zone)) for zone in ZIDS)
    for c, row in ACTIONS.items()
    if row.kind in GUANO_KINDS
}
"""Guano card -> Zone index -> the option to play it there as a reaction (R4.5), made once."""


# Window prompts, made once (the share window's by card kind, the others' by Zone index)
_SHARE_PROMPT: Final = {
    k.value: f"{ACTION_NAMES[k]} was played: play yours to share the trophies?" for k in (_WROOM, _ZOT)
}
_FINE_PROMPT: Final = tuple(f"A card was played onto {zone_name(zone)}: fine that player?" for zone in ZIDS)
_GUANO_PROMPT: Final = tuple(f"The Infamous Pigeon arrived on {zone_name(zone)}: play guano there?" for zone in ZIDS)
_SWEEPER_PROMPT: Final = "You are fined: cancel it with a Street Sweeper, or discard your whole hand?"
_BIRDSEED_PROMPT: Final = "Pigeons are about to land on your Balcony: send some elsewhere with Birdseed?"


def _card_options(kind: ActionKind, label: str) -> dict[str, Option]:
    """Card id -> the option of playing it, for every card of one kind (made once)."""
    return {c: Option(c, label, (c,)) for c, row in ACTIONS.items() if row.kind is kind}


_FINES: Final = _card_options(ActionKind.FINE, "Play Fine")
_SWEEPERS: Final = _card_options(_SWEEPER, "Cancel with Sweeper")
_BIRDSEEDS: Final = _card_options(_BIRDSEED, "Redirect with Birdseed")
_SHARES: Final = {k.value: {c: _SHARE[c] for c, row in ACTIONS.items() if row.kind is k} for k in (_WROOM, _ZOT)}
"""The share window's options, by the value of the card kind played (its frame's `card`)."""

WINDOWS: Final[dict[str, Window]] = {
    "share": Window(
        DecisionKind.REACT_SHARE,
        _others,
        _share_cards,
        lambda st, f: _SHARE_PROMPT[f["card"]],
        held=lambda f: _SHARES[f["card"]],
    ),
    "fine": Window(
        DecisionKind.REACT_FINE,
        _others,
        _one_card(_FINES),
        lambda st, f: _FINE_PROMPT[f["zone"]],
        held=lambda f: _FINES,
    ),
    "sweeper": Window(
        DecisionKind.REACT_SWEEPER,
        lambda st, f: (f["by"],),
        _one_card(_SWEEPERS),
        lambda st, f: _SWEEPER_PROMPT,
        "Accept the Fine",
        held=lambda f: _SWEEPERS,
    ),
    "birdseed": Window(
        DecisionKind.REACT_BIRDSEED,
        lambda st, f: f["owners"],  # clockwise already (land_batch)
        _one_card(_BIRDSEEDS),
        lambda st, f: _BIRDSEED_PROMPT,
        held=lambda f: _BIRDSEEDS,
    ),
    "guano": Window(
        DecisionKind.REACT_GUANO,
        lambda st, f: round_table(st),
        _guano_cards,
        lambda st, f: _GUANO_PROMPT[f["zone"]],
    ),
}


_PASS: Final = {w.decline: Option(PASS, w.decline) for w in WINDOWS.values()}
_DECLINE: Final = {k: _PASS[w.decline] for k, w in WINDOWS.items()}
"""Window kind -> its decline option."""
_WINDOW_EVENTS: Final = {
    w: new_event(Event, (_WINDOW, None, (), None, None, False, 0, 0, 0, False, None, 0, w)) for w in WINDOWS
}
"""Window kind -> its WINDOW event, the same at every window of the kind. Events are immutable
tuples, so one can be handed out again: building one (tuple.__new__ of a subclass) costs ~1,700
machine instructions, and windows are the commonest step of a game."""
_WINDOW_KIND: Final = {k: w.kind for k, w in WINDOWS.items()}


def window(state: GameState, f: Frame, ev: Events) -> None:
    """R5.7: everyone who may react is asked at once; plays resolve clockwise from the active
    player. The WINDOW event is public and says nothing about who may react. With
    `blind_windows`, every seat the rules let react is asked, holding a card or not, so even
    the pause of a window tells nothing about hands."""
    if "plays" in f:
        RESOLVE[f["w"]](state, f, clockwise_plays(state, f["plays"]), ev)
    elif "announced" not in f:
        # The announcement is a step of its own, so `core.rules.advance` can show the state
        # as it is at the WINDOW event before anything resolves (its `at_window`).
        emit_window(ev, f["w"])
        state.stack.append({**f, "announced": True})
    else:
        _ask_window(state, f, f, ev)


def window_unwatched(state: GameState, f: Frame, ev: Events) -> None:
    """`window` when nobody looks at the state between the announcement and the asking (an
    `advance` without `at_window`): both in one step, the same events and decisions, and no
    announced frame to push and pop (windows are the commonest step of a game)."""
    if "plays" in f:
        plays = f["plays"]  # clockwise_plays(state, plays) without the call when there is nothing to sort
        RESOLVE[f["w"]](state, f, [*plays] if len(plays) < 2 else clockwise_plays(state, plays), ev)
    elif "announced" not in f:
        ev.append(_WINDOW_EVENTS[f["w"]])  # emit_window(ev, f["w"]), made once per window kind
        _ask_window(state, f, None, ev)
    else:
        _ask_window(state, f, f, ev)


def _ask_window(state: GameState, f: Frame, announced: Frame | None, ev: Events) -> None:
    """Ask the window's seats that can react (every seat the rules let, with `blind_windows`);
    `announced` is `f` as its announcement step pushed it, None if it was folded into this one.

    The seats, options and prompt are WINDOWS[f["w"]]'s, read here from the tables its
    callables read (a call each per window, and per seat, at the commonest step of a game);
    tests/core/test_r5_windows.py checks both give the same."""
    wk = f["w"]
    asks: list[tuple[int, tuple[Option, ...]]] = []
    blind, decline = state.blind_windows, _DECLINE[wk]
    hands = state.hands
    if wk == "guano":  # R4.5: every seat, clockwise, with its guano cards
        z = f["zone"]
        for s in ROUND[state.players][state.active]:
            hand = hands[s]
            for c in hand:
                if c in _GUANO_PLAY:
                    opts = [decline]  # a loop, not a comprehension (a function made and called)
                    for c in first_of(hand, GUANO_KINDS):
                        opts.append(_GUANO_PLAY[c][z])
                    asks.append((s, (*opts,)))
                    break
            else:
                if blind:
                    asks.append((s, (decline,)))
        prompt = _GUANO_PROMPT[z]
    else:
        if wk == "fine":
            seats, held, prompt = OTHERS[state.players][state.active][f["by"]], _FINES, _FINE_PROMPT[f["zone"]]
        elif wk == "share":
            card = f["card"]
            seats, held, prompt = OTHERS[state.players][state.active][f["by"]], _SHARES[card], _SHARE_PROMPT[card]
        elif wk == "birdseed":
            seats, held, prompt = f["owners"], _BIRDSEEDS, _BIRDSEED_PROMPT
        else:
            seats, held, prompt = (f["by"],), _SWEEPERS, _SWEEPER_PROMPT
        for s in seats:  # the first copy of the window's card in a seat's hand is its option
            for c in hands[s]:
                if c in held:
                    asks.append((s, (decline, held[c])))
                    break
            else:
                if blind:
                    asks.append((s, (decline,)))
    if asks:
        asking = {**f, "plays": ()} if announced is not None else {**f, "announced": True, "plays": ()}
        ask_each(state, asking, _WINDOW_KIND[wk], prompt, asks)
    else:
        state.next_id += state.players  # as if asked: ids must not tell how many were
        # RESOLVE[wk](state, f, [], ev), without the call where no play leaves nothing to do but
        # go on (a fine window: its card resolves; guano, birdseed: nothing)
        if wk == "fine":
            state.stack.append(f["then"])
        elif wk != "guano" and wk != "birdseed":
            RESOLVE[wk](state, f, [], ev)


def window_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    if value == PASS:
        state.stack.append(f)  # unchanged, and frames are never mutated: no copy
    else:
        state.stack.append({**f, "plays": f["plays"] + ((player, value),)})


def clockwise_plays(state: GameState, plays: tuple[tuple[int, str], ...]) -> list[tuple[int, str]]:
    if len(plays) < 2:
        return list(plays)
    rank = seat_rank(state)
    return sorted(plays, key=lambda p: rank[p[0]])


def _resolve_share(state: GameState, f: Frame, plays: list[tuple[int, str]], ev: Events) -> None:
    for s, card in plays:
        state.hands[s] = less(state.hands[s], card)
        state.played.append(card)
        emit_played(ev, s, card, ZIDS[f["zone"]], True)
    players = [f["by"]]  # a loop, not a generator (a function made and called)
    for s, _ in plays:
        players.append(s)
    state.stack.append({"k": "wroom", "zone": f["zone"], "players": (*players,)})


def _resolve_fine(state: GameState, f: Frame, plays: list[tuple[int, str]], ev: Events) -> None:
    state.stack.append(f["then"])
    if not plays:
        return
    (fining, card), rest = plays[0], plays[1:]
    state.hands[fining] = less(state.hands[fining], card)
    state.played.append(card)
    emit_played(ev, fining, card, None, True)
    emit(ev, _FINED, player=f["by"], by=fining)
    for s, c in rest:
        emit(ev, _RETURNED, player=s, cards=(c,))
    state.stack.append({"k": "window", "w": "sweeper", "by": f["by"], "fined_by": fining})


def _resolve_sweeper(state: GameState, f: Frame, plays: list[tuple[int, str]], ev: Events) -> None:
    s = f["by"]
    if plays:
        card = plays[0][1]
        state.hands[s] = less(state.hands[s], card)
        state.played.append(card)
        emit_played(ev, s, card, None, True)
        emit(ev, _FINE_CANCELLED, player=s)
    elif state.hands[s]:
        hand = tuple(state.hands[s])
        state.discard.extend(hand)
        state.hands[s] = []
        emit(ev, _HAND_DISCARDED, player=s, cards=hand)


def _resolve_birdseed(state: GameState, f: Frame, plays: list[tuple[int, str]], ev: Events) -> None:
    for s, card in plays:
        state.hands[s] = less(state.hands[s], card)
        state.played.append(card)
        emit_played(ev, s, card, None, True)
    for s, _ in reversed(plays):
        state.stack.append({"k": "redirect", "by": s, "zone": None, "chosen": ()})


def _resolve_guano(state: GameState, f: Frame, plays: list[tuple[int, str]], ev: Events) -> None:
    # All reactions leave their hands together, so a nested window cannot ask for them again.
    for s, card in plays:
        _lift_guano(state, s, card, f["zone"], True, ev)
    for s, card in reversed(plays):
        state.stack.append({"k": "react_guano", "by": s, "card": card, "zone": f["zone"]})


Resolve = Callable[[GameState, Frame, list[tuple[int, str]], Events], None]
RESOLVE: Final[dict[str, Resolve]] = {
    "share": _resolve_share,
    "fine": _resolve_fine,
    "sweeper": _resolve_sweeper,
    "birdseed": _resolve_birdseed,
    "guano": _resolve_guano,
}


def react_guano(state: GameState, f: Frame, ev: Events) -> None:
    """R4.5: a guano reaction played onto the Zone where the Infamous Pigeon arrived resolves."""
    by, z = f["by"], f["zone"]
    fine_window(state, by, z, {"k": "guano", "by": by, "zone": z, "cards": (f["card"],)})


# ---- Effects ------------------------------------------------------------------------------


def wroom(state: GameState, f: Frame, ev: Events) -> None:
    """R5.1: every pigeon of the Road (Zot!: the Cables) becomes a trophy, dealt one at a time
    to the active player then the sharing players clockwise."""
    z, players = f["zone"], f["players"]
    for i, pigeon in enumerate(list(state.pigeons[z])):
        make_trophy(state, players[i % len(players)], pigeon, z, ev)


def blam(state: GameState, f: Frame, ev: Events) -> None:
    """R5.2: convert two pigeons on the Statue (or one on your Balcony), then scare the rest;
    with no pigeon there, nothing happens (R5 intro [D])."""
    z, picked = f["zone"], f["picked"]
    need = min(2 if z == STATUE_I else 1, len(state.pigeons[z]))
    if len(picked) < need:
        left = []  # a loop, not a comprehension (a function made and called)
        for p in state.pigeons[z]:
            if p not in picked:
                left.append(p)
        if len(left) + len(picked) == need:
            picked = picked + tuple(left)
        else:
            prompt = f"Blam! Which pigeon on {zone_name(zid(state, z))} becomes a trophy?"
            opts = [pigeon_option(state, p) for p in left]
            ask(state, {**f, "picked": picked}, f["by"], _PICK, prompt, opts)
            return
    if not state.pigeons[z]:
        return  # R5 [D]: played where there is no pigeon, it takes nothing (its recall counts)
    for pigeon in picked:
        make_trophy(state, f["by"], pigeon, z, ev)
    state.stack.append(scare(z, f["by"], "blam"))


def blam_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    state.stack.append({**f, "picked": f["picked"] + (value,)})


def birdseed_sources(state: GameState, by: int, z: int) -> tuple[int, ...]:
    """R5.3: the other Zones in table order: City Locations, then Balconies clockwise from `by`."""
    return _SOURCES[state.players][by][z]


_SOURCES: Final = {
    n: [
        [
            tuple(y for y in (*range(BALCONY0), *(BALCONY0 + (by + k) % n for k in range(n))) if y != z)
            for z in range(BALCONY0 + n)
        ]
        for by in range(n)
    ]
    for n in range(1, MAX_PLAYERS + 1)
}
"""Players -> seat -> Zone -> `birdseed_sources`, made once."""


def birdseed(state: GameState, f: Frame, ev: Events) -> None:
    """R5.3: from every other Zone that has a pigeon that may land on the chosen Zone, one
    pigeon (the player's pick) moves there. With room for one from each, every such Zone gives
    one, in table order, and no pick may leave the others without room; with room short
    [D], the player picks, one at a time, the Zone and pigeon that move next, until the chosen
    Zone is full or every eligible Zone has given one."""
    z, moves, by = f["zone"], f["moves"], f["by"]
    extra = 0  # planned(state, moves).get(z, 0), and the Zones that gave, in one loop
    given = set()
    book = state.book
    for m in moves:
        given.add(m[1])
        if m[2] == z:
            extra += book[m[0]].size
    movable: dict[int, list[str]] = {}
    # open_to_all(z), written out: then no pigeon needs checking one by one
    anything_fits = z >= BALCONY0 or (z != CABLES_I and CITY_CAPACITY[z] is None)
    for y in _SOURCES[state.players][by][z]:  # birdseed_sources(state, by, z)
        if y not in given:
            if anything_fits:
                ps = [*state.pigeons[y]]
            else:  # a loop, not a comprehension (a function made and called)
                ps = []
                for p in state.pigeons[y]:
                    if fits(state, z, p, extra):
                        ps.append(p)
            if ps:
                movable[y] = ps
    if not movable:
        if moves:
            state.stack.append(batch(moves))
        return
    first = next(iter(movable))
    if anything_fits:
        room_for_all, ps = True, movable[first]
    else:
        book, cap = state.book, CITY_CAPACITY[z]
        assert cap is not None  # a Zone with a limit
        free = cap - spaces(state, z) - extra
        need = least = 0  # what each Zone giving needs at least, in all and the first's: loops,
        for y, ps in movable.items():  # not comprehensions and min() (a function made and called each)
            small = book[ps[0]].size
            for p in ps:
                if book[p].size < small:
                    small = book[p].size
            need += small
            if y == first:
                least = small
        room_for_all = need <= free
        rest = need - least  # what the other Zones need at least
        ps = [p for p in movable[first] if book[p].size + rest <= free]
    if room_for_all:
        prompt = _BIRDSEED_FROM[first]
        book = state.book
        opts = []
        for p in ps:  # pigeon_option(state, p) each, a loop: a comprehension and a call each cost a call
            opts.append(pigeon_option_named(p, book[p].name, None))
    else:
        prompt = f"Birdseed: {zone_name(zid(state, z))} has no room for one from every Zone: which pigeon moves next?"
        opts = [pigeon_option(state, p, y) for y, ps in movable.items() for p in ps]
    ask(state, f, by, _PICK, prompt, opts)


_BIRDSEED_FROM: Final = tuple(f"Birdseed: which pigeon comes from {zone_name(zone)}?" for zone in ZIDS)
"""Zone index -> Birdseed's prompt for the pigeon from there, made once."""


def birdseed_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    pigeon = str(value)
    src = 0
    for ps in state.pigeons:  # a loop, not next() of a generator (two calls)
        if pigeon in ps:
            break
        src += 1
    state.stack.append({**f, "moves": f["moves"] + ((pigeon, src, f["zone"], f["by"]),)})


def guano(state: GameState, f: Frame, ev: Events) -> None:
    """R5.4: the guano lands; with a Fat Pigeon there, more guano may follow free; on the
    Crowd, every card scares the pigeons there."""
    z, by, cards = f["zone"], f["by"], f["cards"]
    if cards[-1] in state.air:
        state.air.remove(cards[-1])
        state.guano[z] += (cards[-1],)
        # emit_plain(ev, _GUANO_LANDS, by, (cards[-1],), ZIDS[z], None), positionally
        ev.append(
            new_event(Event, (_GUANO_LANDS, by, (cards[-1],), ZIDS[z], None, False, 0, 0, 0, False, None, 0, None))
        )
    book = state.book
    for p in state.pigeons[z]:  # a loop, not any() of a generator (two calls); the hand looked at only then
        if book[p].rule is _FAT:
            more = first_of(state.hands[by], GUANO_KINDS)
            break
    else:
        more = []
    if more:
        where = zone_name(zid(state, z))
        opts = [Option(DONE, "No more guano")] + [
            Option(c, f"Add {card_label(state, c)} onto {where}", (c, zid(state, z))) for c in more
        ]
        prompt = f"A Fat Pigeon is on {where}: add more guano there for free?"
        ask(state, f, by, _BONUS_ASKS, prompt, opts)
        return
    if z == CROWD_I:
        for _ in cards:
            state.stack.append(scare(z, by, "crowd"))


def guano_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    if value == DONE:
        if f["zone"] == CROWD_I:
            for _ in f["cards"]:
                state.stack.append(scare(f["zone"], player, "crowd"))
        return
    card = str(value)
    state.hands[player] = less(state.hands[player], card)
    state.air.append(card)
    state.stack.append({**f, "cards": f["cards"] + (card,)})


def sweep(state: GameState, f: Frame, ev: Events) -> None:
    """R5.6: all guano leaves a Zone; 3.5 keeps one card of your choice as a trophy, 3.0 makes
    them all one trophy worth 1 VP."""
    z, by = f["zone"], f["by"]
    cards = state.guano[z]
    if state.edition is _V30:
        state.guano[z] = ()
        emit(ev, _SWEPT, player=by, cards=cards, zone=zid(state, z))
        state.trophies[by] = [*state.trophies[by], trophy(cards, 1)]
        emit(ev, _TROPHY, player=by, cards=cards, vp=1)
        return
    choices = first_of(cards, GUANO_KINDS)
    opts = [Option(c, f"Keep {card_label(state, c)} as a trophy", (c,)) for c in choices]
    ask(state, f, by, _KEEP_ASKS, "Which guano card do you keep as a trophy?", opts)


def sweep_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    z, keep = f["zone"], str(value)
    cards = state.guano[z]
    state.guano[z] = ()
    emit(ev, _SWEPT, player=player, cards=cards, zone=zid(state, z))
    state.discard.extend(c for c in cards if c != keep)
    vp = 2 if kind_of(keep) is _MOUNTAIN else 1
    state.trophies[player] = [*state.trophies[player], trophy((keep,), vp)]
    emit(ev, _TROPHY, player=player, cards=(keep,), vp=vp)


def _batch_index(state: GameState) -> int:
    for i in range(len(state.stack) - 1, -1, -1):
        if state.stack[i]["k"] == "batch":
            return i
    raise AssertionError("a Birdseed redirect with no batch to redirect")


def redirect(state: GameState, f: Frame, ev: Events) -> None:
    """R5.3 reaction: choose another Zone, then which incoming pigeons go there (legal only)."""
    by = f["by"]
    moves = state.stack[_batch_index(state)]["moves"]
    if f["zone"] is None:
        opts = [zone_option(state, y) for y in redirect_targets(state, by, moves)]
        ask(state, f, by, _TARGET_ASKS, "Birdseed: send the pigeons to which Zone?", opts)
        return
    z = f["zone"]
    chosen, book = f["chosen"], state.book
    extra = 0  # planned(state, moves).get(z, 0) and the chosen pigeons' spaces, in loops (no calls)
    for m in moves:
        if m[2] == z:
            extra += book[m[0]].size
    for p in chosen:
        extra += book[p].size
    home = BALCONY0 + by
    opts = []  # a loop, not comprehensions (a function made and called each)
    for m in moves:
        if m[2] == home and m[0] not in chosen and fits(state, z, m[0], extra):
            opts.append(pigeon_option(state, m[0]))
    if opts:
        if chosen:
            opts.insert(0, _SEND_NO_MORE)
        ask(state, f, by, _PICK, _REDIRECT_TO[z], opts)
        return
    _redirect_announce(state, f, ev)


_SEND_NO_MORE: Final = Option(DONE, "Send no more")
_REDIRECT_TO: Final = tuple(f"Birdseed: which pigeon goes to {zone_name(zone)} instead?" for zone in ZIDS)
"""Zone index -> the redirect's prompt for the pigeons going there, made once."""


def redirect_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    if f["zone"] is None:
        state.stack.append({**f, "zone": ZINDEX[value]})  # zindex(), a call less
    elif value == DONE:
        _redirect_announce(state, f, ev)
    else:
        state.stack.append({**f, "chosen": f["chosen"] + (value,)})


def _redirect_announce(state: GameState, f: Frame, ev: Events) -> None:
    by, z = f["by"], f["zone"]
    for pigeon in f["chosen"]:
        emit(ev, _HEADING, player=by, cards=(pigeon,), to=zid(state, z))
    fine_window(state, by, z, {"k": "redirect_apply", "by": by, "zone": z, "chosen": f["chosen"]})


def redirect_apply(state: GameState, f: Frame, ev: Events) -> None:
    """R5.3 reaction resolves: the chosen pigeons of the batch now land on the new Zone."""
    i = _batch_index(state)
    b = state.stack[i]
    moved = set(f["chosen"])
    moves = tuple((m[0], m[1], f["zone"], f["by"]) if m[0] in moved else m for m in b["moves"])
    state.stack[i] = {**b, "moves": moves}


def targets(state: GameState, seat: int, card: str) -> list[int]:
    """R5: the Zones `card` may aim at when played as an action (empty: it cannot be played).
    Guano and Mountain of Guano need a Zone with a pigeon; Wroom!, Zot! and Blam! need none [D]."""
    kind = _KIND[card]  # kind_of(card)
    n = BALCONY0 + state.players  # zone_count(state)
    p = state.pigeons
    if kind in GUANO_KINDS:
        out = []  # a loop, not a comprehension (a function made and called)
        for z in range(n):
            if p[z]:
                out.append(z)
        return out
    if kind is _WROOM:
        return [0]  # R5 [D]: Wroom!, Zot! and Blam! need no pigeon (they then take nothing)
    if kind is _ZOT:
        return [2]
    if kind is _BLAM:
        return [STATUE_I, BALCONY0 + seat]
    if kind is _BIRDSEED:
        return list(_birdseed_targets(state, n))
    if kind is _SWEEPER:
        return [z for z in _sweeper_zones(state, n) if state.guano[z]]
    return []


def playable(state: GameState, seat: int, card: str) -> bool:
    """Whether `targets(state, seat, card)` is not empty, without listing them: R3.1 asks it of
    every card in hand at every action, and most cards have a target."""
    kind = _KIND[card]
    if kind in GUANO_KINDS:
        return any(state.pigeons)
    if kind is _BIRDSEED:
        pigeons = state.pigeons
        for y in range(1, BALCONY0 + state.players):  # zone_count(state)
            if pigeons[y]:
                return True  # that pigeon may move to the Road, which takes any (R1.2): the usual case, quick
        return next(_birdseed_targets(state, BALCONY0 + state.players), None) is not None
    if kind is _SWEEPER:
        guano = state.guano
        # _sweeper_zones(state, zone_count(state)), written out; a loop: any() of a generator costs two calls
        for z in range(BALCONY0 + state.players) if state.edition is _V30 else range(BALCONY0):
            if guano[z]:
                return True
        return False
    return kind in _ANYWHERE


assert open_to_all(0), "playable() counts on the Road taking any pigeon"
_ANYWHERE: Final = frozenset((_WROOM, _ZOT, _BLAM))
"""R5 [D]: the cards that need no pigeon: they always have a target."""
ANYWHERE: Final = _ANYWHERE


def _sweeper_zones(state: GameState, n: int) -> range:
    """R5.6: the Zones a Sweeper may clean (3.5: the City Locations)."""
    return range(n) if state.edition is _V30 else range(BALCONY0)


def _birdseed_targets(state: GameState, n: int) -> Iterator[int]:
    """R5.3: the Zones that some pigeon of another Zone may legally move to (a generator, so
    `playable` stops at the first)."""
    p = state.pigeons
    occupied = []
    for y in range(n):  # a loop, not a comprehension (a function made and called)
        if p[y]:
            occupied.append(y)
    if not occupied:
        return
    for z in range(n):
        if occupied == [z]:
            continue
        if z >= BALCONY0 or (z != CABLES_I and CITY_CAPACITY[z] is None):  # open_to_all(z)
            yield z
            continue
        cap = CITY_CAPACITY[z]
        if cap is not None and spaces(state, z) >= cap:
            continue  # full: every pigeon takes at least one space
        for y in occupied:  # loops, not any() of a generator (a function made and called)
            if y != z:
                for q in p[y]:
                    if fits(state, z, q):
                        break
                else:
                    continue
                yield z
                break


def play_action(state: GameState, seat: int, card: str, z: int, ev: Events) -> None:
    """Play `card` from hand as an action onto Zone z."""
    kind = _KIND[card]  # kind_of(card)
    if kind in GUANO_KINDS:
        play_guano(state, seat, card, z, False, ev)
    elif kind is _BIRDSEED:
        state.hands[seat] = less(state.hands[seat], card)
        state.played.append(card)
        emit_played(ev, seat, card, ZIDS[z], False)
        fine_window(state, seat, z, {"k": "birdseed", "by": seat, "zone": z, "moves": ()})
    else:
        announce(state, seat, card, z, False, ev)


# The frame kinds this module owns: `core.rules` joins every module's tables.
STEPS: Final[Steps] = {
    "window": window,
    "react_guano": react_guano,
    "wroom": wroom,
    "blam": blam,
    "birdseed": birdseed,
    "guano": guano,
    "sweep": sweep,
    "redirect": redirect,
    "redirect_apply": redirect_apply,
}
ANSWERS: Final[Answers] = {
    "window": window_answer,
    "blam": blam_answer,
    "birdseed": birdseed_answer,
    "guano": guano_answer,
    "sweep": sweep_answer,
    "redirect": redirect_answer,
}
