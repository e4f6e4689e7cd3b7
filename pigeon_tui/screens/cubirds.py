"""The CuBirds table: the four rows, every collection, the seat's hand by species, the shared
prompt and log; and its help and game over screens."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from core.cubirds.cards import WIN_PAIRS, WIN_SPECIES
from core.cubirds.events import Event, EventKind, describe
from core.cubirds.views import PlayerView
from net.client import GameChanged
from pigeon_tui.birds import species_table, you_text
from pigeon_tui.screens.dealt import DealtScreen
from pigeon_tui.screens.game_over import GameOverScreen, ReplayKey, replay_key
from pigeon_tui.screens.help import HelpScreen
from pigeon_tui.session import LinkState, LinkStatus, Seat, Session
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.birds import BirdHand, BirdRows, BirdStatus, Collections, Seen
from pigeon_tui.widgets.log import GameLog
from pigeon_tui.widgets.prompt import Prompt
from pigeon_tui.widgets.scores import link_text


def log_lines(events: Iterable[Event], names: Sequence[str], me: int | None) -> list[tuple[str, bool]]:
    """(sentence, starts a turn) per event; the reader's own moves in the second person."""
    out = []
    for event in events:
        try:
            text = describe(event, names)
        except (KeyError, ValueError, IndexError):
            text = f"({event.kind.value})"
        if me is not None and event.player == me:
            name = names[me] if 0 <= me < len(names) else f"Player {me + 1}"
            text = text.replace(f": {name} to play.", ": your turn.")
            text = you_text(text, name)
        out.append((text, event.kind is EventKind.TURN))
    return out


class CubirdsTableScreen(DealtScreen[PlayerView]):
    """One game of CuBirds as the seat (or a spectator) sees it. Talks only to its `Session`."""

    CSS_PATH = "cubirds.tcss"

    view_type = PlayerView

    def __init__(self, session: Session | None, glyphs: Glyphs, *, letters: bool = False) -> None:
        super().__init__(session, glyphs)
        self.letters = letters
        """A letter per species instead of its name (--ascii, NO_COLOR)."""
        self._fresh: frozenset[str] = frozenset()

    def compose(self) -> ComposeResult:
        g = self.glyphs
        yield from board(g)
        with Horizontal(id="bird-bottom"):
            with Vertical(id="bird-left"):
                with VerticalScroll(id="bird-prompt-box", can_focus=False):
                    yield Prompt(g, id="prompt")
                yield GameLog(id="bird-log")
            yield BirdHand(g, id="bird-hand")
        yield Footer()

    def _read(self, update: GameChanged) -> None:
        view: Any = update.view
        events: Any = update.events
        self._unlogged.extend(log_lines(events, self.names, view.seat))

    def _about(self, view: PlayerView) -> tuple[str, str]:
        goal = f" {WIN_SPECIES} species, or {WIN_PAIRS[1]} birds of {WIN_PAIRS[0]} species, win."
        return f"CuBirds, {view.players} players", goal

    def _showing(self, before: PlayerView | None, update: GameChanged) -> None:
        view: Any = update.view
        self._fresh = _fresh(before, view) if before is not None and not update.snapshot else frozenset()

    def _waiting_text(self, view: PlayerView) -> str:
        if view.over:
            return "The game is over."
        if view.seat is None:
            return f"Watching{self.glyphs.ellipsis}"
        if view.active == view.seat:
            return f"Your turn{self.glyphs.ellipsis}"
        names = self.names
        return f"{names[view.active] if view.active < len(names) else 'Someone'} is playing{self.glyphs.ellipsis}"

    def redraw(self) -> None:
        view = self.view
        if view is None:
            return
        status = self.session.status if self.session is not None else LinkStatus(LinkState.LOCAL)
        seen = Seen(
            view,
            self.names,
            self.highlight,
            self._fresh,
            self.letters,
            frozenset(i for i, s in enumerate(self.seats) if s.away),
            status.message or link_text(status, self.glyphs),
        )
        self.query_one(BirdStatus).seen = seen
        self.query_one(BirdRows).seen = seen
        self.query_one(Collections).seen = seen
        self.query_one(BirdHand).seen = seen

    @on(BirdRows.Selected)
    def _on_row(self, message: BirdRows.Selected) -> None:
        self.query_one(Prompt).select_ref(message.row)

    @on(BirdHand.SpeciesChosen)
    def _on_species(self, message: BirdHand.SpeciesChosen) -> None:
        self.query_one(Prompt).select_ref(message.card)

    def _game_over(self) -> None:
        if self.view is not None:
            log = self.query_one(GameLog).lines
            over = BirdsOverScreen(
                self.view, self.seats, self.glyphs, self.view.seat is not None, log, replay_key(self.session)
            )
            self.app.switch_screen(over)

    def _help(self) -> Screen[Any]:
        return BirdsHelpScreen(self.glyphs)


def board(g: Glyphs) -> ComposeResult:
    """The status line, the rows and every collection: the top of a table and of a replay."""
    yield BirdStatus(g, id="bird-status")
    yield BirdRows(g, id="bird-rows")
    yield Collections(g, id="bird-players")


def _fresh(before: PlayerView, now: PlayerView) -> frozenset[str]:
    """Cards in a row, the hand or a collection that were not there in the view before."""
    old = {c for r in before.rows for c in r} | set(before.hand) | {c for col in before.collections for c in col}
    new = {c for r in now.rows for c in r} | set(now.hand) | {c for col in now.collections for c in col}
    moved = {c for i, r in enumerate(now.rows) for c in r if c not in before.rows[i]} if before.rows else set()
    return frozenset((new - old) | moved)


