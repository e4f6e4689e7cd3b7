"""The cards of Pigeons & Guano as data: one row per kind, one id per physical card (R1, §9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, NamedTuple


class Edition(StrEnum):
    """Rules editions (§10): 3.5 is the French edition 3.5, 3.0 the English 3rd edition."""

    V35 = "3.5"
    V30 = "3.0"


class FlockKind(StrEnum):
    FAT = "fat"
    INFAMOUS = "infamous"
    LADY = "lady"
    STUPID = "stupid"
    LAME = "lame"
    COMMON = "common"


class ActionKind(StrEnum):
    BLAM = "blam"
    GUANO = "guano"
    MOUNTAIN = "mountain"
    WROOM = "wroom"
    ZOT = "zot"
    BIRDSEED = "birdseed"
    FINE = "fine"
    SWEEPER = "sweeper"


class Rule(StrEnum):
    """The special rules a pigeon may carry; the customizable cards pick from these (§9)."""

    NONE = "none"
    FAT = "fat"  # R5.4: guano played where it sits may bring every other guano along
    INFAMOUS = "infamous"  # R4.1 lands on the active Balcony, R4.5 guano reactions, R4.6
    LADY = "lady"  # R4.4: pulls another pigeon to her Zone
    STUPID = "stupid"  # R4.2: not scared by Blam! or by the Crowd
    LAME = "lame"  # R1.2: never on the Cables


ROAD: Final = "road"
STATUE: Final = "statue"
CABLES: Final = "cables"
CROWD: Final = "crowd"
CITY: Final[tuple[str, ...]] = (ROAD, STATUE, CABLES, CROWD)
"""City Locations in table order (R5.3); Zone index i < 4 is CITY[i], Balcony of seat s is 4 + s."""
CITY_CAPACITY: Final[tuple[int | None, ...]] = (None, 4, 4, None)
"""R1.2: spaces per City Location; None is unlimited. Balconies are unlimited (R1.3)."""
BALCONY: Final = "balcony"
"""In an entry rule, the active player's Balcony (R4.1, Infamous)."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
BALCONY0: Final = 4
"""Zone index of seat 0's Balcony; seat s is at BALCONY0 + s."""


def zone_ids(players: int) -> tuple[str, ...]:
    """Zone ids in table order: the four City Locations, then Balconies by seat ("b0", ...)."""
    return _ZONE_IDS[players]


_ZONE_IDS: Final = {n: CITY + tuple(f"b{s}" for s in range(n)) for n in range(1, MAX_PLAYERS + 1)}


class TrophyView(NamedTuple):
    """A trophy as every seat sees it (R8): a view's part, and a trophy's `public` (core.state)."""

    cards: tuple[str, ...]
    """Empty for a trophy taken face down (R4.6, R8.1)."""
    vp: int


@dataclass(frozen=True, slots=True)
class PigeonDef:
    """A kind of pigeon. `entry` lists tiers of landing places: the first tier with a legal
    place is used, and the active player picks within it (R4.1)."""

    kind: FlockKind
    name: str
    size: int
    entry: tuple[tuple[str, ...], ...]
    rule: Rule = Rule.NONE


@dataclass(frozen=True, slots=True)
class ActionDef:
    """A kind of Action card: its name, the Flock cards it adds to the Invasion (R3.5), and its
    texts. (A dataclass with no docstring gets one made from its signature at every start.)"""

    kind: ActionKind
    name: str
    recall: int
    active: bool
    """Whether the card has an active use (R5: Fine has none)."""
    text: str
    reaction: str


# §9 Flock deck: counts from the publisher's online rules v1.0 (Feb 2025), 6-player table;
# the two Common cards are the box's customizable cards [D].
_FLOCK_ROWS: Final[tuple[tuple[PigeonDef, int], ...]] = (
    (PigeonDef(FlockKind.FAT, "Fat Pigeon", 2, ((STATUE,), (CABLES,), (ROAD, CROWD)), Rule.FAT), 12),
    (PigeonDef(FlockKind.INFAMOUS, "Infamous Pigeon", 1, ((BALCONY,),), Rule.INFAMOUS), 6),
    (PigeonDef(FlockKind.LADY, "Lady Pigeon", 1, ((STATUE, CABLES, CROWD),), Rule.LADY), 4),
    (PigeonDef(FlockKind.STUPID, "Stupid Pigeon", 1, ((STATUE, CABLES, ROAD),), Rule.STUPID), 8),
    (PigeonDef(FlockKind.LAME, "Lame Pigeon", 1, ((STATUE, CROWD),), Rule.LAME), 8),
    (PigeonDef(FlockKind.COMMON, "Common Pigeon", 1, (CITY,)), 2),
)
_LAME_ENTRY_30: Final = ((STATUE, ROAD),)
"""§10: in edition 3.0 the Lame Pigeon enters the Statue or the Road."""

