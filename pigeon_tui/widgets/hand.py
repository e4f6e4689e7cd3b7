"""The seat's hand: card names, recall values, and what each card does as action and reaction."""

from __future__ import annotations

from typing import Final

from textual import events
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.style import Style

from core.cards import ACTIONS, Edition
from pigeon_tui.cardtext import action_help
from pigeon_tui.themes import HIGHLIGHT_STYLE, Glyphs, card_style, fit
from pigeon_tui.widgets.lines import LinesWidget
from pigeon_tui.widgets.zone import NO_HIGHLIGHT, Highlight

ONE_LINE_WIDTH: Final = 40
"""From this wide, a card's text may be cut to one line (narrower, the text would say too little)."""
INFO_LINES: Final = 5
"""Lines kept under the hand for the decks, the played pile and the Invasion."""
_LEAST_LINES: Final = {"wrapped": 3, "one-line": 2}
"""Lines a card takes at least with each detail: its name, then what it does (wrapped: the
action and the reaction, a line or more each; one-line: the action cut to one line)."""


class Hand(LinesWidget):
    """The seat's Action cards, one a line; offered cards light up, click one to choose it."""

    class CardChosen(Message):
        """The player clicked a card in their hand."""

        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs
        self._cards: tuple[str, ...] = ()
        self._highlight = NO_HIGHLIGHT
        self._column = 0
        """Height of the hand's column at the last layout."""
        self._drawn = False
        self._lines_for: tuple[tuple[int, int], list[Content]] | None = None
        """The lines drawn last and their (width, budget): a layout asks for them (the height)
        and the paint after it again."""

    def show(
        self, cards: tuple[str, ...], highlight: Highlight, watching: bool = False, edition: Edition = Edition.V35
    ) -> None:
        """Draw `cards` (a spectator, `watching`, has none); their tooltip in `edition`'s words."""
        if self._drawn and (cards, highlight) == (self._cards, self._highlight):
            return
        self._drawn = True
        layout = cards != self._cards  # a new highlight only repaints
        self._cards, self._highlight = cards, highlight
        self._lines_for = None
        self.border_title = "Watching (no hand)" if watching else f"Your hand ({len(cards)})"
        self.border_subtitle = "" if watching else "+n: pigeons it calls"
        self.tooltip = Content("\n".join(action_help(c, edition) for c in cards if c in ACTIONS)) if cards else None
        self.refresh(layout=layout)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._column = container.height
        return max(1, len(self._lines(width)))

    def _lines(self, width: int) -> list[Content]:
        """Names and recall; with room to spare (see `budget`), what each card does too."""
        if not self._cards:
            return [Content.styled("no cards", "$text-disabled")]
        budget = self.budget()
        if self._lines_for is not None and self._lines_for[0] == (width, budget):
            return self._lines_for[1]
        cards = sum(1 for card in self._cards if card in ACTIONS)
        lines: list[Content] = []
        for detail in ("wrapped", "one-line", "none") if width >= ONE_LINE_WIDTH else ("wrapped", "none"):
            if detail != "none" and _LEAST_LINES[detail] * cards > budget:
                continue  # cannot fit: not drawn only to be thrown away
            lines = self._draw(width, detail)
            if len(lines) <= budget or detail == "none":
                break
        self._lines_for = ((width, budget), lines)
        return lines

    def budget(self) -> int:
        """Lines the hand may take: its column (as the last layout gave it; asking the parent
        for its size during a layout would arrange the whole screen again) less room for the
        table info below it."""
        if not self._column:
            return len(self._cards)
        return max(len(self._cards), self._column - INFO_LINES - 2)

    def _draw(self, width: int, detail: str) -> list[Content]:
        lines: list[Content] = []
        muted = "$text-muted"
        for card in self._cards:
            if card not in ACTIONS:
                continue
            row = ACTIONS[card]
            recall = f" +{row.recall}"
            style = card_style(card)
            mark = self._highlight.style_of(card)
            if mark:
                style = f"{style} {HIGHLIGHT_STYLE[mark]}"
            name = fit(row.name, max(1, width - len(recall)), self.glyphs)
            line = Content.assemble((name, style), " " * max(0, width - len(name) - len(recall)), (recall, muted))
            lines.append(line.stylize(Style.from_meta({"card": card})))
            act = row.text if row.active else "No active use."
            if detail == "wrapped":
                for text in (act, f"Reaction: {row.reaction}"):
                    for part in Content.styled(text, muted).wrap(max(1, width - 2)):
                        lines.append(Content.assemble("  ", part))
            elif detail == "one-line":
                lines.append(Content.styled(fit(f"  {act}", width, self.glyphs), muted))
        return lines

    def on_click(self, event: events.Click) -> None:
        event.stop()
        card = event.style.meta.get("card") if event.style else None
        if isinstance(card, str):
            self.post_message(self.CardChosen(card))
