"""Who plays the seats no person plays right now: bots, and stand-ins for people who are away
(out of time, disconnected past their grace period, gone). Moves are scheduled on the table's
clock and thought out in its bot pool, never on the event loop."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from core.decisions import PASS, Decision, OptionValue
from net.clock import Handle
from net.table.config import Phase

if TYPE_CHECKING:
    from net.table.seating import Member
    from net.table.table import Table

log = logging.getLogger("net.table")


class Autoplay:
    """The moves being made for seats: one per open decision, at most."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.thinking: dict[int, Handle] = {}
        """Decision id -> the bot's move under way (its delay, then its thinking)."""
        self.soon = False
        """`drive` is scheduled."""

    def kick(self) -> None:
        """Let bots and stand-ins act on the next turn of the clock."""
        if not self.soon and not self.table.closed:
            self.soon = True
            self.table.clock.call_soon(self._drive)

    def _drive(self) -> None:
        self.soon = False
        t = self.table
        state = t.state
        if state is None or t.phase is not Phase.PLAYING or t.closed:
            return
        for d in list(state.open):
            m = t.seating.seats[d.player]
            if m is None or not self._plays(m, d):
                continue
            if m.human and d.kind in t.game.reactions and PASS in d.values():
                t.apply_quietly(d.player, d, PASS)  # nobody at the keyboard reacts
                return  # applying kicked again
            if d.id not in self.thinking:
                level = m.level or t.config.bot_level
                if t.config.bot_delay and d.kind not in t.game.reactions:
                    self.thinking[d.id] = t.clock.call_later(t.config.bot_delay, self._think, d, level, t.game_no)
                else:
                    self._think(d, level, t.game_no)

    def _think(self, d: Decision, level: str, game_no: int) -> None:
        t = self.table
        state = t.state
        if state is None or d not in state.open:
            self.thinking.pop(d.id, None)
            return
        seed = (t.seed_base * 1_000_003 + game_no * 7_919 + d.id * 31 + d.player) % 2**31
        seen = t.game.view(state, d.player)
        job = t.bots.request(level, seed, seen, d, lambda option: self._chose(d, game_no, job, option))
        self.thinking[d.id] = job

    def _chose(self, d: Decision, game_no: int, job: Handle, option: OptionValue | None) -> None:
        t = self.table
        if self.thinking.get(d.id) is job:
            del self.thinking[d.id]
        if option is None or t.game_no != game_no or t.state is None or d not in t.state.open or t.closed:
            return
        m = t.seating.seats[d.player]
        if m is None or not self._plays(m, d):
            return  # the person took their seat back meanwhile
        t.apply_quietly(d.player, d, option)

    def _plays(self, m: Member, d: Decision) -> bool:
        """A bot makes this decision: the seat's, a stand-in's for a person away, or one whose
        time ran out (its person, back, does not get its clock back)."""
        return not m.human or m.away or self.table.timers.ran_out(d.id)

    def stop(self, decision_id: int) -> None:
        """Call off the move being made for this decision (its person made it, or is back)."""
        move = self.thinking.pop(decision_id, None)
        if move is not None:
            move.cancel()

    def stop_all(self) -> None:
        for move in self.thinking.values():
            move.cancel()
        self.thinking.clear()
