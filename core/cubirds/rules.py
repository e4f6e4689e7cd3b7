"""CuBirds' public verbs `pending`, `apply` and `load`, and the decisions of a turn as small steps:
species, row, end (C3.1); draw two or not (C3.3); fly a flock or not (C4.1)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from typing import Final

from core.cubirds.cards import (
    DRAW,
    DRAW_TWO,
    FLY,
    LAY_END,
    LAY_ROW,
    LAY_SPECIES,
    LEFT,
    RIGHT,
    ROW_IDS,
    SPECIES,
    SPECIES_DEFS,
    SPECIES_OF,
    SPECIES_ORDER,
)
from core.cubirds.events import Event, birds
from core.cubirds.state import Cards, GameState, read
from core.cubirds.turn import FIELD_ONE, Events, draw_cards, enclosures, end_turn, flock_size, fly, lay
from core.decisions import BACK, PASS, Decision, DecisionKind, Option, OptionValue, find_choice
from core.frozen import slot_constructor

DRAW_VALUE: Final = "draw"
"""The option of draw_two that draws (PASS declines)."""

_BACK: Final = Option(BACK, "Back", ())
_ROW_OPTIONS: Final = (*(Option(r, f"Row {i + 1}", (r,)) for i, r in enumerate(ROW_IDS)), _BACK)
_DRAW_OPTIONS: Final = (Option(DRAW_VALUE, f"Draw {DRAW} cards", ()), Option(PASS, "Don't draw", ()))
_ROW_INDEX: Final[dict[OptionValue, int]] = {r: i for i, r in enumerate(ROW_IDS)}
_OF: Final = SPECIES_OF


def pending(state: GameState) -> list[Decision]:
    """The open decisions: the active player's one, or none once the game is over."""
    return list(state.open)


def apply(state: GameState, player: int, decision_id: int, option: object) -> list[Event]:
    """Apply one choice and run the game on to the next decision.

    Returns the events that happened, in order. Raises IllegalChoice (wrong player, stale
    decision, option not offered, game over), leaving `state` unchanged.
    """
    open_ = state.open
    if open_ and type(option) is str:
        decision = open_[0]
        if decision.id == decision_id and decision.player == player:
            for o in decision.options:  # the usual choice, checked here without find_choice's generality
                if o[0] == option:
                    break
            else:
                o = _offered(*find_choice(open_, state.over, player, decision_id, option))
        else:
            decision, value = find_choice(open_, state.over, player, decision_id, option)
            o = _offered(decision, value)
    else:
        decision, value = find_choice(open_, state.over, player, decision_id, option)
        o = _offered(decision, value)
    state.open = ()
    ev: Events = []
    _ANSWERS[decision.kind](state, o, ev)
    return ev


def _offered(decision: Decision, value: OptionValue) -> Option:
    """The option of `decision` whose value find_choice returned."""
    for o in decision.options:
        if o[0] == value:
            return o
    raise AssertionError(f"{value!r} is not an option of decision {decision.id}")


def load(d: object) -> GameState:
    """The state `d` describes (a `to_dict`, or a hand-built one: docs/engine.md), its decision
    asked again (a step with nothing to ask moves on, as in play; those events are dropped).
    Raises ValueError, saying what is wrong, on corrupt data."""
    state = read(d)
    if not state.over:
        ask(state, [])
    return state


def ask(state: GameState, ev: Events) -> None:
    """Open the decision of the state's step; a step with nothing to ask moves on (no draw
    without cards to draw, no flock without one in hand, a turn with an empty hand ends)."""
    while not state.over and not _ASKS[state.step](state, ev):
        pass


def _ask_species(state: GameState, ev: Events) -> bool:
    """C3.1: the species to lay; a turn with an empty hand ends. Whether a decision opened."""
    options = _species_options(state.hands[state.active], _LAY_LABELS)
    if not options:
        end_turn(state, ev)
        return False
    state.open = (_new_decision(state.next_id, state.active, LAY_SPECIES, _LAY_PROMPT, options),)
    state.next_id += 1
    return True


def _ask_row(state: GameState, ev: Events) -> bool:
    """C3.1: the row (asked here only when a state is loaded or the end step goes back)."""
    assert state.laying is not None
    hand = state.hands[state.active]
    prompt = _ROW_PROMPTS[state.laying][list(map(_KIND, hand)).count(state.laying)]
    state.open = (_new_decision(state.next_id, state.active, LAY_ROW, prompt, _ROW_OPTIONS),)
    state.next_id += 1
    return True


