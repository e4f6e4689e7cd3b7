"""The table: every Zone, the hand, the decks, the log and the prompt of one game."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Footer

from core.cards import CITY
from core.decisions import Decision
from core.events import Event
from core.views import PlayerView
from pigeon_tui.changes import FLASH_SECONDS, HAND, NO_CHANGES, TOAST_SECONDS, Changes, changes, hits
from pigeon_tui.explain import forced_sentence, forced_step
from pigeon_tui.screens.dealt import DealtScreen
from pigeon_tui.session import ChoiceRefused, Link, Seat, Session, Status, Update
from pigeon_tui.themes import Glyphs, with_names
from pigeon_tui.widgets.hand import Hand
from pigeon_tui.widgets.log import GameLog, sentences
from pigeon_tui.widgets.prompt import Prompt
from pigeon_tui.widgets.scores import TableInfo, TableStatus, view_scores, whose_turn
from pigeon_tui.widgets.zone import NO_HIGHLIGHT, Highlight, ZoneView

if TYPE_CHECKING:
    from core.decisions import Decision, OptionValue
    from pigeon_tui.app import PigeonApp

UPDATE_HOLD: Final = 0.03
"""Seconds painting waits after an update is drawn, so that the whole update shows in one frame."""


class TableScreen(DealtScreen):
    """One game as the seat (or a spectator) sees it. Talks only to its `Session`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", id="help", key_display="?"),
        Binding("l", "log", "Log", id="log"),
        Binding("f1", "help", "Help", show=False, id="help-f1"),
        Binding("escape", "stop_watching", "Leave", id="stop-watching"),
        Binding("g", "results", "Results", id="results"),
    ]

    class ViewUpdated(Message):
        """A newer view of the game arrived; an older one still queued is dropped."""

        def __init__(self, update: Update) -> None:
            super().__init__()
            self.update = update

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, TableScreen.ViewUpdated)

    def __init__(self, session: Session | None, glyphs: Glyphs, players: int | None = None) -> None:
        """`session` may come later (`attach`): the table is drawn at once, dealt when it comes."""
        super().__init__(session, glyphs)
        self.players = players if players is not None or session is None else len(session.seats)
        """Balconies to draw before the first view (the view's own count wins once it comes)."""
        self.view: PlayerView | None = None
        self.update_: Update | None = None
        self.highlight: Highlight = NO_HIGHLIGHT
        self._game_over_shown = False
        self._unlogged: list[tuple[str, bool]] = []
        """Log sentences of updates read but not drawn yet."""
        self._unshown: list[Event] = []
        """Events of updates read but not drawn yet (for the toast of what hit the reader)."""
        self.flash: Changes = NO_CHANGES
        """What the last update changed, marked for `FLASH_SECONDS`."""
        self._flash_timer: Timer | None = None
        self._answered: int | None = None
        """The decision last answered: not offered again by a redraw that comes before the
        host's update (a seat or connection change redraws the last view)."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.session.seats if self.session is not None else ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def compose(self) -> ComposeResult:
        g = self.glyphs
        yield TableStatus(g, id="status")
        with Horizontal(id="city"):
            for zone in CITY:
                yield ZoneView(zone, g)
        with Horizontal(id="balconies"):
            for seat in range(self.players or 0):
                yield ZoneView(f"b{seat}", g)
        with Horizontal(id="bottom"):
            with Vertical(id="left"):
                with VerticalScroll(id="prompt-box", can_focus=False):
                    yield Prompt(g, id="prompt")
                yield GameLog(id="log")
            with Vertical(id="right"):
                yield Hand(g, id="hand")
                yield TableInfo(g, id="info")
        yield Footer()

    @work(exclusive=True, group="net")
    async def follow(self) -> None:
        """Read the session's updates. Their sentences wait in `_unlogged` for the redraw that
        shows their view (a newer update may replace it), so the log and the board change in
        the same frame."""
        first = True
        session = self.session
        if session is None:
            return
        async for update in session.updates():
            view = update.view
            if first:
                first = False
                self._unlogged.append((self._intro(update), True))
            self._unlogged.extend(sentences(update.events, view.book, self.names, view.seat))
            if not update.snapshot:
                self._unshown.extend(update.events)
            self.post_message(self.ViewUpdated(update))

    def _intro(self, update: Update) -> str:
        """The log's first line: a new game, or one under way that we (re)join or watch."""
        view = update.view
        table = f"{view.players} players, rules edition {view.edition.value}"
        if view.seat is None:
            return f"Watching a game ({table}); Esc leaves."
        if update.snapshot:
            return f"Back in your seat ({table}). Earlier in this game:"
        return f"New game: {table}."

    @on(ViewUpdated)
    def _on_view(self, message: ViewUpdated) -> None:
        # Each widget's repaint reaches the screen on that widget's own idle, and the prompt's
        # new height as a layout: unheld, one update is painted over several frames (a board
        # older than its log for a moment; issue 9). Held, the next frame shows all of it.
        self.app.delay_update(UPDATE_HOLD)
        self.query_one(GameLog).add(self._unlogged)
        self._unlogged = []
        update = message.update
        self.update_ = update
        self._mark(changes(self.view, update.view) if not update.snapshot else NO_CHANGES, update.view)
        self.view = view = update.view
        prompt = self.query_one(Prompt)
        prompt.view = view
        prompt.names = self.names
        decision = view.decisions[0] if view.decisions else None
        if decision is not None and decision.id == self._answered:
            decision = None  # answered; the host's update saying so is on its way
        if decision is not None and self._take_forced(view, decision):
            decision = None
        if decision is None or prompt.decision is None or prompt.decision.id != decision.id:
            prompt.decision = decision
            prompt.deadline = update.deadline if decision is not None else None
        prompt.waiting = self._waiting_text(view)
        self.highlight = prompt.highlight()  # drawn in this frame, not after its CursorMoved
        if view.players != self.players:
            self._set_balconies(view.players)
        self.redraw()
        if view.over and not self._game_over_shown:
            self._game_over_shown = True
            self.refresh_bindings()
            self.set_timer(0.6, self._game_over)

    def _take_forced(self, view: PlayerView, decision: Decision) -> bool:
        """Take a step that has one option for the player, and say so in the log. Only where
        taking it at once tells nobody anything (`forced_step`): the speed of an answer is
        seen by the others at the table."""
        private = self.session is not None and self.session.private
        option = forced_step(view, decision, private)
        if option is None:
            return False
        label = with_names(option.label, self.names, view.seat)
        self.query_one(GameLog).add([(forced_sentence(label), False)])
        self._answered = decision.id
        self.post_message(Prompt.OptionChosen(decision, option.value))
        return True

    def _mark(self, marks: Changes, view: PlayerView) -> None:
        """Mark what changed until a one-shot timer ends it; toast what hit the reader."""
        self.flash = marks
        if self._flash_timer is not None:
            self._flash_timer.stop()
        seconds = getattr(self.app, "flash_seconds", FLASH_SECONDS)
        self._flash_timer = self.set_timer(seconds, self._unmark) if marks else None
        toast = hits(self._unshown, view, self.names)
        self._unshown = []
        if toast:
            self.notify("\n".join(toast), timeout=TOAST_SECONDS, severity="warning")

    def _unmark(self) -> None:
        self._flash_timer = None
        self.flash = NO_CHANGES
        self.redraw()

    def _set_balconies(self, players: int) -> None:
        """One Balcony per seat of the view (the table was drawn for another count)."""
        self.players = players
        box = self.query_one("#balconies")
        box.remove_children()
        box.mount_all(ZoneView(f"b{seat}", self.glyphs) for seat in range(players))

    def _waiting_text(self, view: PlayerView) -> str:
        if view.over:
            return "The game is over."
        if view.active == view.seat:
            return f"Your turn: the pigeons are moving{self.glyphs.ellipsis}"
        return f"{whose_turn(view, self.seats)}{self.glyphs.ellipsis}"

    def redraw(self) -> None:
        view = self.view
        if view is None:
            return
        seats = self.seats
        status = self.session.status if self.session is not None else Status(Link.CONNECTING)
        self.query_one(TableStatus).show(view, seats, status)
        scores = view_scores(view)  # once for every Balcony
        for zone in self.query(ZoneView):
            zone.show(view, seats, self.highlight, scores, self.flash)
        hand = self.query_one(Hand)
        hand.set_class(HAND in self.flash.zones, "-changed")
        hand.show(view.hand, self.highlight, watching=view.seat is None)
        self.query_one(TableInfo).show(view)

    @on(Prompt.CursorMoved)
    def _on_cursor(self, message: Prompt.CursorMoved) -> None:
        if message.highlight != self.highlight:
            self.highlight = message.highlight
            self.redraw()

    @on(Prompt.OptionChosen)
    def _on_chosen(self, message: Prompt.OptionChosen) -> None:
        if self.session is None:
            return
        self._answered = message.decision.id
        self._send(self.session, message.decision, message.value)

    @work(group="choose")
    async def _send(self, session: Session, decision: Decision, value: OptionValue) -> None:
        """Send a choice and wait for its result outside the screen's message queue: the host
        may hold the result until a reaction window's pacing ends (seconds), and updates must
        keep being drawn meanwhile (awaited in the handler, the table froze that long)."""
        try:
            await session.choose(decision.id, value)
        except ChoiceRefused as exc:
            self.notify(f"That move was refused: {exc}", severity="error")
            if self._answered == decision.id:
                self._answered = None
            prompt = self.query_one(Prompt)
            if self.view is not None and decision in self.view.decisions:
                prompt.decision = decision

    @on(ZoneView.Selected)
    def _on_zone(self, message: ZoneView.Selected) -> None:
        prompt = self.query_one(Prompt)
        if message.card and any(message.card in e.refs for e in prompt.entries):
            prompt.select_ref(message.card)
        else:
            prompt.select_ref(message.zone)

    @on(Hand.CardChosen)
    def _on_card(self, message: Hand.CardChosen) -> None:
        self.query_one(Prompt).select_ref(message.card)

    def _game_over(self) -> None:
        if self.view is not None:
            app: PigeonApp = self.app  # type: ignore[assignment]
            app.show_game_over(self.view, self.seats, can_rematch=self.view.seat is not None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_watching":
            return self.view is not None and self.view.seat is None  # a spectator only
        if action == "results":
            return self._game_over_shown and self.view is not None and self.view.over
        return True

    def action_results(self) -> None:
        """Back to the results from the final board."""
        self._game_over()

    def action_stop_watching(self) -> None:
        """A spectator leaves the table for the host's lobby."""
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.back_to_lobby()

    def action_help(self) -> None:
        from pigeon_tui.screens.help import HelpScreen

        edition = self.view.edition if self.view is not None else None
        custom = self.view.custom if self.view is not None else None
        self.app.push_screen(HelpScreen(self.glyphs, edition, custom))

    def action_log(self) -> None:
        from pigeon_tui.screens.help import LogScreen

        self.app.push_screen(LogScreen(self.query_one(GameLog).lines, self.glyphs))
