"""Help: the rules in short, the key map, and a reference of every card from the engine's data;
and the full game log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from core.cards import (
    ACTION_COUNTS,
    ACTION_DEFS,
    DEFAULT_CUSTOM,
    FLOCK_COUNTS,
    Edition,
    PigeonDef,
    action_def,
    flock_book,
)
from core.house import BOOK, HouseRules
from pigeon_tui.cardtext import RULE_TEXT, entry_text
from pigeon_tui.house import rule_lines, short
from pigeon_tui.screens.styles import own_styles
from pigeon_tui.themes import GUANO_LETTER, PIGEON_LETTER, Glyphs

RULES: tuple[tuple[str, str], ...] = (  # {fine_scope}: the edition's (FINE_SCOPE)
    (
        "The goal",
        "Collect trophies (pigeons and guano you convert) and keep your own Balcony clean. "
        "Each trophy is worth 1 VP (a Mountain of Guano 2); each pigeon and Guano left on your Balcony "
        "costs 1 (a Mountain 2).",
    ),
    (
        "Your turn",
        "Take two actions, the same one twice if you like: play an Action card, convert one "
        "card of your Balcony into a trophy (discard 1 card for a Guano, 2 for a pigeon or a Mountain), or "
        "draw up to 5 cards.",
    ),
    (
        "The Invasion",
        "At the end of each turn, 1 + the recall values (+n) of every card played this turn "
        "are revealed from the Flock deck, one at a time. Each pigeon lands by its own rule.",
    ),
    (
        "Zones",
        "The Road and the Crowd hold any number of pigeons; the Statue and the Cables hold 4 spaces "
        "(a Fat Pigeon takes 2). Balconies have no limit. A scared Zone's pigeons take off and land one by "
        "one, biggest first, on the least crowded Zones.",
    ),
    (
        "Reactions",
        "Some cards answer what others do: share a Wroom! or Zot!, Fine a player who throws "
        "guano or Birdseed {fine_scope} (they discard their hand), cancel a Fine with the Street Sweeper, "
        "redirect pigeons about to land on your Balcony with Birdseed, or throw guano where the Infamous "
        "Pigeon arrives.",
    ),
    (
        "The end",
        "When the Flock deck is empty at the end of a turn, everyone takes one last turn. Most VP "
        "wins; ties go to fewer pigeons on the Balcony, then more cards in hand, else the win is shared.",
    ),
)

FINE_SCOPE: Final[Mapping[Edition, str]] = {Edition.V35: "onto any Zone", Edition.V30: "onto a City Location"}
"""R5.5 and §10: where a play may be Fined."""

KEYS: tuple[tuple[str, str], ...] = (
    ("1-9, a-z", "choose the option with that key"),
    ("0 or p", "pass a reaction, or finish (no more guano, leave the pigeons)"),
    ("arrows, Tab", "move between the options; the cards and Zones they name light up"),
    ("Enter", "choose the option under the cursor"),
    ("Esc", "step back within a multi-step move"),
    ("mouse", "click an option, a lit card in your hand, or a lit Zone"),
    ("l", "the whole game log"),
    ("?", "this help"),
    ("ctrl+q", "quit"),
)


def _indented(text: str) -> Padding:
    """A card's text under its name, indented on every line it wraps to."""
    return Padding(Text(text), (0, 0, 0, 3))


def _section(title: str) -> Text:
    return Text(f"\n{title}\n", style="bold underline")