# ---- help -----------------------------------------------------------------------------------

RULES: Final[tuple[tuple[str, str], ...]] = (
    (
        "The goal",
        f"Be first to hold {WIN_SPECIES} different species in your collection, or {WIN_PAIRS[1]} birds "
        f"of each of {WIN_PAIRS[0]} species. You win at the end of your turn.",
    ),
    (
        "Your turn: lay birds",
        "Play all your cards of one species at the left or right end of one of the four rows. If the row "
        "already holds that species, your birds enclose every card between them and the nearest bird of "
        "that species: you take those cards into your hand. If they enclose nothing, you may draw 2 cards.",
    ),
    (
        "Then: fly a flock (optional)",
        "If you hold at least a species' small flock size, you may fly them: 1 goes to your collection "
        "(2 if you hold its big flock size) and the rest are discarded. Collections never shrink.",
    ),
    (
        "Rows",
        "A row left with only one species after a capture gets cards from the draw pile at its right "
        "end until it holds two.",
    ),
    (
        "Rounds",
        "When your hand is empty at the end of your turn, the round ends: everyone else discards their "
        "hand and you deal 8 new cards to everyone, then play first. If 8 cards cannot be dealt to "
        "everyone, the biggest collection wins (ties share).",
    ),
)

KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("1-9, a-z", "choose the option with that key"),
    ("0 or p", "don't draw, don't fly"),
    ("arrows, Tab", "move between options; the rows and cards they name light up"),
    ("Enter", "choose the option under the cursor"),
    ("Esc", "step back (species, row, end)"),
    ("mouse", "click an option, a species in your hand or a row"),
    ("l", "the whole game log"),
    ("?", "this help"),
    ("ctrl+q", "quit"),
)


def help_text(glyphs: Glyphs) -> RenderableType:
    parts: list[RenderableType] = [Text("CuBirds", style="bold"), Text("")]
    for title, body in RULES:
        parts += [Text(title, style="bold underline"), Text(body), Text("")]
    table = Table("", "species", "cards", "small", "big", box=None, padding=(0, 1), title_justify="left")
    for letter, name, count, small, big in species_table():
        table.add_row(letter, name, str(count), str(small), str(big))
    parts += [Text("The species (a flock of small/big sizes flies 1/2 birds)", style="bold underline"), table]
    parts += [Text(""), Text("Keys", style="bold underline")]
    for key, what in KEYS:
        parts.append(Text.assemble((f"{key:<12}", "bold"), what))
    return Group(*parts)


class BirdsHelpScreen(HelpScreen):
    """CuBirds' rules in short, the species table and the keys."""

    def __init__(self, glyphs: Glyphs) -> None:
        super().__init__(glyphs)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.glyphs), id="help-text")
        yield Footer()


# ---- game over ------------------------------------------------------------------------------


class BirdsOverScreen(GameOverScreen):
    """Who won and how: each collection by species; rematch, start screen or quit."""

    def __init__(
        self,
        view: PlayerView,
        seats: tuple[Seat, ...],
        glyphs: Glyphs,
        can_rematch: bool = True,
        log: Sequence[tuple[str, bool]] = (),
        replay: ReplayKey | None = None,
    ) -> None:
        """GameOverScreen's, for this game's view."""
        super().__init__(view, seats, glyphs, can_rematch, log, replay)  # type: ignore[arg-type]
        self.birds = view

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "board":
            return False  # the results replace the CuBirds table: there is no board under them
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        view, g = self.birds, self.glyphs
        names = [s.name for s in self.seats] or [f"Player {i + 1}" for i in range(view.players)]
        winners = view.winners()
        me = view.seat
        if me is not None and me in winners:
            headline = "You win!" if len(winners) == 1 else "You share the win!"
        else:
            headline = " and ".join(names[w] for w in winners) + (" wins." if len(winners) == 1 else " share the win.")
        why = {
            "collection": "a winning collection",
            "deal": "no cards left for a new round: the biggest collection wins",
            "turns": "the turn limit: the biggest collection wins",
        }.get(view.ending.value if view.ending else "", "")
        table = Table("", "player", "birds", "species", f"{WIN_PAIRS[1]}+ of", box=None, padding=(0, 1))
        for s in view.scores():
            mark = g.trophy if s.seat in winners else ""
            table.add_row(
                mark, names[s.seat], str(s.total), f"{s.species}/{WIN_SPECIES}", f"{s.triples}/{WIN_PAIRS[0]}"
            )
        with Vertical(id="game-over"):
            yield Static(Text(f"Game over {g.dot} {headline}", style="bold"), id="game-over-title")
            yield Static(table, id="game-over-scores")
            yield Static(Text(f"Won by {why}." if why else ""), id="game-over-tie-break")
            options = [Option("Rematch (r)", id="rematch")] if self.can_rematch else []
            options += [
                Option("Read the whole log (l)", id="log"),
                *([Option("Watch the replay (w)", id="replay")] if self.replay is not None else []),
                Option("Back to the start screen (s)", id="start"),
                Option("Quit (q)", id="quit"),
            ]
            yield OptionList(*options, id="game-over-menu")
        yield Footer()
