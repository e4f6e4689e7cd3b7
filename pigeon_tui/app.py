"""The Textual app: screens for start, table, help and game over; styles in app.tcss.

A game against bots runs on a private headless host (a child process on 127.0.0.1) that the
app joins over TCP like any LAN game; `local=True` plays in-process instead (tests, and the
fallback when the host cannot start).
"""

from __future__ import annotations

from typing import Awaitable, Callable, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.scrollbar import ScrollBar, ScrollBarRender

from core.views import PlayerView
from pigeon_tui.session import GameOptions, LocalSession, Seat, Session
from pigeon_tui.themes import KIND_COLOURS, glyphs

SessionFactory = Callable[[GameOptions], Awaitable[Session]]
"""Makes the session of a new game against bots."""


class AsciiScrollBarRender(ScrollBarRender):
    """Scroll bars drawn with spaces only, for --ascii."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class PigeonApp(App[None]):
    """Pigeons & Guano at the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "Pigeons & Guano"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
    ]

    def __init__(
        self,
        options: GameOptions | None = None,
        *,
        play_now: bool = False,
        ascii_only: bool = False,
        local: bool = False,
        bot_delay: float = 0.25,
        session_factory: SessionFactory | None = None,
    ) -> None:
        super().__init__()
        self.options = options or GameOptions()
        self.play_now = play_now
        self.ascii_only = ascii_only
        self.glyphs = glyphs(ascii_only)
        self.local = local
        self.bot_delay = bot_delay
        self.session_factory: SessionFactory = session_factory or (
            self._local_session if local else self._hosted_session
        )
        self.session: Session | None = None
        ScrollBar.renderer = AsciiScrollBarRender if ascii_only else ScrollBarRender

    # -- looks ---------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(KIND_COLOURS)

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer; plain words for --ascii (enter, up) instead of symbols."""
        shown = super().get_key_display(binding)
        if self.ascii_only and not shown.isascii():
            modifiers, key = binding.parse_key()
            return "+".join([*modifiers, key])
        return shown

    # -- sessions ------------------------------------------------------------------------

    async def _local_session(self, options: GameOptions) -> Session:
        return LocalSession(options, bot_delay=self.bot_delay)

    async def _hosted_session(self, options: GameOptions) -> Session:
        """The real path: a private host child process, joined over TCP. Falls back to the
        in-process engine (with a notice) if the host cannot be started or reached."""
        from pigeon_tui.remote import HostFailed, private_game

        try:
            return await private_game(options, bot_delay=self.bot_delay)
        except (HostFailed, OSError, TimeoutError, ValueError) as exc:
            self.notify(f"Could not start the game host ({exc}); playing in-process.", severity="warning")
        except Exception as exc:  # noqa: BLE001  (net.client.Refused and the like: still play)
            self.notify(f"The game host refused ({exc}); playing in-process.", severity="warning")
        return LocalSession(options, bot_delay=self.bot_delay)

    async def _drop_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            await session.close()

    # -- screens -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.set_class(self.ascii_only, "-ascii")
        self._show_start()
        if self.play_now:
            self.start_game(self.options)

    def _show_start(self) -> None:
        from pigeon_tui.screens.start import StartScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(StartScreen(self.glyphs, self.options))

    def back_to_start(self) -> None:
        """Leave the game (if any) and show the start screen alone on the stack."""
        self.run_worker(self._drop_session(), group="session", exit_on_error=False)
        self._show_start()

    def start_game(self, options: GameOptions) -> None:
        """A new game against bots, shown over the start screen once dealt."""
        self.options = options
        self.run_worker(self._start_game(options), exclusive=True, group="start")

    async def _start_game(self, options: GameOptions) -> None:
        await self._drop_session()
        session = await self.session_factory(options)
        self._show_table(session)

    def _show_table(self, session: Session) -> None:
        from pigeon_tui.screens.table import TableScreen

        self.session = session
        screen = TableScreen(session, self.glyphs)
        if type(self.screen).__name__ in ("GameOverScreen", "TableScreen"):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def rematch(self) -> None:
        """Another game at the same table (the next seed, or the host's rematch)."""
        self.run_worker(self._rematch(), exclusive=True, group="start")

    async def _rematch(self) -> None:
        from pigeon_tui.session import ChoiceRefused

        session = self.session
        if session is None:
            self.start_game(self.options)
            return
        try:
            self._show_table(await session.rematch())
        except ChoiceRefused as exc:
            self.notify(str(exc), severity="error")

    def show_game_over(self, view: PlayerView, seats: tuple[Seat, ...]) -> None:
        from pigeon_tui.screens.game_over import GameOverScreen

        self.switch_screen(GameOverScreen(view, seats, self.glyphs))

    async def action_quit(self) -> None:
        """Leave the table (the private host ends with it) and quit."""
        await self._drop_session()
        self.exit()
