"""Time for the host's tables and connections: a small clock protocol, the event loop's clock
behind it, a fake clock that tests move by hand (so pacing, timers, grace periods and timeouts
run in microseconds), and `timeout`/`sleep` on any of them."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class Handle(Protocol):
    """Something scheduled, which may be called off (a timer, a bot's move)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Where a table reads the time and schedules what it does later."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""
        ...

    def call_later(self, delay: float, fn: Callable[..., object], /, *args: Any) -> Handle:
        """Call `fn(*args)` `delay` seconds from now, from the clock's own loop, never from inside
        this call."""
        ...

    def call_soon(self, fn: Callable[..., object], /, *args: Any) -> Handle:
        """Call `fn(*args)` as soon as the current callback is done (in the order asked)."""
        ...


def timeout(clock: Clock, seconds: float) -> AbstractAsyncContextManager[object]:
    """`asyncio.timeout(seconds)` on `clock`: the block is cancelled with TimeoutError once the
    clock reaches the deadline (a fake clock: when the test moves it there), not the loop."""
    if type(clock) is LoopClock:  # asyncio's own: a connection sets one at every read
        return asyncio.timeout(seconds)
    return Timeout(clock, seconds)


class Timeout:
    """What `timeout` returns: an async context manager."""

    __slots__ = ("_clock", "_inner", "_seconds", "_timer")

    def __init__(self, clock: Clock, seconds: float) -> None:
        self._clock = clock
        self._seconds = seconds
        self._inner = asyncio.timeout(None)
        self._timer: Handle | None = None

    async def __aenter__(self) -> Timeout:
        await self._inner.__aenter__()
        self._timer = self._clock.call_later(self._seconds, self._expire)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        await self._inner.__aexit__(*exc)

    def _expire(self) -> None:
        self._inner.reschedule(asyncio.get_running_loop().time())  # due now: cancel the block


async def sleep(clock: Clock, seconds: float) -> None:
    """`asyncio.sleep(seconds)` on `clock`."""
    if type(clock) is LoopClock:
        await asyncio.sleep(seconds)
        return
    done = asyncio.get_running_loop().create_future()
    timer = clock.call_later(seconds, _settle, done)
    try:
        await done
    finally:
        timer.cancel()


def _settle(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


class LoopClock:
    """The running asyncio event loop's clock, looked up at each call (a table may be made
    before the loop runs: the host's own table is)."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, fn: Callable[..., object], /, *args: Any) -> Handle:
        return asyncio.get_running_loop().call_later(delay, fn, *args)

    def call_soon(self, fn: Callable[..., object], /, *args: Any) -> Handle:
        return asyncio.get_running_loop().call_soon(fn, *args)


class _Call:
    __slots__ = ("args", "cancelled", "fn")

    def __init__(self, fn: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that moves only when told. `advance(seconds)` runs every call that falls due on
    the way, in time order (calls due at the same moment in the order they were made), with
    `now()` at each one's due time; calls made meanwhile run too if they fall due in time."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, fn: Callable[..., object], /, *args: Any) -> Handle:
        call = _Call(fn, args)
        heapq.heappush(self._queue, (self._now + max(delay, 0.0), next(self._order), call))
        return call

    def call_soon(self, fn: Callable[..., object], /, *args: Any) -> Handle:
        return self.call_later(0.0, fn, *args)

    def next_due(self) -> float | None:
        """When the next call not called off falls due; None if there is none."""
        while self._queue and self._queue[0][2].cancelled:
            heapq.heappop(self._queue)
        return self._queue[0][0] if self._queue else None

    def pending(self) -> list[float]:
        """When each call not called off falls due, soonest first."""
        return sorted(due for due, _, call in self._queue if not call.cancelled)

    def advance(self, seconds: float = 0.0) -> int:
        """Move `seconds` on, running what falls due (0: only what is due now). Returns how
        many calls ran."""
        end = self._now + seconds
        ran = 0
        while (due := self.next_due()) is not None and due <= end:
            _, _, call = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            call.fn(*call.args)
            ran += 1
        self._now = end
        return ran

    def run(self, limit: float = 3600.0) -> float:
        """Run every call there is (and those they make) until none is left, at most `limit`
        seconds on. Returns the seconds moved."""
        start = self._now
        while (due := self.next_due()) is not None and due - start <= limit:
            self.advance(due - self._now)
        return self._now - start


class LoopFakeClock(FakeClock):
    """Fake time beside a running event loop (a real host in a test): what is due now runs on
    the loop, as with `LoopClock`; what is due later waits until the test moves time on
    (`advance`), so a 120 s turn limit passes in a microsecond, exactly when the test says."""

    def call_soon(self, fn: Callable[..., object], /, *args: Any) -> Handle:
        return asyncio.get_running_loop().call_soon(fn, *args)

    def call_later(self, delay: float, fn: Callable[..., object], /, *args: Any) -> Handle:
        if delay <= 0:
            return self.call_soon(fn, *args)
        return super().call_later(delay, fn, *args)
