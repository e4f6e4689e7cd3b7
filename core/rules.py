"""The engine's public verbs: `pending` and `apply` (design.md, "The engine")."""

from __future__ import annotations

from typing import Callable

from core import effects as _effects  # noqa: F401  (registers the card effects and windows)
from core import pigeons as _pigeons  # noqa: F401  (registers landing, scaring, the Lady)
from core import turn as _turn  # noqa: F401  (registers the turn's frames)
from core.decisions import Decision, OptionValue, find_choice
from core.events import Event, EventKind
from core.flow import ANSWERS, STEPS, Events
from core.state import GameState

__all__ = ["STEPS", "AtWindow", "advance", "apply", "find", "pending"]

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
    decision, value = find(state, player, decision_id, option)
    state.open.remove(decision)
    events: Events = []
    frame = state.stack.pop()
    ANSWERS[frame["k"]](state, frame, player, value, events)
    advance(state, events, at_window)
    return events


def advance(state: GameState, events: Events, at_window: AtWindow | None = None) -> None:
    """Run frames until a decision is open or the game is over.

    `at_window`, if given, is called with the state just after each WINDOW event is appended
    to `events` (the event is then `events[-1]`), before anything of that window is asked or
    resolved: the public state as of that event, for a host that shows each window with the
    board as it stood then. It must not change the state (clone it to keep it).
    """
    stack = state.stack
    if at_window is None:
        while not state.open and stack and not state.over:
            frame = stack.pop()
            STEPS[frame["k"]](state, frame, events)
        return
    while not state.open and stack and not state.over:
        frame = stack.pop()
        n = len(events)
        STEPS[frame["k"]](state, frame, events)
        if len(events) > n and events[-1].kind is EventKind.WINDOW:
            at_window(state)
