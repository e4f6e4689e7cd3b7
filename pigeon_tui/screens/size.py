"""The size guard: below the minimum terminal size, a screen says the size needed
(screens/too_small.py, imported only then: a ModalScreen class costs ~2 M instructions to define)."""

from __future__ import annotations

from typing import Final

from textual import events
from textual.geometry import Size
from textual.screen import Screen

from pigeon_tui.screens.styles import own_styles

MIN_SIZE: Final = Size(80, 24)
"""The smallest terminal the table fits in without cutting anything (an SSH default)."""
BREAKPOINTS_H: Final = [(0, "-narrow"), (100, "-wide"), (140, "-very-wide")]
BREAKPOINTS_V: Final = [(0, "-short"), (32, "-tall")]


def fits(size: Size) -> bool:
    return size.width >= MIN_SIZE.width and size.height >= MIN_SIZE.height


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
            from pigeon_tui.screens.too_small import TooSmallScreen  # only a terminal too small needs it

            self.app.push_screen(TooSmallScreen())
