"""One framed connection over asyncio streams: a reader, a writer and a keepalive in one TaskGroup.

Used by the host for each client and by the client for its host. Sending never blocks the
caller: each frame goes to the transport whole, in one write (which sends at once when the
socket has room, and buffers otherwise); a watcher task waits for the buffer to drain, and a
peer that stops reading is dropped after `send_timeout` or `max_queued` buffered bytes, never
stalling the others.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable, Collection, Mapping

from net.errors import ErrorCode
from net.frames import BadFrame, FrameDecoder, FrameTooBig, Message, encode
from net.limits import Limits

log = logging.getLogger(__name__)

_READ_CHUNK = 65536


class Closed(Exception):
    """Raised inside a connection's tasks to end it; never escapes `Connection.run`."""


Handler = Callable[["Connection", Message], None]


class Connection:
    """A peer speaking the protocol. `handler` is called on the event loop for every valid
    frame other than ping/pong, which the connection answers and measures itself."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        limits: Limits,
        handler: Handler,
        *,
        types: Collection[str],
        rate_limited: bool = True,
        handshake_timeout: float | None = None,
        name: str = "",
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.limits = limits
        self.handler = handler
        self.decoder = FrameDecoder(limits.max_frame, types)
        self.rate_limited = rate_limited
        self.name = name
        peer = writer.get_extra_info("peername")
        self.peer: str = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else str(peer)
        self.greeted = handshake_timeout is None
        """Set by the owner once the handshake is done; until then `handshake_timeout` applies."""
        self.errors = 0
        self.latency: float | None = None
        """Seconds of the last ping's round trip, None before the first pong."""
        self.closing = False
        self.close_code: ErrorCode | None = None
        self.on_close: Callable[[Connection], None] | None = None
        self.on_latency: Callable[[float], None] | None = None
        self._handshake_deadline = time.monotonic() + (handshake_timeout or 0.0)
        self._wake = asyncio.Event()
        self._last_heard = time.monotonic()
        self._partial_since: float | None = None
        self._tokens = float(limits.frame_burst)
        self._refill = time.monotonic()
        self._pings: dict[int, float] = {}
        self._ping_n = 0
        self._aborted = False

    # ---- sending ----------------------------------------------------------------------------

    def send(self, message: Mapping[str, Any]) -> bool:
        """Send one frame; False if it was not sent (closing, or too big to send).

        Never blocks. A peer whose unread backlog passes `max_queued` bytes is dropped.
        """
        if self.closing:
            return False
        try:
            data = encode(message, self.limits.max_frame)
        except FrameTooBig as exc:
            log.error("not sending a %r frame to %s: %s", message.get("t"), self.peer, exc)
            return False
        return self.send_raw(data)

    def send_raw(self, data: bytes) -> bool:
        """Write bytes as they are, in one write (tests also use it to send malformed frames)."""
        if self.closing:
            return False
        transport = self.writer.transport
        if transport.is_closing():
            return False
        self.writer.write(data)
        backlog = transport.get_write_buffer_size()
        if backlog > self.limits.max_queued:
            log.warning("%s is not reading (%d bytes buffered): dropping it", self.peer, backlog)
            self.abort(ErrorCode.SLOW_READER)
            return False
        if backlog:
            self._wake.set()  # the socket is full: watch that it drains in time
        return True

    def close(self, code: ErrorCode | None = None, text: str = "") -> None:
        """Say `bye` (when a code is given), send what is queued, then close. Safe to call twice."""
        if self.closing:
            return
        if code is not None:
            self.send({"t": "bye", "code": code.value, "text": text})
            self.close_code = code
        self.closing = True
        self._wake.set()

    def abort(self, code: ErrorCode) -> None:
        """Drop the connection at once, discarding anything unsent."""
        self.close_code = self.close_code or code
        self.closing = True
        self._aborted = True
        self.writer.transport.abort()
        self._wake.set()

    # ---- errors -----------------------------------------------------------------------------

    def protocol_error(self, code: ErrorCode, text: str) -> None:
        """Tell the peer its frame was dropped; too many of these and it is disconnected."""
        self.errors += 1
        self.send({"t": "error", "code": code.value, "text": text})
        if self.errors >= self.limits.max_errors:
            self.close(ErrorCode.TOO_MANY_ERRORS, f"{self.errors} protocol errors")

    # ---- running ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until it closes. Cancelling it is safe: the socket is closed."""
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._read(), name=f"read {self.peer}")
                tg.create_task(self._write(), name=f"write {self.peer}")
                tg.create_task(self._keepalive(), name=f"ping {self.peer}")
        except* Closed:
            pass
        except* (ConnectionError, OSError) as group:
            log.debug("%s: connection error %s", self.peer, group.exceptions[0])
        finally:
            self.closing = True
            await self._shut()
            if self.on_close is not None:
                self.on_close(self)

    async def _shut(self) -> None:
        if self._aborted:
            return
        self.writer.close()
        try:
            async with asyncio.timeout(1.0):
                await self.writer.wait_closed()
        except (TimeoutError, ConnectionError, OSError):
            self.writer.transport.abort()

    def _deadline(self) -> float:
        lim = self.limits
        deadline = self._last_heard + lim.idle_timeout
        if not self.greeted:
            deadline = min(deadline, self._handshake_deadline)
        if self._partial_since is not None:
            deadline = min(deadline, self._partial_since + lim.partial_frame_timeout)
        return deadline

    async def _read(self) -> None:
        while not self.closing:
            remaining = self._deadline() - time.monotonic()
            try:
                async with asyncio.timeout(max(remaining, 0.0)):
                    data = await self.reader.read(_READ_CHUNK)
            except TimeoutError:
                what = "handshake" if not self.greeted else "frame" if self._partial_since else "silence"
                log.info("%s: %s timed out", self.peer, what)
                self.close(ErrorCode.TIMEOUT, f"{what} timed out")
                return
            if not data:
                raise Closed
            items = self.decoder.feed(data)
            now = time.monotonic()
            if self.decoder.in_frame:
                if self._partial_since is None or items:
                    self._partial_since = now
            else:
                self._partial_since = None
            for item in items:
                if self.closing:
                    break
                self._dispatch(item, now)
        # Closing: the writer sends what is queued (a `bye`, say), then ends the connection.

    def _dispatch(self, item: Message | BadFrame, now: float) -> None:
        if isinstance(item, BadFrame):
            self.protocol_error(item.code, item.detail)
            return
        if self.rate_limited and not self._take_token(now):
            self.protocol_error(ErrorCode.RATE_LIMITED, "too many frames; slow down")
            return
        self._last_heard = now
        t = item["t"]
        if t == "ping":
            self.send({"t": "pong", "n": item.get("n")})
            return
        if t == "pong":
            n = item.get("n")
            sent = self._pings.pop(n, None) if isinstance(n, int) else None
            if sent is not None:
                self.latency = now - sent
                if self.on_latency is not None:
                    self.on_latency(self.latency)
            return
        try:
            self.handler(self, item)
        except Exception:  # a bug handling one frame must not take the host down
            log.exception("%s: error handling a %r frame", self.peer, t)
            self.send({"t": "error", "code": ErrorCode.INTERNAL.value, "text": "the host failed on that frame"})

    def _take_token(self, now: float) -> bool:
        lim = self.limits
        self._tokens = min(float(lim.frame_burst), self._tokens + (now - self._refill) * lim.frames_per_second)
        self._refill = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    async def _write(self) -> None:
        """Wait for buffered output to drain; drop the peer if it does not in `send_timeout`."""
        writer = self.writer
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._aborted:
                raise Closed
            try:
                async with asyncio.timeout(self.limits.send_timeout):
                    await writer.drain()
            except TimeoutError:
                log.warning("%s: send blocked for %.1fs: dropping it", self.peer, self.limits.send_timeout)
                self.abort(ErrorCode.SLOW_READER)
                raise Closed from None
            if self.closing:
                raise Closed

    async def _keepalive(self) -> None:
        while True:
            await asyncio.sleep(self.limits.ping_interval)
            self.ping()

    def ping(self) -> None:
        """Send a ping now; its pong updates `latency`."""
        self._ping_n += 1
        self._pings[self._ping_n] = time.monotonic()
        if len(self._pings) > 8:
            self._pings.pop(min(self._pings))
        self.send({"t": "ping", "n": self._ping_n})
