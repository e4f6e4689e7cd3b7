"""The asyncio client: connects, says hello, keeps the seat's view and decisions up to date,
and reconnects with its seat token after a drop. A UI reads its updates and calls its requests.

    client = Client("127.0.0.1", 7777, "Ada")
    await client.connect()                  # raises Refused (wrong password, full table, ...)
    await client.join(1)                    # or create(), watch(table)
    async for update in client.updates():   # GameChanged, TableChanged, ChatReceived, ...
        ...
        await client.choose(decision.id, option.value)

Everything runs on the caller's event loop (a Textual app runs it in an async worker).
docs/protocol.md, "The client", describes the API.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, Final

from core.decisions import Decision, OptionValue, plain
from core.games import DEFAULT, game, game_of_view
from core.structs import Struct
from net import messages as wire
from net.connection import Connection
from net.errors import ErrorCode
from net.limits import CHAT_MAX, CLEAN_SCAN, Limits
from net.link import Link, Refused, Status
from net.messages import LobbyInfo, SeatInfo, Settings, TableInfo

__all__ = [
    "ChatLine",
    "ChatReceived",
    "Client",
    "ClientUpdate",
    "ErrorReported",
    "GameChanged",
    "GameOver",
    "GameResult",
    "LobbyChanged",
    "LobbyInfo",
    "Outcome",
    "Refused",
    "SeatInfo",
    "Seated",
    "Settings",
    "Status",
    "StatusChanged",
    "TableChanged",
    "TableInfo",
]

log = logging.getLogger(__name__)

REQUEST_TIMEOUT: Final = 15.0
"""Seconds the client waits for a request's `result` before it reports a timeout."""
LOG_LENGTH: Final = 500
"""Events and chat lines the client keeps for a UI that starts reading late."""


# ---- what the client knows, as plain frozen data ------------------------------------------
# SeatInfo, TableInfo (with Settings) and LobbyInfo are the frame types of net/messages.py.
# Structs (core.structs: NamedTuples cheap to define), as those are: this module is imported on
# every client's start, where a frozen dataclass costs ~4 M instructions to define, a typing
# NamedTuple ~0.6 M and a Struct a tenth of that (issue 9).


class ChatLine(Struct):
    name: str
    seat: int | None
    text: str
    """Already stripped of control characters by the host."""


class GameResult(Struct):
    game: int
    winners: tuple[int, ...]
    scores: tuple[Mapping[str, Any], ...]
    names: tuple[str, ...]
    record: Mapping[str, Any]
    """A `core.record.Record` dict: replaying it rebuilds the game."""


class Outcome(Struct):
    """The host's answer to a request."""

    ok: bool
    code: str | None = None
    text: str = ""


def _with_decisions(view: Any, decisions: tuple[Decision, ...]) -> Any:
    """The view with the frame's decisions (views are frozen dataclasses or NamedTuples)."""
    if dataclasses.is_dataclass(view) and not isinstance(view, type):
        return dataclasses.replace(view, decisions=decisions)
    return view._replace(decisions=decisions)


# ---- updates a UI consumes ----------------------------------------------------------------


class StatusChanged(Struct):
    status: Status
    text: str = ""
    code: str | None = None
    """Why the connection closed or dropped, when the host said (`bye`)."""


class LobbyChanged(Struct):
    lobby: LobbyInfo


class TableChanged(Struct):
    table: TableInfo


class Seated(Struct):
    table: int
    seat: int


class GameChanged(Struct):
    """The game moved on for this seat: the one shape of a game update from the wire to the
    screen (a UI's session and the screen's message carry it as it is)."""

    view: Any
    """The seat's view (its game's `PlayerView`); its `decisions` are always the current ones.
    None before any game."""
    events: tuple[Any, ...]
    """What happened since the previous update, redacted for this seat (after a snapshot: the
    events the client missed, as far as the host remembers them)."""
    decisions: tuple[Decision, ...]
    """This seat's open decisions (the same as `view.decisions`)."""
    window: str | None
    """A reaction window is open (its kind), or None. It never says who may react."""
    deadline: float | None
    """`time.monotonic()` by which this seat must decide, if the host limits it (the one time
    base of deadlines, from the client to the prompt's countdown)."""
    snapshot: bool = False
    """A full snapshot (after a reconnection, a gap or a stale choice)."""