def help_text(
    glyphs: Glyphs, edition: Edition, custom: tuple[PigeonDef, PigeonDef], house: HouseRules = BOOK
) -> RenderableType:
    """The whole help page as one renderable (ASCII-only when `glyphs` is)."""
    changed = short(house)
    title = f"Pigeons & Guano, edition {edition.value}" + (f", house rule {changed}" if changed else "")
    parts: list[RenderableType] = [Text(title, style="bold")]
    parts.append(_section("Rules in short"))
    for head, body in RULES:
        t = Text()
        t.append(f"{head}. ", style="bold")
        t.append(body.format(fine_scope=FINE_SCOPE[edition]))
        parts.append(t)
    parts.append(_section("House rules" + (" (this game)" if changed else " (the book's reading here)")))
    for setting, what in rule_lines(house):
        t = Text()
        t.append(f"{setting}  ", style="bold")
        t.append(what)
        parts.append(t)
    t = Text("A host sets them: --house-rule NAME=VALUE, or the start and host screens.", style="italic")
    parts.append(t)
    parts.append(_section("Keys"))
    keys = Table.grid(padding=(0, 2))
    keys.add_column(justify="right", style="bold", no_wrap=True)
    keys.add_column()
    for key, what in KEYS:
        keys.add_row(key, what)
    parts.append(keys)
    parts.append(_section("Action cards (55)"))
    for kind in ACTION_DEFS:
        row = action_def(kind, edition)
        t = Text()
        t.append(f"{row.name}", style="bold")
        t.append(f"  x{ACTION_COUNTS[kind]}, recall +{row.recall}")
        parts.append(t)
        parts.append(_indented(f"Action: {row.text if row.active else 'No active use.'}"))
        parts.append(_indented(f"Reaction: {row.reaction}"))
    parts.append(_section("Pigeons (40 Flock cards)"))
    book = flock_book(edition, custom)
    seen: dict[str, tuple[PigeonDef, int]] = {}
    for pigeon in book.values():
        seen[pigeon.name] = (pigeon, seen[pigeon.name][1] + 1 if pigeon.name in seen else 1)
    for pigeon, count in seen.values():
        t = Text()
        t.append(f"{PIGEON_LETTER[pigeon.kind]}  ", style="bold")
        t.append(pigeon.name, style="bold")
        size = f", size {pigeon.size}" if pigeon.size != 1 else ""
        t.append(f"  x{count}{size}")
        parts.append(t)
        parts.append(_indented(f"{entry_text(pigeon)} {RULE_TEXT[pigeon.rule]}"))
    legend = Text()
    legend.append("\nOn the table: ", style="bold")
    legend.append(", ".join(f"{PIGEON_LETTER[k]} {k.value}" for k in FLOCK_COUNTS))
    legend.append(f"; guano: {GUANO_LETTER[next(iter(GUANO_LETTER))]} Guano, ")
    legend.append("G Mountain of Guano. ")
    legend.append(f"{glyphs.active} marks whose turn it is, {glyphs.trophy} counts trophies, ")
    legend.append(f"{glyphs.highlight} a Zone an option refers to; Statue 3/4 is spaces used of 4.")
    parts.append(legend)
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """Rules summary, keys and card reference; Esc, q or ? closes it."""

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="close-help", key_display="esc"),
        Binding("up,k", "scroll(-1)", "Up", show=False, id="help-up"),
        Binding("down,j", "scroll(1)", "Down", show=False, id="help-down"),
        Binding("pageup", "scroll(-10)", "Page up", show=False, id="help-page-up"),
        Binding("pagedown,space", "scroll(10)", "Page down", show=False, id="help-page-down"),
        Binding("home", "ends(False)", "Top", show=False, id="help-home", priority=True),
        Binding("end", "ends(True)", "End", show=False, id="help-end", priority=True),
    ]

    def __init__(
        self,
        glyphs: Glyphs,
        edition: Edition | None = None,
        custom: tuple[PigeonDef, PigeonDef] | None = None,
        house: HouseRules | None = None,
    ) -> None:
        super().__init__()
        own_styles(self)
        self.glyphs = glyphs
        self.edition = edition or Edition.V35
        self.custom = custom or DEFAULT_CUSTOM
        self.house = house or BOOK

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.glyphs, self.edition, self.custom, self.house), id="help-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-body", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_ends(self, end: bool) -> None:
        _ends(self.query_one("#help-body", VerticalScroll), end)


class LogScreen(ModalScreen[None]):
    """Everything that happened this game, newest last."""

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,l", "close", "Close", id="close-log", key_display="esc"),
        Binding("home", "ends(False)", "Top", show=False, id="log-home", priority=True),
        Binding("end", "ends(True)", "End", show=False, id="log-end", priority=True),
    ]

    def __init__(self, lines: Sequence[tuple[str, bool]], glyphs: Glyphs) -> None:
        super().__init__()
        own_styles(self)
        self.lines = list(lines)
        self.glyphs = glyphs

    def compose(self) -> ComposeResult:
        text = Text()
        for sentence, turn in self.lines:
            text.append(sentence + "\n", style="bold" if turn else "")
        with VerticalScroll(id="log-body"):
            yield Static(text or Text("Nothing has happened yet."), id="log-text")
        yield Footer()

    def on_mount(self) -> None:
        body = self.query_one("#log-body", VerticalScroll)
        body.focus()
        body.scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_ends(self, end: bool) -> None:
        _ends(self.query_one("#log-body", VerticalScroll), end)


def _ends(body: VerticalScroll, end: bool) -> None:
    """Home or End, all the way at once (the screens bind them with priority: the scroll
    container's own binding animates for a second, so End seemed to stop half way)."""
    if end:
        body.scroll_end(animate=False, immediate=True)
    else:
        body.scroll_home(animate=False, immediate=True)
