"""The table: every Zone, the hand, the decks, the log and the prompt of one game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer

from core.events import Event
from core.views import PlayerView
from net.client import GameChanged
from pigeon_tui.changes import FLASH_SECONDS, HAND, NO_CHANGES, TOAST_SECONDS, Changes, changes, hits
from pigeon_tui.explain import forced_sentence, forced_step
from pigeon_tui.house import short
from pigeon_tui.screens.dealt import DealtScreen
from pigeon_tui.session import LinkState, LinkStatus, Session
from pigeon_tui.themes import Glyphs, with_names
from pigeon_tui.widgets.hand import Hand
from pigeon_tui.widgets.log import GameLog, sentences
from pigeon_tui.widgets.prompt import Prompt
from pigeon_tui.widgets.scores import DeckInfo, TableStatus, view_scores, whose_turn
from pigeon_tui.widgets.zone import ZoneBox, board

if TYPE_CHECKING:
    from core.decisions import Decision
    from pigeon_tui.app import PigeonApp


class TableScreen(DealtScreen[PlayerView]):
    """One game as the seat (or a spectator) sees it. Talks only to its `Session`."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("g", "results", "Results", id="results")]
    view_type = PlayerView

    def __init__(self, session: Session | None, glyphs: Glyphs, players: int | None = None) -> None:
        """`session` may come later (`attach`): the table is drawn at once, dealt when it comes."""
        super().__init__(session, glyphs)
        self.players = players if players is not None or session is None else len(session.seats)
        """Balconies to draw before the first view (the view's own count wins once it comes)."""
        self.update_: GameChanged | None = None
        """The update drawn last."""
        self._unshown: list[Event] = []
        """Events of updates read but not drawn yet (for the toast of what hit the reader)."""
        self.flash: Changes = NO_CHANGES
        """What the last update changed, marked for `FLASH_SECONDS`."""
        self._flash_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        g = self.glyphs
        yield from board(g, self._balcony_order(self.players or 0))
        with Horizontal(id="bottom"):
            with Vertical(id="left"):
                with VerticalScroll(id="prompt-box", can_focus=False):
                    yield Prompt(g, id="prompt")
                yield GameLog(id="log")
            with Vertical(id="right"):
                yield Hand(g, id="hand")
                yield DeckInfo(g, id="info")
        yield Footer()

    def _read(self, update: GameChanged) -> None:
        view = update.view
        self._unlogged.extend(sentences(update.events, view.book, self.names, view.seat))
        if not update.snapshot:
            self._unshown.extend(update.events)

    def _about(self, view: PlayerView) -> tuple[str, str]:
        house = short(view.house)
        return f"{view.players} players, rules edition {view.edition.value}" + (
            f", house rule {house}" if house else ""
        ), ""

    def _showing(self, before: PlayerView | None, update: GameChanged) -> None:
        self.update_ = update
        if update.snapshot:
            self._mark(NO_CHANGES, update.view, anew=True)
        else:
            self._mark(changes(before, update.view), update.view)
        self.query_one(Prompt).view = update.view
        if update.view.players != self.players:
            self._set_balconies(update.view.players)

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

    def _mark(self, marks: Changes, view: PlayerView, *, anew: bool = False) -> None:
        """Mark what changed until a one-shot timer ends it; toast what hit the reader. An update
        that changes nothing on the board (a decision offered) keeps the marks of the one
        before: they would otherwise vanish at once, or not, by how fast the two came."""
        seconds = getattr(self.app, "flash_seconds", FLASH_SECONDS)
        if seconds <= 0:
            marks = NO_CHANGES  # marks are off
        if marks or anew:
            self.flash = marks
            if self._flash_timer is not None:
                self._flash_timer.stop()
            self._flash_timer = self.set_timer(seconds, self._unmark) if marks else None
        toast = hits(self._unshown, view, self.names)
        self._unshown = []
        if toast:
            self.notify("\n".join(toast), timeout=TOAST_SECONDS, severity="warning")

    def _unmark(self) -> None:
        """The marks end: only what they were on is drawn again. A whole redraw (every Zone's
        titles, tooltip and repaint) cost the client about a third of an update's CPU, at
        every update (issue 10: idle at the table)."""
        self._flash_timer = None
        marked, self.flash = self.flash.zones, NO_CHANGES
        view = self.view
        if view is None or not marked:
            return
        seats = self.seats
        scores = view_scores(view)
        for zone in self.query(ZoneBox):
            if zone.zone in marked:  # pigeons that just landed are only in Zones marked too
                zone.show(view, seats, self.highlight, scores, NO_CHANGES)
        if HAND in marked:
            self.query_one(Hand).set_class(False, "-changed")

    def _set_balconies(self, players: int) -> None:
        """One Balcony per seat of the view (the table was drawn for another count)."""
        self.players = players
        box = self.query_one("#balconies")
        box.remove_children()
        box.mount_all(ZoneBox(f"b{seat}", self.glyphs) for seat in self._balcony_order(players))

    def _balcony_order(self, players: int) -> list[int]:
        """Seats in the order their Balconies are drawn. A rematch rotates the seats one place
        (docs/protocol.md); the drawing turns with them, so everyone's Balcony keeps its place
        on screen game after game (yours first at a game against bots)."""
        turn = self.session.rematches if self.session is not None else 0
        return [(turn + i) % players for i in range(players)] if players else []

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
        status = self.session.status if self.session is not None else LinkStatus(LinkState.CONNECTING)
        self.query_one(TableStatus).show(view, seats, status)
        scores = view_scores(view)  # once for every Balcony
        for zone in self.query(ZoneBox):
            zone.show(view, seats, self.highlight, scores, self.flash)
        hand = self.query_one(Hand)
        hand.set_class(HAND in self.flash.zones, "-changed")
        hand.show(view.hand, self.highlight, watching=view.seat is None, edition=view.edition)
        self.query_one(DeckInfo).show(view)

    @on(ZoneBox.Selected)
    def _on_zone(self, message: ZoneBox.Selected) -> None:
        prompt = self.query_one(Prompt)
        if message.card and any(message.card in e.refs for e in prompt.entries):
            prompt.select_ref(message.card)
        else:
            prompt.select_ref(message.zone)

    @on(Hand.CardChosen)
    def _on_card(self, message: Hand.CardChosen) -> None:
        self.query_one(Prompt).select_ref(message.card)

    def _game_over(self) -> None:
        """The results, over the final board (b shows the board, l the whole log)."""
        from pigeon_tui.screens.game_over import GameOverScreen, replay_key

        if self.view is None:
            return
        app: PigeonApp = self.app  # type: ignore[assignment]
        log = self.query_one(GameLog).lines if app.screen is self else []
        app.clear_notifications()  # the last moves' toasts would lie over the results
        key = replay_key(app.session)
        app.push_screen(GameOverScreen(self.view, self.seats, app.glyphs, self.view.seat is not None, log, key))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "results":
            return self._game_over_shown and self.view is not None and self.view.over
        return super().check_action(action, parameters)

    def action_results(self) -> None:
        """Back to the results from the final board."""
        self._game_over()

    def _help(self) -> Screen[Any]:
        from pigeon_tui.screens.help import HelpScreen

        edition = self.view.edition if self.view is not None else None
        custom = self.view.custom if self.view is not None else None
        house = self.view.house if self.view is not None else None
        return HelpScreen(self.glyphs, edition, custom, house)
