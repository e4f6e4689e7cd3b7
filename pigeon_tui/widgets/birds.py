"""The CuBirds table's widgets, each drawn from the seat's view (`core.cubirds.PlayerView`): the
status line, the four rows, every player's collection, and the seat's hand grouped by species.

Each widget holds what it shows in one reactive (`seen`), set by the screen; none decides a rule:
flock sizes, progress toward the win and what a move would take all come from the view, its
scores and the decision's options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from textual import events
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.style import Style
from textual.widget import Widget

from core.cubirds.cards import ROW_IDS, SPECIES, SPECIES_OF, WIN_PAIRS, WIN_SPECIES
from core.cubirds.views import PlayerView
from core.decisions import DecisionKind
from pigeon_tui.birds import LOOKS, bird_style, counts, flock_text, in_order
from pigeon_tui.themes import HIGHLIGHT_STYLE, Glyphs, fit
from pigeon_tui.widgets.zone import NO_HIGHLIGHT, Highlight

_MUTED: Final = "$text-muted"
_NEW: Final = "bold underline"
"""Cards that were not there in the view before: what the last move changed."""
STEP_TEXT: Final = {
    DecisionKind.LAY_SPECIES: "laying birds",
    DecisionKind.LAY_ROW: "laying birds",
    DecisionKind.LAY_END: "laying birds",
    DecisionKind.DRAW_TWO: "may draw 2",
    DecisionKind.FLY: "may fly a flock",
}


@dataclass(frozen=True, slots=True)
class Seen:
    """What every CuBirds widget draws from: the view, and how to show it."""

    view: PlayerView
    names: tuple[str, ...] = ()
    highlight: Highlight = NO_HIGHLIGHT
    fresh: frozenset[str] = frozenset()
    """Card ids new in a row, hand or collection since the previous view."""
    letters: bool = False
    """A letter per species (--ascii, NO_COLOR) instead of its name."""
    away: frozenset[int] = field(default_factory=frozenset)
    """Seats a bot plays for now (their person is away)."""
    status: str = ""
    """The connection's state, or a message, for the status line."""

    def name(self, seat: int) -> str:
        if seat == self.view.seat:
            return "You"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Player {seat + 1}"


def _card_style(seen: Seen, card: str) -> str:
    style = bird_style(SPECIES_OF[card])
    mark = seen.highlight.style_of(card)
    if mark:
        return f"{style} {HIGHLIGHT_STYLE[mark]}"
    return f"{style} {_NEW}" if card in seen.fresh else style


def whose_turn(seen: Seen) -> str:
    view = seen.view
    if view.over:
        return "Game over"
    who = "Your turn" if view.active == view.seat else f"{seen.name(view.active)} to play"
    step = STEP_TEXT.get(view.step) if view.step is not None else None
    return f"{who}, {step}" if step else who


class BirdStatus(Widget):
    """One line: round, turn, whose move and its step, the draw and discard piles."""

    seen: reactive[Seen | None] = reactive(None)

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs

    def watch_seen(self, seen: Seen | None) -> None:
        view = seen.view if seen is not None else None
        self.set_class(view is not None and view.active == view.seat and not view.over, "-my-turn")

    def render(self) -> Content:
        seen, g = self.seen, self.glyphs
        if seen is None:
            return Content(f"Dealing{g.ellipsis}")
        view = seen.view
        width = self.content_region.width or self.size.width
        left = Content.styled(f" Round {view.round} {g.dot} Turn {view.turn} {g.dot} {whose_turn(seen)}", "bold")
        right = f"draw {view.draw_count} {g.dot} discard {len(view.discard)} "
        if seen.status:
            right = f"{seen.status} {g.dot} {right}"
        pad = width - left.cell_length - len(right)
        if pad < 1:
            right = f"draw {view.draw_count} {g.dot} discard {len(view.discard)} "
            pad = width - left.cell_length - len(right)
        return Content.assemble(left, " " * max(1, pad), (right, _MUTED))


