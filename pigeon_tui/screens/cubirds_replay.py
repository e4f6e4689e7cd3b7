"""Watching a recorded game of CuBirds: its table (rows, collections, the viewer's hand) and log
at each point, with the replay's bar and keys (pigeon_tui.screens.replay)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from core.cubirds.cards import SPECIES
from core.cubirds.events import Event, redact
from core.cubirds.record import Record
from core.cubirds.replay import Replay
from core.cubirds.views import PlayerView, view
from pigeon_tui.birds import counts, in_order
from pigeon_tui.screens.cubirds import board, log_lines
from pigeon_tui.screens.replay import ReplayScreen
from pigeon_tui.widgets.birds import BirdHand, BirdRows, BirdStatus, Collections, Seen
from pigeon_tui.widgets.log import GameLog


class BirdsReplayScreen(ReplayScreen):
    """One recorded game of CuBirds, point by point; what it may show is the replay's rule."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["replay.tcss", "cubirds.tcss"]

    def _replay(self, record: object) -> Replay:
        if not isinstance(record, Record):
            raise ValueError("not a record of CuBirds")
        return Replay(record)

    def compose(self) -> ComposeResult:
        g = self.glyphs
        yield from board(g)
        with Horizontal(id="bird-bottom"):
            with Vertical(id="bird-left"):
                yield Static(id="replay-bar")
                yield GameLog(id="bird-log")
            with Vertical(id="bird-side"):
                yield BirdHand(g, id="bird-hand")
                yield Static(id="replay-hands")
        yield Footer()

    def current_view(self) -> PlayerView:  # type: ignore[override]  # this game's view
        seat = self.viewer if isinstance(self.viewer, int) else None
        return view(self.replay.points[self.at].state, seat)

    def _draw(self, v: PlayerView, seat: int | None) -> None:
        letters = bool(getattr(self.app, "ascii_only", False))
        seen = Seen(v, self.names, letters=letters, status=self._whose())
        for widget in (self.query_one(BirdStatus), self.query_one(BirdRows), self.query_one(Collections)):
            widget.seen = seen
        hand = self.query_one(BirdHand)
        hand.display = seat is not None
        hand.seen = seen

    def _redact(self, event: Event, seat: int | None) -> Event:
        return redact(event, seat)

    def _sentences(self, events: list[Event], v: PlayerView, seat: int | None) -> list[tuple[str, bool]]:
        return log_lines(events, self.names, seat)

    def _all_hands(self, hands: Sequence[Sequence[str]]) -> Text:
        out = Text()
        for seat, cards in enumerate(hands):
            out.append(f"{self.names[seat]} ({len(cards)})\n", style="bold")
            birds = (f"{k} {SPECIES[sp].plural if k > 1 else SPECIES[sp].name}" for sp, k in in_order(counts(cards)))
            out.append(", ".join(birds) or "no cards")
            out.append("\n")
        return out
