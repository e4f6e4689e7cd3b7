"""What one seat (or one spectator) has been sent: the order of its updates, the last view and
decisions, and the `update` and `snapshot` frames built from them. Pure: no clock, no socket."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from core.decisions import Decision
from core.games import AnyGame
from net.frames import FrameTooBig, encode
from net.limits import EVENT_HISTORY, SNAPSHOT_EVENTS
from net.table.outbox import Frame

Limit = Callable[[list[Decision]], "float | None"]
"""The time limit shown with these decisions (None: none)."""


@dataclass(eq=False, slots=True)
class Stream:
    """What one seat (or one spectator) has been sent: the order of updates and their content."""

    seq: int = 0
    history: deque[tuple[int, list[dict[str, Any]]]] = field(default_factory=lambda: deque(maxlen=EVENT_HISTORY))
    """(seq, events) of the last updates sent, for snapshots."""
    game_start: int = 0
    """`seq` before the current game's first update (earlier updates are another game's)."""
    view: dict[str, Any] | None = None
    """The last view sent: the public state as of the last event sent."""
    decisions: list[tuple[int, Decision]] = field(default_factory=list)
    """(wire id, decision) this seat may answer now. Wire ids are per seat, so the engine's
    running decision numbers never hint at how many others were asked."""
    next_wire: int = 1
    window: dict[str, Any] | None = None
    earlier: list[dict[str, Any]] = field(default_factory=list)
    """A resumed game's events before this host run took it up (as this stream may see them),
    which only a client that has nothing gets, first (one that was here has them)."""

    def wire(self, decisions: list[Decision]) -> list[dict[str, Any]]:
        """Number `decisions` for this seat (keeping the numbers of those already sent)."""
        known = {d.id: w for w, d in self.decisions}
        out: list[tuple[int, Decision]] = []
        for d in decisions:
            w = known.get(d.id)
            if w is None:
                w = self.next_wire
                self.next_wire += 1
            out.append((w, d))
        self.decisions = out
        return [wire_decision(w, d) for w, d in out]

    def wire_decisions(self) -> list[dict[str, Any]]:
        return [wire_decision(w, d) for w, d in self.decisions]

    def new_game(self) -> None:
        """A game starts: nothing to answer, and the updates from here on are its own (its
        first goes out whatever it shows)."""
        self.decisions = []
        self.view = None
        self.game_start = self.seq
        self.earlier = []

    def follow(self, public: Stream) -> None:
        """Start where `public` is (a new spectator), with its updates for the game's log."""
        self.view, self.window, self.seq, self.game_start = public.view, public.window, public.seq, public.game_start
        self.history.extend(public.history)
        self.earlier = public.earlier

    def unchanged(self, window: dict[str, Any] | None, mine: list[Decision]) -> bool:
        """An update with no events would tell this seat nothing: the same window and decisions
        (its board is as of the last event sent, which it has; a step of someone's move under
        way is the mover's alone until its events come)."""
        return self.view is not None and window == self.window and [d for _, d in self.decisions] == mine

    def update(
        self,
        table: int,
        seat: int | None,
        events: list[Any],
        window: dict[str, Any] | None,
        mine: list[Decision],
        board: Any,
        limit: float | None,
        game: AnyGame,
    ) -> Frame:
        """Record one update to this stream and return its frame: `events` redacted for `seat`,
        the view of `board` (None: the board of the last update, for an update with no events)
        and the decisions `mine`, all of `game`."""
        decisions = self.wire(mine)
        if board is not None:
            vd = game.view(board, seat).to_dict()
        else:
            assert self.view is not None
            vd = dict(self.view)
        vd["decisions"] = decisions
        self.view = vd
        self.window = window
        evs = [game.redact(e, seat).to_dict() for e in events]
        self.seq += 1
        self.history.append((self.seq, evs))
        return {
            "t": "update",
            "table": table,
            "seq": self.seq,
            "events": evs,
            "view": vd,
            "decisions": decisions,
            "window": window,
            "limit": limit,
        }

    def snapshot(
        self, table: int, seat: int | None, last_seq: int | None, still_open: Collection[Decision], limit: Limit
    ) -> Frame:
        """Everything a seat needs to go on: the view as of the last event it was sent, the
        decisions still open for it, and the events after `last_seq` (None: a client that has
        nothing, such as a new process with its token or a new spectator: the game's events
        so far), as far as the stream still has them and a frame holds them."""
        self.decisions = [(w, d) for w, d in self.decisions if d in still_open]
        decisions = self.wire_decisions()
        vd = None if self.view is None else {**self.view, "decisions": decisions}
        since = self.game_start if last_seq is None else max(last_seq, self.game_start)
        complete = since >= self.seq or bool(self.history and self.history[0][0] <= since + 1)
        events = [e for seq, evs in self.history if seq > since for e in evs]
        if last_seq is None:
            events = self.earlier + events
        if len(events) > SNAPSHOT_EVENTS:
            events = events[-SNAPSHOT_EVENTS:]
            complete = False
        frame: Frame = {
            "t": "snapshot",
            "table": table,
            "seat": seat,
            "seq": self.seq,
            "view": vd,
            "decisions": decisions,
            "window": self.window,
            "limit": limit([d for _, d in self.decisions]),
            "events": events,
            "complete": complete,
        }
        while True:  # the oldest events give way if the frame would be too big to send
            try:
                encode(frame)
                return frame
            except FrameTooBig:
                events = events[len(events) // 2 + 1 :]
                frame["events"], frame["complete"] = events, False


def wire_decision(wire_id: int, d: Decision) -> dict[str, Any]:
    out = d.to_dict()
    out["id"] = wire_id
    return out
