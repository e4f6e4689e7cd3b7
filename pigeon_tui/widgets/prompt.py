"""The prompt: renders whatever decision is pending from its options, with a key for each.

It never decides legality: it lists the options the engine offered and nothing else. Options
with the same label are one entry (the engine describes them alike, e.g. two Fat Pigeons on
the Statue) and choosing it picks the first of them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import ClassVar, Final

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.style import Style
from textual.timer import Timer
from textual.widget import Widget

from core.cards import ACTIONS, Edition
from core.decisions import BACK, DONE, PASS, REACTIONS, Decision, Option, OptionValue
from core.structs import Struct
from core.views import PlayerView
from pigeon_tui.cardtext import action_help, pigeon_help
from pigeon_tui.explain import option_note, reaction_context
from pigeon_tui.themes import Glyphs, fit, with_names
from pigeon_tui.widgets.lines import LinesWidget
from pigeon_tui.widgets.zone import Highlight

OPTION_KEYS: Final = "123456789abcdefghijkmnorstuvwxyz"
"""Keys for options in order: digits, then letters except l (log), p (pass) and q."""
PASS_KEY: Final = "0"
BACK_KEY: Final = "esc"
MAX_COLUMNS: Final = 3
_MUTED: Final = "$text-muted"
_CURSOR: Final = "reverse bold"
ONE_COLUMN: Final = 7
"""Up to this many options are listed in one column; more are spread over columns."""


class Entry(Struct):
    """One line of the prompt: a key, a label and the option(s) it stands for. (A Struct,
    core.structs: a frozen dataclass costs far more to define at start, issue 9.)"""

    key: str
    label: str
    options: tuple[Option, ...]

    @property
    def value(self) -> OptionValue:
        return self.options[0].value

    @property
    def refs(self) -> frozenset[str]:
        return frozenset(r for o in self.options for r in o.refs)


def entries_for(
    decision: Decision, names: tuple[str, ...] = (), me: int | None = None, times: str = "×"
) -> list[Entry]:
    """The decision's options as prompt entries: same labels merged into one ("Fat Pigeon ×2"),
    keys given in order, pass/done on 0 and back on Esc (listed last). Seats are called by
    `names`."""
    groups: dict[str, list[Option]] = {}
    special: dict[str, str] = {}
    for o in decision.options:
        label = with_names(o.label, names, me)
        if o.value in (PASS, DONE):
            special[label] = PASS_KEY
        elif o.value == BACK:
            special[label] = BACK_KEY
        groups.setdefault(label, []).append(o)
    keys = iter(OPTION_KEYS)
    out: list[Entry] = []
    back: list[Entry] = []
    for label, options in groups.items():
        key = special.get(label)
        if len(options) > 1:
            label = f"{label} {times}{len(options)}"
        if key == BACK_KEY:
            back.append(Entry(key, label, tuple(options)))
            continue
        out.append(Entry(key if key is not None else next(keys, ""), label, tuple(options)))
    return out + back


class Prompt(LinesWidget, can_focus=True):
    """The pending decision with its options. Keys choose; arrows/Tab move; Enter confirms."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose_cursor", "Choose", id="choose"),
        Binding("escape", "back", "Back", id="back"),
        Binding(PASS_KEY, "pass", "Pass/none", id="pass", key_display="0"),
        Binding("p", "pass", "Pass", show=False, id="pass-p"),
        Binding("down", "move(1)", "Next", show=False, id="cursor-down"),
        Binding("up", "move(-1)", "Previous", show=False, id="cursor-up"),
        Binding("tab", "move(1)", "Next", show=False, id="cursor-next"),
        Binding("shift+tab", "move(-1)", "Previous", show=False, id="cursor-previous"),
        Binding("right", "move_column(1)", "Next column", show=False, id="cursor-right"),
        Binding("left", "move_column(-1)", "Previous column", show=False, id="cursor-left"),
        *[Binding(k, f"key('{k}')", f"Option {k}", show=False, id=f"option-{k}") for k in OPTION_KEYS],
    ]

    decision: reactive[Decision | None] = reactive(None, bindings=True, layout=True)
    """The seat's pending decision; None while others play."""
    waiting: reactive[str] = reactive("", layout=True)
    """What to show with no decision pending."""
    deadline: reactive[float | None] = reactive(None)
    """`time.monotonic()` when the host stops waiting for this reaction, if it limits it."""

    class OptionChosen(Message):
        """The player chose an option of a decision."""

        def __init__(self, decision: Decision, value: OptionValue) -> None:
            super().__init__()
            self.decision = decision
            self.value = value

    class CursorMoved(Message):
        """The cards and Zones to light up changed."""

        def __init__(self, highlight: Highlight) -> None:
            super().__init__()
            self.highlight = highlight

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.glyphs = glyphs
        self.entries: list[Entry] = []
        self.cursor = 0
        self.view: PlayerView | None = None
        self.names: tuple[str, ...] = ()
        self._timer: Timer | None = None
        self.clock: Callable[[], float] = time.monotonic
        """The clock deadlines are read with (tests give their own)."""
        self._rows = 1
        self._cursor_line = 0
        self.context = ""
        """What the pending reaction answers: who played what where, and what answering does."""

    # -- state ---------------------------------------------------------------------------

    def watch_decision(self, old: Decision | None, new: Decision | None) -> None:
        if new is not None and old is not None and new.id == old.id:
            return
        me = self.view.seat if self.view else None
        self.entries = entries_for(new, self.names, me, self.glyphs.times) if new is not None else []
        if self.view is not None:
            view = self.view
            self.entries = [
                e._replace(label=f"{e.label} ({note})") if (note := option_note(view, e.options[0])) else e
                for e in self.entries
            ]
        self.context = ""
        if new is not None and self.view is not None:
            self.context = reaction_context(self.view, self.names) if new.kind in REACTIONS else ""
        self.cursor = next((i for i, e in enumerate(self.entries) if e.key not in (PASS_KEY, BACK_KEY)), 0)
        self._announce()

    def watch_deadline(self, deadline: float | None) -> None:
        if deadline is None:
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
        elif self._timer is None:
            self._timer = self.set_interval(1.0, self._tick)
        self.refresh(layout=True)

    def _tick(self) -> None:
        """Redraw the seconds left (and lay out again only if the prompt took more or fewer lines)."""
        lines = len(self._lines(max(1, self.content_region.width or self.size.width)))
        self.refresh(layout=lines != self.size.height)

    def highlight(self) -> Highlight:
        """The cards and Zones the options refer to, and those of the entry under the cursor."""
        offered = frozenset(r for e in self.entries for r in e.refs)
        cursor = self.entries[self.cursor].refs if self.entries else frozenset()
        return Highlight(offered, cursor)

    def _announce(self) -> None:
        self.post_message(self.CursorMoved(self.highlight()))
        self.refresh(layout=True)
        self.call_after_refresh(self._scroll_to_cursor)

    def _scroll_to_cursor(self) -> None:
        parent = self.parent
        if isinstance(parent, Widget) and parent.is_scrollable:
            parent.scroll_to_region(Region(0, self._cursor_line, 1, 1), animate=False, immediate=True)

    # -- actions -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the options offered can be chosen (style §5.6): the rest are disabled and hidden."""
        if action == "key":
            return any(e.key == parameters[0] for e in self.entries)
        if action == "back":
            return any(e.key == BACK_KEY for e in self.entries)
        if action == "pass":
            return any(e.key == PASS_KEY for e in self.entries)
        if action in ("choose_cursor", "move", "move_column"):
            return bool(self.entries)
        return True

    def action_key(self, key: str) -> None:
        for i, e in enumerate(self.entries):
            if e.key == key:
                self._choose(i)
                return

    def action_back(self) -> None:
        self.action_key(BACK_KEY)

    def action_pass(self) -> None:
        self.action_key(PASS_KEY)

    def action_choose_cursor(self) -> None:
        if self.entries:
            self._choose(self.cursor)

    def action_move(self, step: int) -> None:
        if self.entries:
            self.cursor = (self.cursor + step) % len(self.entries)
            self._announce()

    def action_move_column(self, step: int) -> None:
        if self.entries:
            target = self.cursor + step * self._rows
            if 0 <= target < len(self.entries):
                self.cursor = target
                self._announce()

    def select_ref(self, ref: str) -> None:
        """A click on a card or Zone: choose the one entry that refers to it, or move the
        cursor through several."""
        matches = [i for i, e in enumerate(self.entries) if ref in e.refs]
        if len(matches) == 1:
            self._choose(matches[0])
        elif matches:
            later = [i for i in matches if i > self.cursor]
            self.cursor = later[0] if self.cursor in matches and later else matches[0]
            self._announce()

    def _choose(self, index: int) -> None:
        decision = self.decision
        if decision is None or not 0 <= index < len(self.entries):
            return
        value = self.entries[index].value
        self.decision = None
        self.deadline = None
        self.post_message(self.OptionChosen(decision, value))

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("entry") if event.style else None
        if isinstance(index, int):
            event.stop()
            self._choose(index)

    # -- drawing -------------------------------------------------------------------------

    def _lines(self, width: int) -> list[Content]:
        decision = self.decision
        if decision is None:
            return Content.styled(self.waiting, _MUTED).wrap(width) if self.waiting else [Content()]
        me = self.view.seat if self.view is not None else None
        lines: list[Content] = []
        if self.deadline is not None:  # a line of its own: it never runs into the question
            left = max(0, math.ceil(self.deadline - self.clock()))
            lines.append(Content.styled(f" {left} s left to answer ", "$warning bold reverse"))
        question = self.context or with_names(decision.prompt, self.names, me)
        lines.extend(Content.styled(question, "bold").wrap(width))
        if decision.kind in REACTIONS:  # whole, never wrapped apart
            hint = Content.styled(f"({PASS_KEY} to pass)", _MUTED)
            if lines[-1].cell_length + 2 + hint.cell_length <= width:
                lines[-1] = Content.assemble(lines[-1], "  ", hint)
            else:
                lines.append(hint)
        lines.extend(self._option_lines(width, len(lines)))
        detail = self._detail()
        if detail:
            lines.extend(Content.styled(detail, _MUTED).wrap(width))
        return lines

    def _option_lines(self, width: int, top: int) -> list[Content]:
        """The entries in one column (long labels wrap under themselves), or in several when
        there are many and they are short enough."""
        cells = [f"{e.key:>3} {e.label}" for e in self.entries]
        longest = max((len(c) for c in cells), default=1) + 2
        columns = 1 if len(cells) <= ONE_COLUMN else max(1, min(MAX_COLUMNS, width // longest, len(cells)))
        if columns == 1:
            return self._column(width, top)
        rows = math.ceil(len(cells) / columns)
        self._rows = rows
        col_width = width // columns
        lines: list[Content] = []
        for r in range(rows):
            row: list[Content] = []
            for c in range(columns):
                i = c * rows + r
                if i >= len(self.entries):
                    break
                if i == self.cursor:
                    self._cursor_line = top + r
                cell = self._cell(i, fit(self.entries[i].label, max(1, col_width - 6), self.glyphs))
                row.append(cell.pad_right(max(0, col_width - cell.cell_length)))
            lines.append(Content.assemble(*row))
        return lines

    def _column(self, width: int, top: int) -> list[Content]:
        self._rows = max(1, len(self.entries))
        lines: list[Content] = []
        for i, e in enumerate(self.entries):
            parts = Content(e.label).wrap(max(1, width - 6))
            if i == self.cursor:
                self._cursor_line = top + len(lines)
            lines.append(self._cell(i, parts[0].plain if parts else ""))
            for more in parts[1:]:
                style = _CURSOR if i == self.cursor else ""
                rest = Content.assemble("     ", (more.plain + " ", style))
                lines.append(rest.stylize(Style.from_meta({"entry": i})))
        return lines

    def _cell(self, i: int, label: str) -> Content:
        """Cursor mark, key and label of entry `i`; clicking it chooses it."""
        here = i == self.cursor
        style = _CURSOR if here else ""
        cell = Content.assemble(
            (self.glyphs.cursor if here else " ", style),
            (f"{self.entries[i].key:>3}", "$accent bold"),
            (" " + label + " ", style),
        )
        return cell.stylize(Style.from_meta({"entry": i}))

    def _detail(self) -> str:
        """What the card under the cursor does."""
        if not self.entries:
            return ""
        book = self.view.book if self.view is not None else {}
        for ref in sorted(self.entries[self.cursor].refs):
            if ref in ACTIONS:
                return action_help(ref, self.view.edition if self.view is not None else Edition.V35)
            if ref in book:
                return pigeon_help(book[ref])
        return ""
