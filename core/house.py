"""House rules: settings of a game that change a rule the books leave open (a host's choice,
kept in the game's state, record and every view)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Final

from core.structs import Struct


class InfamousEmpty(StrEnum):
    """R4.6: converting the Infamous Pigeon with the Flock deck empty."""

    RESUME = "resume"
    """The book's reading (default): the Infamous goes back alone, no trophy, the game resumes (R6.2)."""
    TROPHY = "trophy"
    """The Infamous itself is the face-down trophy (1 VP); the deck stays empty, nothing resumes."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Every house rule of a game, each at the book's reading unless the host chose otherwise."""

    infamous_empty: InfamousEmpty = InfamousEmpty.RESUME
    """R4.6 with the Flock deck empty: `resume` (the book) or `trophy`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "infamous_empty", _value("infamous_empty", self.infamous_empty))

    def to_dict(self) -> dict[str, str]:
        return {f.name: str(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Any) -> HouseRules:
        """Raises ValueError on a name that is not a house rule or a value it does not offer;
        a rule left out keeps the book's reading."""
        if not isinstance(d, dict):
            raise ValueError("house rules must be a mapping of name to value")
        unknown = sorted(set(map(str, d)) - set(HOUSE_RULES))
        if unknown:
            raise ValueError(f"no house rule {', '.join(unknown)} (known: {', '.join(HOUSE_RULES)})")
        return cls(**{name: _value(name, v) for name, v in d.items()})

    def changed(self) -> dict[str, str]:
        """The rules set away from the book's reading (what a table shows)."""
        return {k: v for k, v in self.to_dict().items() if str(getattr(BOOK, k)) != v}


class HouseRule(Struct):
    """One house rule as a host offers it: its values (the book's first) and what each does. (A
    Struct, core.structs: every client defines it at start, issue 9.)"""

    name: str
    clause: str
    values: tuple[str, ...]
    help: dict[str, str]
    """Value -> what it does."""

    @property
    def summary(self) -> str:
        return "; ".join(f"{k}: {v}" for k, v in self.help.items())


HOUSE_RULES: Final[dict[str, HouseRule]] = {
    "infamous_empty": HouseRule(
        "infamous_empty",
        "R4.6",
        tuple(v.value for v in InfamousEmpty),
        {
            "resume": "converting the Infamous with the Flock deck empty sends it back alone: "
            "no trophy, and the final phase is called off (the book)",
            "trophy": "converting the Infamous with the Flock deck empty makes it the face-down "
            "trophy (1 VP): the deck stays empty and the final phase goes on",
        },
    ),
}
"""Name -> the rule, in the order hosts list them."""

_ENUMS: Final = {"infamous_empty": InfamousEmpty}


def _value(name: str, v: Any) -> Any:
    try:
        return _ENUMS[name](v)
    except ValueError:
        raise ValueError(f"house rule {name} must be one of {', '.join(HOUSE_RULES[name].values)}, not {v!r}") from None


BOOK: Final = HouseRules()
"""Every house rule at the book's reading (the default)."""


def parse_house_rule(text: str) -> tuple[str, str]:
    """`NAME=VALUE` as given on a command line (`infamous_empty=trophy`). Raises ValueError."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise ValueError(f"a house rule is NAME=VALUE (e.g. infamous_empty=trophy), not {text!r}")
    if name not in HOUSE_RULES:
        raise ValueError(f"no house rule {name!r} (known: {', '.join(HOUSE_RULES)})")
    _value(name, value)
    return name, value


def house_rules(pairs: Any) -> HouseRules:
    """HouseRules from (name, value) pairs or `NAME=VALUE` strings (later ones win). Raises ValueError."""
    out: dict[str, str] = {}
    for p in pairs:
        name, value = parse_house_rule(p) if isinstance(p, str) else (str(p[0]), str(p[1]))
        out[name] = value
    return HouseRules.from_dict(out)
