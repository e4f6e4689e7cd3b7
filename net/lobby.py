"""The host's lobby: its tables, the seat tokens that lead back to them, the `lobby` frame, and
the requests people make of tables (join, watch, create, leave, start, rematch, choose, sync,
here, say). Who gets in, and the connections themselves, are the host's (net/host.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from core.games import GAMES
from net.connection import Connection
from net.errors import ErrorCode, NetError
from net.journal import TableJournal, keep
from net.messages import Choose, Create, Here, Join, Leave, Rematch, Say, Start, Sync, Watch
from net.table import Member, Phase, Table, TableConfig, Watcher

if TYPE_CHECKING:
    from net.host import Host


@dataclass(eq=False, slots=True)
class HostSession:
    """One connection as the host sees it: who it is and where it sits or watches."""

    conn: Connection
    address: str
    """Where it comes from, as connections are counted (`net.peers.address_key`)."""
    opened: float
    """When it was accepted, on its connection's clock."""
    name: str = ""
    member: Member | None = None
    watching: Watcher | None = None
    watching_table: Table | None = None

    @property
    def rank(self) -> int:
        """Which connections make room first when the host is full: those that have not said
        `hello` (0), then those in the lobby (1), then spectators (2). Seated ones never do."""
        if not self.conn.greeted:
            return 0
        return 1 if self.watching is None else 2


Request = Join | Watch | Create | Leave | Start | Rematch | Choose | Sync | Here | Say
"""A frame that asks something of the host and gets one `result`."""
REQUEST_TYPES: Final = (Join, Watch, Create, Leave, Start, Rematch, Choose, Sync, Here, Say)


