"""Bringing back the games a host left unfinished (crashed, killed, stopped mid-game): each is
replayed from its record, so the table stands exactly where the database says it was (the same
state, the same decision numbers for each seat), and its people come back with their seat
tokens as after a network drop.

`unfinished` lists them (the app reads it to offer "Resume your game"); `restore` puts them
back at a host that is starting.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.decisions import IllegalChoice
from core.games import GameRecord, record_from_dict, record_game
from net.places import process_running
from net.store import GameStatus, Store, live_runs
from net.table import Kind, Member, Phase, Table, TableConfig

if TYPE_CHECKING:
    from net.host import Host

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Unfinished:
    """A game left unfinished, as the database holds it."""

    id: int
    """Its number in the database."""
    uid: str
    table: str
    """Its table's key."""
    game_id: str
    """The game played (`core.games` id)."""
    seats: tuple[dict[str, Any], ...]
    """Name, kind, level and token of each seat."""
    turns: int
    started: float
    over: bool = False
    """Over, with its results perhaps never told: the host crashed as they were to go out, and
    its people were still at the table."""

    @property
    def tokens(self) -> tuple[str, ...]:
        """The seat tokens of the people in it."""
        return tuple(s["token"] for s in self.seats if s.get("kind") == Kind.HUMAN and s.get("token"))


def _alive(run: int, pid: int, ended: float | None) -> bool:
    """Whether the host run that owns a game is still up (then it is not ours to take)."""
    if ended is not None:
        return False
    if pid == os.getpid():
        return run in live_runs
    return process_running(pid)


def unfinished(
    db: sqlite3.Connection,
    *,
    private: bool,
    game: int | None = None,
    ours: Collection[int] = (),
    told: bool = True,
) -> list[Unfinished]:
    """The games of private (or of other) hosts whose host is gone and which are not over,
    newest first; `game`: that game only. A game held by a host process in `ours` counts as
    left too: the app's own private host brings the game back as it starts, for the person
    to take it up. With `told` False, also the last game of each table whose host crashed
    while its people were still there after the game ended (its results may never have
    reached them)."""
    rows = db.execute(
        "SELECT g.id, g.uid, g.tab, g.header, g.seats, g.started, r.id, r.pid, r.ended, g.status FROM games g "
        "JOIN tables t ON g.tab = t.uid JOIN runs r ON t.run = r.id "
        "WHERE t.private = ? AND (g.status = ? OR (? AND g.status = ? AND t.closed = 0 AND r.ended IS NULL "
        "AND g.id = (SELECT max(id) FROM games WHERE tab = g.tab))) ORDER BY g.id DESC",
        (int(private), GameStatus.PLAYING, int(not told), GameStatus.OVER),
    ).fetchall()
    out = []
    for gid, uid, tab, header, seats, started, run, pid, ended, status in rows:
        if (game is not None and gid != game) or (pid not in ours and _alive(run, pid, ended)):
            continue
        try:
            h = json.loads(header)
            (n,) = db.execute("SELECT count(*) FROM choices WHERE game=?", (uid,)).fetchone()
            out.append(
                Unfinished(
                    gid, uid, tab, record_game(h).id, tuple(json.loads(seats)), n, started, status == GameStatus.OVER
                )
            )
        except (ValueError, TypeError):
            continue
    return out


def restore(host: Host, store: Store, game: int | None = None) -> list[Table]:
    """Put back every unfinished game of `store` (of private hosts if it is a private host's,
    else of other hosts), or only `game`, at `host`; returns their tables. A game that no longer
    replays (another engine's) is logged and marked abandoned."""
    out = []
    for u in unfinished(store.db, private=store.private, game=game, told=store.private):
        try:
            table = _restore(host, store, u)
        except (IllegalChoice, ValueError, KeyError, TypeError, IndexError) as exc:
            log.error("game %d of the database cannot be resumed (%s); it is given up", u.id, exc)
            store.put("UPDATE games SET status=? WHERE uid=?", (GameStatus.ABANDONED, u.uid))
            continue
        log.info("resumed game %d at table %d (%d choices so far)", u.id, table.id, u.turns)
        out.append(table)
        if store.private:
            break  # a private host plays one game: the newest
    return out


