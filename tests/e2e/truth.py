"""The truth a screen is judged by: the game's record replayed with the engine, and the public
state at every point a host may show (after each choice, and at each reaction window's event),
with the log sentences told by then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from core.events import Event, EventKind, redact
from core.record import Record
from core.rules import apply
from core.state import GameState
from core.views import PlayerView, view
from pigeon_tui.explain import forced_sentence, forced_step
from pigeon_tui.themes import with_names
from pigeon_tui.widgets.log import sentences

INTRO: Final = "New game: {players} players, rules edition {edition}."
"""The log's first line, which the table writes before any event."""


@dataclass(frozen=True, slots=True)
class Point:
    """One moment of the game a screen may show."""

    logged: int
    """Log sentences told by then, the intro included."""
    view: PlayerView
    """The seat's view at that moment (a spectator's if the seat is None)."""
    choice: int
    """Choices applied before it; a window's point comes during the next one."""
    window: bool
    """At a reaction window's event (the WINDOW event), not after a whole choice."""


@dataclass(frozen=True, slots=True)
class Story:
    """The game as one seat saw it: every log sentence, and the points in order."""

    sentences: tuple[str, ...]
    points: tuple[Point, ...]
    record: Record


def replay(record: Record | Mapping[str, Any], seat: int | None, names: Sequence[str], private: bool = False) -> Story:
    """Replay `record` and note each point `seat` may be shown, with the sentences by then
    (in the words of the seat's log: its names, "You" for itself). The client's own line for a
    step it took for the seat (issue 10) is told where it took it: `private`, a table where all
    other seats are bots (`pigeon-tui play`)."""
    rec = record if isinstance(record, Record) else Record.from_dict(record)
    state = rec.start()
    told = [INTRO.format(players=rec.players, edition=rec.edition.value)]
    points = [Point(len(told), view(state, seat), 0, False)]
    book = state.book
    names = tuple(names)

    def tell(events: Sequence[Event]) -> None:
        told.extend(text for text, _ in sentences([redact(e, seat) for e in events], book, names, seat))

    at_windows: list[PlayerView] = []

    def seen(st: GameState) -> None:
        at_windows.append(view(st, seat))

    for i, (player, decision_id, option) in enumerate(rec.choices):
        asked = next((d for d in state.open if d.id == decision_id), None)
        if player == seat and asked is not None:
            taken = forced_step(view(state, seat), asked, private)
            if taken is not None:
                told.append(forced_sentence(with_names(taken.label, names, seat)))
                # The client says so when it sends the step, before the host's update: the
                # board is still the one before it (a loaded machine shows that for 0.5 s).
                points.append(Point(len(told), view(state, seat), i, False))
        at_windows.clear()  # the engine calls `seen` at each WINDOW event, in order
        events = apply(state, player, decision_id, option, at_window=seen)
        ends = [n + 1 for n, e in enumerate(events) if e.kind is EventKind.WINDOW]
        assert len(ends) == len(at_windows), "one state per WINDOW event"
        done = 0
        for n, v in zip(ends, at_windows, strict=True):
            tell(events[done:n])
            done = n
            points.append(Point(len(told), v, i, True))
        tell(events[done:])
        points.append(Point(len(told), view(state, seat), i + 1, False))
    return Story(tuple(told), tuple(points), rec)
