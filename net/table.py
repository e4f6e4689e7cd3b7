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
from net.frames import FrameTooBig, encode
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
class Answer:
    """A person's accepted choice, whose `result` waits for the update carrying its events."""

    member: Member
    conn: Any
    """The connection that chose: the result goes there, or nowhere if it is gone."""
    aid: Any
    events: int
    """The choice's events end with the table's `events`-th event of the game."""
    seq: int
    """The person's stream `seq` before the choice."""
    after_hold: bool
    """Made while a window was held: answered no earlier than the end of that hold."""


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
        self._boards: list[GameState] = []
        """The state at each WINDOW event in `pending`, in order (`core.rules.apply`'s
        `at_window`): a window is shown with the board as it stood then."""
        self._made = 0
        """Events the engine produced in this game; `_sent` of them went out."""
        self._sent = 0
        self._answers: list[Answer] = []
        """People's choices whose `result` waits for the update carrying their events."""
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
    def settled(self) -> bool:
        """Nothing happens at this table until a person acts: no bot is choosing, no move is
        about to be driven, no timer holds events back (tests and screenshots wait for it)."""
        return not self._thinking and not self._drive_soon and self._hold is None

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
        log.info("table %d: %s sits at seat %d", self.id, name, s)
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
        log.info("table %d: %s is back at seat %d", self.id, m.name, m.seat)
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
            p, s = self.public, w.stream
            s.view, s.window, s.seq, s.game_start = p.view, p.window, p.seq, p.game_start
            s.history.extend(p.history)  # the game so far, for the snapshot's log
            self.snapshot(s, conn, None, None)
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
            log.info("table %d: %s leaves seat %d", self.id, m.name, m.seat)
            self.seats[m.seat] = None
        else:
            log.info("table %d: %s leaves the game; a bot plays seat %d to the end", self.id, m.name, m.seat)
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
            log.info(
                "table %d: %s disconnected; seat %d waits %g s for them",
                self.id,
                m.name,
                m.seat,
                self.config.away_grace,
            )
            loop = asyncio.get_running_loop()
            m.grace = loop.call_later(self.config.away_grace, self._grace_over, m)
        else:
            log.info("table %d: %s disconnected (seat %d)", self.id, m.name, m.seat)
        self._after_people_left()

    def _grace_over(self, m: Member) -> None:
        m.grace = None
        if m.conn is None and self.phase is Phase.WAITING and self.seats[m.seat] is m:
            log.info("table %d: %s did not come back after disconnecting; seat %d is free", self.id, m.name, m.seat)
            self.seats[m.seat] = None
            self._changed()
            self._after_people_left()
            return
        if m.conn is None and self.phase is Phase.PLAYING:
            log.info("table %d: %s did not come back after disconnecting; a bot plays seat %d", self.id, m.name, m.seat)
            m.away = True
            self._changed()
            self._kick()

    def here(self, m: Member) -> None:
        """The person is at the keyboard again: the bot hands their seat back."""
        if m.away and not m.left:
            log.info("table %d: %s takes seat %d back from the bot", self.id, m.name, m.seat)
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
        self._forget_flow()
        if self.persistent:
            log.info("table %d: everybody left; resetting it", self.id)
            self.phase = Phase.WAITING
            self.state = None
            self._reset_seats()
        else:
            log.info("table %d: everybody left; closing it", self.id)
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
        self._forget_flow()
        self.phase = Phase.PLAYING
        for stream in [m.stream for m in members] + [w.stream for w in self.watchers] + [self.public]:
            stream.decisions = []
            stream.game_start = stream.seq
        log.info("table %d: game %d starts (%d players, seed %d)", self.id, self.game_no, len(members), seed)
        for m in members:
            if m.human and m.conn is not None:
                m.conn.send({"t": "seated", "table": self.id, "seat": m.seat, "token": m.token})
        self._changed()
        self._pump()
        self._kick()

    def _game_over(self) -> None:
        assert self.state is not None
        names = ", ".join(m.name for m in self.members if m.seat in winners(self.state))
        log.info("table %d: game %d is over after %d turns; won by %s", self.id, self.game_no, self.state.turn, names)
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

    def choose(self, m: Member, wire_id: int, option: Any, aid: Any = None) -> None:
        """A person's choice. Raises NetError with the reason it was refused (nothing changes).

        Accepted, its `result {aid, ok: true}` goes to the person once the update carrying the
        choice's events has gone to them (see `_answer`)."""
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
        seq, held = stream.seq, self._hold is not None
        self._apply(m.seat, decision, value)
        stream.decisions = [(w, d) for w, d in stream.decisions if d is not decision]
        self._answers.append(Answer(m, m.conn, aid, self._made, seq, held))
        self._answer()

    def _apply(self, seat: int, decision: Decision, option: OptionValue) -> None:
        state = self.state
        assert state is not None and self.record is not None
        backup = state.clone()
        boards: list[GameState] = []
        try:
            events = apply(state, seat, decision.id, option, at_window=lambda s: boards.append(s.clone()))
        except IllegalChoice as exc:
            raise NetError(ErrorCode(exc.code.value), exc.detail) from None
        except Exception:  # an engine bug: keep the game as it was before this choice
            log.exception("table %d: the engine failed on a choice; state restored", self.id)
            self.state = backup
            raise NetError(ErrorCode.INTERNAL, "the host could not apply that choice") from None
        self.record.choices.append((seat, decision.id, option))
        self.pending.extend(events)
        self._boards.extend(boards)
        self._made += len(events)
        open_ids = {d.id for d in state.open}
        for did in [k for k in self._turn_timers if k not in open_ids]:
            self._turn_timers.pop(did).cancel()
        self._pump()
        self._kick()

    def _answer(self) -> None:
        """Send the `result` of every person's choice whose events have all gone out.

        A result never overtakes the update carrying its choice's events: it waits for them
        (behind a paced window's minimum, or for bots still answering). A choice made while a
        window is held is answered only once that hold is over, whatever it led to, so how soon
        the result comes never tells whether others were still asked. If no update went to the
        person since the choice (a reaction while others still decide), one with no events and
        the decisions still open for them goes first, so a client never sees the decision it
        just answered as open after its result."""
        if not self._answers:
            return
        waiting: list[Answer] = []
        for a in self._answers:
            m = a.member
            if m.conn is not a.conn or a.conn is None:
                continue  # that connection is gone; a snapshot tells the new one
            if a.after_hold or a.events > self._sent:
                waiting.append(a)
                continue
            if m.stream.seq == a.seq:
                self._acknowledge(m)
            a.conn.send({"t": "result", "aid": a.aid, "ok": True})
        self._answers = waiting

    def _acknowledge(self, m: Member) -> None:
        """An update with no events for `m`: the same board, the decisions still open for them."""
        state = self.state
        assert state is not None
        stream = m.stream
        mine = [d for _, d in stream.decisions if d in state.open]
        self._send_update(stream, m.conn, m.seat, [], stream.window, mine, None)

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
                events, board = self._take(i + 1)
                self._deliver(events, {"kind": events[-1].zone}, False, reacts if is_open else [], board)
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
            events, board = self._take(windows[-1] + 1)
            self._deliver(events, {"kind": events[-1].zone}, False, reacts, board)
            self._window_opened(reacts)
            return
        events, _ = self._take(len(self.pending))
        self._deliver(events, None, True, (), state)
        self._start_turn_timers()
        if state.over:
            self._game_over()

    def _take(self, n: int) -> tuple[list[Event], GameState]:
        """The first `n` pending events, and the state as of the last of them: the board kept
        at its WINDOW event if it is one (the game may have gone on since), else the state now
        (then all pending events are taken)."""
        assert self.state is not None
        events = self.pending[:n]
        del self.pending[:n]
        k = sum(1 for e in events if e.kind is EventKind.WINDOW)
        boards = self._boards[:k]
        del self._boards[:k]
        return events, boards[-1] if boards and events[-1].kind is EventKind.WINDOW else self.state

    def _forget_flow(self) -> None:
        """A new game (or none): nothing pending, nobody waiting for a result."""
        self.pending = []
        self._boards = []
        self._made = self._sent = 0
        self._answers = []

    def _hold_over(self) -> None:
        self._hold = None
        for a in self._answers:
            a.after_hold = False
        self._pump()
        self._answer()

    def _attended(self, seat: int) -> bool:
        """A person (not a bot, not away) decides for this seat."""
        m = self.seats[seat]
        return m is not None and m.human and not m.away

    def _deliver(
        self,
        events: list[Event],
        window: dict[str, Any] | None,
        full: bool,
        asked: Sequence[Decision],
        board: GameState,
    ) -> None:
        """Send every seat and spectator `events`, with the view of `board` (the state as of
        the last of them) and their decisions: all their open ones (`full`), or only those of
        the window being shown (`asked`)."""
        state = self.state
        assert state is not None
        if window is not None:  # the same for every window, whoever is asked
            window = {**window, "limit": self.config.reaction_limit or None}
        for m in self.humans:
            if full:
                mine = [d for d in state.open if d.player == m.seat]
            else:
                mine = [d for d in asked if d.player == m.seat]
            self._send_update(m.stream, m.conn, m.seat, events, window, mine, board)
        for w in self.watchers:
            self._send_update(w.stream, w.conn, None, events, window, [], board)
        self._send_update(self.public, None, None, events, window, [], board)
        self._sent += len(events)
        self._answer()

    def _send_update(
        self,
        stream: Stream,
        conn: Any,
        seat: int | None,
        events: list[Event],
        window: dict[str, Any] | None,
        mine: list[Decision],
        board: GameState | None,
    ) -> None:
        """One update to one stream. `board` None: the board of the last update (no events)."""
        decisions = stream.wire(mine)
        if board is not None:
            vd = view(board, seat).to_dict()
        else:
            assert stream.view is not None
            vd = dict(stream.view)
        vd["decisions"] = decisions
        stream.view = vd
        stream.window = window
        evs = [redact(e, seat).to_dict() for e in events]
        stream.seq += 1
        stream.history.append((stream.seq, evs))
        if conn is not None:
            conn.send(
                {
                    "t": "update",
                    "table": self.id,
                    "seq": stream.seq,
                    "events": evs,
                    "view": vd,
                    "decisions": decisions,
                    "window": window,
                    "limit": self._limit_for(mine),
                }
            )

    def _limit_for(self, mine: list[Decision]) -> float | None:
        if not mine:
            return None
        lim = self.config.reaction_limit if mine[0].kind in REACTIONS else self.config.turn_limit
        return lim or None

    def snapshot(self, stream: Stream, conn: Any, seat: int | None, last_seq: int | None) -> None:
        """Send a seat everything it needs to go on: the view as of the last event it was sent,
        the decisions still open for it, and the events after `last_seq` (None: a client that
        has nothing, such as a new process with its token or a new spectator: the game's events
        so far), as far as the host still has them and a frame holds them."""
        state = self.state
        stream.decisions = [(w, d) for w, d in stream.decisions if state is not None and d in state.open]
        decisions = stream.wire_decisions()
        vd = None if stream.view is None else {**stream.view, "decisions": decisions}
        since = stream.game_start if last_seq is None else max(last_seq, stream.game_start)
        complete = since >= stream.seq or bool(stream.history and stream.history[0][0] <= since + 1)
        events = [e for seq, evs in stream.history if seq > since for e in evs]
        if len(events) > SNAPSHOT_EVENTS:
            events = events[-SNAPSHOT_EVENTS:]
            complete = False
        frame: dict[str, Any] = {
            "t": "snapshot",
            "table": self.id,
            "seat": seat,
            "seq": stream.seq,
            "view": vd,
            "decisions": decisions,
            "window": stream.window,
            "limit": self._limit_for([d for _, d in stream.decisions]),
            "events": events,
            "complete": complete,
        }
        while True:  # the oldest events give way if the frame would be too big to send
            try:
                encode(frame)
                break
            except FrameTooBig:
                events = events[len(events) // 2 + 1 :]
                frame["events"], frame["complete"] = events, False
        conn.send(frame)

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
                log.info("table %d: seat %d did not react in time; passing for them", self.id, d.player)
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
            if m.conn is None:  # the grace period has not run out, this decision's time has
                log.info("table %d: %s, disconnected, ran out of time; a bot plays seat %d", self.id, m.name, m.seat)
            else:
                log.info("table %d: %s ran out of time; a bot plays seat %d", self.id, m.name, m.seat)
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
