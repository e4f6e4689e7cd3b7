"""Watching a recorded game: the table as one seat saw it (or a spectator, or with every card
shown once the game is over), stepped forward and back one point or one turn at a time."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from core.cards import ACTIONS
from core.decisions import IllegalChoice
from core.events import redact
from core.record import Record
from core.replay import Replay
from core.timeline import Point, Timeline
from core.views import PlayerView, view
from net.archive import GameLine, SavedRecord, game_of_seat, load, open_db
from net.store import StoreError
from pigeon_tui.screens.size import GuardedScreen
from pigeon_tui.screens.styles import own_styles
from pigeon_tui.session import LinkState, LinkStatus, Seat
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.hand import Hand
from pigeon_tui.widgets.log import GameLog, sentences
from pigeon_tui.widgets.scores import DeckInfo, TableStatus, view_scores
from pigeon_tui.widgets.zone import NO_HIGHLIGHT, ZoneBox, board

ALL: Final = "all"
"""The viewer's mode that shows every card (finished games only)."""
Viewer = int | None | str
"""Whose view is shown: a seat, None (a spectator), or ALL."""


def viewers(saved: SavedRecord) -> tuple[Viewer, ...]:
    """The views a replay of `saved` may show, in the order `v` cycles through them."""
    out: tuple[Viewer, ...] = saved.seen_by()
    return (*out, ALL) if saved.over else out


