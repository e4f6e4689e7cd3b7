"""What each seat and spectator of a table is sent, and when: updates, snapshots, results.

Everything here runs on the table's clock and never waits for a client: frames go to the
outbox. Every frame a client gets is built from the game's `view(state, seat)` and events
redacted for that seat (`core.games.Game`).

Reaction windows (R5.7) are paced so that their timing never tells who holds what: with two or
more people at the table (or one against searching bots), every window the engine announces (an
event for which `Game.window_of` names a window, whether or not anyone may react) is shown for
at least `reaction_window` seconds, and nothing that happened after it is sent before then.
Views are never sent while a window is open, only each asked seat's own reaction decisions, so
no frame says who is being waited on.

A choice's `result` never overtakes the update carrying its events, and one made while a window
is held is answered only once that hold is over (see `Delivery.answer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.decisions import Decision
from net.clock import Handle
from net.table.config import Phase
from net.table.outbox import Frame, Recipient
from net.table.seating import Member
from net.table.streams import Stream

if TYPE_CHECKING:
    from net.table.table import Table


@dataclass(eq=False, slots=True)
class Answer:
    """A person's accepted choice, whose `result` waits for the update carrying its events."""

    member: Member
    conn: Recipient | None
    """The connection that chose: the result goes there, or nowhere if it is gone."""
    aid: Any
    events: int
    """The choice's events end with the table's `events`-th event of the game."""
    seq: int
    """The person's stream `seq` before the choice."""
    after_hold: bool
    """Made while a window was held: answered no earlier than the end of that hold."""


