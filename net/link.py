"""A client's line to its host, kept up: open a connection and shake hands, serve it, and after
a drop open new ones with the seat token until one works or `RECONNECT_GIVE_UP` seconds pass.

`net.client.Client` owns one `Link`; the link tells the client what happens through its status
and hands it every frame. Nothing here knows what the frames mean, `welcome` and `bye` aside."""

from __future__ import annotations

import asyncio
import logging
import time
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from net import messages as wire
from net.connection import Connection
from net.errors import ErrorCode
from net.limits import RECONNECT_DELAYS, RECONNECT_GIVE_UP
from net.messages import HOST_FRAMES, hello

if TYPE_CHECKING:
    from net.client import Client

log = logging.getLogger("net.client")

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to open the connection and get `welcome`."""
FINAL: Final = frozenset(
    {
        ErrorCode.VERSION_MISMATCH,
        ErrorCode.RULES_MISMATCH,
        ErrorCode.BAD_PASSWORD,
        ErrorCode.BAD_TOKEN,
        ErrorCode.REPLACED,
        ErrorCode.TABLE_FULL,
        ErrorCode.NO_SUCH_TABLE,
        ErrorCode.WRONG_PHASE,
        ErrorCode.TOO_MANY_ERRORS,
    }
)
"""Reasons a host gives for closing after which reconnecting cannot help."""
_FINAL_CODES: Final = frozenset(c.value for c in FINAL)


class Status(StrEnum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


class Refused(Exception):
    """The host turned the connection away (`bye` during the handshake)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text


class Link:
    """The connection of one client, and the ones that replace it after drops."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.conn: Connection | None = None
        """The connection now (None before the first): requests go there."""
        self.runner: asyncio.Task[None] | None = None
        self.welcome: asyncio.Future[wire.Welcome] | None = None
        self.bye: tuple[str, str] | None = None
        """The code and text of the host's last `bye` on this connection."""
        self.closing = False

    def welcomed(self, msg: wire.Welcome) -> bool:
        """The handshake's `welcome`: True if it was awaited (the client is connected now)."""
        if self.welcome is None or self.welcome.done():
            return False
        self.welcome.set_result(msg)
        return True

    async def connect(self) -> None:
        """See `Client.connect`."""
        self.closing = False
        self.client._set_status(Status.CONNECTING)
        try:
            conn, task = await self._open()
        except BaseException:
            self.client._set_status(Status.CLOSED)
            raise
        self.runner = asyncio.create_task(self._run(conn, task), name="pigeon client")

    async def close(self) -> None:
        """See `Client.close`."""
        self.closing = True
        conn, runner = self.conn, self.runner
        if conn is not None:
            conn.close()
        if runner is not None and runner is not asyncio.current_task():
            try:
                async with asyncio.timeout(2.0):
                    await asyncio.shield(runner)
            except TimeoutError:
                runner.cancel()
        self.runner = None
        self.client._ended(Status.CLOSED)

    async def _open(self) -> tuple[Connection, asyncio.Task[None]]:
        c = self.client
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(CONNECT_TIMEOUT):
            reader, writer = await asyncio.open_connection(c.host, c.port, limit=c.limits.max_frame)
        conn = Connection(reader, writer, c.limits, c._on_frame, incoming=HOST_FRAMES, rate_limited=False)
        conn.on_error = c._on_protocol_error
        self.conn = conn
        self.bye = None
        self.welcome = loop.create_future()
        task = asyncio.create_task(conn.run(), name="pigeon connection")
        conn.send(
            hello(
                c.name,
                token=c.token,
                password=c.password,
                last_seq=c.seq if c.token and c.seq else None,  # with a seat: what it has
                table=c.table_id if not c.token else None,
                watch=c._watch and not c.token,
            )
        )
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                waiting: set[asyncio.Future[Any]] = {self.welcome, task}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            task.cancel()
            raise
        if self.welcome.done() and not self.welcome.cancelled():
            conn.ping()
            return conn, task
        task.cancel()
        code, text = self.bye or (ErrorCode.DISCONNECTED.value, "the host closed the connection")
        raise Refused(code, text)

    async def _run(self, conn: Connection, task: asyncio.Task[None]) -> None:
        """Serve the connection; after a drop, reconnect with the token until it works or
        RECONNECT_GIVE_UP seconds pass."""
        c = self.client
        while True:
            try:
                await task
            except asyncio.CancelledError:
                task.cancel()
                raise
            c._fail_requests()
            bye = self.bye
            final = bye is not None and bye[0] in _FINAL_CODES
            if self.closing or not c.reconnect or final or c.token is None:
                text = bye[1] if bye else "" if self.closing else "connection lost"
                c._ended(Status.CLOSED, text, bye[0] if bye else None)
                return
            c._set_status(Status.RECONNECTING, bye[1] if bye else "connection lost", bye[0] if bye else None)
            reopened = await self._reconnect()
            if reopened is None:
                code, text = self.bye or (ErrorCode.DISCONNECTED.value, "could not reconnect")
                c._ended(Status.CLOSED, text, code)
                return
            _conn, task = reopened

    async def _reconnect(self) -> tuple[Connection, asyncio.Task[None]] | None:
        give_up = time.monotonic() + RECONNECT_GIVE_UP
        attempt = 0
        while not self.closing and time.monotonic() < give_up:
            await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
            attempt += 1
            try:
                return await self._open()
            except Refused as exc:
                if exc.code in _FINAL_CODES:
                    self.bye = (exc.code, exc.text)
                    return None
            except (OSError, TimeoutError) as exc:
                log.debug("reconnect attempt %d failed: %s", attempt, exc)
        return None