# §9 Action deck: counts chosen by the rules file [D] (not published).
_ACTION_ROWS: Final[tuple[tuple[ActionDef, int], ...]] = (
    (
        ActionDef(
            ActionKind.BLAM,
            "Blam!",
            1,
            True,
            "Convert two pigeons on the Statue or one on your Balcony; the rest are scared.",
            "No reaction.",
        ),
        10,
    ),
    (
        ActionDef(
            ActionKind.GUANO,
            "Guano",
            0,
            True,
            "Play onto a Zone with a pigeon (Fat Pigeon there: add your other guano free).",
            "When the Infamous Pigeon arrives in a Zone, play it there.",
        ),
        10,
    ),
    (
        ActionDef(
            ActionKind.MOUNTAIN,
            "Mountain of Guano",
            0,
            True,
            "Play onto a Zone with a pigeon; worth -2 on a Balcony, +2 as a trophy.",
            "When the Infamous Pigeon arrives in a Zone, play it there.",
        ),
        5,
    ),
    (
        ActionDef(
            ActionKind.WROOM,
            "Wroom!",
            1,
            True,
            "Every pigeon on the Road becomes a trophy.",
            "When another player plays Wroom!, play yours to share the trophies.",
        ),
        6,
    ),
    (
        ActionDef(
            ActionKind.ZOT,
            "Zot!",
            1,
            True,
            "Every pigeon on the Cables becomes a trophy.",
            "When another player plays Zot!, play yours to share the trophies.",
        ),
        6,
    ),
    (
        ActionDef(
            ActionKind.BIRDSEED,
            "Birdseed",
            1,
            True,
            "Choose a Zone: one pigeon from every other Zone moves there.",
            "When pigeons are about to land on your Balcony, send some elsewhere.",
        ),
        7,
    ),
    (
        ActionDef(
            ActionKind.FINE,
            "Fine",
            2,
            False,
            "No active use.",
            "When another player plays Birdseed or guano onto a Zone, they discard their hand.",
        ),
        5,
    ),
    (
        ActionDef(
            ActionKind.SWEEPER,
            "Diligent Street Sweeper",
            2,
            True,
            "Remove all guano from a City Location; keep one as a trophy.",
            "When a Fine is played against you, cancel it.",
        ),
        6,
    ),
)

FLOCK_IDS: Final[tuple[str, ...]] = tuple(f"F{i:02d}" for i in range(1, 41))
ACTION_IDS: Final[tuple[str, ...]] = tuple(f"A{i:02d}" for i in range(1, 56))
ALL_IDS: Final[frozenset[str]] = frozenset(FLOCK_IDS + ACTION_IDS)
CUSTOM_IDS: Final[tuple[str, ...]] = FLOCK_IDS[-2:]
"""R1.1: the two customizable Flock cards."""


def _expand(rows: tuple[tuple[object, int], ...], ids: tuple[str, ...]) -> dict[str, object]:
    out: dict[str, object] = {}
    it = iter(ids)
    for row, count in rows:
        for _ in range(count):
            out[next(it)] = row
    assert len(out) == len(ids)
    return out


ACTIONS: Final[Mapping[str, ActionDef]] = _expand(_ACTION_ROWS, ACTION_IDS)  # type: ignore[assignment]
"""Action card id -> its row (R1.1)."""
ACTION_DEFS: Final[Mapping[ActionKind, ActionDef]] = {row.kind: row for row, _ in _ACTION_ROWS}
PIGEON_DEFS: Final[Mapping[FlockKind, PigeonDef]] = {row.kind: row for row, _ in _FLOCK_ROWS}
_BASE_FLOCK: Final[Mapping[str, PigeonDef]] = _expand(_FLOCK_ROWS, FLOCK_IDS)  # type: ignore[assignment]
FLOCK_COUNTS: Final[Mapping[FlockKind, int]] = {row.kind: n for row, n in _FLOCK_ROWS}
ACTION_COUNTS: Final[Mapping[ActionKind, int]] = {row.kind: n for row, n in _ACTION_ROWS}

DEFAULT_CUSTOM: Final[tuple[PigeonDef, PigeonDef]] = (
    PIGEON_DEFS[FlockKind.COMMON],
    PIGEON_DEFS[FlockKind.COMMON],
)


def custom_pigeon(name: str, size: int = 1, places: tuple[str, ...] = CITY, rule: str = "none") -> PigeonDef:
    """Define a customizable Flock card (§9): where it may land when revealed, and one rule.

    Raises ValueError on a card the engine cannot play: an empty or overlong name, a size
    outside 1..4, an unknown place, or places that are all limited (it could find no room).
    """
    if not isinstance(name, str) or not name.strip() or len(name) > 24:
        raise ValueError("custom card name must be 1 to 24 characters")
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 4:
        raise ValueError(f"custom card size must be 1..4, not {size!r}")
    places = tuple(places)
    bad = [p for p in places if p not in CITY and p != BALCONY]
    if not places or bad:
        raise ValueError(f"custom card places must be among {(*CITY, BALCONY)}, got {places!r}")
    if not any(p in (ROAD, CROWD, BALCONY) for p in places):
        raise ValueError("custom card places must include the Road, the Crowd or the Balcony (unlimited)")
    try:
        rule_ = Rule(rule)
    except ValueError:
        raise ValueError(f"custom card rule must be one of {[r.value for r in Rule]}, not {rule!r}") from None
    if rule_ is Rule.LAME and places == (CABLES,):
        raise ValueError("a Lame custom card cannot land only on the Cables")
    return PigeonDef(FlockKind.COMMON, name.strip(), size, (places,), rule_)


