"""R3 and R6: the turn's two actions, drawing, converting, the Invasion and the game's end."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from core.cards import ACTION_DEFS, ACTIONS, ActionKind
from core.decisions import BACK, DecisionKind, Option, OptionValue
from core.effects import ANYWHERE, GUANO_KINDS, play_action, playable, targets
from core.events import Event, EventKind
from core.flow import (
    BALCONY0,
    LOADS_KEPT,
    ZIDS,
    ZINDEX,
    ZONE_LOADS,
    Answers,
    Events,
    Frame,
    Steps,
    card_label,
    emit,
    first_of,
    new_decision,
    new_event,
    zid,
    zone_load_option,
)
from core.pigeons import enter_card, make_trophy
from core.rng import shuffle
from core.state import HAND_LIMIT as HAND_LIMIT  # R3.3: drawing fills the hand up to this many cards
from core.state import GameState, trophy, without

# Enum members read on every step, as module constants: reading `EventKind.LANDED` goes through
# EnumType's __getattr__ hook, about 900 machine instructions a read on this interpreter (a global: 20).
_ACTION: Final = DecisionKind.ACTION
_TARGET: Final = DecisionKind.TARGET
_DISCARD_ASKS: Final = DecisionKind.DISCARD
_INVASION: Final = EventKind.INVASION
_DISCARDED: Final = EventKind.DISCARDED
_TROPHY: Final = EventKind.TROPHY
_RESHUFFLED: Final = EventKind.RESHUFFLED
_DREW: Final = EventKind.DREW
_REVEALED: Final = EventKind.REVEALED
_FINAL_PHASE: Final = EventKind.FINAL_PHASE
_TURN: Final = EventKind.TURN
_GAME_OVER: Final = EventKind.GAME_OVER
_MOUNTAIN: Final = ActionKind.MOUNTAIN
_WROOM: Final = ActionKind.WROOM
_ZOT: Final = ActionKind.ZOT

MAX_TURNS: Final = 1000
"""R6.3: the machines' safety stop."""
DRAW: Final = "draw"
PLAY: Final = "play"
CONVERT: Final = "convert"


_BACK: Final = Option(BACK, "Back: choose another action")


def convert_cost(state: GameState, card: str) -> int:
    """R3.2: cards to discard to convert this card of your Balcony."""
    return _COST.get(card, 2)  # a pigeon costs two


_COST: Final = {c: 2 if row.kind is _MOUNTAIN else 1 for c, row in ACTIONS.items()}
"""R3.2: the discards a guano card of your Balcony costs to convert (Mountain of Guano 2)."""


def action_options(state: GameState, seat: int) -> tuple[Option, ...]:
    """R3.1: draw, play a card with a legal target, or convert a card of your Balcony."""
    hand = state.hands[seat]
    opts = [_DRAW]
    # first_of(hand, _PLAYABLE), written out: this runs at every action
    kinds: list[ActionKind] = []
    occupied = any(state.pigeons)  # playable() of guano, asked once
    for card in hand:
        kind = _KIND[card]
        if kind not in kinds:
            kinds.append(kind)
            # playable(state, seat, card), without the call for the kinds it answers at once
            if kind in _PLAYABLE and (
                kind in ANYWHERE or (occupied if kind in GUANO_KINDS else playable(state, seat, card))
            ):
                opts.append(_PLAY[card])
    home = BALCONY0 + seat
    where, can_pay = ZIDS[home], len(hand)
    pigeons = state.pigeons[home]
    if pigeons and can_pay >= 2:  # R3.2: a pigeon costs two cards
        book = state.book
        for card in pigeons:
            opts.append(_convert_option(card, book[card].name, 2, where))
    guano = state.guano[home]
    if guano and can_pay:
        for card in first_of(guano, GUANO_KINDS):
            cost = _COST[card]  # convert_cost(state, card)
            if cost <= can_pay:
                opts.append(_convert_option(card, ACTIONS[card].name, cost, where))
    return (*opts,)


@lru_cache(maxsize=4096)
def _convert_option(card: str, name: str, cost: int, zone: str) -> Option:
    """Options are immutable: one per card, name (custom cards have theirs), cost and Balcony."""
    return Option((CONVERT, card), f"Convert {name} (discard {cost})", (card, zone))


_DRAW: Final = Option(DRAW, f"Draw up to {HAND_LIMIT} cards")
_PLAY: Final = {cid: Option((PLAY, cid), f"Play {row.name}", (cid,)) for cid, row in ACTIONS.items()}
"""Action options are immutable: one per card, made once."""
_PLAYABLE: Final = frozenset(k for k in ActionKind if ACTION_DEFS[k].active)
"""R5: the kinds with an active use (Fine has none)."""
_KIND: Final = {cid: row.kind for cid, row in ACTIONS.items()}
_END_TURN: Final[Frame] = {"k": "end_turn"}
_ACTION_FRAME: Final[Frame] = {"k": "action"}
"""Frames with nothing but their kind, one each, pushed again and again: frames are never changed
once pushed (a step pushes a new one), so sharing one costs nothing and saves making a dict."""
_INVASION_EVENTS: Final[dict[tuple[int, int], Event]] = {}
"""(seat, cards to reveal) -> the INVASION event, filled as met: a few dozen of them at most."""