def _ask_end(state: GameState, ev: Events) -> bool:
    """C3.1: the end (asked here only when a state is loaded)."""
    assert state.laying is not None and state.row is not None
    options = _end_options(state.rows[state.row], state.laying, state.row)
    state.open = (_new_decision(state.next_id, state.active, LAY_END, _END_PROMPTS[state.row], options),)
    state.next_id += 1
    return True


def _ask_draw(state: GameState, ev: Events) -> bool:
    """C3.3: draw two or not; no draw without cards to draw."""
    if not state.draw and not state.discard:
        state.step = FLY
        return False
    state.open = (_new_decision(state.next_id, state.active, DRAW_TWO, _DRAW_PROMPT, _DRAW_OPTIONS),)
    state.next_id += 1
    return True


def _ask_fly(state: GameState, ev: Events) -> bool:
    """C4.1: fly a flock or not; without one in hand the turn ends (C5)."""
    hand = state.hands[state.active]
    options = _species_options(hand, _FLY_LABELS) if has_flock(hand) else ()
    if not options:
        end_turn(state, ev)
        return False
    state.open = (_new_decision(state.next_id, state.active, FLY, _FLY_PROMPT, options + _FLY_PASS),)
    state.next_id += 1
    return True


_ASKS: Final[dict[DecisionKind | None, Callable[[GameState, Events], bool]]] = {
    LAY_SPECIES: _ask_species,
    LAY_ROW: _ask_row,
    LAY_END: _ask_end,
    DRAW_TWO: _ask_draw,
    FLY: _ask_fly,
}
"""Each step's opener: True if it opened a decision, False if the step moved on (`ask` goes on
with the next). An answer that knows the next step calls its opener at once, `ask` only if it
moved on: the step is not looked up again at every decision."""


def _species_options(hand: Cards, labels: Mapping[str, tuple[str, ...]]) -> tuple[Option, ...]:
    """One option per species in the hand (rarest first) that has a label for its count: every
    species to lay (_LAY_LABELS), or those that can fly (_FLY_LABELS, C4.1)."""
    # every species a key already, in table order (a C copy): a card's group is found with one
    # lookup, and the groups come out rarest first
    groups = _NO_GROUPS.copy()
    for c in hand:
        s = _OF[c]
        cards = groups[s]
        if cards is None:
            groups[s] = [c]
        else:
            cards.append(c)
    out = []
    for s, cards in groups.items():
        if cards is not None:
            label = labels[s][len(cards)]
            if label:
                out.append(_option((s, label, tuple(cards))))
    return tuple(out)


_NO_GROUPS: Final[dict[str, list[str] | None]] = dict.fromkeys(SPECIES_ORDER)


def _end_options(row: Cards, species: str, index: int) -> tuple[Option, ...]:
    """Left and right, each naming what it would enclose (C3.2) in its label and refs."""
    i, j = enclosures(row, species)
    if j - i == len(row):
        return _NOTHING[index]
    rid = ROW_IDS[index]
    left, right = row[:i], row[j:]
    return (
        _option((LEFT, _left_label(left), (rid, *left))),
        _option((RIGHT, _right_label(right), (rid, *right))),
        _BACK,
    )


def _end_label(name: str, taken: Cards) -> str:
    return f"{name}: take {birds(taken)}" if taken else f"{name}: take nothing"


def _labels(flocks: bool) -> dict[str, tuple[str, ...]]:
    """Option labels by species and count in hand ('' where a flock cannot fly)."""
    out = {}
    for s, d in SPECIES.items():
        row = [""]
        for k in range(1, d.count + 1):
            if not flocks:
                row.append(f"{k} {d.plural}" if k > 1 else f"1 {d.name}")
            elif k >= d.small:
                keep = flock_size(s, k)
                row.append(f"Fly {k} {d.plural}: {keep} to your collection, {k - keep} discarded")
            else:
                row.append("")
        out[s] = tuple(row)
    return out


_option: Final = partial(tuple.__new__, Option)
"""Build an Option without its Python-level __new__: options are built for every decision."""
_left_label: Final = lru_cache(maxsize=4096)(partial(_end_label, "Left end"))
_right_label: Final = lru_cache(maxsize=4096)(partial(_end_label, "Right end"))
"""An end's label, kept: the same few cards are offered turn after turn."""
_NOTHING: Final = tuple(
    (Option(LEFT, "Left end: take nothing", (r,)), Option(RIGHT, "Right end: take nothing", (r,)), _BACK)
    for r in ROW_IDS
)
"""By row: the end options of a species the row does not hold."""
_KIND: Final = SPECIES_OF.__getitem__
_new_decision: Final = slot_constructor(Decision)
"""Decision(...) without the frozen __init__'s object.__setattr__ per field (one per decision)."""


