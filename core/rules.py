"""The engine's public verbs: `pending`, `apply` and `load` (design.md, "The engine").

The steps and answers of every frame kind come from the modules that own them, joined here:
nothing registers by being imported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from core import effects, pigeons, turn
from core.decisions import Decision, OptionValue, find_choice
from core.events import Event, EventKind
from core.flow import FORCED, Answers, Events, Frame, Steps
from core.state import GameState, check, read
from core.views import read_glances

__all__ = ["ANSWERS", "STEPS", "AtWindow", "advance", "apply", "find", "load", "pending"]


def _forced(state: GameState, f: Frame, events: Events) -> None:
    """A question with one answer (`core.flow.ask`): the frame under it takes the answer."""
    frame = state.stack.pop()
    ANSWERS[frame["k"]](state, frame, f["player"], f["value"], events)


ANSWERS: Final[Answers] = {**turn.ANSWERS, **pigeons.ANSWERS, **effects.ANSWERS}
STEPS: Final[Steps] = {**turn.STEPS, **pigeons.STEPS, **effects.STEPS, FORCED: _forced}
_UNWATCHED: Final[Steps] = {**STEPS, "window": effects.window_unwatched}
"""STEPS for an `advance` without `at_window`: nothing looks at the state between a window's
announcement and its asking, so they run as one step."""
assert len(STEPS) == len(turn.STEPS) + len(pigeons.STEPS) + len(effects.STEPS) + 1, "a frame kind has two owners"

AtWindow = Callable[[GameState], None]
"""Called with the state as it is at each WINDOW event (see `advance`)."""


def pending(state: GameState) -> list[Decision]:
    """The open decisions: one during a turn, several at once in a reaction window, none
    once the game is over."""
    return list(state.open)


def find(state: GameState, player: int, decision_id: int, option: object) -> tuple[Decision, OptionValue]:
    """Validate a choice without changing anything. Raises IllegalChoice."""
    return find_choice(state.open, state.over, player, decision_id, option)


def apply(
    state: GameState, player: int, decision_id: int, option: object, at_window: AtWindow | None = None
) -> list[Event]:
    """Apply one choice and run the game on to the next open decision.

    Returns the events that happened, in order. Raises IllegalChoice (wrong player, stale
    decision, option not offered, game over), leaving `state` unchanged. `at_window`: see
    `advance`.
    """
    open_, stack = state.open, state.stack
    # find(): the commonest choices (a value the only open decision offers, handed back as it is,
    # as bots do, or a text or a tuple of texts equal to one) checked here, a call less at every
    # decision; anything else, refusals included, goes through find_choice
    value: OptionValue | None = None
    if len(open_) == 1:
        decision = open_[0]
        if decision.id == decision_id and decision.player == player:
            for o in decision.options:
                if o[0] is option:  # the very value offered ([0]: .value is a descriptor call):
                    value = option  # valid as it is, without the type checks below
                    break
            else:
                kind: type | None = type(option)
                if kind is tuple:  # as find_choice takes it only if made of str and int (not bool)
                    for x in option:  # type: ignore[attr-defined]
                        if type(x) is not str and type(x) is not int:
                            kind = None
                            break
                if kind is str or kind is tuple:
                    for o in decision.options:
                        if o[0] == option:
                            value = o[0]
                            break
    if value is None:
        decision, value = find_choice(open_, state.over, player, decision_id, option)
    if state.unread is not None:  # views glanced at this state: built before it changes
        read_glances(state)
    open_.remove(decision)
    events: Events = []
    frame = stack.pop()
    ANSWERS[frame["k"]](state, frame, player, value, events)
    if at_window is not None:
        advance(state, events, at_window)
        return events
    steps = _UNWATCHED  # advance(state, events), written out: this runs at every decision
    while stack and not open_:
        frame = stack.pop()
        steps[frame["k"]](state, frame, events)
    return events


def advance(state: GameState, events: Events, at_window: AtWindow | None = None) -> None:
    """Run frames until a decision is open or the game is over.

    `at_window`, if given, is called with the state just after each WINDOW event is appended
    to `events` (the event is then `events[-1]`), before anything of that window is asked or
    resolved: the public state as of that event, for a host that shows each window with the
    board as it stood then. It must not change the state (clone it to keep it).
    """
    if state.unread is not None:
        read_glances(state)
    # Not `state.over` in the loops' tests: the game ends by `core.turn.game_over`, which empties
    # the stack (and nothing answers a decision of a game that is over).
    stack, open_ = state.stack, state.open
    if at_window is None:
        steps = _UNWATCHED
        while stack and not open_:
            frame = stack.pop()
            steps[frame["k"]](state, frame, events)
        return
    while stack and not open_:
        frame = stack.pop()
        n = len(events)
        STEPS[frame["k"]](state, frame, events)
        if len(events) > n and events[-1].kind is EventKind.WINDOW:
            at_window(state)


def load(d: Any) -> GameState:
    """The state `d` describes (a `to_dict`, or a hand-built position: docs/engine.md), run on to
    its next decision; the events of that run are dropped. Raises ValueError, saying what is
    wrong, on corrupt data, frames of unknown kinds included."""
    state = read(d)
    unknown = [f["k"] for f in state.stack if f["k"] not in STEPS or f["k"] == FORCED]
    if unknown:  # a FORCED frame is answered as soon as it is pushed: it never rests on a stack
        raise ValueError(f"unknown frame kinds in stack: {unknown}")
    if not state.over and not state.open:
        advance(state, [])
    check(state)
    return state
