"""`net.clock.timeout` and `sleep`: asyncio's, on the clock given (the connections' timeouts and
pings run on them, so a test moves a fake clock instead of waiting)."""

from __future__ import annotations

import asyncio

import pytest

from net.clock import LoopClock, LoopFakeClock, sleep, timeout


async def test_a_timeout_on_a_fake_clock_ends_the_block_when_the_clock_reaches_it_not_before() -> None:
    clock = LoopFakeClock()
    never = asyncio.Event()

    async def wait() -> None:
        async with timeout(clock, 20.0):
            await never.wait()

    task = asyncio.create_task(wait())
    await asyncio.sleep(0)
    assert clock.pending() == [20.0]
    clock.advance(19.9)
    await asyncio.sleep(0.01)
    assert not task.done()
    clock.advance(0.1)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(task, 1.0)
    assert clock.pending() == []


async def test_a_block_done_in_time_calls_its_timer_off() -> None:
    clock = LoopFakeClock()
    async with timeout(clock, 5.0):
        await asyncio.sleep(0)
    assert clock.pending() == []
    assert clock.advance(10.0) == 0


async def test_sleep_on_a_fake_clock_returns_once_the_clock_is_moved_past_it() -> None:
    clock = LoopFakeClock()
    task = asyncio.create_task(sleep(clock, 5.0))
    await asyncio.sleep(0)
    clock.advance(4.0)
    await asyncio.sleep(0.01)
    assert not task.done()
    clock.advance(1.0)
    await asyncio.wait_for(task, 1.0)
    task = asyncio.create_task(sleep(clock, 5.0))
    await asyncio.sleep(0)
    task.cancel()  # called off: its timer goes too
    with pytest.raises(asyncio.CancelledError):
        await task
    assert clock.pending() == []


async def test_on_the_loops_clock_they_are_asyncios() -> None:
    clock = LoopClock()
    await sleep(clock, 0.001)
    with pytest.raises(TimeoutError):
        async with timeout(clock, 0.001):
            await asyncio.Event().wait()
