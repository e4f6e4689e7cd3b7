"""House rules (core.house) as the client shows them: on the start and host screens, at the
table and in help."""

from __future__ import annotations

from typing import Final

from core.house import HOUSE_RULES, HouseRules

LABELS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "infamous_empty": ("Infamous", {"resume": "resume (book)", "trophy": "trophy"}),
}
"""House rule -> its label on a settings form (9 cells at most) and each value as shown there."""


def label(name: str) -> str:
    return LABELS.get(name, (name, {}))[0]


def shown(name: str, value: str) -> str:
    return LABELS.get(name, (name, {}))[1].get(value, value)


def pairs(house: HouseRules) -> tuple[tuple[str, str], ...]:
    """The rules set away from the book, as (name, value) pairs (what a host is given)."""
    return tuple(house.changed().items())


def short(house: HouseRules) -> str:
    """The house rules away from the book in a few words ('' when it is the book's game)."""
    return ", ".join(f"{label(k)}: {shown(k, v)}" for k, v in house.changed().items())


def rule_lines(house: HouseRules) -> list[tuple[str, str]]:
    """Every house rule of a game: (`name=value`, what it does), for help."""
    out = []
    for name, value in house.to_dict().items():
        rule = HOUSE_RULES[name]
        out.append((f"{name}={value}", f"{rule.clause}: {rule.help[value]}"))
    return out
