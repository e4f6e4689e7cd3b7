"""Decisions: the one vocabulary shared by humans, bots, the network and tests (design.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

OptionValue = str | int | tuple[str | int, ...]
"""msgpack packs tuples as arrays; `normalize` turns decoded lists back into tuples."""


class DecisionKind(StrEnum):
    """What a decision asks; docs/engine.md lists each kind's option values."""

    ACTION = "action"  # R3.1: the active player's next action
    TARGET = "target"  # R5: the Zone a played card aims at
    DISCARD = "discard"  # R3.2: a card paid to convert
    PICK = "pick"  # R5.2, R5.3: a pigeon among several
    LAND = "land"  # R4.1, R4.2: where a pigeon lands when there is a choice
    LADY = "lady"  # R4.4: the pigeon the Lady pulls to her Zone, or none
    BONUS = "bonus"  # R5.4: more guano onto a Zone with a Fat Pigeon, or done
    KEEP = "keep"  # R5.6: the guano card the Sweeper keeps as a trophy
    REACT_SHARE = "react_share"  # R5.1: share a Wroom!/Zot!
    REACT_FINE = "react_fine"  # R5.5: fine a Birdseed or guano play
    REACT_SWEEPER = "react_sweeper"  # R5.6: cancel a Fine against you
    REACT_BIRDSEED = "react_birdseed"  # R5.3: redirect pigeons about to land on your Balcony
    REACT_GUANO = "react_guano"  # R4.5: guano onto the Zone the Infamous Pigeon reached
    # CuBirds (core/cubirds): a turn is species, row, end, then the optional draw and flock
    LAY_SPECIES = "lay_species"  # C3.1: which species to lay (all your cards of it)
    LAY_ROW = "lay_row"  # C3.1: on which row
    LAY_END = "lay_end"  # C3.1: at which end of the row
    DRAW_TWO = "draw_two"  # C3.3: draw 2 cards or not
    FLY = "fly"  # C4.1: fly a flock (which species) or not


REACTIONS = frozenset(
    {
        DecisionKind.REACT_SHARE,
        DecisionKind.REACT_FINE,
        DecisionKind.REACT_SWEEPER,
        DecisionKind.REACT_BIRDSEED,
        DecisionKind.REACT_GUANO,
    }
)

PASS = "pass"
DONE = "done"
BACK = "back"
"""Option values with a fixed meaning: decline a reaction, end a chain, step back (docs/engine.md)."""


class Option(NamedTuple):
    value: OptionValue
    label: str
    refs: tuple[str, ...] = ()
    """Card ids and Zone ids this option refers to, so a client can highlight them."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A question to one seat, answered with the value of one of its options (docs/engine.md)."""

    id: int
    """Single use: answering a decision that is no longer open is a stale choice."""
    player: int
    kind: DecisionKind
    prompt: str
    options: tuple[Option, ...]
    """Never empty; every value is distinct."""

    def values(self) -> list[OptionValue]:
        return [o.value for o in self.options]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "player": self.player,
            "kind": self.kind.value,
            "prompt": self.prompt,
            "options": [[plain(o.value), o.label, list(o.refs)] for o in self.options],
        }

    @classmethod
    def from_dict(cls, d: Any) -> Decision:
        try:
            opts = tuple(Option(normalize(v), str(label), tuple(map(str, refs))) for v, label, refs in d["options"])
            dec = cls(int(d["id"]), int(d["player"]), DecisionKind(d["kind"]), str(d["prompt"]), opts)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt decision {d!r}: {exc}") from None
        if not opts or len(set(dec.values())) != len(opts):
            raise ValueError(f"decision {dec.id} has no options or repeated ones")
        return dec


class ChoiceErrorCode(StrEnum):
    """Why `apply` refused a choice (`IllegalChoice.code`); the host sends the same values as
    `net.errors.ErrorCode`s."""

    NOT_YOUR_DECISION = "not_your_decision"
    STALE_DECISION = "stale_decision"
    OPTION_NOT_OFFERED = "option_not_offered"
    GAME_OVER = "game_over"


class IllegalChoice(Exception):
    """A choice `apply` refused; the state is unchanged."""

    def __init__(self, code: ChoiceErrorCode, detail: str) -> None:
        super().__init__(f"{code.value}: {detail}")
        self.code = code
        self.detail = detail


def find_choice(
    open_: Sequence[Decision], over: bool, player: int, decision_id: int, option: object
) -> tuple[Decision, OptionValue]:
    """The open decision a choice answers and the option value it names, for any game; changes
    nothing. Raises IllegalChoice (game over, stale id, another seat's decision, not offered)."""
    if over:
        raise IllegalChoice(ChoiceErrorCode.GAME_OVER, "the game is over")
    for decision in open_:
        if decision.id == decision_id:
            break
    else:
        raise IllegalChoice(ChoiceErrorCode.STALE_DECISION, f"decision {decision_id!r} is not open")
    if decision.player != player:
        raise IllegalChoice(ChoiceErrorCode.NOT_YOUR_DECISION, f"decision {decision_id} belongs to another player")
    try:
        value = option if type(option) is str or _plain_tuple(option) else normalize(option)
    except ValueError:
        raise IllegalChoice(ChoiceErrorCode.OPTION_NOT_OFFERED, f"{option!r} is not an option value") from None
    for o in decision.options:
        if o[0] == value:  # o.value: a NamedTuple field read by name is a descriptor call, by index is not
            return decision, o[0]
    raise IllegalChoice(
        ChoiceErrorCode.OPTION_NOT_OFFERED, f"{value!r} is not among the options of decision {decision_id}"
    )


def _plain_tuple(option: object) -> bool:
    """A tuple of str and int (not bool) is already an option value as normalize() makes it."""
    if type(option) is not tuple:
        return False
    for x in option:
        if type(x) is not str and type(x) is not int:
            return False
    return True


def normalize(value: Any) -> OptionValue:
    """An option value as the engine compares it: lists (from msgpack or JSON) become tuples."""
    if isinstance(value, list | tuple):
        return tuple(normalize(v) for v in value)  # type: ignore[misc]
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ValueError(f"not an option value: {value!r}")
    return value


def plain(value: OptionValue) -> Any:
    """An option value as JSON/msgpack-friendly data (tuples become lists)."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value
