"""Who is at a table: people and bots in its seats, its spectators, the owner, and the grace
period a disconnected person's seat waits for them before a bot plays it."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from net.clock import Handle
from net.errors import ErrorCode, NetError
from net.table.config import BOT_NAMES, Phase
from net.table.outbox import Frame, Recipient
from net.table.streams import Stream

if TYPE_CHECKING:
    from net.table.table import Table

log = logging.getLogger("net.table")


class Kind(StrEnum):
    HUMAN = "human"
    BOT = "bot"


@dataclass(eq=False, slots=True)
class Member:
    """A seat's occupant: a person (with a token) or a bot."""

    kind: Kind
    name: str
    table: Table
    level: str | None = None
    token: str | None = None
    conn: Recipient | None = None
    """The person's connection, None while disconnected."""
    seat: int = 0
    stream: Stream = field(default_factory=Stream)
    away: bool = False
    """A bot plays this person's turns (out of time or disconnected past the grace period)."""
    left: bool = False
    rematch: bool = False
    joined: int = 0
    grace: Handle | None = None

    @property
    def human(self) -> bool:
        return self.kind is Kind.HUMAN

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind.value,
            "level": self.level,
            "connected": self.conn is not None or not self.human,
            "away": self.away,
            "left": self.left,
        }

    def seated_frame(self) -> Frame:
        return {"t": "seated", "table": self.table.id, "seat": self.seat, "token": self.token}

    def stop_grace(self) -> None:
        if self.grace is not None:
            self.grace.cancel()
            self.grace = None


@dataclass(eq=False, slots=True)
class Watcher:
    conn: Recipient
    stream: Stream = field(default_factory=Stream)


