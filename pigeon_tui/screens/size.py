"""The size guard: below the minimum terminal size, a screen says the size needed."""

from __future__ import annotations

from typing import Final

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from pigeon_tui.screens.styles import own_styles

MIN_SIZE: Final = Size(80, 24)
"""The smallest terminal the table fits in without cutting anything (an SSH default)."""
BREAKPOINTS_H: Final = [(0, "-narrow"), (100, "-wide"), (140, "-very-wide")]
BREAKPOINTS_V: Final = [(0, "-short"), (32, "-tall")]


def fits(size: Size) -> bool:
    return size.width >= MIN_SIZE.width and size.height >= MIN_SIZE.height


class TooSmallScreen(ModalScreen[None]):
    """Shown over any screen while the terminal is too small; goes away once it fits."""

    _leaving = False

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(id="too-small-text")

    def on_mount(self) -> None:
        self._say(self.app.size)

    def on_resize(self, event: events.Resize) -> None:
        self._say(event.size)
        if fits(event.size) and self.app.screen is self and not self._leaving:
            self._leaving = True
            self.dismiss(None)

    def _say(self, size: Size) -> None:
        self.query_one("#too-small-text", Static).update(
            f"This terminal is {size.width}x{size.height}.\n"
            f"Pigeons & Guano needs at least {MIN_SIZE.width}x{MIN_SIZE.height}:\n"
            "please make the window bigger."
        )


class GuardedScreen(Screen[None]):
    """A screen that shows TooSmallScreen over itself whenever the terminal is too small."""

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS_H
    VERTICAL_BREAKPOINTS = BREAKPOINTS_V

    def __init__(self) -> None:
        super().__init__()
        own_styles(self)
        self._preset_breakpoints()

    def _preset_breakpoints(self) -> None:
        """The breakpoint classes for the current size from the start, so the first Resize
        changes no class (which would restyle every widget of the screen once more)."""
        try:
            width, height = self.app.size
        except Exception:
            return
        for breakpoints, value in ((BREAKPOINTS_H, width), (BREAKPOINTS_V, height)):
            chosen = [name for least, name in breakpoints if value >= least][-1:]
            for _, name in breakpoints:
                self.set_class(name in chosen, name, update=False)

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self._guard_size)

    def on_resize(self, event: events.Resize) -> None:
        self._guard_size()

    def _guard_size(self) -> None:
        if self.app.screen is self and not fits(self.app.size):
            self.app.push_screen(TooSmallScreen())
