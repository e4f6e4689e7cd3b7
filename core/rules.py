"""The engine's public verbs: `pending` and `apply` (design.md, "The engine")."""

from __future__ import annotations

from core import effects as _effects  # noqa: F401  (registers the card effects and windows)
from core import pigeons as _pigeons  # noqa: F401  (registers landing, scaring, the Lady)
from core import turn as _turn  # noqa: F401  (registers the turn's frames)
from core.decisions import Decision, ErrorCode, IllegalChoice, OptionValue, normalize
from core.events import Event
from core.flow import ANSWERS, STEPS, Events

__all__ = ["STEPS", "advance", "apply", "find", "pending"]
from core.state import GameState


def pending(state: GameState) -> list[Decision]:
    """The open decisions: one during a turn, several at once in a reaction window, none
    once the game is over."""
    return list(state.open)


def find(state: GameState, player: int, decision_id: int, option: object) -> tuple[Decision, OptionValue]:
    """Validate a choice without changing anything. Raises IllegalChoice."""
    if state.over:
        raise IllegalChoice(ErrorCode.GAME_OVER, "the game is over")
    for decision in state.open:
        if decision.id == decision_id:
            break
    else:
        raise IllegalChoice(ErrorCode.STALE_DECISION, f"decision {decision_id!r} is not open")
    if decision.player != player:
        raise IllegalChoice(ErrorCode.NOT_YOUR_DECISION, f"decision {decision_id} belongs to another player")
    try:
        value = option if type(option) is str else normalize(option)
    except ValueError:
        raise IllegalChoice(ErrorCode.OPTION_NOT_OFFERED, f"{option!r} is not an option value") from None
    for o in decision.options:
        if o.value == value:
            return decision, o.value
    raise IllegalChoice(ErrorCode.OPTION_NOT_OFFERED, f"{value!r} is not among the options of decision {decision_id}")


def apply(state: GameState, player: int, decision_id: int, option: object) -> list[Event]:
    """Apply one choice and run the game on to the next open decision.

    Returns the events that happened, in order. Raises IllegalChoice (wrong player, stale
    decision, option not offered, game over), leaving `state` unchanged.
    """
    decision, value = find(state, player, decision_id, option)
    state.open.remove(decision)
    events: Events = []
    frame = state.stack.pop()
    ANSWERS[frame["k"]](state, frame, player, value, events)
    advance(state, events)
    return events


def advance(state: GameState, events: Events) -> None:
    """Run frames until a decision is open or the game is over."""
    stack = state.stack
    while not state.open and stack and not state.over:
        frame = stack.pop()
        STEPS[frame["k"]](state, frame, events)
