"""The status line (turn, whose move, final phase, connection), the decks and played pile,
and the final score table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.content import Content
from textual.widget import Widget

from core.cards import ACTIONS
from core.scoring import Score, ranking_key, tie_break
from core.views import PlayerView
from pigeon_tui.house import short
from pigeon_tui.session import LinkState, LinkStatus, Seat
from pigeon_tui.themes import Glyphs, fit
from pigeon_tui.widgets.lines import LinesWidget


def invasion_text(view: PlayerView) -> str:
    """ "Invasion: reveal 2 of 4" while it runs (Flock reveals only, R3.5), else "" """
    progress = view.invasion()
    if progress is None:
        return ""
    revealed, of = progress
    return f"Invasion: reveal {max(1, revealed)} of {of}"


def whose_turn(view: PlayerView, seats: Sequence[Seat]) -> str:
    if view.over:
        return "Game over"
    if view.active == view.seat:
        return "Your turn"
    name = seats[view.active].name if view.active < len(seats) else f"Player {view.active + 1}"
    return f"{name} to play"


def phase(view: PlayerView) -> str:
    if view.over:
        return ""
    action = view.action()
    if action is not None:
        return f"action {action} of 2"
    return invasion_text(view) or "Invasion"


def link_text(status: LinkStatus, g: Glyphs) -> str:
    if status.link is LinkState.LOCAL:
        return ""
    if status.link is LinkState.CONNECTED:
        ms = f" {status.latency_ms:.0f} ms" if status.latency_ms is not None else ""
        return f"connected{ms}"
    if status.link is LinkState.RECONNECTING:
        return f"reconnecting{g.ellipsis}"
    if status.link is LinkState.CONNECTING:
        return f"connecting{g.ellipsis}"
    return "disconnected"


class TableStatus(Widget):
    """One line: turn, whose move and which action, the final phase, the connection."""

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs
        self._view: PlayerView | None = None
        self._seats: Sequence[Seat] = ()
        self._status = LinkStatus(LinkState.LOCAL)

    def show(self, view: PlayerView, seats: Sequence[Seat], status: LinkStatus) -> None:
        self._view, self._seats, self._status = view, seats, status
        playing = not view.over
        self.update_classes(
            {"-final": view.final_left is not None and playing, "-my-turn": view.active == view.seat and playing}
        )
        self.refresh()

    def render(self) -> Content:
        view, g = self._view, self.glyphs
        if view is None:
            return Content(f"Dealing{g.ellipsis}")
        width = self.content_region.width or self.size.width
        link = link_text(self._status, g)
        final = ""
        if view.final_left is not None and not view.over:
            n = view.final_left
            final = f"LAST ROUND: {n} turn{'' if n == 1 else 's'} left"
        left = f" Turn {view.turn} {g.dot} {whose_turn(view, self._seats)}"
        ph = phase(view)
        if ph:
            left += f", {ph}"
        out = Content.styled(left, "bold")
        for extra, style in ((final, "$warning bold reverse"), (self._status.message, "$text-muted")):
            if extra and out.cell_length + len(extra) + 3 <= width:
                out = Content.assemble(out, f" {g.dot} ", (extra, style))
        if link:
            pad = width - out.cell_length - len(link) - 1
            if pad >= 1:
                out = Content.assemble(out, " " * pad, (link + " ", "$text-muted"))
        return out


class DeckInfo(LinesWidget):
    """The decks, the discard pile, the cards played this turn and the Invasion they cause."""

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs
        self._view: PlayerView | None = None

    def show(self, view: PlayerView) -> None:
        self._view = view
        self.refresh(layout=True)

    def _lines(self, width: int) -> list[Content]:
        view = self._view
        if view is None:
            return [Content()]

        def pair(*items: tuple[str, str]) -> Content:
            parts: list[str | tuple[str, str]] = []
            for i, (k, v) in enumerate(items):
                if i:
                    parts.append("  ")
                parts += [(k + " ", "$text-muted"), (v, "bold")]
            return Content.assemble(*parts)

        lines = [
            pair(("Flock", str(view.flock_count)), ("Deck", str(view.deck_count)), ("Discard", str(len(view.discard))))
        ]
        if lines[0].cell_length > width:
            lines = [
                pair(("Flock", str(view.flock_count))),
                pair(("Deck", str(view.deck_count)), ("Discard", str(len(view.discard)))),
            ]
        played = ", ".join(ACTIONS[c].name for c in view.played if c in ACTIONS) or "nothing yet"
        t = pair(("Played", played))
        lines.extend(t.wrap(width))
        progress = view.invasion()
        if progress is not None:
            lines.append(pair(("Invasion", f"reveal {max(1, progress[0])} of {progress[1]}")))
        elif not view.over:
            n = view.invasion_size()
            lines.append(pair(("Invasion", f"{n} pigeon{'' if n == 1 else 's'}")))
        house = short(view.house)
        if house:
            lines.extend(pair(("House", house)).wrap(width))
        if view.air:
            book = view.book
            names = ", ".join(book[c].name if c in book else ACTIONS[c].name if c in ACTIONS else "?" for c in view.air)
            lines.extend(pair(("In the air", fit(names, 200, self.glyphs))).wrap(width))
        return lines


def view_scores(view: PlayerView) -> tuple[Score, ...]:
    """R7.1 for every seat, from the view."""
    return tuple(view.scores())


def view_winners(view: PlayerView) -> tuple[int, ...]:
    """R7.2: the seats sharing the win, once the game is over."""
    return tuple(view.winners())


def _and(items: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tie_break_text(scores: Sequence[Score], names: Sequence[str], winners: Sequence[int]) -> str:
    """How R7.2 decided the winner, in a sentence."""
    if not scores or not winners:
        return ""
    top = max(s.total for s in scores)
    tied = _and([names[s.seat] for s in scores if s.total == top])
    win = _and([names[w] for w in winners])
    rule = tie_break(scores)
    if rule == "score":
        return f"{win} scored the most: {top} VP."
    if rule == "balcony":
        fewest = min(s.balcony_pigeons for s in scores if s.total == top)
        return f"{tied} tied on {top} VP; {win} had the fewest pigeons on the Balcony ({fewest}) (R7.2)."
    if rule == "hand":
        most = max(s.hand for s in scores if s.seat in winners)
        return f"{tied} tied on {top} VP and Balcony pigeons; {win} had the most cards in hand ({most}) (R7.2)."
    return f"{tied} tied on {top} VP, Balcony pigeons and cards in hand: they share the win (R7.2)."


def score_table(scores: Sequence[Score], names: Sequence[str], winners: Sequence[int], g: Glyphs) -> Text:
    """Final scores with the breakdown of R7.1, best first, in plain columns (fits 80 cells)."""
    name_w = min(max([6, *(len(n) for n in names)]) + 3, 16)  # the winner's mark, a space, a gap
    head1 = " " * name_w + "      Trophies         " + "      Balcony          "
    head2 = f"{'Player':<{name_w}}" + " pigeon guano mount  VP " + " pigeon guano mount  VP " + " Score  Hand"
    out = Text()
    out.append(head1.rstrip() + "\n", style="bold")
    out.append(head2 + "\n", style="bold")
    out.append(g.rule * len(head2) + "\n")
    for s in sorted(scores, key=ranking_key, reverse=True):
        name = names[s.seat] if s.seat < len(names) else f"Player {s.seat + 1}"
        mark = g.trophy if s.seat in winners else " "
        penalty = s.balcony_penalty
        row = (
            f"{fit(mark + ' ' + name, name_w - 1, g):<{name_w}}"
            f" {s.pigeon_trophies:>6} {s.guano_trophies:>5} {s.mountain_trophies:>5} {s.trophy_vp:>+3} "
            f" {s.balcony_pigeons:>6} {s.balcony_guano:>5} {s.balcony_mountains:>5} {-penalty:>3} "
        )
        out.append(row)
        out.append(f" {s.total:>5}", style="bold")
        out.append(f" {s.hand:>5}\n")
    out.rstrip()
    return out
