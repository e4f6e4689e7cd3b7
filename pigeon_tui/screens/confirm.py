"""A question before something that cannot be undone (quitting a game under way, leaving the
results): y or Enter does it, n or Esc goes back."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from pigeon_tui.screens.styles import own_styles


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True (y, Enter) or False (n, Esc)."""

    CSS_PATH = "confirm.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm-yes", key_display="y"),
        Binding("n,escape", "answer(False)", "No", id="confirm-no", key_display="n"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        own_styles(self)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="confirm-question")
            yield Static("y  yes      n  no (Esc)", id="confirm-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
