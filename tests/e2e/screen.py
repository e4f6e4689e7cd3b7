"""Reading the table screen as a person does: the Zone boxes, the status line, the hand, the
decks, the prompt and the log, from the characters on an 80x24 screen (nothing from the app).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tests.e2e.terminal import Frame

TOP_LEFT: Final = "╭┏"
TOP_RIGHT: Final = "╮┓"
BOTTOM_LEFT: Final = "╰┗"
EDGE: Final = "─━"
CITY_TITLES: Final = {"Road": "road", "Statue": "statue", "Cables": "cables", "Crowd": "crowd"}
HAND_TITLE: Final = "Your hand ("
MARKS: Final = ("◆", "▶")
"""Signs a Zone title may start with: lit by the prompt, the active seat."""


@dataclass(frozen=True, slots=True)
class Box:
    """A bordered panel: where it is, its border title and subtitle, and what is inside."""

    top: int
    left: int
    bottom: int
    right: int
    title: str
    subtitle: str
    inner: tuple[str, ...]
    """The content rows, without the border and the one-cell padding, right-stripped."""


@dataclass(frozen=True, slots=True)
class Table:
    """The table screen, cut into its parts."""

    status: str
    city: dict[str, Box]
    balconies: tuple[Box, ...]
    """In seat order: left to right, top to bottom."""
    hand: Box
    info: tuple[str, ...]
    """The rows under the hand: decks, played pile, Invasion, cards in the air."""
    prompt: tuple[str, ...]
    log: tuple[str, ...]
    """The log's rows as shown (wrapped), the newest last."""
    log_top: int
    """The screen row the log starts on (it runs to the footer, left of the hand's column)."""
    log_cut: bool
    """Fewer rows than the log's least height show: its newest line is under the footer."""
    footer: str


def boxes(lines: Sequence[str]) -> list[Box]:
    """Every closed box on the screen, in reading order."""
    found: list[Box] = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch not in TOP_LEFT:
                continue
            right = next((i for i in range(c + 1, len(line)) if line[i] in TOP_RIGHT), None)
            bottom = next((j for j in range(r + 1, len(lines)) if lines[j][c] in BOTTOM_LEFT), None)
            if right is None or bottom is None:
                continue
            inner = tuple(lines[j][c + 2 : right - 1].rstrip() for j in range(r + 1, bottom))
            found.append(
                Box(r, c, bottom, right, _label(line[c + 1 : right]), _label(lines[bottom][c + 1 : right]), inner)
            )
    return found


def _label(edge: str) -> str:
    """The text set into a border: `─ Road (1) ─────` -> `Road (1)`."""
    return edge.strip(EDGE).strip()


LOG_MIN_ROWS: Final = 2
"""The log's least height (app.tcss `#log { min-height: 2 }`): with the prompt at its tallest
the layout still gives the log two rows, and the footer covers the second."""
TOAST_EDGE: Final = "▌"
"""The left edge of a notification (a toast), drawn over the bottom right of the screen."""


def covered(lines: Sequence[str]) -> bool:
    """A notification covers part of the screen (its edge runs down two rows or more)."""
    for r in range(len(lines) - 1):
        c = lines[r].find(TOAST_EDGE)
        if c > 0 and lines[r + 1][c : c + 1] == TOAST_EDGE:
            return True
    return False


def parse_table(frame: Frame, covered_too: bool = False) -> Table | None:
    """The table screen's parts, or None if the frame is not a dealt table (another screen,
    a table still dealing) or, unless `covered_too`, a notification covers part of it (the
    log's newest lines, the decks)."""
    lines = frame.lines
    if not covered_too and covered(lines):
        return None
    found = boxes(lines)
    city: dict[str, Box] = {}
    hand = None
    others: list[Box] = []
    for box in found:
        word = _unmarked(box.title).split(" ")[0]
        if word in CITY_TITLES and box.top <= 2:
            city[CITY_TITLES[word]] = box
        elif box.title.startswith(HAND_TITLE):
            hand = box
        else:
            others.append(box)
    if len(city) != 4 or hand is None:
        return None
    city_bottom = max(b.bottom for b in city.values())
    balconies = tuple(b for b in others if b.top > city_bottom and b.bottom < hand.top)
    if not balconies:
        return None
    pane_top = max(b.bottom for b in balconies) + 1
    footer_row = len(lines) - 1
    left = [lines[r][: hand.left].rstrip() for r in range(pane_top, footer_row)]
    backgrounds = frame.backgrounds[pane_top:footer_row] or ("",) * len(left)
    split = len(left)  # the log is the bottom rows on the log's background; the prompt's panel is above
    while split > 0 and backgrounds[split - 1] == backgrounds[-1]:
        split -= 1
    prompt = [row[1:] for row in left[:split]]
    log = [row[1:] for row in left[split:]]
    info = tuple(lines[r][hand.left :].strip() for r in range(hand.bottom + 1, footer_row))
    return Table(
        status=lines[0].strip(),
        city=city,
        balconies=balconies,
        hand=hand,
        info=tuple(x for x in info if x),
        prompt=tuple(prompt),
        log=tuple(x.strip() for x in log if x.strip()),
        log_top=pane_top + split,
        log_cut=len(left) - split < LOG_MIN_ROWS,
        footer=lines[footer_row].strip(),
    )