CUSTOM_SETTINGS: Final = ("custom_1", "custom_2")
"""The game settings (core.games) of the two customizable cards, F39 and F40, in their text form."""
CUSTOM_KEYS: Final = ("name", "size", "places", "rule")
"""The fields of a customizable card's text form (`custom_from_text`)."""


def custom_to_dict(c: PigeonDef) -> dict[str, Any]:
    """A customizable card's dict form, in states and views."""
    return {"name": c.name, "size": c.size, "places": list(c.entry[0]), "rule": c.rule.value}


def custom_from_dict(d: Any) -> PigeonDef:
    """Raises ValueError on a card the engine cannot play (`custom_pigeon`)."""
    if not isinstance(d, dict):
        raise ValueError("custom card must be a mapping")
    return custom_pigeon(d.get("name", ""), d.get("size", 1), tuple(d.get("places", CITY)), d.get("rule", "none"))


def custom_from_text(text: str) -> PigeonDef:
    """A customizable card from its text form, as a host writes it on a command line:
    `name=Racing Pigeon,size=1,places=road+statue,rule=lady` (only `name` is needed: size 1, any
    City Location, no special rule). "" is the plain Common pigeon. Raises ValueError saying what
    is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"a custom card is a text such as 'name=Racing Pigeon,places=road+crowd', not {text!r}")
    if not text.strip():
        return PIGEON_DEFS[FlockKind.COMMON]
    fields: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in CUSTOM_KEYS:
            raise ValueError(
                f"custom card {text!r}: {part.strip()!r} is not one of {', '.join(k + '=...' for k in CUSTOM_KEYS)}"
            )
        if key in fields:
            raise ValueError(f"custom card {text!r}: {key} is given twice")
        fields[key] = value.strip()
    if "name" not in fields:
        raise ValueError(f"custom card {text!r}: name=... is needed")
    size = fields.get("size", "1")
    if not size.isdigit():
        raise ValueError(f"custom card {text!r}: size must be a number 1..4, not {size!r}")
    places = tuple(p.strip().lower() for p in fields.get("places", "+".join(CITY)).split("+") if p.strip())
    try:
        return custom_pigeon(fields["name"], int(size), places, fields.get("rule", "none").lower())
    except ValueError as exc:
        raise ValueError(f"custom card {text!r}: {exc}") from None


def custom_to_text(card: PigeonDef) -> str:
    """The text form of a customizable card (`custom_from_text` reads it back); "" for the plain
    Common pigeon."""
    if card == PIGEON_DEFS[FlockKind.COMMON]:
        return ""
    return f"name={card.name},size={card.size},places={'+'.join(card.entry[0])},rule={card.rule.value}"


@lru_cache(maxsize=64)
def flock_book(edition: Edition, custom: tuple[PigeonDef, PigeonDef] = DEFAULT_CUSTOM) -> Mapping[str, PigeonDef]:
    """Flock card id -> its row for this edition and these custom cards (shared, read-only)."""
    book = dict(_BASE_FLOCK)
    if edition is Edition.V30:
        lame = PIGEON_DEFS[FlockKind.LAME]
        row30 = PigeonDef(lame.kind, lame.name, lame.size, _LAME_ENTRY_30, lame.rule)
        book.update({cid: row30 for cid, row in book.items() if row.kind is FlockKind.LAME})
    book.update(zip(CUSTOM_IDS, custom, strict=True))
    return book


_TEXTS_30: Final[Mapping[ActionKind, tuple[str, str]]] = {
    ActionKind.FINE: (
        "No active use.",
        "When another player plays Birdseed or guano onto a City Location, they discard their hand.",
    ),
    ActionKind.SWEEPER: (
        "Remove all guano from a City Location or a Balcony; together they make one trophy worth 1 VP.",
        "When a Fine is played against you, cancel it.",
    ),
}
"""§10: the 3.0 wording of the cards whose rules differ (R5.5 Fine's scope, R5.6 the Sweeper)."""


def action_def(kind: ActionKind, edition: Edition = Edition.V35) -> ActionDef:
    """A kind's row with the card text of `edition` (§10: players read their edition's words)."""
    row = ACTION_DEFS[kind]
    if edition is Edition.V30 and kind in _TEXTS_30:
        text, reaction = _TEXTS_30[kind]
        return ActionDef(row.kind, row.name, row.recall, row.active, text, reaction)
    return row


def recall(card_id: str) -> int:
    """Flock cards an Action card adds to the Invasion (R3.5)."""
    return ACTIONS[card_id].recall
