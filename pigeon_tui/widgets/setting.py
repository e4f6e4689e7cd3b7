"""A setting on a form: a label and a value changed with the left and right arrows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

T = TypeVar("T")


class Setting(Widget, Generic[T], can_focus=True):
    """One setting: a label and a value changed with the left and right arrows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,minus", "step(-1)", "Less", show=False, id="setting-previous"),
        Binding("right,plus,space", "step(1)", "More", show=False, id="setting-next"),
        Binding("down", "app.focus_next", "Next", show=False, id="setting-down"),
        Binding("up", "app.focus_previous", "Previous", show=False, id="setting-up"),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, setting: Setting[object]) -> None:
            super().__init__()
            self.setting = setting

    def __init__(self, label: str, values: Sequence[T], shown: Sequence[str], index: int, *, id: str) -> None:  # noqa: A002
        super().__init__(id=id)
        self.label = label
        self.values = list(values)
        self.shown = list(shown)
        self.set_reactive(Setting.index, index)

    @property
    def value(self) -> T:
        return self.values[self.index]

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.values)
        self.post_message(self.Changed(self))  # type: ignore[arg-type]

    def render(self) -> Text:
        t = Text(f"{self.label:<9}", style="bold")
        t.append(f"< {self.shown[self.index]} >")
        return t

    def on_click(self) -> None:
        self.action_step(1)