class Lobby:
    """The tables of one host and what its connections ask of them."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.tables: dict[int, Table] = {}
        self.tokens: dict[str, Member] = {}
        """Seat tokens held now, and the seats they lead back to."""
        self.created: dict[int, str] = {}
        """Tables players opened (`create`), by id: the address of the one who opened it."""
        self._next_table = 1
        self._soon = False

    def request(self, s: HostSession, frame: Request) -> None:
        """Carry out a request and answer it with its one `result` (or leave that to the
        table, for a choice: see `_do_choose`)."""
        do = _REQUESTS.get(type(frame))
        if do is None:
            return
        try:
            answered = do(self, s, frame)
        except NetError as exc:
            s.conn.send({"t": "result", "aid": frame.aid, "ok": False, "code": exc.code.value, "text": exc.text})
            if isinstance(frame, Choose) and exc.code in (ErrorCode.STALE_DECISION, ErrorCode.NOT_YOUR_DECISION):
                self._resync(s)
            return
        if not answered:
            # After the table's own frames (held until what they tell is written down).
            table = s.member.table if s.member is not None else s.watching_table
            result = {"t": "result", "aid": frame.aid, "ok": True}
            if table is not None:
                table.outbox.send(s.conn, result)
            else:
                s.conn.send(result)

    # ---- tables -----------------------------------------------------------------------------

    def open_table(self, config: TableConfig, persistent: bool = False) -> Table:
        tid = self._next_table
        self._next_table += 1
        table = Table(tid, config, self.host.bots, self._changed, persistent, clock=self.host.clock)
        self.tables[tid] = table
        store = self.host.store
        if store is not None and store.run:
            self.keep(table)
        self._changed(table)
        return table

    def keep(self, table: Table, uid: str | None = None) -> TableJournal:
        """Have the host's store keep `table`'s games from now on."""
        store = self.host.store
        assert store is not None
        journal = keep(table, store, uid)
        if store.private:
            journal.on_game_started = self._give_up_others
        return journal

    def begin_store(self) -> None:
        """Start the host's store: every table writes its games to it from now on, and the
        games left unfinished come back if the host is to resume them (a private host always)."""
        store, wanted = self.host.store, self.host.config.store
        assert store is not None and wanted is not None
        store.begin(self.host.config.port or None)
        for table in list(self.tables.values()):
            if not isinstance(table.recorder, TableJournal):
                self.keep(table)
        if wanted.resume or wanted.private:
            from net.resume import restore

            restore(self.host, store, wanted.game)

    def _give_up_others(self, table: Table) -> None:
        """A private host's new game: the game left unfinished that it brought back is given up."""
        for other in list(self.tables.values()):
            if other is not table and other.phase is Phase.PLAYING:
                other.close()
                self._changed(other)

    def _changed(self, table: Table) -> None:
        members = set(table.members)
        for token, m in list(self.tokens.items()):
            # A token goes with its seat: when the person leaves, the table closes, or a
            # rematch gives the seat of someone who left to a bot (whose token is None).
            if m.table is table and (table.closed or m not in members or m.token != token):
                del self.tokens[token]
        for m in members:
            if m.token is not None:
                self.tokens[m.token] = m
        if table.closed:
            self.tables.pop(table.id, None)
            self.created.pop(table.id, None)
        if not self._soon:
            self._soon = True
            try:
                asyncio.get_running_loop().call_soon(self._send)
            except RuntimeError:
                self._soon = False  # no loop yet (the host's own table, at construction)

    def frame(self, address: str) -> dict[str, Any]:
        """The `lobby` frame for a connection from `address` (`can_create` is per address)."""
        return {
            "t": "lobby",
            "host": self.host.name,
            "tables": [t.info() for t in self.tables.values()],
            "can_create": self._create_refusal(address) is None,
            "levels": list(dict.fromkeys(lv for g in GAMES.values() for lv in g.bot_levels)),
        }

    def _create_refusal(self, address: str) -> str | None:
        """Why a `create` from `address` would be refused now (None: it would not)."""
        if len(self.tables) >= self.host.config.tables:
            return f"this host allows {self.host.config.tables} table(s) at once"
        mine = sum(1 for a in self.created.values() if a == address)
        if mine >= self.host.limits.tables_per_address:
            return f"{mine} tables opened from your address are still open"
        return None

    def _send(self) -> None:
        self._soon = False
        frames: dict[str, dict[str, Any]] = {}
        for s in self.host.sessions.values():
            if s.conn.greeted and s.member is None and s.watching is None:
                if s.address not in frames:
                    frames[s.address] = self.frame(s.address)
                s.conn.send(frames[s.address])

    def _resync(self, s: HostSession) -> None:
        """After a stale choice: the seat's view and decisions now (its log is up to date)."""
        m = s.member
        if m is not None and m.table.phase is not Phase.WAITING:
            m.table.snapshot(m.stream, s.conn, m.seat, m.stream.seq)

    def _not_seated_elsewhere(self, s: HostSession, what: str) -> None:
        """`join`, `watch` and `create` are asked from the lobby (a spectator may too: watching
        holds nothing); a seated person leaves first rather than be moved by a stray request."""
        if s.member is not None:
            t = s.member.table
            raise NetError(ErrorCode.NOT_ALLOWED, f"you sit at {t.name}: leave it before you {what}")

    def _leave_current(self, s: HostSession) -> None:
        if s.member is not None:
            s.member.table.leave(s.member)
            s.member = None
        if s.watching is not None and s.watching_table is not None:
            s.watching_table.unwatch(s.watching)
        s.watching = s.watching_table = None

    def watch(self, s: HostSession, table: Table) -> None:
        s.watching = table.watch(s.conn)
        s.watching_table = table

    def _table(self, tid: int) -> Table:
        table = self.tables.get(tid)
        if table is None:
            raise NetError(ErrorCode.NO_SUCH_TABLE, f"there is no table {tid}")
        return table

    def _seated(self, s: HostSession) -> Member:
        if s.member is None:
            raise NetError(ErrorCode.NOT_SEATED, "you are not seated at a table")
        return s.member

    # Requests: each returns normally (ok) or raises NetError (refused, with the reason); one
    # that returns True sends its own `result` later.

    def _do_join(self, s: HostSession, msg: Join) -> None:
        table = self._table(msg.table)
        if s.member is not None and s.member.table is table:
            raise NetError(ErrorCode.NOT_ALLOWED, "you are already seated here")
        self._not_seated_elsewhere(s, "sit at another table")
        seat = table.seat_for(msg.seat)  # refused before the person leaves where they are
        self._leave_current(s)
        s.member = table.sit(s.conn, s.name, seat)

    def _do_watch(self, s: HostSession, msg: Watch) -> None:
        table = self._table(msg.table)
        self._not_seated_elsewhere(s, "watch a table")
        self._leave_current(s)
        self.watch(s, table)

    def _do_create(self, s: HostSession, msg: Create) -> None:
        self._not_seated_elsewhere(s, "open a table")
        refusal = self._create_refusal(s.address)
        if refusal is not None:
            raise NetError(ErrorCode.NOT_ALLOWED, refusal)
        config = self._created_config(s, msg)
        self._leave_current(s)
        table = self.open_table(config)
        self.created[table.id] = s.address
        s.member = table.sit(s.conn, s.name)

    def _created_config(self, s: HostSession, msg: Create) -> TableConfig:
        """The settings of a table `s` opens: the host's, with what `create` asks for. Raises
        NetError(BAD_FIELD) on a value the host does not offer."""
        base = self.host.config.table
        seats = base.seats if msg.seats is None else msg.seats
        bots = base.bots if msg.bots is None else msg.bots
        level = msg.level or base.bot_level
        edition = msg.edition or base.edition
        g = GAMES[msg.game_id or base.game]  # create.game_id is a known id (net.messages)
        if not bots < seats:
            raise NetError(ErrorCode.BAD_FIELD, f"`create.bots` must leave a seat for you (0 to {seats - 1})")
        levels = tuple(lv.strip() for lv in level.split(",") if lv.strip()) or (base.bot_level,)
        unknown = [lv for lv in levels if lv not in g.bot_levels]
        if unknown:
            raise NetError(
                ErrorCode.BAD_FIELD,
                f"`create.level` must be one of {', '.join(g.bot_levels)}, or one per bot seat separated by commas"
                f" (not {unknown[0]!r})",
            )
        if not g.min_players <= seats <= g.max_players:
            raise NetError(ErrorCode.BAD_FIELD, f"`create.seats`: {g.title} is for {g.min_players} to {g.max_players}")
        editions = next((st.choices for st in g.settings if st.name == "edition"), None)
        if editions is not None and edition not in editions:
            raise NetError(ErrorCode.BAD_FIELD, f"`create.edition` must be one of {', '.join(map(str, editions))}")
        return TableConfig(
            seats=seats,
            bots=bots,
            bot_level=levels[0],
            bot_levels=levels if len(levels) > 1 else (),
            edition=edition,
            game=g.id,
            settings=base.settings if g.id == base.game else (),
            seed=None if base.seed is None else base.seed + self._next_table,
            reaction_window=base.reaction_window,
            reaction_limit=base.reaction_limit,
            turn_limit=base.turn_limit,
            away_grace=base.away_grace,
            bot_delay=base.bot_delay if msg.bot_delay is None else msg.bot_delay,
            name=f"{s.name}'s table",
        )

    def _do_leave(self, s: HostSession, msg: Leave) -> None:
        if s.member is None and s.watching is None:
            raise NetError(ErrorCode.NOT_SEATED, "you are in the lobby already")
        self._leave_current(s)
        s.conn.send(self.frame(s.address))

    def _do_start(self, s: HostSession, msg: Start) -> None:
        member = self._seated(s)
        member.table.start(member)

    def _do_rematch(self, s: HostSession, msg: Rematch) -> None:
        member = self._seated(s)
        member.table.rematch(member)

    def _do_choose(self, s: HostSession, msg: Choose) -> bool:
        member = self._seated(s)
        member.table.choose(member, msg.id, msg.option, msg.aid)
        return True  # the table answers once the update carrying the choice's events went out

    def _do_sync(self, s: HostSession, msg: Sync) -> None:
        if s.member is not None:
            table, stream, seat = s.member.table, s.member.stream, s.member.seat
        elif s.watching is not None and s.watching_table is not None:
            table, stream, seat = s.watching_table, s.watching.stream, None
        else:
            raise NetError(ErrorCode.NOT_SEATED, "a snapshot is of a table's game: sit at or watch one")
        if table.phase is Phase.WAITING:
            raise NetError(ErrorCode.WRONG_PHASE, "no game yet")
        table.snapshot(stream, s.conn, seat, msg.seq)

    def _do_here(self, s: HostSession, msg: Here) -> None:
        member = self._seated(s)
        member.table.here(member)

    def _do_say(self, s: HostSession, msg: Say) -> None:
        if s.member is not None:
            s.member.table.say(s.name, s.member.seat, msg.text)
        elif s.watching_table is not None:
            s.watching_table.say(s.name, None, msg.text)
        else:
            raise NetError(ErrorCode.NOT_SEATED, "the lobby has no chat: sit at or watch a table")


_REQUESTS: Final[Mapping[type, Callable[[Lobby, HostSession, Any], bool | None]]] = {
    Join: Lobby._do_join,
    Watch: Lobby._do_watch,
    Create: Lobby._do_create,
    Leave: Lobby._do_leave,
    Start: Lobby._do_start,
    Rematch: Lobby._do_rematch,
    Choose: Lobby._do_choose,
    Sync: Lobby._do_sync,
    Here: Lobby._do_here,
    Say: Lobby._do_say,
}
"""Each request's handler: it returns (the result is ok; True: it sends the result itself, later)
or raises NetError (the refusal)."""
