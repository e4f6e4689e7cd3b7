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
from collections.abc import Callable, Collection, Mapping
from typing import Any

from net.clock import Clock, LoopClock, sleep, timeout
from net.errors import ErrorCode, cut_text
from net.frames import BadFrame, FrameDecoder, FrameTooBig, Message, encode
from net.limits import Limits
from net.messages import Ping, Pong
from net.schema import ID_MAX, Bad, Schema

log = logging.getLogger(__name__)

_READ_CHUNK = 65536


class Closed(Exception):
    """Raised inside a connection's tasks to end it; never escapes `Connection.run`."""


Handler = Callable[["Connection", Any], None]
"""Called with each valid frame, as its type (net/messages.py), other than ping and pong."""


class Connection:
    """A peer speaking the protocol. Every frame is checked against `incoming` (the frame types
    the peer may send, by `t`); `handler` is called on the event loop with each valid one as its
    type, other than ping/pong, which the connection answers and measures itself.

    A frame that fails (undecodable, unknown, a bad field, over the rate limit) is a protocol
    error: a request (its `t` in `requests`) gets its `result` with the code, any other frame an
    `error`; `max_errors` of them and the peer is disconnected."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        limits: Limits,
        handler: Handler,
        *,
        incoming: Mapping[str, Schema],
        requests: Collection[str] = (),
        rate_limited: bool = True,
        handshake_timeout: float | None = None,
        name: str = "",
        clock: Clock | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.limits = limits
        self.handler = handler
        self.incoming = incoming
        self.requests = requests
        self.decoder = FrameDecoder(limits.max_frame, frozenset(incoming))
        self.rate_limited = rate_limited
        self.exempt: Callable[[Any], bool] | None = None
        """Frames that never count against the rate limit (the host: answers to its decisions);
        pongs answering our own pings never do either."""
        self.name = name
        self.clock: Clock = clock or LoopClock()
        """The clock of the timeouts, the keepalive and the rate limit (tests move a fake one)."""
        peer = writer.get_extra_info("peername")
        self.peer: str = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else str(peer)
        self.greeted = handshake_timeout is None
        """Set by the owner once the handshake is done; until then `handshake_timeout` applies,
        only `hello` is accepted, and no pings are sent."""
        self.wait_until: float | None = None
        """A time on `clock` by which the owner wants something done (the host: join a table),
        else the connection is closed with `timeout` and `wait_reason`."""
        self.wait_reason = ""
        self.errors = 0
        self.latency: float | None = None
        """Seconds of the last ping's round trip, None before the first pong."""
        self.closing = False
        self.close_code: ErrorCode | None = None
        self.on_close: Callable[[Connection], None] | None = None
        self.on_latency: Callable[[float], None] | None = None
        self.on_error: Callable[[ErrorCode, str], None] | None = None
        """Set by the client: protocol errors in the host's frames go here, not back to the host."""
        now = self.clock.now()
        self._handshake_deadline = now + (handshake_timeout or 0.0)
        self._wake = asyncio.Event()
        self._last_heard = now
        self._partial_since: float | None = None
        self._tokens = float(limits.frame_burst)
        self._refill = now
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
            self.send({"t": "bye", "code": code.value, "text": cut_text(text)})
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

    def protocol_error(
        self, code: ErrorCode, text: str, message: Message | None = None, *, counts: bool = True
    ) -> None:
        """A frame of the peer's was dropped. The host tells its client (a request gets its
        `result`, any other frame an `error`); the client reports it to `on_error`, since a host
        is never sent errors. After `max_errors` of them the peer is disconnected."""
        self.errors += counts
        if self.on_error is not None:
            self.on_error(code, text)
        elif message is not None and message.get("t") in self.requests:
            aid = message.get("aid")
            if isinstance(aid, bool) or not isinstance(aid, int) or not 0 <= aid <= ID_MAX:
                aid = None
            self.send({"t": "result", "aid": aid, "ok": False, "code": code.value, "text": cut_text(text)})
        else:
            self.send({"t": "error", "code": code.value, "text": cut_text(text)})
        if self.errors >= self.limits.max_errors:
            if self.on_error is not None:
                self.close()
            else:
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

    def _deadline(self) -> tuple[float, str]:
        """When the connection times out next, and why."""
        lim = self.limits
        deadline, why = self._last_heard + lim.idle_timeout, f"no frame for {lim.idle_timeout:g} s"
        if not self.greeted and self._handshake_deadline < deadline:
            deadline, why = self._handshake_deadline, "no `hello` in time"
        if self._partial_since is not None and self._partial_since + lim.partial_frame_timeout < deadline:
            deadline, why = self._partial_since + lim.partial_frame_timeout, "a frame took too long to arrive"
        if self.wait_until is not None and self.wait_until < deadline:
            deadline, why = self.wait_until, self.wait_reason
        return deadline, why

    async def _read(self) -> None:
        while not self.closing:
            deadline, why = self._deadline()
            remaining = deadline - self.clock.now()
            if remaining <= 0:
                log.info("%s: timed out: %s", self.peer, why)
                self.close(ErrorCode.TIMEOUT, why)
                return
            try:
                async with timeout(self.clock, remaining):
                    data = await self.reader.read(_READ_CHUNK)
            except TimeoutError:
                continue  # the deadline is checked again: it may have moved meanwhile
            if not data:
                raise Closed
            items = self.decoder.feed(data)
            now = self.clock.now()
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
        t = item["t"]
        if not self.greeted and t != "hello":
            self.protocol_error(ErrorCode.UNEXPECTED, "the first frame must be `hello`", item)
            return
        try:
            frame = self.incoming[t].parse(item)
        except Bad as exc:
            self.protocol_error(ErrorCode.BAD_FIELD, str(exc), item)
            return
        if self.rate_limited and not self._free(frame) and not self._take_token(now):
            self.protocol_error(ErrorCode.RATE_LIMITED, "too many frames; slow down", item)
            return
        self._last_heard = now
        if isinstance(frame, Ping):
            self.send({"t": "pong", "n": frame.n})
            return
        if isinstance(frame, Pong):
            sent = self._pings.pop(frame.n, None)
            if sent is not None:
                self.latency = now - sent
                if self.on_latency is not None:
                    self.on_latency(self.latency)
            return
        try:
            self.handler(self, frame)
        except Exception:  # a bug handling one frame must not take the host down
            log.exception("%s: error handling a %r frame", self.peer, t)
            self.protocol_error(ErrorCode.INTERNAL, "the host failed on that frame", item, counts=False)

    def _free(self, frame: Any) -> bool:
        """Frames a peer playing by the rules sends at the other side's pace, not its own."""
        if isinstance(frame, Pong):
            return frame.n in self._pings
        return self.exempt is not None and self.exempt(frame)

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
                async with timeout(self.clock, self.limits.send_timeout):
                    await writer.drain()
            except TimeoutError:
                log.warning("%s: send blocked for %.1fs: dropping it", self.peer, self.limits.send_timeout)
                self.abort(ErrorCode.SLOW_READER)
                raise Closed from None
            if self.closing:
                raise Closed

    async def _keepalive(self) -> None:
        while True:
            await sleep(self.clock, self.limits.ping_interval)
            if self.greeted:
                self.ping()

    def ping(self) -> None:
        """Send a ping now; its pong updates `latency`."""
        self._ping_n += 1
        self._pings[self._ping_n] = self.clock.now()
        if len(self._pings) > 8:
            self._pings.pop(min(self._pings))
        self.send({"t": "ping", "n": self._ping_n})
