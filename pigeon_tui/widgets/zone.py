"""One widget per Zone: a City Location or a player's Balcony, drawn from the seat's view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.style import Style

from core.cards import ACTIONS, CITY, PigeonDef
from core.scoring import Score
from core.structs import Struct
from core.views import PlayerView
from pigeon_tui.changes import NO_CHANGES, Changes
from pigeon_tui.session import Seat
from pigeon_tui.themes import (
    GUANO_LETTER,
    HIGHLIGHT_STYLE,
    LANDED_STYLE,
    PIGEON_LETTER,
    PIGEON_SHORT,
    Glyphs,
    fit,
    guano_style,
    pigeon_style,
    zone_title,
)
from pigeon_tui.widgets.lines import LinesWidget
from pigeon_tui.widgets.scores import TableStatus, view_scores


# A Struct (core.structs), not a frozen dataclass: defined at every start of the app, far cheaper (issue 9).
class Highlight(Struct):
    """Card and Zone ids to light up: those any option refers to, and the cursor's."""

    offered: frozenset[str] = frozenset()
    cursor: frozenset[str] = frozenset()

    def style_of(self, ref: str) -> str:
        if ref in self.cursor:
            return "cursor"
        return "offered" if ref in self.offered else ""


NO_HIGHLIGHT = Highlight()


def pigeon_word(row: PigeonDef) -> str:
    """A short name: "Fat", "Lady"; a customizable card shows its own name."""
    if row.name.endswith(" Pigeon") and row.kind.value != "common":
        return PIGEON_SHORT[row.kind]
    return row.name.removesuffix(" Pigeon").split()[0] or PIGEON_SHORT[row.kind]


def grouped_token(letter: str, count: int, times: str) -> str:
    """One kind of pigeon in a Balcony too full to list: "I×4", or "L" for one."""
    return f"{letter}{times}{count}" if count > 1 else letter


def grouped(letters: list[str], times: str) -> str:
    """A Balcony's pigeons by kind, in order of arrival: "I×4 F×3 L S"."""
    order = list(dict.fromkeys(letters))
    return " ".join(grouped_token(x, letters.count(x), times) for x in order)


def pigeon_layout(
    words: list[str], letters: list[str], width: int, room: int, times: str
) -> tuple[list[str], str] | None:
    """How a Zone lists its pigeons in `width` cells: by name on `room` lines, else by letter
    ("I S F"), else by kind if that fits a line ("I×2 S×3 L F": easier to count than a run of
    letters), else letters run together ("ISFSL"); None: by kind, whatever its length."""
    if _lines_needed(words, 1, width) <= room:
        return words, " "
    if _lines_needed(letters, 1, width) <= 1:
        return letters, " "
    if len(grouped(letters, times)) > width and len(letters) <= width:
        return letters, ""
    return None


def _lines_needed(tokens: list[str], sep: int, width: int) -> int:
    """Lines that `tokens` take when wrapped greedily at `width`."""
    lines, used = 1, 0
    for t in tokens:
        need = len(t) if used == 0 else used + sep + len(t)
        if need > width and used:
            lines, used = lines + 1, len(t)
        else:
            used = need
    return lines