class ReplayScreen(GuardedScreen):
    """One recorded game, point by point. Never shows a card its viewer could not see: the
    all-cards mode and other seats' hands only for a finished game."""

    CSS_PATH: ClassVar[str | list[str | PurePath]] = "replay.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "step(1)", "Next", id="replay-next", key_display="→"),
        Binding("left,p", "step(-1)", "Back", id="replay-back", key_display="←"),
        Binding("down,close_square_bracket", "turn(1)", "Next turn", id="replay-next-turn", key_display="↓"),
        Binding("up,open_square_bracket", "turn(-1)", "Turn back", id="replay-turn-back", key_display="↑"),
        Binding("home", "edge(0)", "Start", show=False, id="replay-start"),
        Binding("end", "edge(1)", "End", show=False, id="replay-end"),
        Binding("t", "jump", "Turn…", id="replay-jump"),
        Binding("v", "viewer", "View", id="replay-viewer"),
        Binding("escape,q", "close", "Close", id="replay-close", key_display="q"),
    ]

    def __init__(self, saved: SavedRecord, glyphs: Glyphs, viewer: Viewer | None = None) -> None:
        """Raises ValueError if `viewer` may not be shown for this game (see `viewers`), and
        IllegalChoice if the record does not replay."""
        super().__init__()
        self.saved = saved
        self.glyphs = glyphs
        self.replay: Timeline[Any, Any] = self._replay(saved.record)
        self.allowed = viewers(saved)
        if viewer is None:
            viewer = self.allowed[0]
        if viewer not in self.allowed:
            raise ValueError(refusal(saved, viewer))
        self.viewer: Viewer = viewer
        self.at = 0
        self.names = tuple(s.name.removesuffix(" (bot)") if s.kind == "bot" else s.name for s in saved.seats)
        """The players' names as the table showed them (a bot's without the host's " (bot)")."""
        self.seats = tuple(
            Seat(name, s.level if s.kind == "bot" else None) for name, s in zip(self.names, saved.seats, strict=True)
        )

    def compose(self) -> ComposeResult:
        g = self.glyphs
        yield from board(g, range(self.saved.record.players))
        with Horizontal(id="bottom"):
            with Vertical(id="left"):
                yield Static(id="replay-bar")
                yield GameLog(id="log")
            with Vertical(id="right"):
                yield Hand(g, id="hand")
                yield Static(id="replay-hands")
                yield DeckInfo(g, id="info")
        yield Footer()

    def _replay(self, record: object) -> Timeline[Any, Any]:
        """The game's points. Raises ValueError on a record of another game."""
        if not isinstance(record, Record):
            raise ValueError("not a record of Pigeons & Guano")
        return Replay(record)

    def on_mount(self) -> None:
        self.show()

    # ---- what is shown ----------------------------------------------------------------------

    def current_view(self) -> PlayerView:
        """The view at the current point, as the viewer saw it."""
        seat = self.viewer if isinstance(self.viewer, int) else None
        return view(self.replay.points[self.at].state, seat)

    def show(self) -> None:
        point = self.replay.points[self.at]
        v = self.current_view()
        seat = self.viewer if isinstance(self.viewer, int) else None
        everything = self.viewer == ALL
        self._draw(v, seat)
        hands = self.query_one("#replay-hands", Static)
        hands.display = everything
        if everything:
            hands.update(self._all_hands(point.state.hands))
        events = self.replay.events_to(self.at)
        if not everything:
            events = [self._redact(e, seat) for e in events]
        log = self.query_one(GameLog)
        log.clear()
        log.add(self._sentences(events, v, seat))
        self.query_one("#replay-bar", Static).update(self._bar(point))

    # What each game's replay draws its own way.

    def _draw(self, v: Any, seat: int | None) -> None:
        """The board and the viewer's hand (none for a spectator or every card)."""
        self.query_one(TableStatus).show(v, self.seats, LinkStatus(LinkState.LOCAL, message=self._whose()))
        scores = view_scores(v)
        for zone in self.query(ZoneBox):
            zone.show(v, self.seats, NO_HIGHLIGHT, scores)
        hand = self.query_one(Hand)
        hand.display = seat is not None
        if seat is not None:
            hand.show(v.hand, NO_HIGHLIGHT)
        self.query_one(DeckInfo).show(v)

    def _redact(self, event: Any, seat: int | None) -> Any:
        return redact(event, seat)

    def _sentences(self, events: list[Any], v: Any, seat: int | None) -> list[tuple[str, bool]]:
        return sentences(events, v.book, self.names)

    def _bar(self, point: Point[Any, Any]) -> Text:
        """Where the replay stands: the point, its turn, how many events led here."""
        n = len(self.replay) - 1
        bar = Text(f"Point {self.at} of {n} {self.glyphs.dot} turn {point.turn}", style="bold")
        bar.append(f" {self.glyphs.dot} {len(point.events)} event{'' if len(point.events) == 1 else 's'} here")
        return bar

    def _whose(self) -> str:
        if self.viewer == ALL:
            return "Replay: all cards"
        if self.viewer is None:
            return "Replay: spectator's view"
        assert isinstance(self.viewer, int)
        name = self.names[self.viewer]
        return "Replay: your view" if name == "You" else f"Replay: {name}'s view"

    def _all_hands(self, hands: Sequence[Sequence[str]]) -> Text:
        out = Text()
        for seat, cards in enumerate(hands):
            out.append(f"{self.names[seat]} ({len(cards)})\n", style="bold")
            out.append(", ".join(ACTIONS[c].name if c in ACTIONS else c for c in cards) or "no cards")
            out.append("\n")
        return out

    # ---- moving -----------------------------------------------------------------------------

    def go(self, at: int) -> None:
        self.at = max(0, min(len(self.replay) - 1, at))
        self.show()

    def action_step(self, step: int) -> None:
        self.go(self.at + step)

    def action_turn(self, step: int) -> None:
        self.go(self.replay.next_turn(self.at) if step > 0 else self.replay.previous_turn(self.at))

    def action_edge(self, end: int) -> None:
        self.go(len(self.replay) - 1 if end else 0)

    def action_jump(self) -> None:
        last = self.replay.turns[-1]

        def jump(turn: int | None) -> None:
            if turn is not None:
                self.go(self.replay.turn_start(turn))

        self.app.push_screen(TurnScreen(last), jump)

    def action_viewer(self) -> None:
        i = self.allowed.index(self.viewer)
        self.viewer = self.allowed[(i + 1) % len(self.allowed)]
        self.show()
        if len(self.allowed) == 1:
            self.notify("This game is not over: only what a spectator saw can be shown.")

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss()
        else:
            self.app.exit()


def replay_screen(saved: SavedRecord, glyphs: Glyphs, viewer: Viewer | None = None) -> ReplayScreen:
    """The viewer of `saved`'s game (see ReplayScreen for what it raises)."""
    if isinstance(saved.record, Record):
        return ReplayScreen(saved, glyphs, viewer)
    from pigeon_tui.screens.cubirds_replay import BirdsReplayScreen

    return BirdsReplayScreen(saved, glyphs, viewer)