def action(state: GameState, f: Frame, ev: Events) -> None:
    """R3.1: exactly two actions, then the Invasion (R3.5)."""
    if state.actions_left == 0:
        n = 1
        for c in state.played:  # a loop, not sum() of a generator (two calls): every turn comes here
            n += ACTIONS[c].recall
        # emit(ev, _INVASION, player=state.active, left=n), positionally, made once per seat and
        # size (events are immutable; one costs ~1,700 machine instructions, a dict look-up ~300)
        seat = state.active
        event = _INVASION_EVENTS.get((seat, n))
        if event is None:
            event = _INVASION_EVENTS[seat, n] = new_event(
                Event, (_INVASION, seat, (), None, None, False, 0, 0, n, False, None, 0, None)
            )
        ev.append(event)
        state.stack.append(_END_TURN)
        state.stack.append({"k": "invasion", "left": n, "of": n})
        return
    # ask(state, f, state.active, _ACTION, prompt, options), written out: every action comes here,
    # and an action is never a forced question (it is answered by the seat, whatever it offers)
    seat = state.active
    state.stack.append(f)
    state.open.append(
        new_decision(state.next_id, seat, _ACTION, _PROMPTS[state.actions_left], action_options(state, seat))
    )
    state.next_id += 1


_PROMPTS: Final = {left: f"Action {3 - left} of 2: what do you do?" for left in (1, 2)}


def action_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    state.stack.append(f)  # the next action, once this one is done or stepped back from
    if value == DRAW:
        state.actions_left -= 1
        draw(state, player, ev)
        return
    assert isinstance(value, tuple)
    verb, card = value[0], str(value[1])
    if verb == PLAY:
        state.stack.append({"k": "target", "card": card})
    else:
        state.stack.append({"k": "pay", "card": card, "paid": ()})


def target(state: GameState, f: Frame, ev: Events) -> None:
    card = f["card"]
    zones = targets(state, state.active, card)
    if len(zones) == 1 and ACTIONS[card].kind in (_WROOM, _ZOT):
        target_answer(state, f, state.active, zid(state, zones[0]), ev)
        return
    book, pigeons = state.book, state.pigeons
    opts = []
    for z in zones:  # zone_option(state, z), written out: a call per Zone offered
        used = 0
        for p in pigeons[z]:
            used += book[p].size
        # zone_load_option(z, used), from its table when made before
        opts.append((ZONE_LOADS[z][used] if used < LOADS_KEPT else None) or zone_load_option(z, used))
    opts.append(_BACK)
    # ask(state, f, state.active, _TARGET, ...), written out: a Zone and Back, never forced
    state.stack.append(f)
    state.open.append(new_decision(state.next_id, state.active, _TARGET, _TARGET_PROMPT[card], (*opts,)))
    state.next_id += 1


_TARGET_PROMPT: Final = {c: f"Play {row.name} onto which Zone?" for c, row in ACTIONS.items()}


def target_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    if value == BACK:
        return
    state.actions_left -= 1
    play_action(state, player, f["card"], ZINDEX[value], ev)  # zindex(), a call less


def pay(state: GameState, f: Frame, ev: Events) -> None:
    """R3.2: pick the cards to discard, one at a time."""
    card, paid = f["card"], f["paid"]
    seat = state.active
    cost = _COST.get(card, 2)  # convert_cost(state, card)
    if len(paid) == cost:
        _convert(state, seat, card, paid, ev)
        return
    left = list(state.hands[seat])
    for c in paid:
        left.remove(c)
    opts = []
    kinds = []
    for c in left:  # first_of(left, _ALL_KINDS), written out: every card paid comes here
        kind = _KIND[c]
        if kind not in kinds:
            kinds.append(kind)
            opts.append(_DISCARD[c])
    opts.append(_BACK)
    # ask(state, f, seat, _DISCARD_ASKS, prompt, opts), written out: a card and Back, never forced
    state.stack.append(f)
    prompt = _pay_prompt(card_label(state, card), len(paid) + 1, cost)
    state.open.append(new_decision(state.next_id, seat, _DISCARD_ASKS, prompt, (*opts,)))
    state.next_id += 1


@lru_cache(maxsize=1024)
def _pay_prompt(what: str, nth: int, cost: int) -> str:
    """Prompts are immutable: one per card name, discard and cost, made once."""
    return f"Convert {what}: discard a card ({nth} of {cost})"


