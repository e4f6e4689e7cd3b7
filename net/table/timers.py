"""A table's time limits: a reaction window's (those who did not react in time pass) and each
turn decision's (a bot plays the seat of a person who let it run out), on the table's clock."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Collection, Sequence

from core.decisions import PASS, REACTIONS, Decision
from net.clock import Handle
from net.table.config import Phase

if TYPE_CHECKING:
    from net.table.table import Table

log = logging.getLogger("net.table")


class Timers:
    """The window's time limit and one per open turn decision sent to a person."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.window: Handle | None = None
        self.turns: dict[int, Handle] = {}
        """Decision id -> its time limit."""

    def window_opened(self, asked: Sequence[Decision]) -> None:
        """A window with people asked went out: start its time limit (for those decisions only,
        so a later window gets its own full time)."""
        if self.window is not None:
            self.window.cancel()
        self.window = None
        limit = self.table.config.reaction_limit
        if limit:
            self.window = self.table.clock.call_later(limit, self._window_expired, frozenset(d.id for d in asked))

    def _window_expired(self, ids: frozenset[int]) -> None:
        """Pass for everyone who has not answered the window in time."""
        t = self.table
        self.window = None
        state = t.state
        if state is None or t.phase is not Phase.PLAYING:
            return
        for d in [d for d in state.open if d.id in ids and d.kind in REACTIONS and t.seating.attended(d.player)]:
            if d in state.open and PASS in d.values():
                log.info("table %d: seat %d did not react in time; passing for them", t.id, d.player)
                t.apply_quietly(d.player, d, PASS)

    def start_turns(self) -> None:
        """Start the time limit of every open turn decision a person has been sent."""
        t = self.table
        state = t.state
        if state is None or not t.config.turn_limit or t.phase is not Phase.PLAYING:
            return
        for d in state.open:
            if d.kind in REACTIONS or d.id in self.turns or not t.seating.attended(d.player):
                continue
            m = t.seating.seats[d.player]
            if m is None or not any(dd is d for _, dd in m.stream.decisions):
                continue  # not sent yet
            self.turns[d.id] = t.clock.call_later(t.config.turn_limit, self._turn_expired, d)

    def _turn_expired(self, d: Decision) -> None:
        t = self.table
        self.turns.pop(d.id, None)
        if t.state is None or d not in t.state.open:
            return
        m = t.seating.seats[d.player]
        if m is not None and m.human and not m.away:
            if m.conn is None:  # the grace period has not run out, this decision's time has
                log.info("table %d: %s, disconnected, ran out of time; a bot plays seat %d", t.id, m.name, m.seat)
            else:
                log.info("table %d: %s ran out of time; a bot plays seat %d", t.id, m.name, m.seat)
            m.away = True
            t.changed()
            t.autoplay.kick()

    def closed(self, open_ids: Collection[int]) -> None:
        """Decisions no longer open need no time limit."""
        for did in [k for k in self.turns if k not in open_ids]:
            self.turns.pop(did).cancel()

    def stop(self) -> None:
        for h in (self.window, *self.turns.values()):
            if h is not None:
                h.cancel()
        self.window = None
        self.turns.clear()