class ZoneBox(LinesWidget):
    """A City Location or a Balcony: pigeons, guano, and for a Balcony its owner's score."""

    class Selected(Message):
        """The player clicked a Zone, or a card in it."""

        def __init__(self, zone: str, card: str | None) -> None:
            super().__init__()
            self.zone = zone
            self.card = card

    @staticmethod
    def dom_id(zone: str) -> str:
        return f"zone-{zone}"

    def __init__(self, zone: str, glyphs: Glyphs) -> None:
        super().__init__(id=ZoneBox.dom_id(zone), classes="-city" if zone in CITY else "-balcony")
        self.zone = zone
        self.glyphs = glyphs
        self._view: PlayerView | None = None
        self._seats: tuple[Seat, ...] = ()
        self._highlight = NO_HIGHLIGHT
        self._landed: frozenset[str] = frozenset()
        self._score = 0
        self._lines_for: tuple[tuple[int, bool], list[Content]] | None = None
        """The lines drawn last and their (width, tall screen): a layout asks for them (the
        height, twice) and the paint after it again."""

    @property
    def seat(self) -> int | None:
        return None if self.zone in CITY else int(self.zone[1:])

    def show(
        self,
        view: PlayerView,
        seats: tuple[Seat, ...],
        highlight: Highlight,
        scores: tuple[Score, ...] | None = None,
        flash: Changes = NO_CHANGES,
    ) -> None:
        """Draw the Zone as `view` has it (`scores`: the view's, if already computed), marking
        it if the last update changed it (`flash`) and the pigeons that just landed."""
        self._view, self._seats, self._highlight, self._landed = view, seats, highlight, flash.landed
        self._lines_for = None
        seat = self.seat
        if seat is not None and seat < view.players:
            self._score = (scores if scores is not None else view_scores(view))[seat].total
        else:
            self._score = 0
        lit = highlight.style_of(self.zone)
        self.update_classes(  # one restyle for all four
            {
                "-offered": lit == "offered",
                "-cursor": lit == "cursor",
                "-active-seat": seat is not None and seat == view.active and not view.over,
                "-mine": seat is not None and seat == view.seat,
                "-changed": self.zone in flash.zones,
            }
        )
        self.border_title = Content(self._title())
        self.border_subtitle = Content(self._subtitle())
        self.tooltip = Content(self._tooltip_text())
        self.refresh()

    def _label_width(self) -> int:
        """Cells for a border title: the edge less its corners, dashes and spaces."""
        outer = self.outer_size.width
        return max(4, outer - 6) if outer else 14

    def _names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self._seats)

    def _title(self) -> str:
        view, g = self._view, self.glyphs
        if view is None:
            return ""
        width = self._label_width()
        zone = self.zone
        mark = g.highlight + " " if self.has_class("-offered") or self.has_class("-cursor") else ""
        if zone in CITY:
            used, cap = view.spaces(zone), view.capacity(zone)
            room = f"{used}/{cap}" if cap is not None else f"({used})"
            return fit(f"{mark}{zone_title(zone, self._names())} {room}", width, g)
        seat = int(zone[1:])
        active = g.active if seat == view.active and not view.over else ""
        name = zone_title(zone, self._names())
        yours = f"{name} (you)" if seat == view.seat and name != "You" else name
        mark = mark.strip()
        lead = " ".join(x for x in (mark, active) if x)
        lead = lead + " " if lead else ""
        score = f" {self._score}"
        for lead_, name_, tail in (
            (lead, yours, f"{score} VP"),
            (lead, yours, score),
            ("", yours, score),
            ("", name, score),  # your own Balcony is told by its border too
        ):
            if len(lead_) + len(name_) + len(tail) <= width:
                return f"{lead_}{name_}{tail}"
        tail = score
        # The name gets all the room left (the marks are told by the border's colour too):
        # "Bartholomew" as "Barth… 3", never "B… 3"; the whole name is in the tooltip.
        return fit(name, max(2, width - len(tail)), g) + tail

    def _subtitle(self) -> str:
        seat = self.seat
        if seat is None or seat >= len(self._seats):
            return ""
        s = self._seats[seat]
        width = self._label_width()
        state = "offline" if not s.connected else "away" if s.away else ""
        bot = (f"bot {s.bot}", s.bot, "bot") if s.bot else ("",)
        for b in bot:
            text = " ".join(x for x in (b, state) if x)
            if len(text) <= width:
                return text
        return fit(state or bot[-1], width, self.glyphs)

    def _tooltip_text(self) -> str:
        view = self._view
        zv = next((z for z in view.zones if z.id == self.zone), None) if view is not None else None
        if view is None or zv is None:
            return ""
        book = view.book
        pigeons = ", ".join(book[p].name for p in zv.pigeons if p in book) or "no pigeons"
        guano = ", ".join(ACTIONS[c].name for c in zv.guano if c in ACTIONS) or "no guano"
        return f"{zone_title(self.zone, self._names())}: {pigeons}; {guano}."

    def _lines(self, width: int) -> list[Content]:
        view = self._view
        zv = next((z for z in view.zones if z.id == self.zone), None) if view is not None else None
        if view is None or zv is None:
            return [Content()]
        tall = self.screen.has_class("-tall")
        if self._lines_for is not None and self._lines_for[0] == (width, tall):
            return self._lines_for[1]
        lines: list[Content] = []
        for line in (self._pigeon_line(zv.pigeons, view.book, width, tall), self._guano_line(zv.guano)):
            lines.extend(line.wrap(width) if line.cell_length > width else [line])
        seat = self.seat
        if seat is not None:
            lines.append(self._seat_line(view, seat, width))
        self._lines_for = ((width, tall), lines)
        return lines

    def _card(self, card: str, token: str, style: str) -> Content:
        """A card's token in its colour, lit up if an option refers to it; clicking it selects it."""
        kind = self._highlight.style_of(card)
        if kind:
            style = f"{style} {HIGHLIGHT_STYLE[kind]}"
        elif card in self._landed:
            style = f"{style} {LANDED_STYLE}"
        return Content.styled(token, style).stylize(Style.from_meta({"card": card}))

    def _pigeon_line(self, pigeons: tuple[str, ...], book: Mapping[str, PigeonDef], width: int, tall: bool) -> Content:
        if not pigeons:
            return Content.styled("-", "$text-disabled")
        rows = [book[p] for p in pigeons if p in book]
        words = [pigeon_word(r) for r in rows]
        letters = [PIGEON_LETTER[r.kind] for r in rows]
        room = 2 if tall else 1
        layout = pigeon_layout(words, letters, width, room, self.glyphs.times)
        if layout is None:  # one token per kind, "I×4 F×3 L S"
            firsts = {letter: i for i, letter in reversed(list(enumerate(letters)))}
            parts_: list[Content | str] = []
            for letter, i in sorted(firsts.items(), key=lambda x: x[1]):
                token = grouped_token(letter, letters.count(letter), self.glyphs.times)
                parts_ += [" "] if parts_ else []
                parts_.append(self._card(pigeons[i], token, pigeon_style(rows[i])))
            return Content.assemble(*parts_)
        tokens, sep = layout
        parts: list[Content | str] = []
        for i, (card, row, token) in enumerate(zip(pigeons, rows, tokens, strict=False)):
            if i:
                parts.append(sep)
            parts.append(self._card(card, token, pigeon_style(row)))
        return Content.assemble(*parts)

    def _guano_line(self, guano: tuple[str, ...]) -> Content:
        parts: list[Content | str] = []
        for card in guano:
            if card not in ACTIONS:
                continue
            kind = ACTIONS[card].kind
            if parts:
                parts.append(" ")
            parts.append(self._card(card, GUANO_LETTER.get(kind, "g"), guano_style(kind)))
        return Content.assemble(*parts)

    def _seat_line(self, view: PlayerView, seat: int, width: int) -> Content:
        trophies = view.trophies[seat] if seat < len(view.trophies) else ()
        hand = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
        g = self.glyphs
        n = len(trophies)
        for text in (
            f"{g.trophy}{n} {'trophy' if n == 1 else 'trophies'}  hand {hand}",
            f"{g.trophy}{n}  hand {hand}",
            f"{g.trophy}{n} h{hand}",
        ):
            if len(text) <= width:
                break
        return Content.styled(text, "$text-muted")

    def on_resize(self) -> None:
        if self._view is not None:
            self.border_title = Content(self._title())
            self.border_subtitle = Content(self._subtitle())

    def on_click(self, event: events.Click) -> None:
        event.stop()
        card = event.style.meta.get("card") if event.style else None
        self.post_message(self.Selected(self.zone, card if isinstance(card, str) else None))


def board(glyphs: Glyphs, balconies: Iterable[int]) -> ComposeResult:
    """The top of a table as a game and its replay draw it: the status line, the four City
    Locations, then the Balconies of these seats in this order."""
    yield TableStatus(glyphs, id="status")
    with Horizontal(id="city"):
        for zone in CITY:
            yield ZoneBox(zone, glyphs)
    with Horizontal(id="balconies"):
        for seat in balconies:
            yield ZoneBox(f"b{seat}", glyphs)
