"""Game over: final scores with their breakdown, the tie-break applied, rematch or back to start."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from core.views import PlayerView
from net.spawn import HostFailed
from pigeon_tui.screens.size import GuardedScreen
from pigeon_tui.sentences import and_list
from pigeon_tui.session import ChoiceRefused, Seat, Session
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.scores import score_table, tie_break_text, view_scores, view_winners

if TYPE_CHECKING:
    from pigeon_tui.app import PigeonApp

ReplayKey = tuple[Path, str]
"""A finished game's place: the games database that holds it, and the seat token it was
played with (the newest finished game of that seat is this one)."""


def replay_key(session: Session | None) -> ReplayKey | None:
    """Where the game just over is kept, if a host of this machine (the private host, or a LAN
    host the app started) wrote it to the games database here."""
    from net.store import default_path

    if session is None or session.host is None or session.client.token is None:
        return None
    return default_path(), session.client.token


async def rematch(app: PigeonApp) -> None:
    """Another game at the same table (the next seed, or the host's rematch): the app's worker,
    not the results', which may go meanwhile (the final board, the start screen). The host's
    table comes once dealt; until then the results say whom the host waits for (an empty
    table said "Dealing..." for as long as the others took)."""
    session = app.session
    if session is None:
        app.start_game(app.options)
        return
    try:
        await session.rematch()
    except (ChoiceRefused, HostFailed) as exc:
        if app.session is session:  # else the player left the table meanwhile
            app.notify(str(exc), severity="error")
        return
    if app.session is session:
        app.show_table(session)


class GameOverScreen(GuardedScreen):
    """The final scores; r plays again, s goes back to the start screen, q quits."""

    CSS_PATH = "game_over.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", "Rematch", id="rematch"),
        Binding("b", "board", "Final board", id="final-board"),
        Binding("l", "log", "Log", id="final-log"),
        Binding("w", "replay", "Replay", id="watch-replay"),
        Binding("s", "start", "Start screen", id="back-to-start"),
        Binding("escape", "ask_start", "Leave", id="leave-results", key_display="esc"),
        Binding("q", "app.quit", "Quit", show=False, id="quit"),
    ]

    def __init__(
        self,
        view: PlayerView,
        seats: tuple[Seat, ...],
        glyphs: Glyphs,
        can_rematch: bool = True,
        log: Sequence[tuple[str, bool]] = (),
        replay: ReplayKey | None = None,
    ) -> None:
        super().__init__()
        self.final = view
        self.seats = seats
        self.glyphs = glyphs
        self.can_rematch = can_rematch
        self.lines = list(log)
        """The whole game's log, as the table had it."""
        self.replay = replay
        """Where this game's record is (a host of this machine wrote it), for "Watch the replay"."""

    def compose(self) -> ComposeResult:
        view, g = self.final, self.glyphs
        names = [s.name for s in self.seats]
        winners = list(view_winners(view))
        scores = view_scores(view)
        me = view.seat
        if me is not None and me in winners:
            headline = "You win!" if len(winners) == 1 else "You share the win!"
        else:
            headline = " and ".join(names[w] for w in winners) + (" wins." if len(winners) == 1 else " share the win.")
        with Vertical(id="game-over"):
            yield Static(Text(f"Game over {g.dot} {headline}", style="bold"), id="game-over-title")
            yield Static(score_table(scores, names, winners, g), id="game-over-scores")
            yield Static(tie_break_text(scores, names, winners), id="game-over-tie-break")
            options = [Option("Rematch (r)", id="rematch")] if self.can_rematch else []
            options += [
                Option("See the final board (b)", id="board"),
                Option("Read the whole log (l)", id="log"),
                *([Option("Watch the replay (w)", id="replay")] if self.replay is not None else []),
                Option("Back to the start screen (s)", id="start"),
                Option("Quit (q)", id="quit"),
            ]
            yield OptionList(*options, id="game-over-menu")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        if self.can_rematch and (session := self._session()) is not None:
            session.on_change = self._rematch_changed
            self._rematch_changed()

    def on_unmount(self) -> None:
        session = self._session()
        if session is not None and session.on_change == self._rematch_changed:
            session.on_change = None

    def _session(self) -> Session | None:
        return getattr(self.app, "session", None)

    def _rematch_waits_for(self) -> tuple[str, ...] | None:
        """Whom a rematch asked for waits for (empty: the host deals it); None if not asked."""
        session = self._session()
        return session.rematch_waits_for if session is not None else None

    def _rematch_changed(self) -> None:
        """The Rematch line says whom a rematch asked for waits for, until it is dealt."""
        if not self.is_attached or not self.query("#game-over-menu"):
            return
        waits, dots = self._rematch_waits_for(), self.glyphs.ellipsis
        if waits is None:
            line = "Rematch (r)"
        elif waits:
            line = f"Waiting for {and_list(waits)} to agree to a rematch{dots}"
        else:
            line = f"Dealing the rematch{dots}"
        self.query_one(OptionList).replace_option_prompt("rematch", line)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.can_rematch and self._rematch_waits_for() is None
        if action == "replay":
            return self.replay is not None
        return True

    @on(OptionList.OptionSelected)
    async def _on_menu(self, event: OptionList.OptionSelected) -> None:
        if event.option_id == "rematch":
            self.action_rematch()
        elif event.option_id == "start":
            self.action_start()
        elif event.option_id == "board":
            self.action_board()
        elif event.option_id == "log":
            self.action_log()
        elif event.option_id == "replay":
            self.action_replay()
        elif event.option_id == "quit":
            await self.app.action_quit()

    def action_rematch(self) -> None:
        if self._rematch_waits_for() is not None:
            return  # asked already: the line says whom it waits for
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.run_worker(rematch(app), exclusive=True, group="start")

    def action_board(self) -> None:
        """The final board: the table under these results (g there brings them back)."""
        if len(self.app.screen_stack) > 1 and type(self.app.screen_stack[-2]).__name__ == "TableScreen":
            self.app.pop_screen()

    def action_log(self) -> None:
        from pigeon_tui.screens.help import LogScreen

        self.app.push_screen(LogScreen(self.lines, self.glyphs))

    def action_replay(self) -> None:
        """The replay viewer on this game, from this seat's view (every card: v)."""
        from pigeon_tui.screens.replay import watch

        if self.replay is not None:
            db, token = self.replay
            watch(self, self.glyphs, db, token=token, viewer=self.final.seat)

    def action_ask_start(self) -> None:
        """Esc: leave the results for the start screen, once asked."""
        from pigeon_tui.screens.confirm import ConfirmScreen

        def leave(yes: bool | None) -> None:
            if yes:
                self.action_start()

        self.app.push_screen(ConfirmScreen("Leave the results for the start screen?"), leave)

    def action_start(self) -> None:
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.back_to_start()
