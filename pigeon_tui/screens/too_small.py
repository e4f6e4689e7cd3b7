"""The screen shown over any other while the terminal is smaller than the table needs."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Static

from pigeon_tui.screens.size import MIN_SIZE, fits


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