def _unmarked(title: str) -> str:
    for mark in MARKS:
        title = title.removeprefix(mark).lstrip()
    return title


# ---- what the parts say -------------------------------------------------------------------

_STATUS = re.compile(
    r"^Turn (?P<turn>\d+) · (?P<whose>.+?)(?:, (?P<phase>action \d of 2|Invasion(?:: reveal \d+ of \d+)?))?"
    r"(?: · LAST ROUND: (?P<final>\d+) turns? left)?(?: · .*)?$"
)
_LINK = re.compile(r"\s+(?:connected(?: \d+ ms)?|connecting…|reconnecting…|disconnected)$")
"""The connection, at the status line's right end (one space from the rest, at least)."""
_CITY_TITLE = re.compile(r"^(?:◆ )?(?P<name>Road|Statue|Cables|Crowd) (?:\((?P<n>\d+)\)|(?P<used>\d+)/\d+)$")
_BALCONY_TITLE = re.compile(r"^(?:◆ )?(?:▶ )?(?P<name>.+?) (?P<score>-?\d+)(?: VP)?$")
_SEAT_LINE = re.compile(r"^★(?P<trophies>\d+)(?: troph(?:y|ies))?\s+h(?:and )?(?P<hand>\d+)$")
_HAND_TITLE = re.compile(r"^Your hand \((?P<n>\d+)\)$")
_RECALL = re.compile(r"\s+\+\d+$")
_DECKS = re.compile(r"Flock (?P<flock>\d+)|Deck (?P<deck>\d+)|Discard (?P<discard>\d+)")
_INFO_KEYS: Final = ("Flock", "Deck", "Played", "Invasion", "In the air")


def squash(text: str) -> str:
    """Text with its whitespace removed, so wrapping and padding do not matter."""
    return "".join(text.split())


def reading(table: Table) -> dict[str, str]:
    """What the board says, field by field, in the canonical form of `tests.e2e.check`."""
    out: dict[str, str] = {}
    m = _STATUS.match(_LINK.sub("", table.status))
    if m is None:
        out["status"] = f"unreadable: {table.status!r}"
    else:
        out["turn"] = m["turn"]
        out["whose"] = m["whose"]
        out["phase"] = m["phase"] or ""
        out["final"] = m["final"] or ""
    for zone, box in table.city.items():
        t = _CITY_TITLE.match(box.title)
        out[f"{zone}.used"] = (t["n"] or t["used"]) if t else f"unreadable: {box.title!r}"
        out[f"{zone}.cards"] = squash("".join(box.inner))
    for seat, box in enumerate(table.balconies):
        key = f"b{seat}"
        t = _BALCONY_TITLE.match(box.title)
        out[f"{key}.name"] = t["name"] if t else f"unreadable: {box.title!r}"
        out[f"{key}.score"] = t["score"] if t else ""
        rows = list(box.inner)
        while rows and not rows[-1]:
            rows.pop()
        s = _SEAT_LINE.match(rows[-1].strip()) if rows else None
        out[f"{key}.trophies"] = s["trophies"] if s else f"unreadable: {rows[-1:]!r}"
        out[f"{key}.hand"] = s["hand"] if s else ""
        out[f"{key}.cards"] = squash("".join(rows[:-1]))
    h = _HAND_TITLE.match(table.hand.title)
    out["hand.count"] = h["n"] if h else f"unreadable: {table.hand.title!r}"
    names = [_RECALL.sub("", row) for row in table.hand.inner if row and not row.startswith("  ")]
    out["hand.cards"] = "|".join(n.strip() for n in names if n.strip() != "no cards")
    info = _info_fields(table.info)
    for key in ("flock", "deck", "discard"):
        out[key] = info.get(key, "")
    out["played"] = info.get("Played", "")
    out["invasion"] = info.get("Invasion", "")
    out["air"] = info.get("In the air", "")
    return out


def _info_fields(rows: Sequence[str]) -> dict[str, str]:
    """The rows under the hand, by their key word; a wrapped value is joined back."""
    out: dict[str, str] = {}
    key = None
    for row in rows:
        if row.startswith(("Flock", "Deck")):
            for m in _DECKS.finditer(row):
                for k, v in m.groupdict().items():
                    if v is not None:
                        out[k] = v
            key = None
            continue
        for k in ("Played", "Invasion", "In the air"):
            if row.startswith(k + " "):
                key = k
                out[k] = row[len(k) + 1 :].strip()
                break
        else:
            if key is not None:
                out[key] += " " + row.strip()
    return out


# ---- the prompt, for the player -----------------------------------------------------------

_CELL = re.compile(r"[› ]  ([0-9a-z]) (?=\S)")


def option_keys(table: Table) -> list[str]:
    """The keys the prompt offers, in order; empty when nothing is asked. An option row starts
    with the cursor's cell, then the key right-aligned in three cells; with many options
    more cells follow on the same row."""
    keys: list[str] = []
    for row in table.prompt:
        if not _CELL.match(row):
            continue  # the question, a wrapped label, what the card does
        for m in _CELL.finditer(row):
            if m.start() == 0 or row[m.start() - 1] == " ":
                keys.append(m.group(1))
    return list(dict.fromkeys(keys))