class Seating:
    """The seats and spectators of one table, and people coming, going and coming back."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seats: list[Member | None] = []
        self.watchers: list[Watcher] = []
        self._joins = 0
        self.reset()

    def reset(self) -> None:
        """Empty seats, and the configured bots in the last ones."""
        c = self.table.config
        self.seats = [None] * c.seats
        for i in range(c.bots):
            name = f"{BOT_NAMES[i % len(BOT_NAMES)]} (bot)"
            self.seats[c.seats - c.bots + i] = Member(Kind.BOT, name, self.table, level=c.level_of(i))
        for i, m in enumerate(self.seats):
            if m is not None:
                m.seat = i

    @property
    def members(self) -> list[Member]:
        return [m for m in self.seats if m is not None]

    @property
    def humans(self) -> list[Member]:
        return [m for m in self.seats if m is not None and m.human]

    @property
    def owner(self) -> Member | None:
        """The first person to sit who is still here: they may start the game early."""
        here = [m for m in self.humans if not m.left]
        return min(here, key=lambda m: m.joined) if here else None

    def free(self) -> list[int]:
        return [i for i, m in enumerate(self.seats) if m is None] if self.table.phase is Phase.WAITING else []

    def attended(self, seat: int) -> bool:
        """A person (not a bot, not away) decides for this seat."""
        m = self.seats[seat]
        return m is not None and m.human and not m.away

    def conns(self) -> list[Recipient]:
        """Everybody at the table who is connected: people, then spectators."""
        out = [m.conn for m in self.humans if m.conn is not None]
        out += [w.conn for w in self.watchers]
        return out

    # ---- people coming --------------------------------------------------------------------

    def seat_for(self, seat: int | None = None) -> int:
        """The seat a newcomer would take: `seat`, or the first free one. Raises NetError
        (WRONG_PHASE, BAD_FIELD, TABLE_FULL) saying why there is none."""
        t = self.table
        if t.phase is not Phase.WAITING:
            raise NetError(ErrorCode.WRONG_PHASE, f"{t.name} is already playing; you may watch it")
        if seat is not None and not 0 <= seat < len(self.seats):
            raise NetError(ErrorCode.BAD_FIELD, f"{t.name} has seats 0 to {len(self.seats) - 1}")
        free = self.free()
        if not free:
            raise NetError(ErrorCode.TABLE_FULL, f"{t.name} has no free seat")
        if seat is not None and seat not in free:
            raise NetError(ErrorCode.TABLE_FULL, f"seat {seat} of {t.name} is taken")
        return free[0] if seat is None else seat

    def sit(self, conn: Recipient, name: str, seat: int | None = None) -> Member:
        """Seat a person (see `seat_for`)."""
        t = self.table
        s = self.seat_for(seat)
        self._joins += 1
        m = Member(Kind.HUMAN, name, t, token=secrets.token_hex(16), conn=conn, seat=s, joined=self._joins)
        self.seats[s] = m
        log.info("table %d: %s sits at seat %d", t.id, name, s)
        t.outbox.send(conn, m.seated_frame())
        t.changed()
        t.talk.replay(conn)
        if not self.free():
            t.start_game()
        return m

    def resume(self, m: Member, conn: Recipient, last_seq: int | None) -> None:
        """A person back with their token: the same seat, and a full snapshot."""
        t = self.table
        m.stop_grace()
        m.conn = conn
        was_away = m.away
        log.info("table %d: %s is back at seat %d", t.id, m.name, m.seat)
        m.away = m.left = False
        t.outbox.send(conn, m.seated_frame())
        t.changed()
        t.talk.replay(conn)
        if t.phase is not Phase.WAITING:
            t.delivery.snapshot(m.stream, conn, m.seat, last_seq)
            if t.phase is Phase.OVER:
                t.send_over(conn)
        if was_away:
            self._take_back(m)

    def watch(self, conn: Recipient) -> Watcher:
        t = self.table
        w = Watcher(conn)
        self.watchers.append(w)
        t.outbox.send(conn, t.talk.table_frame())
        t.talk.replay(conn)
        if t.phase is not Phase.WAITING:
            w.stream.follow(t.delivery.public)  # the game so far, for the snapshot's log
            t.delivery.snapshot(w.stream, conn, None, None)
            if t.phase is Phase.OVER:
                t.send_over(conn)
        t.changed(lobby_only=True)
        return w

    def unwatch(self, w: Watcher) -> None:
        if w in self.watchers:
            self.watchers.remove(w)
            self.table.changed(lobby_only=True)
            self._after_people_left()

    def here(self, m: Member) -> None:
        """The person is at the keyboard again: the bot hands their seat back."""
        if m.away and not m.left:
            log.info("table %d: %s takes seat %d back from the bot", self.table.id, m.name, m.seat)
            m.away = False
            self.table.changed()
            self._take_back(m)

    def _take_back(self, m: Member) -> None:
        t = self.table
        if t.state is None:
            return
        for d in t.state.open:
            if d.player == m.seat and not t.timers.ran_out(d.id):
                t.autoplay.stop(d.id)
        t.timers.start_turns()

    # ---- people going ---------------------------------------------------------------------

    def leave(self, m: Member) -> None:
        """The person leaves their seat for good (a bot finishes their game)."""
        t = self.table
        m.conn = None
        if t.phase is Phase.WAITING:
            log.info("table %d: %s leaves seat %d", t.id, m.name, m.seat)
            self.seats[m.seat] = None
        else:
            log.info("table %d: %s leaves the game; a bot plays seat %d to the end", t.id, m.name, m.seat)
            m.left = True
            m.away = True
            m.stop_grace()
            t.recorder.seats_changed(t)
        t.changed()
        self._after_people_left()
        t.autoplay.kick()

    def disconnected(self, m: Member) -> None:
        """The person's connection dropped: their seat waits `away_grace` seconds for them."""
        t = self.table
        m.conn = None
        t.changed()
        if t.phase is not Phase.OVER and not m.away:
            grace = t.config.away_grace
            log.info("table %d: %s disconnected; seat %d waits %g s for them", t.id, m.name, m.seat, grace)
            m.grace = t.clock.call_later(grace, self.grace_over, m)
        else:
            log.info("table %d: %s disconnected (seat %d)", t.id, m.name, m.seat)
        self._after_people_left()

    def grace_over(self, m: Member) -> None:
        t = self.table
        m.grace = None
        if m.conn is None and t.phase is Phase.WAITING and self.seats[m.seat] is m:
            log.info("table %d: %s did not come back after disconnecting; seat %d is free", t.id, m.name, m.seat)
            self.seats[m.seat] = None
            t.changed()
            self._after_people_left()
            return
        if m.conn is None and t.phase is Phase.PLAYING:
            log.info("table %d: %s did not come back after disconnecting; a bot plays seat %d", t.id, m.name, m.seat)
            m.away = True
            t.changed()
            t.autoplay.kick()
        elif m.conn is None and t.phase is Phase.OVER:
            m.away = True  # the results waited for them long enough
            self._after_people_left()

    def expected(self) -> list[Member]:
        """The people here, or expected back: a seat in its grace period, or a person a resumed
        game waits for (whose results wait for them too)."""
        return [m for m in self.humans if not m.left and (m.conn is not None or not m.away)]

    def _after_people_left(self) -> None:
        """Close (or reset) a table nobody is at any more. A seat in its grace period keeps it
        open during a game; before one, nothing there is worth a `--tables` slot (or the host's
        own table's seats) for the whole grace period, so it goes at once. After a game, those
        still here may all have asked for a rematch: it starts."""
        t = self.table
        holds = t.phase is not Phase.WAITING
        present = [m for m in self.humans if not m.left and (m.conn is not None or (holds and m.grace is not None))]
        if present and t.phase is Phase.OVER:
            t.rematch_if_agreed()
            return
        if present or self.watchers:
            return
        if t.phase is Phase.PLAYING:
            return  # the bots finish the game; it is closed when it ends
        t.close_or_reset()

    # ---- between games --------------------------------------------------------------------

    def rotate(self) -> None:
        """Every seat moves one place on; people who left give their seat to a bot."""
        members = self.members
        members = members[-1:] + members[:-1]
        bots = sum(1 for m in members if not m.human)
        for m in members:
            if m.human and m.left:
                m.kind, m.level, m.token, m.left, m.away = Kind.BOT, self.table.config.bot_level, None, False, False
                m.name = f"{BOT_NAMES[bots % len(BOT_NAMES)]} (bot)"
                bots += 1
        self.seats = list(members)

    def close_ranks(self) -> list[Member]:
        """The game's players, numbered from seat 0 (empty seats go), ready for a new game:
        people not here when it starts are away (a bot plays until they come back)."""
        members = self.members
        self.seats = list(members)
        for i, m in enumerate(members):
            m.seat = i
            m.rematch = False
            if m.human and m.conn is None and m.grace is None:
                m.away = True
        return members

    def stop_graces(self) -> None:
        for m in self.members:
            m.stop_grace()
