"""The two customizable Flock cards (§9) as a host defines them: a settings line on the start and
host screens, and the form it opens (issue 13)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from core.cards import custom_from_text, custom_to_text

FORMAT_HINT = (
    "name=Racing Pigeon,size=1,places=road+statue+cables+crowd+balcony,"
    "rule=none|fat|infamous|lady|stupid|lame. Only the name is needed; empty: a plain Common pigeon."
)


def card_names(texts: tuple[str, ...]) -> str:
    """The custom cards in a few words: their names, or "plain" (two Common pigeons)."""
    names = [custom_from_text(t).name for t in texts if t.strip()]
    return ", ".join(names) or "plain"


def checked(texts: tuple[str, ...]) -> tuple[str, ...]:
    """The cards' texts as the engine writes them, empty ones dropped from the end. Raises
    ValueError (core.cards.custom_from_text) on a card the engine cannot play."""
    out = [custom_to_text(custom_from_text(t)) for t in texts]
    while out and not out[-1]:
        out.pop()
    return tuple(out)


class CustomCardsForm(ModalScreen[tuple[str, ...] | None]):
    """Define the two customizable cards (F39, F40): Enter keeps them, Esc leaves them as they were."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="custom-cancel"),
        Binding("ctrl+s", "submit", "Keep", id="custom-submit", key_display="enter"),
    ]

    def __init__(self, texts: tuple[str, ...]) -> None:
        super().__init__()
        self.texts = (*texts, "", "")[:2]

    def compose(self) -> ComposeResult:
        with Vertical(classes="form", id="custom-form"):
            yield Static("The customizable cards (F39, F40)", classes="form-title")
            yield Static(FORMAT_HINT, classes="form-hint")
            for i, text in enumerate(self.texts, 1):
                yield Static(f"Card {i}", classes="form-label")
                yield Input(text, id=f"custom-{i}", placeholder="plain Common pigeon")
            yield Static("", id="custom-error")
            yield Static("Tab moves, Enter keeps, Esc cancels.", classes="form-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#custom-1").focus()

    @on(Input.Submitted)
    def action_submit(self) -> None:
        texts = tuple(self.query_one(f"#custom-{i}", Input).value for i in (1, 2))
        try:
            cards = checked(texts)
        except ValueError as exc:
            self.query_one("#custom-error", Static).update(Text(str(exc), style="bold red"))
            return
        self.dismiss(cards)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CustomCards(Widget, can_focus=True):
    """A settings line: the custom cards by name; Enter (or a click) opens the form."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,right,left", "edit", "Define", show=False, id="custom-cards-edit"),
        Binding("down", "app.focus_next", "Next", show=False, id="custom-cards-down"),
        Binding("up", "app.focus_previous", "Previous", show=False, id="custom-cards-up"),
    ]

    texts: reactive[tuple[str, ...]] = reactive(())

    def __init__(self, texts: tuple[str, ...] = (), *, id: str) -> None:  # noqa: A002
        super().__init__(id=id)
        self.set_reactive(CustomCards.texts, texts)

    def render(self) -> Text:
        t = Text(f"{'Cards':<9}", style="bold")
        t.append(f"< {card_names(self.texts)} >")
        return t

    def action_edit(self) -> None:
        self.app.push_screen(CustomCardsForm(self.texts), self._defined)

    def _defined(self, texts: tuple[str, ...] | None) -> None:
        if texts is not None:
            self.texts = texts

    def on_click(self) -> None:
        self.action_edit()