def refusal(saved: SavedRecord, viewer: Viewer) -> str:
    if viewer == ALL:
        return "every card can be shown only for a finished game; this one is not over"
    if isinstance(viewer, int) and not 0 <= viewer < len(saved.seats):
        return f"there is no seat {viewer} in this game (seats 0 to {len(saved.seats) - 1})"
    return f"seat {viewer}'s cards are hidden: this game is not over"


class TurnScreen(ModalScreen[int | None]):
    """Asks which turn to jump to."""

    CSS_PATH = "replay.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="turn-cancel")]

    def __init__(self, last: int) -> None:
        super().__init__()
        own_styles(self)
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical(id="turn-box"):
            yield Static(f"Jump to turn (1 to {self.last}):")
            yield Input(placeholder="turn", id="turn-input", type="integer")
            yield Static(id="turn-error")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            turn = int(event.value)
        except ValueError:
            turn = 0
        if not 1 <= turn <= self.last:
            self.query_one("#turn-error", Static).update(f"A turn from 1 to {self.last}, please.")
            return
        self.dismiss(turn)

    def action_cancel(self) -> None:
        self.dismiss(None)


def read_game(db: Path, gid: int | None = None, *, token: str | None = None) -> SavedRecord:
    """Game `gid` of the games database at `db`, or the newest finished game of the seat that
    holds `token` (the game just over). Blocking: read it in a thread. Raises StoreError."""
    conn = open_db(db)
    try:
        if gid is None:
            gid = game_of_seat(conn, token) if token else None
            if gid is None:
                raise StoreError(f"this game is not in the games database {db}")
        return load(conn, gid)
    finally:
        conn.close()


def watch(
    on: Widget,
    glyphs: Glyphs,
    db: Path,
    gid: int | None = None,
    *,
    token: str | None = None,
    viewer: Viewer | None = None,
) -> None:
    """Open the viewer on a game of the database (see `read_game`), read in a thread so the
    screen `on` keeps drawing; what goes wrong is said in a toast."""
    app = on.app

    def show(saved: SavedRecord) -> None:
        try:
            allowed = viewers(saved)
            screen = replay_screen(saved, glyphs, viewer if viewer in allowed else None)
        except (ValueError, IllegalChoice) as exc:
            app.notify(f"This game cannot be watched: {exc}", severity="error")
            return
        app.push_screen(screen)

    def read() -> None:
        try:
            saved = read_game(db, gid, token=token)
        except StoreError as exc:
            app.call_from_thread(app.notify, str(exc), severity="error")
            return
        app.call_from_thread(show, saved)

    on.run_worker(read, thread=True, exclusive=True, group="replay")


class GameListScreen(GuardedScreen):
    """The finished games of the database, newest first; Enter watches one."""

    CSS_PATH = "replay.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="games-close", key_display="q"),
    ]

    def __init__(self, lines: Sequence[GameLine], glyphs: Glyphs, db: Path) -> None:
        super().__init__()
        self.lines = list(lines)
        self.glyphs = glyphs
        self.db = db

    def compose(self) -> ComposeResult:
        g = self.glyphs
        yield Static(Text("Finished games: choose one to watch", style="bold"), id="games-title")
        if not self.lines:
            yield Static("No finished game yet: play one, then come back.", id="games-empty")
        yield OptionList(*(Option(game_text(line, g), id=str(line.id)) for line in self.lines), id="games-list")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_id is not None:
            watch(self, self.glyphs, self.db, int(event.option_id))

    def action_close(self) -> None:
        """Back to the start screen (in the game's app), or out of `pigeon-tui replay`."""
        if len(self.app.screen_stack) > 2:
            self.dismiss()
        else:
            self.app.exit()


def game_text(line: GameLine, g: Glyphs) -> str:
    """A game in one line: number, edition, players (winners starred), turns."""
    import time

    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(line.ended or line.started))
    names = ", ".join(f"{n}*" if i in line.winners else n for i, n in enumerate(line.names))
    return f"#{line.id} {g.dot} {when} {g.dot} {line.edition} {g.dot} {names} {g.dot} {line.turns} turns"
