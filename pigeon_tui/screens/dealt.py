"""What every game's table screen does alike: drawn at once and dealt when its session comes,
updates read by a worker and drawn a whole one per frame, choices sent from a worker, help,
the log and a spectator's Esc. A game's screen (`table`, `cubirds`) draws its own board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, Protocol, TypeVar, cast

from textual import on, work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from net.client import GameChanged
from pigeon_tui.screens.size import GuardedScreen
from pigeon_tui.session import ChoiceRefused, Seat, Session
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.log import GameLog
from pigeon_tui.widgets.prompt import Prompt
from pigeon_tui.widgets.zone import NO_HIGHLIGHT, Highlight

if TYPE_CHECKING:
    from core.decisions import Decision, OptionValue
    from pigeon_tui.app import PigeonApp

UPDATE_HOLD: Final = 0.03
"""Seconds painting waits after an update is drawn, so that the whole update shows in one frame."""
GAME_OVER_AFTER: Final = 0.6
"""Seconds the last board stays before the results."""


class TableView(Protocol):
    """What the shared screen reads of any game's view."""

    @property
    def seat(self) -> int | None: ...
    @property
    def players(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def decisions(self) -> tuple[Decision, ...]: ...


ViewT = TypeVar("ViewT", bound=TableView)


class DealtScreen(GuardedScreen, Generic[ViewT]):
    """The table is on screen before the host has dealt (a private host still starting): the
    prompt says so until `attach` brings the session, then `follow` reads its updates."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", id="help", key_display="?"),
        Binding("l", "log", "Log", id="log"),
        Binding("f1", "help", "Help", show=False, id="help-f1"),
        Binding("escape", "stop_watching", "Leave", id="stop-watching"),
    ]
    view_type: ClassVar[type]
    """The class of the game's views: an update of another game is not drawn here."""

    class ViewUpdated(Message):
        """A newer view of the game arrived (the client's update, as it came); an older one
        still queued is dropped (its log lines and events wait in the screen, so none is lost)."""

        def __init__(self, update: GameChanged) -> None:
            super().__init__()
            self.update = update

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, DealtScreen.ViewUpdated)

    def __init__(self, session: Session | None, glyphs: Glyphs) -> None:
        super().__init__()
        self.session = session
        self.glyphs = glyphs
        self._mounted = False
        self.view: ViewT | None = None
        self.highlight: Highlight = NO_HIGHLIGHT
        self._game_over_shown = False
        self._unlogged: list[tuple[str, bool]] = []
        """Log sentences of updates read but not drawn yet."""
        self._answered: int | None = None
        """The decision last answered: not offered again by a redraw that comes before the
        host's update (a seat or connection change redraws the last view)."""
        self._introduced = False
        """The log's first line is written (`_intro`)."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.session.seats if self.session is not None else ()

    @property
    def names(self) -> tuple[str, ...]:
        names = tuple(s.name for s in self.seats)
        if self.view is not None and len(names) < self.view.players:
            names += tuple(f"Player {i + 1}" for i in range(len(names), self.view.players))
        return names

    def on_mount(self) -> None:
        prompt = self.query_one(Prompt)
        prompt.waiting = f"Dealing{self.glyphs.ellipsis}"
        prompt.focus()
        self._mounted = True
        if self.session is not None:
            self._deal(self.session)

    def attach(self, session: Session) -> None:
        """Deal: the session of the game this table was drawn for has come."""
        self.session = session
        if self._mounted:
            self._deal(session)  # else on_mount will

    def _deal(self, session: Session) -> None:
        """Draw the updates the session already has now (the newest board, every log line), so
        that the table's first frame shows the game (not "Dealing..." for a frame, then the
        game: one more whole paint before the first board a player sees); then read the next
        ones. Not the first of them alone: the others, drawn just after, were painted over
        two frames (a LAN table comes with several; the e2e harness saw the board and the log
        of different updates for a frame)."""
        taken = [update for update in session.ready_updates() if self._take(update)]
        if taken:
            self._show(taken[-1], hold=False)
        self.call_after_refresh(self._painted)
        self.follow()

    def _painted(self) -> None:
        collect = getattr(self.app, "collect_garbage", None)  # PigeonApp's; tests run others too
        if collect is not None:
            collect()

    @work(exclusive=True, group="net")
    async def follow(self) -> None:
        """Read the session's updates. Their sentences wait in `_unlogged` for the redraw that
        shows their view (a newer update may replace it), so the log and the board change in
        the same frame."""
        session = self.session
        if session is None:
            return
        async for update in session.updates():
            if self._take(update):
                self.post_message(self.ViewUpdated(update))

    def _take(self, update: GameChanged) -> bool:
        """Read an update (not drawn yet); False if it is not of this table's game."""
        if not isinstance(update.view, self.view_type):
            return False
        if not self._introduced:
            self._introduced = True
            self._unlogged.append((self._intro(update), True))
        self._read(update)
        return True

    @on(ViewUpdated)
    def _on_view(self, message: ViewUpdated) -> None:
        self._show(message.update)

    def _show(self, update: GameChanged, hold: bool = True) -> None:
        """Draw an update (the newest read) with the log lines of every update read so far."""
        if hold:
            # Each widget's repaint reaches the screen on that widget's own idle, and the
            # prompt's new height as a layout: unheld, one update is painted over several
            # frames (a board older than its log for a moment; issue 9). Held, the next frame
            # shows all of it. (The first view, drawn before the table's first paint, needs none.)
            self.app.delay_update(UPDATE_HOLD)
        self.query_one(GameLog).add(self._unlogged)
        self._unlogged = []
        view = cast(ViewT, update.view)
        self._showing(self.view, update)
        self.view = view
        prompt = self.query_one(Prompt)
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
        self.redraw()
        if view.over and not self._game_over_shown:
            self._game_over_shown = True
            self.refresh_bindings()
            self.set_timer(GAME_OVER_AFTER, self._game_over)

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
            if self.view is not None and decision in self.view.decisions:
                self.query_one(Prompt).decision = decision

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_watching":
            return self.view is not None and self.view.seat is None  # a spectator only
        return True

    def action_stop_watching(self) -> None:
        """A spectator leaves the table for the host's lobby."""
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.lan.back_to_lobby()

    def action_help(self) -> None:
        self.app.push_screen(self._help())

    def action_log(self) -> None:
        from pigeon_tui.screens.help import LogScreen

        self.app.push_screen(LogScreen(self.query_one(GameLog).lines, self.glyphs))

    # What each game's screen says and draws its own way.

    def _intro(self, update: GameChanged) -> str:
        """The log's first line: a new game, or one under way that we (re)join or watch."""
        view = cast(ViewT, update.view)
        table, goal = self._about(view)
        if view.seat is None:
            return f"Watching a game ({table}); Esc leaves."
        if update.snapshot:
            return f"Back in your seat ({table})." + (" Earlier in this game:" if update.events else "")
        return f"New game: {table}.{goal}"

    def _about(self, view: ViewT) -> tuple[str, str]:
        """The game in a few words ('4 players, ...'), and how to win in a sentence (or '')."""
        raise NotImplementedError

    def _read(self, update: GameChanged) -> None:
        """Keep what an update read (not drawn yet) says: its log lines in `_unlogged`."""
        raise NotImplementedError

    def _showing(self, before: ViewT | None, update: GameChanged) -> None:
        """An update is about to be drawn over the view `before` (marks of what changed)."""

    def _take_forced(self, view: ViewT, decision: Decision) -> bool:
        """Answer a decision without asking (and say so), or False to ask."""
        return False

    def _waiting_text(self, view: ViewT) -> str:
        raise NotImplementedError

    def redraw(self) -> None:
        raise NotImplementedError

    def _game_over(self) -> None:
        raise NotImplementedError

    def _help(self) -> Screen[Any]:
        raise NotImplementedError