class Delivery:
    """The events the engine produced and what has gone out of them, paced (R5.7)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.pending: list[Any] = []
        """Events the engine produced that the seats have not been sent yet."""
        self.boards: list[Any] = []
        """The state at each window event in `pending`, in order (`Game.apply_watching`'s
        `at_window`): a window is shown with the board as it stood then."""
        self.made = 0
        """Events the engine produced in this game; `sent` of them went out."""
        self.sent = 0
        self.answers: list[Answer] = []
        """People's choices whose `result` waits for the update carrying their events."""
        self.public = Stream()
        """What a spectator has been sent so far (new spectators start from it)."""
        self.hold: Handle | None = None
        """While set, a window is being shown for its minimum time: nothing more goes out."""

    def forget(self) -> None:
        """A new game (or none): nothing pending, nobody waiting for a result."""
        self.pending = []
        self.boards = []
        self.made = self.sent = 0
        self.answers = []

    def stop(self) -> None:
        if self.hold is not None:
            self.hold.cancel()
            self.hold = None

    def produced(self, events: list[Any], boards: list[Any]) -> None:
        """The engine applied a choice (the recorder hears of it first): these events (and the
        boards at their windows) wait."""
        self.table.recorder.chose(self.table)
        self.pending.extend(events)
        self.boards.extend(boards)
        self.made += len(events)

    def chose(self, m: Member, aid: Any, seq: int, held: bool) -> None:
        """`m`'s choice was applied: its result goes once its events are out (see `answer`)."""
        self.answers.append(Answer(m, m.conn, aid, self.made, seq, held))
        self.answer()

    # ---- pacing -----------------------------------------------------------------------------

    def pump(self) -> None:
        """Send what the seats may see now (see the module docstring for the pacing)."""
        t = self.table
        state = t.state
        if state is None or self.hold is not None or t.phase is not Phase.PLAYING:
            return
        reactions, window_of = t.game.reactions, t.game.window_of
        reacts = [d for d in state.open if d.kind in reactions]
        windows = [i for i, e in enumerate(self.pending) if window_of(e) is not None]
        if t.paced:
            if windows:
                i = windows[0]
                is_open = i == windows[-1] and bool(reacts)
                events, board = self._take(i + 1)
                self.deliver(events, {"kind": window_of(events[-1])}, False, reacts if is_open else [], board)
                if is_open:
                    t.timers.window_opened(reacts)
                self.hold = t.clock.call_later(t.config.reaction_window, self._hold_over)
                return
            if reacts:
                return  # the open window went out already; waiting for answers
        elif reacts:
            if not windows:
                return
            if not any(t.seating.attended(d.player) for d in reacts):
                return  # only bots (or stand-ins) are asked: they answer at once
            events, board = self._take(windows[-1] + 1)
            self.deliver(events, {"kind": window_of(events[-1])}, False, reacts, board)
            t.timers.window_opened(reacts)
            return
        events, _ = self._take(len(self.pending))
        self.deliver(events, None, True, (), state)
        t.timers.start_turns()
        if state.over:
            t.game_over()

    def _take(self, n: int) -> tuple[list[Any], Any]:
        """The first `n` pending events, and the state as of the last of them: the board kept
        at its window event if it is one (the game may have gone on since), else the state now
        (then all pending events are taken)."""
        assert self.table.state is not None
        events = self.pending[:n]
        del self.pending[:n]
        window_of = self.table.game.window_of
        k = sum(1 for e in events if window_of(e) is not None)
        boards = self.boards[:k]
        del self.boards[:k]
        return events, boards[-1] if boards and window_of(events[-1]) is not None else self.table.state

    def _hold_over(self) -> None:
        self.hold = None
        for a in self.answers:
            a.after_hold = False
        self.pump()
        self.answer()

    # ---- sending ----------------------------------------------------------------------------

    def deliver(
        self,
        events: list[Any],
        window: dict[str, Any] | None,
        full: bool,
        asked: Sequence[Decision],
        board: Any,
    ) -> None:
        """Send every seat and spectator `events`, with the view of `board` (the state as of
        the last of them) and their decisions: all their open ones (`full`), or only those of
        the window being shown (`asked`)."""
        t = self.table
        state = t.state
        assert state is not None
        if window is not None:  # the same for every window, whoever is asked
            window = {**window, "limit": t.config.reaction_limit or None}
        # With no events (a step of a move that shows nothing yet), only a seat whose decisions
        # or window change gets an update: the others' would say that someone is partway
        # through a move (and which step, in the view's `flow`).
        quiet = full and not events
        out: list[tuple[Recipient, Frame]] = []
        for m in t.seating.humans:
            if full:
                mine = [d for d in state.open if d.player == m.seat]
            else:
                mine = [d for d in asked if d.player == m.seat]
            if not (quiet and m.stream.unchanged(window, mine)):
                self._update(out, m.stream, m.conn, m.seat, events, window, mine, board)
        for w in t.seating.watchers:
            if not (quiet and w.stream.unchanged(window, [])):
                self._update(out, w.stream, w.conn, None, events, window, [], board)
        if not (quiet and self.public.unchanged(window, [])):
            self._update(out, self.public, None, None, events, window, [], board)
        self._send(out)
        self.sent += len(events)
        self.answer()

    def _update(
        self,
        out: list[tuple[Recipient, Frame]],
        stream: Stream,
        conn: Recipient | None,
        seat: int | None,
        events: list[Any],
        window: dict[str, Any] | None,
        mine: list[Decision],
        board: Any,
    ) -> None:
        """One update to one stream, its frame added to `out` for its connection (if any).
        `board` None: the board of the last update (no events)."""
        t = self.table
        frame = stream.update(t.id, seat, events, window, mine, board, t.timers.left(mine), t.game)
        if conn is not None:
            out.append((conn, frame))

    def _send(self, out: list[tuple[Recipient, Frame]]) -> None:
        """The streams moved on: the table's recorder hears of it first, then the frames go."""
        t = self.table
        t.recorder.delivered(t)
        for conn, frame in out:
            t.outbox.send(conn, frame)

    def snapshot(self, stream: Stream, conn: Recipient, seat: int | None, last_seq: int | None) -> None:
        """Send a seat everything it needs to go on (`Stream.snapshot`)."""
        t = self.table
        still_open = t.state.open if t.state is not None else ()
        t.outbox.send(conn, stream.snapshot(t.id, seat, last_seq, still_open, t.timers.left))

    # ---- results ----------------------------------------------------------------------------

    def answer(self) -> None:
        """Send the `result` of every person's choice whose events have all gone out.

        A result never overtakes the update carrying its choice's events: it waits for them
        (behind a paced window's minimum, or for bots still answering). A choice made while a
        window is held is answered only once that hold is over, whatever it led to, so how soon
        the result comes never tells whether others were still asked. If no update went to the
        person since the choice (a reaction while others still decide), one with no events and
        the decisions still open for them goes first, so a client never sees the decision it
        just answered as open after its result."""
        if not self.answers:
            return
        waiting: list[Answer] = []
        for a in self.answers:
            m = a.member
            if m.conn is not a.conn or a.conn is None:
                continue  # that connection is gone; a snapshot tells the new one
            if a.after_hold or a.events > self.sent:
                waiting.append(a)
                continue
            if m.stream.seq == a.seq:
                self._acknowledge(m)
            self.table.outbox.send(a.conn, {"t": "result", "aid": a.aid, "ok": True})
        self.answers = waiting

    def _acknowledge(self, m: Member) -> None:
        """An update with no events for `m`: the same board, the decisions still open for them."""
        state = self.table.state
        assert state is not None
        stream = m.stream
        mine = [d for _, d in stream.decisions if d in state.open]
        out: list[tuple[Recipient, Frame]] = []
        self._update(out, stream, m.conn, m.seat, [], stream.window, mine, None)
        self._send(out)
