"""The game log: what happened, in the engine's plain sentences, newest at the bottom."""

from __future__ import annotations

import re
from typing import Final, Iterable, Mapping, Sequence

from textual.content import Content
from textual.widget import Widget

from core.cards import PigeonDef
from core.events import Event, EventKind, describe
from pigeon_tui.themes import second_person

QUIET: Final = frozenset({EventKind.WINDOW, EventKind.HEADING})
"""Events left out of the log: a reaction window says nothing (R5.7); a pigeon heading somewhere
is followed by its landing."""


def sentences(
    events: Iterable[Event], book: Mapping[str, PigeonDef], names: Sequence[str], me: int | None = None
) -> list[tuple[str, bool]]:
    """(sentence, starts a turn) for each event worth logging; "You" when the reader is so named."""
    you = me is not None and 0 <= me < len(names) and names[me] == "You"
    out: list[tuple[str, bool]] = []
    for event in events:
        if event.kind in QUIET:
            continue
        try:
            text = describe(event, book, names)
        except (KeyError, ValueError, IndexError):
            text = f"({event.kind.value})"
        text = _AN.sub(r"\1n \2", text)
        if you:
            text = second_person(text)
        out.append((text, event.kind is EventKind.TURN))
    return out


_AN = re.compile(r"\b([Aa]) ([AEIOU])")
"""The engine writes "a Infamous Pigeon"; the log says "an"."""


class GameLog(Widget):
    """The latest sentences that fit, wrapped to the current width; the whole story is kept
    for the log screen."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.lines: list[tuple[str, bool]] = []

    def add(self, lines: Sequence[tuple[str, bool]]) -> None:
        if lines:
            self.lines.extend(lines)
            self.refresh()

    def clear(self) -> None:
        self.lines.clear()
        self.refresh()

    def render(self) -> Content:
        width = max(1, self.content_region.width or self.size.width)
        height = max(1, self.content_region.height or self.size.height)
        out: list[Content] = []
        for text, turn in reversed(self.lines):
            out[:0] = Content.styled(text, "bold" if turn else "$text-muted").wrap(width)
            if len(out) >= height:
                break
        return Content("\n").join(out[-height:])
