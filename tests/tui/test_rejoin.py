"""Issue 9: back in your seat without flags. A LAN game of two people, each `pigeon-tui join` in a
pseudo-terminal of its own (real processes, one machine, one user, so one token store); one
client is killed mid-game and started again with the same command line, no token flag: it is
back in its seat, with the game's earlier log, and the other player keeps theirs."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Sequence

from net.client import Client
from net.spawn import HostSpec, start_host
from tests.e2e.terminal import Terminal

CLI = (sys.executable, "-m", "pigeon_tui")
WAIT = 60.0


def _join(port: int, name: str) -> Terminal:
    return Terminal([*CLI, "join", f"127.0.0.1:{port}", "--name", name], name=name)


async def _sit(term: Terminal) -> None:
    await term.shows("Table 1", WAIT)
    await term.settled(0.3, WAIT)
    term.press("enter")
    await term.wait_for(lambda lines: any("You sit at" in x or "Your hand (" in x for x in lines), WAIT, "a seat")


async def _play_until(terms: Sequence[Terminal], done: object, timeout: float = 240.0) -> None:
    """Press the first option (or pass) on every terminal now and then until `done()`."""
    assert callable(done)
    deadline = time.monotonic() + timeout
    keys = ("1", "1", "0")
    n = 0
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not get far enough")
        for term in terms:
            term.press(keys[n % len(keys)])
        n += 1
        await asyncio.sleep(0.3)


async def test_a_killed_client_started_again_is_back_in_its_seat_with_the_log() -> None:
    host = await start_host(
        HostSpec(seats=3, bots=1, seed=5, bot_delay=0, reaction_limit=0, turn_limit=0, extra=("--reaction-window", "0"))
    )
    watcher = Client("127.0.0.1", host.port, "Eve", table=1, watch=True)
    terms: list[Terminal] = []
    try:
        ada, bea = _join(host.port, "Ada"), _join(host.port, "Bea")
        terms += [ada, bea]
        await _sit(ada)
        await _sit(bea)
        await ada.shows("Your hand (", WAIT)
        await watcher.connect()
        await _play_until([ada, bea], lambda: watcher.view is not None and watcher.view.turn >= 4)
        assert watcher.table is not None
        seat = next(s.seat for s in watcher.table.seats if s is not None and s.name == "Ada")
        assert watcher.view is not None
        hand_size = watcher.view.hand_sizes[seat]

        os.killpg(ada.process.pid, signal.SIGKILL)  # the terminal is closed, the client gone
        terms.remove(ada)
        await ada.close()
        await _until(lambda: _seat_of(watcher, "Ada") == (seat, False), "Ada shown offline")

        again = _join(host.port, "Ada")  # the same command, no token flag
        terms.append(again)
        await again.shows("Your hand (", WAIT)
        await _until(lambda: _seat_of(watcher, "Ada") == (seat, True), "Ada back in her seat")
        assert _seat_of(watcher, "Bea")[1], "Bea keeps hers"
        lines = await again.shows("Ada (you)", WAIT)
        assert any(f"Your hand ({hand_size})" in x for x in lines) or watcher.view.hand_sizes[seat] != hand_size
        again.press("l")  # the whole log: it starts with the game's earlier events
        await again.shows("Back in your seat", WAIT)
        again.press("\x1b[H")  # Home: the top of the log
        lines = await again.wait_for(lambda ls: "Back in your seat" in ls[1], WAIT, "the log's first line on top")
        assert any("Turn 2:" in x for x in lines), "the turns before the crash are in the log"
    finally:
        for term in terms:
            await term.close()
        await watcher.close()
        await host.stop()


def _seat_of(watcher: Client, name: str) -> tuple[int, bool]:
    table = watcher.table
    if table is None:
        return -1, False
    for s in table.seats:
        if s is not None and s.name == name:
            return s.seat, s.connected
    return -1, False


async def _until(check: object, what: str, timeout: float = WAIT) -> None:
    assert callable(check)
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.05)