class GameOver(Struct):
    result: GameResult


class ChatReceived(Struct):
    line: ChatLine


class ErrorReported(Struct):
    """The host dropped one of our frames (a protocol error), or sent one we could not read."""

    code: str
    text: str


ClientUpdate = (
    StatusChanged | LobbyChanged | TableChanged | Seated | GameChanged | GameOver | ChatReceived | ErrorReported
)
"""What `Client.updates()` yields (not `net.messages.Update`, the frame a game update comes in)."""


# ---- the client ---------------------------------------------------------------------------


class Client:
    """A connection to a host, kept alive across drops. See the module docstring.

    Attributes a UI may read at any time: `status`, `latency`, `name`, `token`, `table_id`,
    `seat`, `lobby`, `table`, `view`, `decisions`, `window`, `deadline`, `result`, `log`
    (recent events) and `chat` (recent lines).
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        password: str | None = None,
        token: str | None = None,
        table: int | None = None,
        watch: bool = False,
        reconnect: bool = True,
        limits: Limits | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.password = password
        self.token = token
        """The seat token: keep it to come back to the same seat (even from another process)."""
        self.reconnect = reconnect
        self.limits = limits or Limits()
        self.status = Status.CLOSED
        self.table_id: int | None = table
        self.seat: int | None = None
        self.lobby: LobbyInfo | None = None
        self.table: TableInfo | None = None
        self.view: Any = None
        """The seat's view (its game's `PlayerView`), None before any game."""
        self.decisions: tuple[Decision, ...] = ()
        self.window: str | None = None
        self.deadline: float | None = None
        """`time.monotonic()` by which this seat must decide (see `GameChanged.deadline`)."""
        self.result: GameResult | None = None
        self.log: deque[Any] = deque(maxlen=LOG_LENGTH)
        self.chat: deque[ChatLine] = deque(maxlen=LOG_LENGTH)
        self.seq = 0
        """Sequence number of the last game update applied."""
        self.gaps = 0
        """Updates that arrived out of order (each one asked the host for a snapshot)."""
        self._watch = watch
        self._link = Link(self)
        self._updates: asyncio.Queue[ClientUpdate | None] = asyncio.Queue()
        self._requests: dict[int, asyncio.Future[Outcome]] = {}
        self._aid = 0

    @property
    def pending_updates(self) -> int:
        """Updates received and not yet read from `updates()`."""
        return self._updates.qsize()

    @property
    def _conn(self) -> Connection | None:
        return self._link.conn

    @property
    def latency(self) -> float | None:
        """Seconds of the last ping round trip to the host."""
        return self._conn.latency if self._conn is not None else None

    # ---- lifecycle --------------------------------------------------------------------------

    async def connect(self) -> None:
        """Connect and shake hands. Raises Refused if the host says no, OSError or TimeoutError
        if it cannot be reached. Afterwards the client keeps itself connected until `close`.
        Cancelling it is safe: the half-open connection is closed."""
        await self._link.connect()

    async def close(self) -> None:
        """Leave politely and stop. Safe to call twice and safe to cancel."""
        await self._link.close()

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def updates(self) -> AsyncIterator[ClientUpdate]:
        """Every update, in order, until the client closes for good. One consumer only.
        Cancelling the loop that reads it is safe: no update is lost, the next read gets it."""
        while True:
            item = await self._updates.get()
            if item is None:
                return
            yield item

    def __aiter__(self) -> AsyncIterator[ClientUpdate]:
        return self.updates()

    def _fail_requests(self) -> None:
        for fut in self._requests.values():
            if not fut.done():
                fut.set_result(Outcome(False, ErrorCode.DISCONNECTED.value, "the connection dropped"))
        self._requests.clear()

    def _set_status(self, status: Status, text: str = "", code: str | None = None) -> None:
        if status is self.status and not text:
            return
        self.status = status
        self._updates.put_nowait(StatusChanged(status, text, code))

    def _ended(self, status: Status, text: str = "", code: str | None = None) -> None:
        """The client is done for good: the last status, then the end of `updates()`."""
        self._set_status(status, text, code)
        self._updates.put_nowait(None)

    def _emit(self, update: ClientUpdate) -> None:
        self._updates.put_nowait(update)

    # ---- requests ---------------------------------------------------------------------------

    async def _request(self, message: dict[str, Any]) -> Outcome:
        """Send a request and wait for its `result`. Cancelling the wait is safe, but the host
        may still carry the request out (its updates will say so)."""
        conn = self._conn
        if conn is None or self.status is not Status.CONNECTED:
            return Outcome(False, ErrorCode.DISCONNECTED.value, "not connected")
        self._aid += 1
        aid = self._aid
        fut: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._requests[aid] = fut
        if not conn.send({**message, "aid": aid}):
            self._requests.pop(aid, None)
            return Outcome(False, ErrorCode.DISCONNECTED.value, "not connected")
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                return await fut
        except TimeoutError:
            return Outcome(False, ErrorCode.TIMEOUT.value, "the host did not answer")
        finally:
            self._requests.pop(aid, None)

    async def choose(self, decision_id: int, option: OptionValue) -> Outcome:
        """Answer one of `decisions`. A refusal comes back as an Outcome (and the host sends a
        fresh snapshot when the choice was stale). Cancelling it is safe."""
        return await self._request({"t": "choose", "id": decision_id, "option": plain(option)})

    async def join(self, table: int, seat: int | None = None) -> Outcome:
        """Take a seat (the first free one, or `seat`) at a table that has not started."""
        msg: dict[str, Any] = {"t": "join", "table": table}
        if seat is not None:
            msg["seat"] = seat
        return await self._request(msg)

    async def watch(self, table: int) -> Outcome:
        return await self._request({"t": "watch", "table": table})

    async def create(self, **fields: float | str | None) -> Outcome:
        """Open a new table (if the host allows another) and sit at it. Fields of `create`
        (`seats`, `bots`, `level`, `edition`, `game_id`, `bot_delay`); None or absent: the host's own."""
        msg: dict[str, Any] = {"t": "create", **{k: v for k, v in fields.items() if v is not None}}
        return await self._request(msg)

    async def leave(self) -> Outcome:
        """Back to the lobby; in a game, a bot finishes it for you."""
        out = await self._request({"t": "leave"})
        if out.ok:
            self.token = None
            self.seat = None
        return out

    async def start(self) -> Outcome:
        """Start the game now with whoever is seated (the first player to sit only)."""
        return await self._request({"t": "start"})

    async def rematch(self) -> Outcome:
        """Ask for another game; it starts, seats rotated, once every player asked."""
        return await self._request({"t": "rematch"})

    async def here(self) -> Outcome:
        """Take the seat back from the bot that played it while you were away."""
        return await self._request({"t": "here"})

    async def sync(self) -> Outcome:
        """Ask for a full snapshot."""
        return await self._request({"t": "sync", "seq": self.seq})

    def say(self, text: str) -> None:
        """Send a chat line to the table (the host strips control characters and cuts it to
        CHAT_MAX characters). Its `result` is not waited for."""
        if self._conn is not None:
            self._conn.send({"t": "say", "text": text[: CHAT_MAX * CLEAN_SCAN]})

    # ---- frames from the host ---------------------------------------------------------------

    def _on_frame(self, conn: Connection, frame: Any) -> None:
        if conn is not self._conn:
            return
        handler = _HANDLERS.get(type(frame))
        if handler is not None:
            handler(self, frame)

    def _on_protocol_error(self, code: ErrorCode, text: str) -> None:
        log.warning("unreadable frame from the host: %s", text)
        self._emit(ErrorReported(code.value, f"unreadable frame from the host: {text}"))

    def _on_welcome(self, msg: wire.Welcome) -> None:
        if self._link.welcomed(msg):
            self.name = msg.name or self.name
            self._set_status(Status.CONNECTED)

    def _on_bye(self, msg: wire.Bye) -> None:
        self._link.bye = (msg.code, msg.text)

    def _on_error(self, msg: wire.Error) -> None:
        self._emit(ErrorReported(msg.code, msg.text))

    def _on_result(self, msg: wire.Result) -> None:
        fut = self._requests.get(msg.aid) if msg.aid is not None else None
        if fut is not None and not fut.done():
            fut.set_result(Outcome(msg.ok, msg.code, msg.text or ""))

    def _on_lobby(self, msg: LobbyInfo) -> None:
        self.lobby = msg
        self._emit(LobbyChanged(msg))

    def _on_table(self, msg: TableInfo) -> None:
        self.table = msg
        self.table_id = msg.id
        self._emit(TableChanged(msg))

    def _on_seated(self, msg: wire.Seated) -> None:
        self.table_id = msg.table
        self.seat = msg.seat
        self.token = msg.token
        self._emit(Seated(msg.table, msg.seat))

    def _on_snapshot(self, msg: wire.Snapshot) -> None:
        self.seq = msg.seq
        self._apply_game(msg, snapshot=True)

    def _on_update(self, msg: wire.Update) -> None:
        if msg.seq <= self.seq:
            return  # already have it
        if msg.seq != self.seq + 1:
            self.gaps += 1
            log.info("update %d after %d: asking for a snapshot", msg.seq, self.seq)
            conn = self._conn
            if conn is not None:
                conn.send({"t": "sync", "seq": self.seq})
            return
        self.seq = msg.seq
        self._apply_game(msg, snapshot=False)

    def _apply_game(self, msg: wire.Update | wire.Snapshot, snapshot: bool) -> None:
        decisions = msg.decisions
        view = msg.view if msg.view is not None else self.view
        if view is not None:
            view = _with_decisions(view, decisions)
        events = self._events(view, msg.events)
        self.view = view
        self.decisions = decisions
        self.window = msg.window.kind if msg.window is not None else None
        self.deadline = time.monotonic() + msg.limit if decisions and msg.limit is not None else None
        if not snapshot or events:
            self.log.extend(events)
        if view is not None and not view.over:
            self.result = None
        self._emit(GameChanged(view, events, decisions, self.window, self.deadline, snapshot))

    def _events(self, view: Any, events: tuple[Mapping[str, Any], ...]) -> tuple[Any, ...]:
        """The update's event maps as events of the game played (the view's, else the table's)."""
        if view is not None:
            g = game_of_view(view)
        else:
            g = game(self.table.game_id if self.table is not None else DEFAULT)
        out = []
        for e in events:
            try:
                out.append(g.event_from_dict(e))
            except ValueError:
                log.warning("dropped an event %s cannot read: %.200r", g.title, e)
        return tuple(out)

    def _on_over(self, msg: wire.Over) -> None:
        self.result = GameResult(msg.game, msg.winners, msg.scores, msg.names, msg.record)
        self._emit(GameOver(self.result))

    def _on_chat(self, msg: wire.Chat) -> None:
        line = ChatLine(msg.name, msg.seat, msg.text)
        self.chat.append(line)
        self._emit(ChatReceived(line))


_HANDLERS: Final[Mapping[type, Callable[[Client, Any], None]]] = {
    wire.Welcome: Client._on_welcome,
    wire.Bye: Client._on_bye,
    wire.Error: Client._on_error,
    wire.Result: Client._on_result,
    LobbyInfo: Client._on_lobby,
    TableInfo: Client._on_table,
    wire.Seated: Client._on_seated,
    wire.Snapshot: Client._on_snapshot,
    wire.Update: Client._on_update,
    wire.Over: Client._on_over,
    wire.Chat: Client._on_chat,
}
"""What the client does with each frame type the host sends (pings and pongs are the
connection's own)."""