class BirdRows(Widget):
    """The four rows, left to right: offered rows and the cards a move would take light up."""

    seen: reactive[Seen | None] = reactive(None)

    class Selected(Message):
        """The player clicked a row (or a card in it)."""

        def __init__(self, row: str, card: str | None) -> None:
            super().__init__()
            self.row = row
            self.card = card

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs
        self.border_title = "Rows"

    def render(self) -> Content:
        seen = self.seen
        if seen is None:
            return Content("\n".join(f"{i + 1}" for i in range(len(ROW_IDS))))
        width = max(1, (self.content_region.width or self.size.width) - 2)
        rows = seen.view.rows
        words = "letter"
        if not seen.letters:  # the longest words with which every row fits
            for words in ("name", "runs", "short", "letter"):
                if all(sum(len(w) + 1 for w, _ in _words(row, words, seen)) <= width for row in rows):
                    break
        lines = []
        for i, (rid, row) in enumerate(zip(ROW_IDS, rows, strict=True)):
            mark = seen.highlight.style_of(rid)
            number = Content.styled(f"{i + 1}", f"bold {HIGHLIGHT_STYLE[mark]}" if mark else "bold")
            cells: list[Content | str] = [number, " "]
            for word, style in _words(row, words, seen):
                cells.append(Content.styled(word, style))
                cells.append(" ")
            line = Content.assemble(*cells)
            if line.cell_length > width + 2:  # never wraps: the end of a long row is cut
                line = line[: width + 1]
            lines.append(line.stylize(Style.from_meta({"row": rid})))
        return Content("\n").join(lines)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(ROW_IDS)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        row = event.style.meta.get("row") if event.style else None
        if isinstance(row, str):
            self.post_message(self.Selected(row, None))


def _words(row: Sequence[str], words: str, seen: Seen) -> list[tuple[str, str]]:
    """A row's cards as (word, style): a name each ("name"), a name per run of one species
    ("runs": "Robin×3", ASCII "Robinx3"), three letters each ("short"), or a letter each. A run
    is drawn as its most marked card (cursor, offered, then new)."""
    if words != "runs":
        out = []
        for card in row:
            look = LOOKS[SPECIES_OF[card]]
            word = look.short if words == "name" else look.short[:3] if words == "short" else look.letter
            out.append((word, _card_style(seen, card)))
        return out
    times = "x" if seen.letters else "×"
    runs: list[list[str]] = []
    for card in row:
        if runs and SPECIES_OF[runs[-1][-1]] == SPECIES_OF[card]:
            runs[-1].append(card)
        else:
            runs.append([card])
    out = []
    for run in runs:
        look = LOOKS[SPECIES_OF[run[0]]]
        styles = [_card_style(seen, c) for c in run]
        style = max(styles, key=lambda st: ("reverse" in st, "underline" in st and "bold" not in st, len(st)))
        out.append((look.short if len(run) == 1 else f"{look.short}{times}{len(run)}", style))
    return out