_DISCARD: Final = {c: Option(c, f"Discard {row.name}", (c,)) for c, row in ACTIONS.items()}
_ALL_KINDS: Final = frozenset(ActionKind)


def pay_answer(state: GameState, f: Frame, player: int, value: OptionValue, ev: Events) -> None:
    if value != BACK:
        state.stack.append({**f, "paid": f["paid"] + (value,)})


def _convert(state: GameState, seat: int, card: str, paid: tuple[str, ...], ev: Events) -> None:
    """R3.2: the discards go to the discard pile at once; the card becomes a trophy."""
    state.actions_left -= 1
    hand = state.hands[seat].copy()  # replaced, not changed (a clone shares it)
    for c in paid:
        hand.remove(c)
    state.hands[seat] = hand
    state.discard.extend(paid)
    ev.append(new_event(Event, (_DISCARDED, seat, paid, None, None, False, 0, 0, 0, False, None, 0, None)))
    home = BALCONY0 + seat
    if card in ACTIONS:
        state.guano[home] = without(state.guano[home], card)
        vp = 2 if ACTIONS[card].kind is _MOUNTAIN else 1
        state.trophies[seat] = [*state.trophies[seat], trophy((card,), vp)]
        emit(ev, _TROPHY, player=seat, cards=(card,), vp=vp)
    else:
        make_trophy(state, seat, card, home, ev)


def draw(state: GameState, seat: int, ev: Events) -> None:
    """R3.3: draw up to the hand limit, reshuffling the discard pile when the deck runs out."""
    hand = state.hands[seat]
    room = HAND_LIMIT - len(hand)
    deck = state.deck
    if len(deck) >= room:  # the loop below, at once: the deck's top `room` cards, top first
        drawn = deck[len(deck) - room :]
        drawn.reverse()
        del deck[len(deck) - room :]
    else:
        drawn = []
    while len(drawn) < room:
        if not state.deck:
            if not state.discard:
                break
            state.deck, state.discard = state.discard, []
            state.rng = shuffle(state.rng, state.deck)
            emit(ev, _RESHUFFLED, card_count=len(state.deck))
        drawn.append(state.deck.pop())
    if drawn:
        state.hands[seat] = hand + drawn  # replaced, not changed (a clone shares it)
    # emit(ev, _DREW, player=seat, cards=tuple(drawn), card_count=len(drawn), secret=True), positionally
    n = len(drawn)
    ev.append(new_event(Event, (_DREW, seat, tuple(drawn), None, None, True, 0, n, 0, False, None, 0, None)))


def invasion(state: GameState, f: Frame, ev: Events) -> None:
    """R3.5: reveal the Flock cards one at a time, each fully resolved before the next."""
    if f["left"] == 0 or not state.flock:
        return
    card = state.flock.pop()
    state.air.append(card)
    left = f["left"] - 1
    # emit(ev, _REVEALED, cards=(card,), left=left), positionally
    ev.append(new_event(Event, (_REVEALED, None, (card,), None, None, False, 0, 0, left, False, None, 0, None)))
    state.stack.append({**f, "left": left})  # `of` (the Invasion's size) kept
    # Its entry, run here rather than pushed as a step of its own: nothing can happen in between
    # (it emits no WINDOW event, which alone makes a step boundary visible: core.rules.advance)
    enter_card(state, card, None, ev)


def end_turn(state: GameState, f: Frame, ev: Events) -> None:
    """R3.5, R6: the played pile is discarded; the final phase starts, counts down or ends."""
    state.discard.extend(state.played)
    state.played.clear()
    if state.final_left is not None:
        state.final_left -= 1
        if state.final_left == 0:
            game_over(state, ev)
            return
    elif not state.flock:
        state.final_left = state.players
        emit(ev, _FINAL_PHASE)
    if state.turn >= MAX_TURNS:
        game_over(state, ev)
        return
    start_turn(state, (state.active + 1) % state.players, ev)


def start_turn(state: GameState, seat: int, ev: Events) -> None:
    state.active = seat
    state.turn += 1
    state.actions_left = 2
    # emit(ev, _TURN, player=seat, turn=state.turn), positionally
    ev.append(new_event(Event, (_TURN, seat, (), None, None, False, state.turn, 0, 0, False, None, 0, None)))
    state.stack.append(_ACTION_FRAME)


def game_over(state: GameState, ev: Events) -> None:
    state.over = True
    state.stack.clear()
    state.open.clear()
    emit(ev, _GAME_OVER)


# The frame kinds this module owns: `core.rules` joins every module's tables.
STEPS: Final[Steps] = {"action": action, "target": target, "pay": pay, "invasion": invasion, "end_turn": end_turn}
ANSWERS: Final[Answers] = {"action": action_answer, "target": target_answer, "pay": pay_answer}