_LAY_LABELS: Final = _labels(False)
_FLY_LABELS: Final = _labels(True)
_LAY_PROMPT: Final = "Your turn: lay all your birds of one species at an end of a row."
_ROW_PROMPTS: Final = {s: tuple(f"Lay {label} on which row?" for label in row) for s, row in _LAY_LABELS.items()}
"""By species and count in hand, as _LAY_LABELS (the prompts are made once, not per decision)."""
_END_PROMPTS: Final = tuple(f"At which end of row {i + 1}?" for i in range(len(ROW_IDS)))
_DRAW_PROMPT: Final = f"Your birds enclosed none: draw {DRAW} cards?"
_FLY_PROMPT: Final = "Fly a flock?"
_FLY_PASS: Final = (Option(PASS, "Don't fly", ()),)
_FEWEST_FLOCK: Final = min(d.small for d in SPECIES.values())
"""C4.1: a smaller hand has no flock to fly."""


def has_flock(hand: Cards) -> bool:
    """C4.1: whether some species of the hand has the cards of a small flock. Asked at the end
    of every turn and most often false, so counted all at once: each card adds a 1 to its
    species' 6-bit field of one integer (a C sum, no Python step per card); adding 32 - small
    to each field carries into the field's top bit exactly where the count is >= small."""
    return len(hand) >= _FEWEST_FLOCK and bool((sum(map(FIELD_ONE, hand)) + _CARRY) & _TOP_BITS)


_CARRY: Final = sum((32 - d.small) << (6 * i) for i, d in enumerate(SPECIES_DEFS))
_TOP_BITS: Final = sum(32 << (6 * i) for i in range(len(SPECIES_DEFS)))
assert all(d.count < 32 for d in SPECIES_DEFS), "a species' count must fit its 5-bit field"


def _answer_species(state: GameState, o: Option, ev: Events) -> None:
    """C3.1: the species to lay (all the hand's cards of it: the option's refs); the row next."""
    species = o[0]
    assert type(species) is str
    state.laying = species
    state.step = LAY_ROW
    state.open = (_new_decision(state.next_id, state.active, LAY_ROW, _ROW_PROMPTS[species][len(o[2])], _ROW_OPTIONS),)
    state.next_id += 1


def _answer_row(state: GameState, o: Option, ev: Events) -> None:
    """C3.1: the row to lay on; the end next (or back to the species)."""
    value = o[0]
    if value == BACK:
        state.laying = None
        state.step = LAY_SPECIES
        ask(state, ev)
        return
    assert state.laying is not None
    row = _ROW_INDEX[value]
    state.row = row
    state.step = LAY_END
    options = _end_options(state.rows[row], state.laying, row)
    state.open = (_new_decision(state.next_id, state.active, LAY_END, _END_PROMPTS[row], options),)
    state.next_id += 1


def _answer_end(state: GameState, o: Option, ev: Events) -> None:
    """C3.1-C3.4: lay, take what is enclosed, refill; the draw is offered only if nothing was."""
    value = o[0]
    if value == BACK:
        state.row = None
        state.step = LAY_ROW
        ask(state, ev)
        return
    assert state.laying is not None and state.row is not None and type(value) is str
    # the option's refs are the row and the cards this end encloses (_end_options)
    took = lay(state, state.active, state.laying, state.row, value, ev, len(o[2]) - 1)
    state.laying = state.row = None
    if took:
        state.step = FLY
        if not _ask_fly(state, ev):
            ask(state, ev)
    else:
        state.step = DRAW_TWO
        if not _ask_draw(state, ev):
            ask(state, ev)


def _answer_draw(state: GameState, o: Option, ev: Events) -> None:
    """C3.3: draw two, or not."""
    if o[0] == DRAW_VALUE:
        draw_cards(state, state.active, DRAW, ev)
    state.step = FLY
    if not _ask_fly(state, ev):
        ask(state, ev)


def _answer_fly(state: GameState, o: Option, ev: Events) -> None:
    """C4.1: fly a flock, or not; then the turn ends (C5)."""
    value = o[0]
    if value != PASS:
        assert type(value) is str
        fly(state, state.active, value, ev)
    end_turn(state, ev)
    if not state.over and not _ask_species(state, ev):
        ask(state, ev)


_ANSWERS: Final[dict[DecisionKind, Callable[[GameState, Option, Events], None]]] = {
    LAY_SPECIES: _answer_species,
    LAY_ROW: _answer_row,
    LAY_END: _answer_end,
    DRAW_TWO: _answer_draw,
    FLY: _answer_fly,
}
"""Each step's answer: it changes the state and opens the next decision (`ask`, or at once
where the next step is known)."""
