"""One table of a host: its game from start to end and rematch, and the choices made in it.

The table is a state machine with time, frames and bots injected: it reads time and schedules
through a `Clock`, sends every frame through an `Outbox`, and has bots think in a `BotPool`;
it never awaits. Its parts, one concern each: `Seating` (who sits where, grace periods),
`Delivery` (what each seat is sent and when: R5.7 pacing, snapshots, results), `Timers`
(reaction and turn limits), `Autoplay` (bots and stand-ins), `Talk` (chat, status frames).
The game is any of `core.games` (`TableConfig.game`), run through its verbs only; its state
changes only through the game's `apply`, in `Table.apply`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from core.decisions import Decision, IllegalChoice, OptionValue, normalize
from core.games import AnyGame, GameRecord
from net.bots import BotPool
from net.clock import Clock, LoopClock
from net.errors import ErrorCode, NetError
from net.table.autoplay import Autoplay
from net.table.config import Phase, TableConfig, fresh_seed
from net.table.delivery import Delivery
from net.table.outbox import Frame, Outbox, Recipient
from net.table.recorder import Recorder
from net.table.seating import Member, Seating, Watcher
from net.table.streams import Stream
from net.table.talk import Talk
from net.table.timers import Timers

log = logging.getLogger("net.table")


class Table:
    """One table: seats, then a game, then results and rematches with seats rotated."""

    def __init__(
        self,
        tid: int,
        config: TableConfig,
        bots: BotPool,
        on_change: Callable[[Table], None] = lambda t: None,
        persistent: bool = False,
        *,
        clock: Clock | None = None,
        outbox: Outbox | None = None,
    ) -> None:
        config.check()
        self.id = tid
        self.config = config
        self.name = config.name or f"Table {tid}"
        self.bots = bots
        self.on_change = on_change
        self.persistent = persistent
        """The host's own table: reset rather than closed when everybody leaves."""
        self.clock: Clock = clock or LoopClock()
        self.outbox = outbox or Outbox()
        self.recorder = Recorder()  # who keeps its games (the host's store): hears of each step first
        self.closed = False
        self.phase = Phase.WAITING
        self.game: AnyGame = config.the_game
        """The game played here (`core.games`): the table runs it through its verbs only."""
        self.state: Any = None
        """The game's state (its `GameState`), None before the first game."""
        self.record: GameRecord[Any] | None = None
        self.game_no = 0
        self.seed_base = config.seed if config.seed is not None else fresh_seed()
        """Where bots' seeds start (their moves are reproducible with a configured seed)."""
        self.seating = Seating(self)
        self.delivery = Delivery(self)
        self.timers = Timers(self)
        self.autoplay = Autoplay(self)
        self.talk = Talk(self)

    # ---- who is here (see Seating) ----------------------------------------------------------

    @property
    def seats(self) -> list[Member | None]:
        return self.seating.seats

    @property
    def watchers(self) -> list[Watcher]:
        return self.seating.watchers

    @property
    def members(self) -> list[Member]:
        return self.seating.members

    @property
    def humans(self) -> list[Member]:
        return self.seating.humans

    @property
    def owner(self) -> Member | None:
        return self.seating.owner

    @property
    def public(self) -> Stream:
        """What a spectator has been sent so far (new spectators start from it)."""
        return self.delivery.public

    def free_seats(self) -> list[int]:
        return self.seating.free()

    def seat_for(self, seat: int | None = None) -> int:
        """The seat a newcomer would take. Raises NetError saying why there is none."""
        return self.seating.seat_for(seat)

    def sit(self, conn: Recipient, name: str, seat: int | None = None) -> Member:
        """Seat a person: `seat`, or the first free one. Raises NetError (see `seat_for`)."""
        return self.seating.sit(conn, name, seat)

    def resume(self, m: Member, conn: Recipient, last_seq: int | None) -> None:
        """A person back with their token: the same seat, and a full snapshot."""
        self.seating.resume(m, conn, last_seq)

    def watch(self, conn: Recipient) -> Watcher:
        return self.seating.watch(conn)

    def unwatch(self, w: Watcher) -> None:
        self.seating.unwatch(w)

    def leave(self, m: Member) -> None:
        """The person leaves their seat for good (a bot finishes their game)."""
        self.seating.leave(m)

    def disconnected(self, m: Member) -> None:
        """The person's connection dropped: their seat waits `away_grace` seconds for them."""
        self.seating.disconnected(m)

    def here(self, m: Member) -> None:
        """The person is at the keyboard again: the bot hands their seat back."""
        self.seating.here(m)

    # ---- what the table tells (see Delivery, Talk) ------------------------------------------

    @property
    def paced(self) -> bool:
        """Reaction windows keep their minimum time: two or more people play here, or one
        person plays against bots that search (whose thinking time would tell whether they
        were asked, that is whether they hold a card)."""
        if self.config.reaction_window <= 0:
            return False
        humans = len(self.humans)
        searching = any(m.level in self.game.search_levels for m in self.members if not m.human)
        return humans >= 2 or (humans == 1 and searching)

    @property
    def settled(self) -> bool:
        """Nothing happens at this table until a person acts: no bot is choosing, no move is
        about to be driven, no timer holds events back (tests and screenshots wait for it)."""
        return not self.autoplay.thinking and not self.autoplay.soon and self.delivery.hold is None

    def snapshot(self, stream: Stream, conn: Recipient, seat: int | None, last_seq: int | None) -> None:
        """Send a seat everything it needs to go on (see `Stream.snapshot`)."""
        self.delivery.snapshot(stream, conn, seat, last_seq)

    def say(self, name: str, seat: int | None, text: str) -> None:
        self.talk.say(name, seat, text)

    def info(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return self.talk.info()

    def table_frame(self) -> Frame:
        return self.talk.table_frame()

    def changed(self, lobby_only: bool = False) -> None:
        self.talk.changed(lobby_only)

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
        self.changed()
        self.rematch_if_agreed()

    def rematch_if_agreed(self) -> None:
        """After a game, once every person still connected asked for another (also when the
        last who had not leaves or drops), seats rotate and it starts."""
        present = [x for x in self.humans if x.conn is not None and not x.left]
        if self.phase is Phase.OVER and present and all(x.rematch for x in present):
            self.seating.rotate()
            self.start_game()

    def start_game(self) -> None:
        members = self.seating.close_ranks()
        self.game_no += 1
        # A configured seed makes games reproducible (and so predictable: for tests and
        # tournaments); otherwise each game draws a fresh one, since the record of a finished
        # game shows its seed to everyone.
        seed = (c_seed + self.game_no - 1) % 2**31 if (c_seed := self.config.seed) is not None else fresh_seed()
        settings = self.config.game_settings(blind_windows=self.config.blind_windows and self.paced)
        self.state = self.game.new_game(len(members), seed, settings)
        self.record = self.game.new_record(len(members), seed, settings)
        self.delivery.forget()
        self.phase = Phase.PLAYING
        for stream in [m.stream for m in members] + [w.stream for w in self.watchers] + [self.public]:
            stream.new_game()
        self.recorder.game_started(self)
        log.info("table %d: game %d starts (%d players, seed %d)", self.id, self.game_no, len(members), seed)
        for m in members:
            if m.human and m.conn is not None:
                self.outbox.send(m.conn, m.seated_frame())
        self.changed()
        self.delivery.pump()
        self.autoplay.kick()

    def game_over(self) -> None:
        assert self.state is not None
        names = ", ".join(m.name for m in self.members if m.seat in self.game.winners(self.state))
        log.info("table %d: game %d is over after %d turns; won by %s", self.id, self.game_no, self.state.turn, names)
        self.phase = Phase.OVER
        self._stop_all()
        self.recorder.game_over(self)
        for conn in self.seating.conns():
            self.send_over(conn)
        self.changed()
        if not self.seating.expected() and not self.watchers:
            self.close_or_reset()

    def over_frame(self) -> Frame:
        assert self.state is not None and self.record is not None
        return {
            "t": "over",
            "table": self.id,
            "game": self.game_no,
            "winners": self.game.winners(self.state),
            "scores": [asdict(s) for s in self.game.scores(self.state)],  # type: ignore[call-overload]
            "names": [m.name for m in self.members],
            "record": self.record.to_dict(),
        }

    def send_over(self, conn: Recipient) -> None:
        if self.state is not None and self.state.over:
            self.outbox.send(conn, self.over_frame())

    def close_or_reset(self) -> None:
        """Everybody left: the host's own table waits for players again, any other closes."""
        self._stop_all()
        self.recorder.emptied(self)
        self.delivery.forget()
        if self.persistent:
            log.info("table %d: everybody left; resetting it", self.id)
            self.phase = Phase.WAITING
            self.state = None
            self.seating.reset()
        else:
            log.info("table %d: everybody left; closing it", self.id)
            self.closed = True
        self.changed()

    def _stop_all(self) -> None:
        self.delivery.stop()
        self.timers.stop()
        self.autoplay.stop_all()
        self.seating.stop_graces()

    def close(self) -> None:
        self._stop_all()
        self.closed = True

    # ---- choices ----------------------------------------------------------------------------

    def choose(self, m: Member, wire_id: int, option: Any, aid: Any = None) -> None:
        """A person's choice. Raises NetError with the reason it was refused (nothing changes).

        Accepted, its `result {aid, ok: true}` goes to the person once the update carrying the
        choice's events has gone to them (see `Delivery.answer`)."""
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
            value = None
        if value is None or value not in decision.values():
            # Said with the seat's own decision number: the engine's (and its text) counts
            # every seat's decisions, which the wire ids exist to hide.
            raise NetError(ErrorCode.OPTION_NOT_OFFERED, f"that is not one of the options of decision {wire_id}")
        self.autoplay.stop(decision.id)
        seq, held = stream.seq, self.delivery.hold is not None
        self.apply(m.seat, decision, value)
        stream.decisions = [(w, d) for w, d in stream.decisions if d is not decision]
        self.delivery.chose(m, aid, seq, held)

    def apply(self, seat: int, decision: Decision, option: OptionValue) -> None:
        """Apply one choice to the game (the only place its state changes), then let what it
        led to go out. Raises NetError, leaving the game as it was."""
        state = self.state
        assert state is not None and self.record is not None
        backup = state.clone()
        boards: list[Any] = []
        try:
            events = self.game.apply_watching(state, seat, decision.id, option, lambda s: boards.append(s.clone()))
        except IllegalChoice as exc:
            raise NetError(ErrorCode(exc.code.value), exc.detail) from None
        except Exception:  # an engine bug: keep the game as it was before this choice
            log.exception("table %d: the engine failed on a choice; state restored", self.id)
            self.state = backup
            raise NetError(ErrorCode.INTERNAL, "the host could not apply that choice") from None
        self.record.choices.append((seat, decision.id, option))
        self.delivery.produced(events, boards)
        self.timers.closed({d.id for d in state.open})
        self.delivery.pump()
        self.autoplay.kick()

    def apply_quietly(self, seat: int, d: Decision, option: OptionValue) -> None:
        """Apply a choice the host made (a bot's, a pass for time); a refusal is a bug, logged."""
        try:
            self.apply(seat, d, option)
        except NetError as exc:
            log.error("table %d: host-made choice refused: %s", self.id, exc)


def warm_up(table: Table) -> None:
    """Deal a game nobody plays at `table`, before anyone sits, and throw it away: the first deal
    of a process loads the engine (its setup, rules and state: ~28 ms of a private host forked
    from the client), and the player of a game against bots, who sits at once, waited for that
    between joining and the first view (issue 9: start-up to the table). Nothing of it is kept
    or sent; the table's own games are dealt as before."""
    if table.phase is not Phase.WAITING or table.state is not None:
        return
    players = len(table.seating.seats)
    game = table.game
    if not game.min_players <= players <= game.max_players:
        return
    settings = table.config.game_settings(blind_windows=table.config.blind_windows and table.paced)
    state = game.new_game(players, 0, settings)
    game.pending(state)
    game.view(state, 0)
    game.new_record(players, 0, settings)
