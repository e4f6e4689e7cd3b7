"""The two customizable Flock cards (§9) as a host defines them: a settings line on the start and
host screens, and the form it opens, a field for each thing a card may change (issue 13)."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from core.cards import (
    BALCONY,
    CABLES,
    CITY,
    CROWD,
    CUSTOM_IDS,
    ROAD,
    STATUE,
    Rule,
    custom_from_text,
    custom_pigeon,
    custom_to_text,
)
from pigeon_tui.screens.styles import own_styles
from pigeon_tui.widgets.setting import Setting

PLACES: Final = (*CITY, BALCONY)
PLACE_NAMES: Final = {ROAD: "Road", STATUE: "Statue", CABLES: "Cables", CROWD: "Crowd", BALCONY: "Balcony"}
RULE_HINTS: Final = {
    Rule.NONE: "no special rule: a Common pigeon",
    Rule.FAT: "guano played where it sits may bring your other guano along (R5.4)",
    Rule.INFAMOUS: "lands on the active player's Balcony; guano may greet it (R4.5, R4.6)",
    Rule.LADY: "pulls another pigeon to her Zone when she arrives (R4.4)",
    Rule.STUPID: "not scared by Blam! nor by guano on the Crowd (R4.2)",
    Rule.LAME: "never on the Cables (R1.2)",
}
HINTS: Final = {
    "name": "Its name, up to 24 characters. Empty: the card stays a plain Common pigeon.",
    "size": "The spaces it takes at the Statue and on the Cables (4 each).",
    "places": "Left/right pick a place, space turns it on or off. It needs the Road, the Crowd or a Balcony.",
}


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


class Places(Widget, can_focus=True):
    """Where a card may land: five places turned on and off (left/right move, space toggles)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous place", show=False, id="places-left"),
        Binding("right", "move(1)", "Next place", show=False, id="places-right"),
        Binding("space", "flip", "On/off", id="places-toggle"),
        Binding("down", "app.focus_next", "Next", show=False, id="places-down"),
        Binding("up", "app.focus_previous", "Previous", show=False, id="places-up"),
    ]

    cursor: reactive[int] = reactive(0)
    chosen: reactive[frozenset[str]] = reactive(frozenset(CITY))

    def __init__(self, chosen: tuple[str, ...], *, id: str) -> None:  # noqa: A002
        super().__init__(id=id)
        self.set_reactive(Places.chosen, frozenset(chosen))

    @property
    def value(self) -> tuple[str, ...]:
        return tuple(p for p in PLACES if p in self.chosen)

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(PLACES)

    def action_flip(self) -> None:
        self.chosen = self.chosen ^ {PLACES[self.cursor]}

    def render(self) -> Text:
        t = Text(f"{'Lands on':<9}", style="bold")
        for i, place in enumerate(PLACES):
            box = f"[{'x' if place in self.chosen else ' '}] {PLACE_NAMES[place]}"
            t.append(box, style="reverse" if self.has_focus and i == self.cursor else "")
            t.append(" ")
        return t

    def on_click(self, event: events.Click) -> None:
        x, i = event.x - 9, 0
        for i, place in enumerate(PLACES):  # noqa: B007
            x -= len(PLACE_NAMES[place]) + 5
            if x < 0:
                break
        self.cursor = i
        self.action_flip()


class CardFields(Vertical):
    """One customizable card's fields: name, size, places and rule."""

    def __init__(self, number: int, text: str) -> None:
        super().__init__(id=f"card-{number}", classes="card-fields")
        self.number = number
        card = custom_from_text(text)
        self.plain = not text.strip()
        self.card = card

    def compose(self) -> ComposeResult:
        n, card = self.number, self.card
        yield Static(f"Card {n} ({CUSTOM_IDS[n - 1]})", classes="form-label")
        with Horizontal(classes="card-name"):
            yield Static(f"{'Name':<9}", classes="form-label")
            yield Input("" if self.plain else card.name, id=f"custom-{n}-name", placeholder="plain Common pigeon")
        sizes = [1, 2, 3, 4]
        yield Setting(
            "Size", sizes, [f"{k} space{'s' if k > 1 else ''}" for k in sizes], card.size - 1, id=f"custom-{n}-size"
        )
        yield Places(card.entry[0] if len(card.entry) == 1 else CITY, id=f"custom-{n}-places")
        rules = list(Rule)
        yield Setting("Rule", rules, [r.value for r in rules], rules.index(card.rule), id=f"custom-{n}-rule")

    def text(self) -> str:
        """The card in the engine's text form ("" when its name is empty: a plain card). Raises
        ValueError (core.cards.custom_pigeon) on a card the engine cannot play."""
        name = self.query_one(Input).value.strip()
        if not name:
            return ""
        size: int = self.query_one(f"#custom-{self.number}-size", Setting).value
        rule: Rule = self.query_one(f"#custom-{self.number}-rule", Setting).value
        places = self.query_one(Places).value
        try:
            return custom_to_text(custom_pigeon(name, size, places, rule.value))
        except ValueError as exc:
            raise ValueError(f"Card {self.number}: {exc}") from None


class CustomCardsForm(ModalScreen[tuple[str, ...] | None]):
    """Define the two customizable cards (F39, F40): Enter keeps them, Esc leaves them as they were."""

    CSS_PATH = "forms.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="custom-cancel"),
        Binding("enter", "submit", "Keep", id="custom-submit", priority=True),
        Binding("down", "app.focus_next", "Next", show=False, id="custom-down"),
        Binding("up", "app.focus_previous", "Previous", show=False, id="custom-up"),
    ]

    def __init__(self, texts: tuple[str, ...]) -> None:
        super().__init__()
        own_styles(self)
        self.texts = (*texts, "", "")[:2]

    def compose(self) -> ComposeResult:
        with Vertical(classes="form", id="custom-form"):
            yield Static("The customizable cards", classes="form-title")
            for i, text in enumerate(self.texts, 1):
                yield CardFields(i, text)
            yield Static("", id="custom-error")
            yield Static("", id="custom-hint", classes="form-hint")
            yield Static("Up/down move, left/right change, Enter keeps, Esc cancels.", classes="form-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#custom-1-name").focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._hint(event.widget)

    @on(Setting.Changed)
    def _changed(self, event: Setting.Changed) -> None:
        self._hint(event.setting)

    def _hint(self, widget: Widget) -> None:
        field = (widget.id or "").rpartition("-")[2]
        if field == "rule" and isinstance(widget, Setting):
            hint = f"{widget.value.value}: {RULE_HINTS[widget.value]}"
        else:
            hint = HINTS.get(field, "")
        self.query_one("#custom-hint", Static).update(hint)

    def action_submit(self) -> None:
        try:
            cards = checked(tuple(card.text() for card in self.query(CardFields)))
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