class Collections(Widget):
    """Every player: cards in hand, the collection by species, progress toward both wins."""

    seen: reactive[Seen | None] = reactive(None, layout=True)

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1 + (self.seen.view.players if self.seen is not None else 0)

    def render(self) -> Content:
        seen, g = self.seen, self.glyphs
        width = max(1, self.content_region.width or self.size.width)
        each, kinds = WIN_PAIRS[1], WIN_PAIRS[0]
        head = f"  Collections (win: {WIN_SPECIES} species, or {each}+ birds of {kinds} species)"
        cols = f"species  {each}+ "
        head = fit(head, max(1, width - len(cols) - 1), g)
        lines = [Content.assemble((head, _MUTED), " " * max(1, width - len(head) - len(cols)), (cols, _MUTED))]
        if seen is None:
            return lines[0]
        view = seen.view
        scores = view.scores()
        right_width = len(f"{WIN_SPECIES}/{WIN_SPECIES}  {kinds}/{kinds} ") + 1
        for seat, (collection, score) in enumerate(zip(view.collections, scores, strict=True)):
            active = seat == view.active and not view.over
            marker = g.active if active else " "
            name = fit(seen.name(seat), 10, g)
            if seat in seen.away:
                name = fit(f"{seen.name(seat)} (bot)", 10, g)
            hand = f"{view.hand_sizes[seat]:>2} in hand "
            progress = f"{score.species}/{WIN_SPECIES}  {min(score.triples, kinds)}/{kinds} "
            room = width - 2 - 11 - len(hand) - right_width
            cells = self._collection(seen, collection, room)
            style = "bold" if active else ""
            if seat == view.seat:
                style = f"{style} $primary".strip()
            line = Content.assemble(
                (f"{marker} ", "$success bold"),
                (f"{name:<10} ", style),
                (hand, _MUTED),
                cells,
                " " * max(0, room - cells.cell_length),
                (f"{progress:>{right_width}}", "bold" if score.species >= WIN_SPECIES - 1 or score.triples else ""),
            )
            lines.append(line)
        return Content("\n").join(lines)

    def _collection(self, seen: Seen, collection: Sequence[str], room: int) -> Content:
        """ "Owl 2 Robin 3", or shorter ("Owl2 Rob3", "O2 R3") until it fits in `room`."""
        tally = in_order(counts(collection))
        if not tally:
            return Content.styled("no birds yet", "$text-disabled")
        fresh = {SPECIES_OF[c] for c in collection if c in seen.fresh}
        for words in ("letter",) if seen.letters else ("name", "short", "letter"):
            parts: list[Content | str] = []
            for sp, k in tally:
                look = LOOKS[sp]
                word = look.short if words == "name" else look.short[:3] if words == "short" else look.letter
                text = f"{word} {k}" if words == "name" else f"{word}{k}"
                style = f"{bird_style(sp)} {_NEW}" if sp in fresh else bird_style(sp)
                parts += [Content.styled(text, style), " "]
            out = Content.assemble(*parts[:-1])
            if out.cell_length <= room:
                return out
        return out[: max(0, room)]


class BirdHand(Widget):
    """The seat's hand grouped by species: count, flock sizes (small/big), what it can fly.
    The species an option refers to light up; click one to choose it."""

    seen: reactive[Seen | None] = reactive(None, layout=True)

    class SpeciesChosen(Message):
        """The player clicked a species in their hand."""

        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs
        self.border_title = "Your hand"
        self.border_subtitle = "count small/big"

    def watch_seen(self, seen: Seen | None) -> None:
        if seen is None:
            return
        if seen.view.seat is None:
            self.border_title = "Watching"
        else:
            self.border_title = f"Your hand ({len(seen.view.hand)})"

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, len(self._groups()))

    def _groups(self) -> list[tuple[str, list[str]]]:
        if self.seen is None:
            return []
        by: dict[str, list[str]] = {}
        for card in self.seen.view.hand:
            by.setdefault(SPECIES_OF[card], []).append(card)
        return [(sp, by[sp]) for sp in SPECIES if sp in by]

    def render(self) -> Content:
        seen = self.seen
        groups = self._groups()
        if seen is None or not groups:
            text = "no cards" if seen is None or seen.view.seat is not None else "(a spectator sees no hand)"
            return Content.styled(text, "$text-disabled")
        width = max(1, self.content_region.width or self.size.width)
        lines = []
        for sp, cards in groups:
            d = SPECIES[sp]
            look = LOOKS[sp]
            mark = ""
            for card in cards:
                mark = seen.highlight.style_of(card) or mark
                if mark == "cursor":
                    break
            style = bird_style(sp)
            if mark:
                style = f"{style} {HIGHLIGHT_STYLE[mark]}"
            elif any(c in seen.fresh for c in cards):
                style = f"{style} {_NEW}"
            label = f"{look.letter} {look.short}" if seen.letters else look.short
            can = flock_text(sp, len(cards))
            sizes = f"{d.small}/{d.big}"
            line = Content.assemble(
                (f"{label:<9}", style),
                (f"{len(cards):>2} ", "bold"),
                (f"{sizes:>4} ", _MUTED),
                (fit(can, max(1, width - 16), self.glyphs), "$success" if "flock" in can else _MUTED),
            )
            lines.append(line.stylize(Style.from_meta({"card": cards[0]})))
        return Content("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        card = event.style.meta.get("card") if event.style else None
        if isinstance(card, str):
            self.post_message(self.SpeciesChosen(card))
