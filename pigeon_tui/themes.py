"""Display glyphs, names and style classes for cards and Zones (never in core), with an ASCII set."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from core.cards import ACTIONS, CITY, ActionKind, FlockKind, PigeonDef
from core.structs import Struct


class Glyphs(Struct):
    """Every non-letter symbol the client draws; the ASCII set keeps to printable ASCII. (A
    Struct, core.structs: the app defines it at start, where a frozen dataclass costs far more.)"""

    active: str
    trophy: str
    dot: str
    arrow: str
    ellipsis: str
    cursor: str
    highlight: str
    bar: str
    rule: str
    times: str = "×"
    """Between a label and a count: "Fat Pigeon ×2"."""


UNICODE: Final = Glyphs(
    active="▶", trophy="★", dot="·", arrow="→", ellipsis="…", cursor="›", highlight="◆", bar="│", rule="─"
)
ASCII: Final = Glyphs(
    active=">", trophy="*", dot="|", arrow="->", ellipsis="...", cursor=">", highlight="@", bar="|", rule="-", times="x"
)


def glyphs(ascii_only: bool) -> Glyphs:
    return ASCII if ascii_only else UNICODE


PIGEON_LETTER: Final[Mapping[FlockKind, str]] = {
    FlockKind.FAT: "F",
    FlockKind.INFAMOUS: "I",
    FlockKind.LADY: "L",
    FlockKind.STUPID: "S",
    FlockKind.LAME: "M",
    FlockKind.COMMON: "C",
}
"""One letter per kind, so pigeons stay distinguishable without colour (Lame is M, laMe)."""

KIND_COLOURS: Final[Mapping[str, str]] = {
    "pigeon-fat": "#f0a030",
    "pigeon-infamous": "#e0505a",
    "pigeon-lady": "#d070e0",
    "pigeon-stupid": "#60c060",
    "pigeon-lame": "#40c0d0",
    "pigeon-common": "#e0e0e0",
    "guano": "#b08850",
}
"""Theme variables (`$pigeon-fat`, ...) for app.tcss: one hue per kind, chosen to stay apart
when a 16-colour terminal maps them to yellow, red, magenta, green, cyan, white."""

PIGEON_SHORT: Final[Mapping[FlockKind, str]] = {
    FlockKind.FAT: "Fat",
    FlockKind.INFAMOUS: "Infamous",
    FlockKind.LADY: "Lady",
    FlockKind.STUPID: "Stupid",
    FlockKind.LAME: "Lame",
    FlockKind.COMMON: "Common",
}

GUANO_LETTER: Final[Mapping[ActionKind, str]] = {ActionKind.GUANO: "g", ActionKind.MOUNTAIN: "G"}
"""Guano cards lying in a Zone: g for a Guano, G for a Mountain of Guano."""

ZONE_NAMES: Final[Mapping[str, str]] = {"road": "Road", "statue": "Statue", "cables": "Cables", "crowd": "Crowd"}


def pigeon_style(row: PigeonDef) -> str:
    """A pigeon's style: its kind's theme colour (see KIND_COLOURS), bold."""
    return f"$pigeon-{row.kind.value} bold"


def guano_style(kind: ActionKind) -> str:
    return "$guano bold" if kind is ActionKind.MOUNTAIN else "$guano"


CARD_STYLE: Final[Mapping[ActionKind, str]] = {
    ActionKind.BLAM: "$pigeon-infamous",
    ActionKind.GUANO: "$guano",
    ActionKind.MOUNTAIN: "$guano bold",
    ActionKind.WROOM: "$primary",
    ActionKind.ZOT: "$primary",
    ActionKind.BIRDSEED: "$pigeon-stupid",
    ActionKind.FINE: "$pigeon-lady",
    ActionKind.SWEEPER: "$pigeon-lame",
}
"""An Action card's name style in the hand (theme variables)."""


def card_style(card: str) -> str:
    return CARD_STYLE[ACTIONS[card].kind]


LANDED_STYLE: Final = "bold italic"
"""A pigeon that just landed, for a moment (see `pigeon_tui.changes`)."""
HIGHLIGHT_STYLE: Final[Mapping[str, str]] = {"offered": "underline", "cursor": "reverse bold"}
"""How a card an option refers to is lit: underlined, or reversed under the prompt's cursor
(both stay visible without colour)."""


def zone_title(zone: str, names: tuple[str, ...]) -> str:
    """ "Road", or the owner's name for a Balcony ("b2")."""
    if zone in CITY:
        return ZONE_NAMES[zone]
    seat = int(zone[1:])
    return names[seat] if seat < len(names) else f"Player {seat + 1}"


def fit(text: str, width: int, g: Glyphs) -> str:
    """`text` cut to `width` cells with an ellipsis from `g` (ASCII-safe, unlike Textual's own)."""
    if len(text) <= width:
        return text
    if width <= len(g.ellipsis):
        return text[:width]
    return text[: width - len(g.ellipsis)] + g.ellipsis


_PLAYER = re.compile(r"\bPlayer (\d+)('s)?")


def with_names(text: str, names: tuple[str, ...], me: int | None) -> str:
    """Engine text says "Player 2"; put the seat's name, and "you"/"your" for the reader."""

    def player(m: re.Match[str]) -> str:
        seat = int(m.group(1)) - 1
        possessive = bool(m.group(2))
        if seat == me:
            word = "your" if possessive else "you"
            return word.capitalize() if m.start() == 0 else word
        name = names[seat] if 0 <= seat < len(names) else m.group(0)
        return name + ("'s" if possessive else "")

    return _PLAYER.sub(player, text)
