"""A table's time limits: a reaction window's (those who did not react in time pass) and each
turn decision's (a bot plays the seat of a person who let it run out), on the table's clock.

Each limit has a deadline, fixed when its decision goes out and kept through drops, reconnects
and the seat's hand-overs to a bot and back: the `limit` a seat is shown (in an update or a
snapshot) is the time actually left, so no reconnect buys time."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from core.decisions import PASS, Decision
from net.clock import Handle
from net.table.config import Phase

if TYPE_CHECKING:
    from net.table.table import Table

log = logging.getLogger("net.table")


class Timers:
    """The shown window's time limit and one per open turn decision sent to a person."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.window: Handle | None = None
        self.window_ends: float | None = None
        """When the shown window's limit runs out (clock time), for `window_ids`."""
        self.window_ids: frozenset[int] = frozenset()
        self.turns: dict[int, tuple[float, Handle | None]] = {}
        """Decision id -> (its deadline, its timer; None once it ran out)."""

    def window_opened(self, asked: Sequence[Decision]) -> None:
        """A window with people asked went out: start its time limit (for those decisions only,
        so a later window gets its own full time)."""
        if self.window is not None:
            self.window.cancel()
        self.window, self.window_ends, self.window_ids = None, None, frozenset(d.id for d in asked)
        limit = self.table.config.reaction_limit
        if limit:
            clock = self.table.clock
            self.window_ends = clock.now() + limit
            self.window = clock.call_later(limit, self._window_expired, self.window_ids)

    def _window_expired(self, ids: frozenset[int]) -> None:
        """Pass for everyone who has not answered the window in time."""
        t = self.table
        self.window = None
        state = t.state
        if state is None or t.phase is not Phase.PLAYING:
            return
        reactions = t.game.reactions
        for d in [d for d in state.open if d.id in ids and d.kind in reactions and t.seating.attended(d.player)]:
            if d in state.open and PASS in d.values():
                log.info("table %d: seat %d did not react in time; passing for them", t.id, d.player)
                t.apply_quietly(d.player, d, PASS)

    def start_turns(self) -> None:
        """Start the time limit of every open turn decision a person has been sent (once: a
        decision keeps its deadline until it is answered)."""
        t = self.table
        state = t.state
        if state is None or not t.config.turn_limit or t.phase is not Phase.PLAYING:
            return
        for d in state.open:
            if d.kind in t.game.reactions or d.id in self.turns or not t.seating.attended(d.player):
                continue
            m = t.seating.seats[d.player]
            if m is None or not any(dd is d for _, dd in m.stream.decisions):
                continue  # not sent yet
            limit = t.config.turn_limit
            self.turns[d.id] = (t.clock.now() + limit, t.clock.call_later(limit, self._turn_expired, d))

    def _turn_expired(self, d: Decision) -> None:
        t = self.table
        if d.id in self.turns:
            self.turns[d.id] = (self.turns[d.id][0], None)
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

    def ran_out(self, decision_id: int) -> bool:
        """This decision's time ran out: a bot makes it, even once its person is back."""
        entry = self.turns.get(decision_id)
        return entry is not None and entry[1] is None

    def left(self, mine: Sequence[Decision]) -> float | None:
        """The seconds a seat has left for these decisions (None: no limit, or no decision):
        the whole limit until the clock starts, then what is left of it."""
        if not mine:
            return None
        c = self.table.config
        if mine[0].kind in self.table.game.reactions:
            full = c.reaction_limit
            ends = self.window_ends if any(d.id in self.window_ids for d in mine) else None
        else:
            full = c.turn_limit
            ends = min((self.turns[d.id][0] for d in mine if d.id in self.turns), default=None)
        if not full:
            return None
        return full if ends is None else round(max(0.0, ends - self.table.clock.now()), 3)

    def closed(self, open_ids: Collection[int]) -> None:
        """Decisions no longer open need no time limit."""
        for did in [k for k in self.turns if k not in open_ids]:
            handle = self.turns.pop(did)[1]
            if handle is not None:
                handle.cancel()

    def stop(self) -> None:
        for h in (self.window, *(h for _, h in self.turns.values())):
            if h is not None:
                h.cancel()
        self.window, self.window_ends, self.window_ids = None, None, frozenset()
        self.turns.clear()
