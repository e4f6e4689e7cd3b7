"""The game log: what happened, one sentence per event (pigeon_tui.sentences), newest at the
bottom."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from textual.content import Content
from textual.widget import Widget

from core.cards import PigeonDef
from core.events import Event, EventKind
from pigeon_tui.sentences import Reader, sentence


def sentences(
    events: Iterable[Event], book: Mapping[str, PigeonDef], names: Sequence[str], me: int | None = None
) -> list[tuple[str, bool]]:
    """(sentence, starts a turn) for each event worth logging, "you" for seat `me` (without
    one, for the seat named "You": a replay of your own game)."""
    if me is None and "You" in names:
        me = list(names).index("You")
    reader = Reader(book, names, me)
    out: list[tuple[str, bool]] = []
    for event in events:
        try:
            text = sentence(event, reader)
        except (KeyError, ValueError, IndexError):
            text = f"({event.kind.value})"
        if text is not None:
            out.append((text, event.kind is EventKind.TURN))
    return out


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
            wrapped = Content.styled(text, "bold" if turn else "$text-muted").wrap(width)
            if out and len(out) + len(wrapped) > height:
                break  # whole sentences only: a wrapped one's tail alone at the top reads as nonsense
            out[:0] = wrapped
        out = out[-height:]
        return Content("\n").join([Content()] * (height - len(out)) + out)  # the newest stays at the bottom