def _restore(host: Host, store: Store, u: Unfinished) -> Table:
    db = store.db
    (config_text, seed_base, persistent, name) = db.execute(
        "SELECT config, seed_base, persistent, name FROM tables WHERE uid=?", (u.table,)
    ).fetchone()
    game_no, header, streams_text, left_text = db.execute(
        "SELECT game_no, header, streams, left_seats FROM games WHERE uid=?", (u.uid,)
    ).fetchone()
    choices = db.execute("SELECT seat, decision, option FROM choices WHERE game=? ORDER BY n", (u.uid,)).fetchall()
    record = record_from_dict({**json.loads(header), "choices": [[s, d, json.loads(o)] for s, d, o in choices]})
    config = _config(json.loads(config_text))
    table = _table_for(host, config, bool(persistent) and not store.private)
    state, events, window = _replay(table, record)
    table.name = name
    journal = host.lobby.keep(table, u.table)
    journal.game = u.uid
    lines = db.execute("SELECT n, name, seat, text FROM chat WHERE tab=? ORDER BY n", (u.table,)).fetchall()
    journal.chat = max((n for n, *_ in lines), default=0)
    for _, who, seat, text in lines:
        table.talk.chat.append({"t": "chat", "table": table.id, "name": who, "seat": seat, "text": text})
    table.seed_base, table.game_no = int(seed_base), int(game_no)
    table.state, table.record = state, record
    streams = json.loads(streams_text or "{}")
    _seat(table, u.seats, set(json.loads(left_text)), streams, store.private)
    reacts = [x for x in state.open if x.kind in table.game.reactions]
    shown = streams.get("window")
    board = state
    told = len(events)
    if not state.over and reacts and isinstance(shown, dict) and shown.get("kind") and window is not None:
        told, board = window  # the open window is shown as it stood; what followed it waits for it
        table.delivery.pending = events[told:]
        table.delivery.made, table.delivery.sent = len(events), told
    for stream, seat in [(m.stream, m.seat) for m in table.humans] + [(table.public, None)]:
        stream.earlier = [table.game.redact(e, seat).to_dict() for e in events[:told]]
    table.phase = Phase.OVER if state.over else Phase.PLAYING
    if state.over:  # the last choice was written, its results never went out: they go now
        journal.game_over(table)
    else:
        _deliver(table, streams, reacts, board)
        table.autoplay.kick()
    table.changed()
    return table


def _replay(table: Table, record: GameRecord[Any]) -> tuple[Any, list[Any], tuple[int, Any] | None]:
    """The state `record` replays to, the events of its choices (the game's log so far), and
    the last reaction window's place: the events up to it, and the board as of it (the table
    shows a window with the board as it stood then)."""
    state = record.start()
    events: list[Any] = []
    window: tuple[int, Any] | None = None
    boards: list[Any] = []
    for seat, decision, option in record.choices:
        boards.clear()
        made = table.game.apply_watching(state, seat, decision, option, lambda s: boards.append(s.clone()))
        at = [i for i, e in enumerate(made) if table.game.window_of(e) is not None]
        if at and boards:
            window = (len(events) + at[-1] + 1, boards[-1])
        events += made
    return state, events, window


def _config(d: dict[str, Any]) -> TableConfig:
    d["bot_levels"] = tuple(d.get("bot_levels") or ())
    d["settings"] = tuple(tuple(pair) for pair in d.get("settings") or ())
    return TableConfig(**d)


def _table_for(host: Host, config: TableConfig, persistent: bool) -> Table:
    """The host's own table if the game was played at its host's own table and this host's is
    free (not already given a resumed game), else a new one."""
    lobby = host.lobby
    own = lobby.tables.get(1)
    if persistent and own is not None and own.persistent and own.phase is Phase.WAITING and not own.humans:
        own.close()
        table = Table(1, config, host.bots, own.on_change, True, clock=host.clock)
        lobby.tables[1] = table
        return table
    return lobby.open_table(config)


def _seat(
    table: Table, seats: tuple[dict[str, Any], ...], left: set[int], streams: dict[str, Any], private: bool
) -> None:
    """The game's seats as they were, people away as after a network drop."""
    members = []
    open_ids = {d.id: d for d in table.state.open}
    for i, s in enumerate(seats):
        m = Member(Kind(s["kind"]), s["name"], table, level=s.get("level"), token=s.get("token"), seat=i, joined=i + 1)
        if i in left:
            m.left = m.away = True
        st = streams.get("seats", {}).get(str(i))
        if m.human and st is not None:
            m.stream.seq = m.stream.game_start = int(st["seq"])
            m.stream.next_wire = int(st["next"])
            m.stream.decisions = [(int(w), open_ids[did]) for w, did in st["wires"] if did in open_ids]
            m.stream.window = st.get("window")
        members.append(m)
    table.seating.seats = list(members)
    table.public.seq = table.public.game_start = int(streams.get("public", 0))
    table.public.window = streams.get("window")
    for m in table.humans:
        if not m.left and not private:  # a private game waits for its person as long as it takes
            m.grace = table.clock.call_later(table.config.away_grace, table.seating.grace_over, m)


def _deliver(table: Table, streams: dict[str, Any], reacts: list[Any], board: Any) -> None:
    """Give each seat its open decisions (numbered on from where its stream stood), as the
    update it would have been sent: a window's reactions (on the board as of the window), or
    the turn's decisions."""
    state = table.state
    d = table.delivery
    window = streams.get("window")
    if reacts and isinstance(window, dict) and window.get("kind"):
        d.deliver([], {"kind": window["kind"]}, False, reacts, board)
        table.timers.window_opened(reacts)
    else:
        d.deliver([], None, True, (), state)
        table.timers.start_turns()
