"""One table of a host: its seats, its game, what each seat is sent and when, timers and bots.

Everything here runs on the event loop and never awaits a client: frames go to each
connection without waiting. The engine's state changes only through `core.rules.apply`; every
frame a client gets is built from `view(state, seat)` and events redacted for that seat.

Reaction windows (R5.7) are paced so that their timing never tells who holds what: with two or
more people at the table (or one against searching bots), every window the engine announces (a
WINDOW event, whether or not anyone may react) is shown for at least `reaction_window` seconds,
and nothing that happened after it is sent before then. Views are never sent while a window is
open, only each asked seat's own reaction decisions, so no frame says who is being waited on.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, Callable, Sequence

from core.bots import LEVELS
from core.cards import Edition
from core.decisions import PASS, REACTIONS, Decision, IllegalChoice, OptionValue, normalize
from core.events import Event, EventKind, redact
from core.record import Record
from core.rules import apply
from core.scoring import scores, winners
from core.setup import new_game
from core.state import GameState
from core.views import view
from net.bots import SEARCH_LEVELS, BotPool
from net.errors import ErrorCode, NetError
from net.limits import (
    AWAY_GRACE,
    CHAT_HISTORY,
    EVENT_HISTORY,
    REACTION_LIMIT,
    REACTION_WINDOW,
    SNAPSHOT_EVENTS,
    TABLE_SEATS_MAX,
    TURN_LIMIT,
)
from net.sanitize import clean_chat

log = logging.getLogger(__name__)

BOT_NAMES = ("Rocky", "Dove", "Percy", "Gus", "Mo", "Coo")
"""Names of bot seats, in the order they are added."""


class Phase(StrEnum):
    WAITING = "waiting"
    """Players take seats; the game starts when every seat is taken or the owner says so."""
    PLAYING = "playing"
    OVER = "over"
    """Results are shown; a rematch starts once every player still here asks for one."""


class Kind(StrEnum):
    HUMAN = "human"
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How a table is set up and timed (the `host` command's options)."""

    seats: int = 4
    bots: int = 0
    """Seats taken by bots; the others wait for people."""
    bot_level: str = "random"
    """The level of bots: every bot seat's, and stand-ins' for people who are away."""
    bot_levels: tuple[str, ...] = ()
    """Levels per bot seat, in seat order (the last repeats); empty: `bot_level` for all."""
    edition: str = "3.5"
    seed: int | None = None
    """Seed of the first game (later games add the game number); None draws one."""
    reaction_window: float = REACTION_WINDOW
    reaction_limit: float = REACTION_LIMIT
    turn_limit: float = TURN_LIMIT
    away_grace: float = AWAY_GRACE
    bot_delay: float = 0.0
    """Seconds a bot waits before each move of its turn, so people can follow (never on reactions)."""
    blind_windows: bool = False
    """Ask every seat the rules let react in each window, holding a card or not (the engine's
    `blind_windows`), when two or more people play: then even how long a window stays open
    past its minimum says nothing of hands, at the cost of a Pass for everyone each time."""
    name: str = ""

    def level_of(self, bot: int) -> str:
        """The level of the `bot`-th bot seat."""
        if not self.bot_levels:
            return self.bot_level
        return self.bot_levels[min(bot, len(self.bot_levels) - 1)]

    def check(self) -> None:
        """Raises ValueError on settings no game can start with."""
        unknown = [lv for lv in (self.bot_level, *self.bot_levels) if lv not in LEVELS]
        if unknown:
            raise ValueError(f"unknown bot level {unknown[0]!r}; known: {', '.join(LEVELS)}")
        if not 2 <= self.seats <= TABLE_SEATS_MAX:
            raise ValueError(f"seats must be 2..{TABLE_SEATS_MAX}")
        if not 0 <= self.bots <= self.seats:
            raise ValueError("bots must be 0..seats")
        Edition(self.edition)
        for name in ("reaction_window", "reaction_limit", "turn_limit", "away_grace", "bot_delay"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0")


@dataclass(eq=False, slots=True)
class Stream:
    """What one seat (or one spectator) has been sent: the order of updates and their content."""

    seq: int = 0
    history: deque[tuple[int, list[dict[str, Any]]]] = field(default_factory=lambda: deque(maxlen=EVENT_HISTORY))
    view: dict[str, Any] | None = None
    """The last view sent (views are not sent while a reaction window is open)."""
    decisions: list[tuple[int, Decision]] = field(default_factory=list)
    """(wire id, decision) this seat may answer now. Wire ids are per seat, so the engine's
    running decision numbers never hint at how many others were asked."""
    next_wire: int = 1
    window: dict[str, Any] | None = None

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


def wire_decision(wire_id: int, d: Decision) -> dict[str, Any]:
    out = d.to_dict()
    out["id"] = wire_id
    return out


@dataclass(eq=False, slots=True)
class Member:
    """A seat's occupant: a person (with a token) or a bot."""

    kind: Kind
    name: str
    table: Table
    level: str | None = None
    token: str | None = None
    conn: Any = None
    """The person's connection, None while disconnected."""
    seat: int = 0
    stream: Stream = field(default_factory=Stream)
    away: bool = False
    """A bot plays this person's turns (out of time or disconnected past the grace period)."""
    left: bool = False
    rematch: bool = False
    joined: int = 0
    grace: asyncio.TimerHandle | None = None

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


@dataclass(eq=False, slots=True)
class Watcher:
    conn: Any
    stream: Stream = field(default_factory=Stream)


class Table:
    """One table: seats, then a game, then results and rematches with seats rotated."""

    def __init__(
        self,
        tid: int,
        config: TableConfig,
        bots: BotPool,
        on_change: Callable[[Table], None] = lambda t: None,
        persistent: bool = False,
    ) -> None:
        config.check()
        self.id = tid
        self.config = config
        self.name = config.name or f"Table {tid}"
        self.bots = bots
        self.on_change = on_change
        self.persistent = persistent
        """The host's own table: reset rather than closed when everybody leaves."""
        self.closed = False
        self.phase = Phase.WAITING
        self.seats: list[Member | None] = []
        self.watchers: list[Watcher] = []
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_HISTORY)
        self.state: GameState | None = None
        self.record: Record | None = None
        self.game_no = 0
        self.pending: list[Event] = []
        """Events the engine produced that the seats have not been sent yet."""
        self.public = Stream()
        """What a spectator has been sent so far (new spectators start from it)."""
        self._joins = 0
        self._hold: asyncio.TimerHandle | None = None
        self._window_timer: asyncio.TimerHandle | None = None
        self._turn_timers: dict[int, asyncio.TimerHandle] = {}
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self._drive_soon = False
        self._seed_base = config.seed if config.seed is not None else _fresh_seed()
        self._reset_seats()

    # ---- seats ------------------------------------------------------------------------------

    def _reset_seats(self) -> None:
        c = self.config
        self.seats = [None] * c.seats
        for i in range(c.bots):
            seat = c.seats - c.bots + i
            self.seats[seat] = Member(Kind.BOT, f"{BOT_NAMES[i % len(BOT_NAMES)]} (bot)", self, level=c.level_of(i))
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
    def paced(self) -> bool:
        """Reaction windows keep their minimum time: two or more people play here, or one
        person plays against bots that search (whose thinking time would tell whether they
        were asked, that is whether they hold a card)."""
        if self.config.reaction_window <= 0:
            return False
        humans = len(self.humans)
        searching = any(m.level in SEARCH_LEVELS for m in self.members if not m.human)
        return humans >= 2 or (humans == 1 and searching)

    @property
    def owner(self) -> Member | None:
        """The first person to sit who is still here: they may start the game early."""
        here = [m for m in self.humans if not m.left]
        return min(here, key=lambda m: m.joined) if here else None

    def free_seats(self) -> list[int]:
        return [i for i, m in enumerate(self.seats) if m is None] if self.phase is Phase.WAITING else []

    def sit(self, conn: Any, name: str, seat: int | None = None) -> Member:
        """Seat a person. Raises NetError(TABLE_FULL, WRONG_PHASE)."""
        if self.phase is not Phase.WAITING:
            raise NetError(ErrorCode.WRONG_PHASE, f"{self.name} is already playing; you may watch")
        free = self.free_seats()
        if not free:
            raise NetError(ErrorCode.TABLE_FULL, f"{self.name} has no free seat")
        if seat is not None and seat not in free:
            raise NetError(ErrorCode.TABLE_FULL, f"seat {seat} of {self.name} is not free")
        s = free[0] if seat is None else seat
        self._joins += 1
        m = Member(Kind.HUMAN, name, self, token=secrets.token_hex(16), conn=conn, seat=s, joined=self._joins)
        self.seats[s] = m
        conn.send({"t": "seated", "table": self.id, "seat": s, "token": m.token})
        self.send_chat_history(conn)
        self._changed()
        if not self.free_seats():
            self.start_game()
        return m

    def resume(self, m: Member, conn: Any, last_seq: int | None) -> None:
        """A person back with their token: the same seat, and a full snapshot."""
        if m.grace is not None:
            m.grace.cancel()
            m.grace = None
        m.conn = conn
        was_away = m.away
        m.away = m.left = False
        conn.send({"t": "seated", "table": self.id, "seat": m.seat, "token": m.token})
        self.send_chat_history(conn)
        self._changed()
        if self.phase is not Phase.WAITING:
            self.snapshot(m.stream, conn, m.seat, last_seq)
            if self.phase is Phase.OVER:
                self._send_over(conn)
        if was_away:
            self._take_back(m)

    def watch(self, conn: Any) -> Watcher:
        w = Watcher(conn)
        self.watchers.append(w)
        self.send_chat_history(conn)
        conn.send(self.table_frame())
        if self.phase is not Phase.WAITING:
            w.stream.view, w.stream.window, w.stream.seq = self.public.view, self.public.window, self.public.seq
            self.snapshot(w.stream, conn, None, None)
            if self.phase is Phase.OVER:
                self._send_over(conn)
        self._changed(lobby_only=True)
        return w

    def unwatch(self, w: Watcher) -> None:
        if w in self.watchers:
            self.watchers.remove(w)
            self._changed(lobby_only=True)

    def leave(self, m: Member) -> None:
        """The person leaves their seat for good (a bot finishes their game)."""
        m.conn = None
        if self.phase is Phase.WAITING:
            self.seats[m.seat] = None
        else:
            m.left = True
            m.away = True
            if m.grace is not None:
                m.grace.cancel()
                m.grace = None
        self._changed()
        self._after_people_left()
        self._kick()

    def disconnected(self, m: Member) -> None:
        """The person's connection dropped: their seat waits `away_grace` seconds for them."""
        m.conn = None
        self._changed()
        if self.phase is not Phase.OVER and not m.away:
            loop = asyncio.get_running_loop()
            m.grace = loop.call_later(self.config.away_grace, self._grace_over, m)
        self._after_people_left()

    def _grace_over(self, m: Member) -> None:
        m.grace = None
        if m.conn is None and self.phase is Phase.WAITING and self.seats[m.seat] is m:
            log.info("table %d: %s did not come back; their seat is free", self.id, m.name)
            self.seats[m.seat] = None
            self._changed()
            self._after_people_left()
            return
        if m.conn is None and self.phase is Phase.PLAYING:
            log.info("table %d: %s is away; a bot plays their seat", self.id, m.name)
            m.away = True
            self._changed()
            self._kick()

    def here(self, m: Member) -> None:
        """The person is at the keyboard again: the bot hands their seat back."""
        if m.away and not m.left:
            m.away = False
            self._changed()
            self._take_back(m)

    def _take_back(self, m: Member) -> None:
        if self.state is None:
            return
        for d in self.state.open:
            if d.player == m.seat:
                task = self._thinking.pop(d.id, None)
                if task is not None:
                    task.cancel()
        self._start_turn_timers()

    def _after_people_left(self) -> None:
        present = [m for m in self.humans if not m.left and (m.conn is not None or m.grace is not None)]
        if present or self.watchers:
            return
        if self.phase is Phase.PLAYING:
            return  # the bots finish the game; it is closed when it ends
        self._close_or_reset()

    def _close_or_reset(self) -> None:
        self._cancel_all()
        if self.persistent:
            log.info("table %d: everybody left; resetting it", self.id)
            self.phase = Phase.WAITING
            self.state = None
            self.pending = []
            self._reset_seats()
        else:
            self.closed = True
        self._changed()

    # ---- the game's start and end -----------------------------------------------------------

    def start(self, m: Member) -> None:
        """The owner starts the game with whoever is seated (bots included)."""
        if self.phase is not Phase.WAITING:
            raise NetError(ErrorCode.WRONG_PHASE, "the game has started")
        if m is not self.owner:
            raise NetError(ErrorCode.NOT_ALLOWED, "only the first player to sit may start the game")
        if len(self.members) < 2:
            raise NetError(ErrorCode.NOT_ALLOWED, "a game needs at least two players")
        self.start_game()

    def rematch(self, m: Member) -> None:
        if self.phase is not Phase.OVER:
            raise NetError(ErrorCode.WRONG_PHASE, "the game is not over")
        m.rematch = True
        self._changed()
        present = [x for x in self.humans if x.conn is not None and not x.left]
        if all(x.rematch for x in present):
            self._rotate()
            self.start_game()

    def _rotate(self) -> None:
        """Every seat moves one place on; people who left give their seat to a bot."""
        members = self.members
        members = members[-1:] + members[:-1]
        bots = sum(1 for m in members if not m.human)
        for m in members:
            if m.human and m.left:
                m.kind, m.level, m.token, m.left, m.away = Kind.BOT, self.config.bot_level, None, False, False
                m.name = f"{BOT_NAMES[bots % len(BOT_NAMES)]} (bot)"
                bots += 1
        self.seats = list(members)

    def start_game(self) -> None:
        members = self.members
        self.seats = list(members)
        for i, m in enumerate(members):
            m.seat = i
            m.rematch = False
            m.stream.decisions = []
            if m.human and m.conn is None and m.grace is None:
                m.away = True  # not here when the game starts: a bot plays until they come back
        self.game_no += 1
        # A configured seed makes games reproducible (and so predictable: for tests and
        # tournaments); otherwise each game draws a fresh one, since the record of a finished
        # game shows its seed to everyone.
        seed = (c_seed + self.game_no - 1) % 2**31 if (c_seed := self.config.seed) is not None else _fresh_seed()
        self.state = new_game(len(members), seed, self.config.edition)
        self.record = Record(len(members), seed, Edition(self.config.edition))
        if self.config.blind_windows and self.paced:
            # Set before any window can open (the deal stops at the first action).
            for obj in (self.state, self.record):
                if hasattr(obj, "blind_windows"):
                    setattr(obj, "blind_windows", True)  # noqa: B010
                else:
                    log.warning("table %d: this engine has no blind windows", self.id)
        self.pending = []
        self.phase = Phase.PLAYING
        for w in self.watchers:
            w.stream.decisions = []
        log.info("table %d: game %d starts (%d players, seed %d)", self.id, self.game_no, len(members), seed)
        for m in members:
            if m.human and m.conn is not None:
                m.conn.send({"t": "seated", "table": self.id, "seat": m.seat, "token": m.token})
        self._changed()
        self._pump()
        self._kick()

    def _game_over(self) -> None:
        self.phase = Phase.OVER
        self._cancel_all()
        for m in self.humans:
            if m.conn is not None:
                self._send_over(m.conn)
        for w in self.watchers:
            self._send_over(w.conn)
        self._changed()
        if not [m for m in self.humans if m.conn is not None and not m.left] and not self.watchers:
            self._close_or_reset()

    def over_frame(self) -> dict[str, Any]:
        assert self.state is not None and self.record is not None
        return {
            "t": "over",
            "table": self.id,
            "game": self.game_no,
            "winners": winners(self.state),
            "scores": [asdict(s) for s in scores(self.state)],
            "names": [m.name for m in self.members],
            "record": self.record.to_dict(),
        }

    def _send_over(self, conn: Any) -> None:
        if self.state is not None and self.state.over:
            conn.send(self.over_frame())

    def _cancel_all(self) -> None:
        for h in (self._hold, self._window_timer, *self._turn_timers.values()):
            if h is not None:
                h.cancel()
        self._hold = self._window_timer = None
        self._turn_timers.clear()
        for task in self._thinking.values():
            task.cancel()
        self._thinking.clear()
        for m in self.members:
            if m.grace is not None:
                m.grace.cancel()
                m.grace = None

    def close(self) -> None:
        self._cancel_all()
        self.closed = True

    # ---- choices ----------------------------------------------------------------------------

    def choose(self, m: Member, wire_id: int, option: Any) -> None:
        """A person's choice. Raises NetError with the reason it was refused (nothing changes)."""
        if self.phase is not Phase.PLAYING or self.state is None:
            raise NetError(ErrorCode.GAME_OVER, "no game is being played at this table")
        self.here(m)
        stream = m.stream
        if not stream.decisions:
            raise NetError(ErrorCode.NOT_YOUR_DECISION, "you have no open decision")
        decision = next((d for w, d in stream.decisions if w == wire_id), None)
        if decision is None or decision not in self.state.open:
            raise NetError(ErrorCode.STALE_DECISION, f"decision {wire_id} is not open for you")
        try:
            value = normalize(option)
        except ValueError:
            raise NetError(ErrorCode.OPTION_NOT_OFFERED, f"{option!r} is not an option value") from None
        task = self._thinking.pop(decision.id, None)
        if task is not None:
            task.cancel()
        self._apply(m.seat, decision, value)
        stream.decisions = [(w, d) for w, d in stream.decisions if d is not decision]

    def _apply(self, seat: int, decision: Decision, option: OptionValue) -> None:
        state = self.state
        assert state is not None and self.record is not None
        backup = state.clone()
        try:
            events = apply(state, seat, decision.id, option)
        except IllegalChoice as exc:
            raise NetError(ErrorCode(exc.code.value), exc.detail) from None
        except Exception:  # an engine bug: keep the game as it was before this choice
            log.exception("table %d: the engine failed on a choice; state restored", self.id)
            self.state = backup
            raise NetError(ErrorCode.INTERNAL, "the host could not apply that choice") from None
        self.record.choices.append((seat, decision.id, option))
        self.pending.extend(events)
        open_ids = {d.id for d in state.open}
        for did in [k for k in self._turn_timers if k not in open_ids]:
            self._turn_timers.pop(did).cancel()
        self._pump()
        self._kick()

    # ---- delivery ---------------------------------------------------------------------------

    def _pump(self) -> None:
        """Send what the seats may see now (see the module docstring for the pacing)."""
        state = self.state
        if state is None or self._hold is not None or self.phase is not Phase.PLAYING:
            return
        reacts = [d for d in state.open if d.kind in REACTIONS]
        windows = [i for i, e in enumerate(self.pending) if e.kind is EventKind.WINDOW]
        if self.paced:
            if windows:
                i = windows[0]
                is_open = i == windows[-1] and bool(reacts)
                kind = self.pending[i].zone
                self._deliver(self.pending[: i + 1], window={"kind": kind}, full=False, asked=reacts if is_open else [])
                del self.pending[: i + 1]
                if is_open:
                    self._window_opened(reacts)
                loop = asyncio.get_running_loop()
                self._hold = loop.call_later(self.config.reaction_window, self._hold_over)
                return
            if reacts:
                return  # the open window went out already; waiting for answers
        elif reacts:
            if not windows:
                return
            if not any(self._attended(d.player) for d in reacts):
                return  # only bots (or stand-ins) are asked: they answer at once
            j = windows[-1]
            kind = self.pending[j].zone
            self._deliver(self.pending[: j + 1], window={"kind": kind}, full=False, asked=reacts)
            del self.pending[: j + 1]
            self._window_opened(reacts)
            return
        events, self.pending = self.pending, []
        self._deliver(events, window=None, full=True)
        self._start_turn_timers()
        if state.over:
            self._game_over()

    def _hold_over(self) -> None:
        self._hold = None
        self._pump()

    def _attended(self, seat: int) -> bool:
        """A person (not a bot, not away) decides for this seat."""
        m = self.seats[seat]
        return m is not None and m.human and not m.away

    def _deliver(
        self, events: list[Event], window: dict[str, Any] | None, full: bool, asked: Sequence[Decision] = ()
    ) -> None:
        state = self.state
        assert state is not None
        if window is not None:  # the same for every window, whoever is asked
            window = {**window, "limit": self.config.reaction_limit or None}
        for m in self.humans:
            if full:
                mine = [d for d in state.open if d.player == m.seat]
            else:
                mine = [d for d in asked if d.player == m.seat]
            self._send_update(m.stream, m.conn, m.seat, events, window, full, mine)
        for w in self.watchers:
            self._send_update(w.stream, w.conn, None, events, window, full, [])
        self._send_update(self.public, None, None, events, window, full, [])

    def _send_update(
        self,
        stream: Stream,
        conn: Any,
        seat: int | None,
        events: list[Event],
        window: dict[str, Any] | None,
        full: bool,
        mine: list[Decision],
    ) -> None:
        state = self.state
        assert state is not None
        decisions = stream.wire(mine)
        vd: dict[str, Any] | None = None
        if full:
            vd = view(state, seat).to_dict()
            vd["decisions"] = decisions
            stream.view = vd
        stream.window = window
        evs = [redact(e, seat).to_dict() for e in events]
        stream.seq += 1
        stream.history.append((stream.seq, evs))
        if conn is not None:
            limit = self._limit_for(mine)
            conn.send(
                {
                    "t": "update",
                    "table": self.id,
                    "seq": stream.seq,
                    "events": evs,
                    "view": vd,
                    "decisions": decisions,
                    "window": window,
                    "limit": limit,
                }
            )

    def _limit_for(self, mine: list[Decision]) -> float | None:
        if not mine:
            return None
        lim = self.config.reaction_limit if mine[0].kind in REACTIONS else self.config.turn_limit
        return lim or None

    def snapshot(self, stream: Stream, conn: Any, seat: int | None, last_seq: int | None) -> None:
        """Send a seat everything it needs to go on: its last view, its open decisions, and the
        events since `last_seq` when the host still has them."""
        events: list[dict[str, Any]] = []
        complete = last_seq is not None
        if last_seq is not None:
            for seq, evs in stream.history:
                if seq > last_seq:
                    events.extend(evs)
            if stream.history and stream.history[0][0] > last_seq + 1:
                complete = False
        if len(events) > SNAPSHOT_EVENTS:
            events = events[-SNAPSHOT_EVENTS:]
            complete = False
        conn.send(
            {
                "t": "snapshot",
                "table": self.id,
                "seat": seat,
                "seq": stream.seq,
                "view": stream.view,
                "decisions": stream.wire_decisions(),
                "window": stream.window,
                "limit": self._limit_for([d for _, d in stream.decisions]),
                "events": events,
                "complete": complete,
            }
        )

    # ---- timers and bots --------------------------------------------------------------------

    def _window_opened(self, asked: Sequence[Decision]) -> None:
        """A window with people asked went out: start its time limit (for those decisions only,
        so a later window gets its own full time)."""
        if self._window_timer is not None:
            self._window_timer.cancel()
        self._window_timer = None
        if self.config.reaction_limit:
            loop = asyncio.get_running_loop()
            ids = frozenset(d.id for d in asked)
            self._window_timer = loop.call_later(self.config.reaction_limit, self._window_expired, ids)

    def _window_expired(self, ids: frozenset[int]) -> None:
        """Pass for everyone who has not answered the window in time."""
        self._window_timer = None
        state = self.state
        if state is None or self.phase is not Phase.PLAYING:
            return
        for d in [d for d in state.open if d.id in ids and d.kind in REACTIONS and self._attended(d.player)]:
            if d in state.open and PASS in d.values():
                self._apply_quietly(d.player, d, PASS)

    def _start_turn_timers(self) -> None:
        state = self.state
        if state is None or not self.config.turn_limit or self.phase is not Phase.PLAYING:
            return
        loop = asyncio.get_running_loop()
        for d in state.open:
            if d.kind in REACTIONS or d.id in self._turn_timers or not self._attended(d.player):
                continue
            m = self.seats[d.player]
            if m is None or not any(dd is d for _, dd in m.stream.decisions):
                continue  # not sent yet
            self._turn_timers[d.id] = loop.call_later(self.config.turn_limit, self._turn_expired, d)

    def _turn_expired(self, d: Decision) -> None:
        self._turn_timers.pop(d.id, None)
        if self.state is None or d not in self.state.open:
            return
        m = self.seats[d.player]
        if m is not None and m.human and not m.away:
            log.info("table %d: %s ran out of time; a bot plays for them", self.id, m.name)
            m.away = True
            self._changed()
            self._kick()

    def _kick(self) -> None:
        """Let bots and stand-ins act on the next turn of the event loop."""
        if not self._drive_soon and not self.closed:
            self._drive_soon = True
            asyncio.get_running_loop().call_soon(self._drive)

    def _drive(self) -> None:
        self._drive_soon = False
        state = self.state
        if state is None or self.phase is not Phase.PLAYING or self.closed:
            return
        for d in list(state.open):
            m = self.seats[d.player]
            if m is None or (m.human and not m.away):
                continue
            if m.human and d.kind in REACTIONS and PASS in d.values():
                self._apply_quietly(d.player, d, PASS)  # nobody at the keyboard reacts
                return  # _apply kicked again
            if d.id not in self._thinking:
                level = m.level or self.config.bot_level
                self._thinking[d.id] = asyncio.get_running_loop().create_task(
                    self._bot_move(d, level, self.game_no), name=f"bot t{self.id} d{d.id}"
                )

    async def _bot_move(self, d: Decision, level: str, game_no: int) -> None:
        try:
            if self.config.bot_delay and d.kind not in REACTIONS:
                await asyncio.sleep(self.config.bot_delay)
            state = self.state
            if state is None or d not in state.open:
                return
            seed = (self._seed_base * 1_000_003 + game_no * 7_919 + d.id * 31 + d.player) % 2**31
            option = await self.bots.choose(level, seed, view(state, d.player), d)
        finally:
            if self._thinking.get(d.id) is asyncio.current_task():
                del self._thinking[d.id]
        if self.game_no != game_no or self.state is None or d not in self.state.open or self.closed:
            return
        m = self.seats[d.player]
        if m is None or (m.human and not m.away):
            return  # the person took their seat back meanwhile
        self._apply_quietly(d.player, d, option)

    def _apply_quietly(self, seat: int, d: Decision, option: OptionValue) -> None:
        try:
            self._apply(seat, d, option)
        except NetError as exc:
            log.error("table %d: host-made choice refused: %s", self.id, exc)

    # ---- talk and status --------------------------------------------------------------------

    def say(self, name: str, seat: int | None, text: str) -> None:
        text = clean_chat(text)
        if not text:
            return
        line = {"t": "chat", "table": self.id, "name": name, "seat": seat, "text": text}
        self.chat.append(line)
        for conn in self._conns():
            conn.send(line)

    def send_chat_history(self, conn: Any) -> None:
        for line in self.chat:
            conn.send(line)

    def _conns(self) -> list[Any]:
        out = [m.conn for m in self.humans if m.conn is not None]
        out += [w.conn for w in self.watchers]
        return out

    def info(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "name": self.name,
            "phase": self.phase.value,
            "game": self.game_no,
            "edition": self.config.edition,
            "seats": [m.public() if m is not None else None for m in self.seats],
            "watchers": len(self.watchers),
        }

    def table_frame(self) -> dict[str, Any]:
        owner = self.owner
        c = self.config
        return {
            "t": "table",
            **self.info(),
            "owner": owner.seat if owner is not None else None,
            "rematch": [m.seat for m in self.humans if m.rematch],
            "settings": {
                "reaction_window": c.reaction_window,
                "reaction_limit": c.reaction_limit,
                "turn_limit": c.turn_limit,
                "away_grace": c.away_grace,
                "bot_level": c.bot_level,
            },
        }

    def _changed(self, lobby_only: bool = False) -> None:
        if not lobby_only:
            frame = self.table_frame()
            for conn in self._conns():
                conn.send(frame)
        self.on_change(self)


def _fresh_seed() -> int:
    return secrets.randbelow(2**31)
