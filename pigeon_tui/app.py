"""The Textual app: screens for start, table, help and game over; styles in app.tcss."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.scrollbar import ScrollBar, ScrollBarRender

from core.views import PlayerView
from pigeon_tui.session import GameOptions, LocalSession, Seat, Session
from pigeon_tui.themes import KIND_COLOURS, glyphs

SessionFactory = Callable[[GameOptions], Session]
"""Makes the session of a new game against bots (the in-process engine by default)."""


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
        bot_delay: float = 0.25,
        session_factory: SessionFactory | None = None,
    ) -> None:
        super().__init__()
        self.options = options or GameOptions()
        self.play_now = play_now
        self.ascii_only = ascii_only
        self.glyphs = glyphs(ascii_only)
        self.bot_delay = bot_delay
        self.session_factory: SessionFactory = session_factory or self._local_session
        self.rematches = 0
        ScrollBar.renderer = AsciiScrollBarRender if ascii_only else ScrollBarRender

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(KIND_COLOURS)

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer; plain words for --ascii (enter, up) instead of symbols."""
        shown = super().get_key_display(binding)
        if self.ascii_only and not shown.isascii():
            modifiers, key = binding.parse_key()
            return "+".join([*modifiers, key])
        return shown

    def _local_session(self, options: GameOptions) -> Session:
        return LocalSession(options, bot_delay=self.bot_delay)

    def on_mount(self) -> None:
        if self.ascii_only:
            self.screen.add_class("-ascii")
        self.set_class(self.ascii_only, "-ascii")
        self.back_to_start()
        if self.play_now:
            self.start_local(self.options)

    def back_to_start(self) -> None:
        """Show the start screen alone on the stack."""
        from pigeon_tui.screens.start import StartScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(StartScreen(self.glyphs, self.options))

    def start_local(self, options: GameOptions) -> None:
        """A new game against bots, shown over the start screen."""
        from pigeon_tui.screens.table import TableScreen

        self.options = options
        screen = TableScreen(self.session_factory(options), self.glyphs)
        if self.screen.__class__.__name__ in ("GameOverScreen", "TableScreen"):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def rematch(self) -> None:
        """The same table again, with the next seed when one was given."""
        self.rematches += 1
        seed = self.options.seed
        self.start_local(replace(self.options, seed=None if seed is None else seed + 1))

    def show_game_over(self, view: PlayerView, seats: tuple[Seat, ...]) -> None:
        from pigeon_tui.screens.game_over import GameOverScreen

        self.switch_screen(GameOverScreen(view, seats, self.glyphs))
