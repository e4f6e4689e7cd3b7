"""What a table logs for `pigeon-tui host -v` (issue 9): games starting and ending, people
sitting, leaving, disconnecting and coming back, and a disconnect is never "out of time"."""

from __future__ import annotations

import asyncio
import logging

import pytest

from net.clock import LoopFakeClock

from .helpers import Raw, running_host, table_config


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "net.table"]


async def wait_for(caplog: pytest.LogCaptureFixture, text: str, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not any(text in line for line in lines(caplog)):
            await asyncio.sleep(0.01)


async def test_a_disconnect_is_logged_as_one_and_the_game_to_its_end(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 9: a person who drops during their turn is logged as disconnected (also when the
    turn's time runs out before the grace period), not as having run out of time; the game's
    start and end are logged with the winners."""
    caplog.set_level(logging.INFO, logger="net.table")
    clock = LoopFakeClock()
    cfg = table_config(seats=2, bots=1, seed=4, turn_limit=20.0, away_grace=30.0)
    async with running_host(cfg, clock=clock) as host:
        a = await Raw.open(host.port)
        await a.hello("Ada", table=1)
        seat = (await a.recv("seated"))["seat"]
        while not (await a.recv("update"))["decisions"]:
            pass
        await a.close()  # gone, mid-turn
        await wait_for(caplog, "Ada disconnected")
        clock.advance(20.0)  # the turn's time runs out first, within the grace period
        await wait_for(caplog, "is over after")
        log = lines(caplog)
        assert f"table 1: Ada sits at seat {seat}" in log
        assert any(line.startswith("table 1: game 1 starts (2 players") for line in log)
        assert f"table 1: Ada disconnected; seat {seat} waits 30 s for them" in log
        assert f"table 1: Ada, disconnected, ran out of time; a bot plays seat {seat}" in log
        assert not any("Ada ran out of time" in line for line in log)
        over = next(line for line in log if "is over after" in line)
        assert over.startswith("table 1: game 1 is over after") and "won by" in over
        assert log[-1] == "table 1: everybody left; resetting it"


async def test_running_out_of_time_and_coming_back_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 9: a person still connected who lets a decision's time run out is logged as out
    of time; a choice hands the seat back, and that is logged too."""
    caplog.set_level(logging.INFO, logger="net.table")
    clock = LoopFakeClock()
    cfg = table_config(seats=2, bots=1, seed=4, turn_limit=120.0, bot_delay=1.0)
    async with running_host(cfg, clock=clock) as host:
        a = await Raw.open(host.port)
        await a.hello("Ada", table=1)
        seat = (await a.recv("seated"))["seat"]
        while not (await a.recv("update"))["decisions"]:
            clock.advance(1.0)  # the bot's moves, if it starts
        clock.advance(120.0)
        await wait_for(caplog, "ran out of time")
        assert f"table 1: Ada ran out of time; a bot plays seat {seat}" in lines(caplog)
        a.send({"t": "here", "aid": 1})
        await wait_for(caplog, "takes seat")
        assert f"table 1: Ada takes seat {seat} back from the bot" in lines(caplog)
        a.send({"t": "leave", "aid": 2})
        await wait_for(caplog, "leaves the game")
        assert f"table 1: Ada leaves the game; a bot plays seat {seat} to the end" in lines(caplog)
        await a.close()
