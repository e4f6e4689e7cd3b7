"""What the cards do, in words for players: built from the engine's card data (core.cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from core.cards import ACTIONS, BALCONY, Edition, PigeonDef, Rule, action_def
from pigeon_tui.themes import ZONE_NAMES

RULE_TEXT: Final[Mapping[Rule, str]] = {
    Rule.NONE: "No special rule.",
    Rule.FAT: "Takes 2 spaces. Guano played onto its Zone may bring all your other guano along, free.",
    Rule.INFAMOUS: (
        "Wherever it arrives, anyone may throw guano there. "
        "Converted, it is shuffled back and a face-down Flock card is taken instead."
    ),
    Rule.LADY: "When she arrives, whoever moved her may pull another pigeon to her Zone.",
    Rule.STUPID: "Not scared by Blam! or by the Crowd.",
    Rule.LAME: "Never on the Cables.",
}


def place_name(place: str) -> str:
    if place == BALCONY:
        return "the active player's Balcony"
    return f"the {ZONE_NAMES[place]}" if place in ZONE_NAMES else place


def _either(places: tuple[str, ...]) -> str:
    names = [place_name(p) for p in places]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def entry_text(row: PigeonDef) -> str:
    """Where a revealed pigeon lands (R4.1), from its entry tiers."""
    return "Lands on " + ", else ".join(_either(tier) for tier in row.entry) + "."


def pigeon_help(row: PigeonDef) -> str:
    size = "" if row.size == 1 else f" (size {row.size})"
    return f"{row.name}{size}: {entry_text(row)} {RULE_TEXT[row.rule]}"


def action_help(card: str, edition: Edition = Edition.V35) -> str:
    """An Action card's name, recall, active use and reaction, on one line, in the edition's words."""
    row = action_def(ACTIONS[card].kind, edition)
    act = row.text if row.active else "No active use."
    return f"{row.name} (+{row.recall} to the Invasion): {act} Reaction: {row.reaction}"
