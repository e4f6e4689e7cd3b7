"""`net.spawn`: the one way a host child is started (the app, tests and benches): its spec, the
ready line and the lines before it, per-seat bot levels, a failure that says why, and a log file
that keeps what the child says."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from net.client import Client
from net.host import Host
from net.logs import HOST_LOG
from net.places import LOG_DIR_ENV, SHARED_ACCOUNT_ENV
from net.spawn import HostFailed, HostProcess, HostSpec, spawn, start_host
from pigeon_tui.cli import host_config


def test_a_spec_becomes_the_host_the_child_would_run() -> None:
    """The child parses `spec.options()` with the `host` command's parser; so does a host on this
    event loop (`host_config`): one spec, one reading of it."""
    spec = HostSpec.private_game(4, ("hard", "greedy", "random"), "3.0", 9, 0.1)
    config = host_config(spec.options())
    table = config.table
    assert (table.seats, table.bots, table.edition, table.seed, table.bot_delay) == (4, 3, "3.0", 9, 0.1)
    assert [table.level_of(i) for i in range(3)] == ["hard", "greedy", "random"]
    assert (table.reaction_limit, table.turn_limit) == (0, 0)  # nobody else waits in a private game
    assert config.bind == "127.0.0.1" and config.port == 0 and config.discovery_port is None


def test_bad_host_options_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="bots"):
        host_config(HostSpec(seats=3, bots=4).options())
    with pytest.raises(ValueError, match="unknown bot level"):
        host_config(HostSpec(seats=3, bots=2, levels=("greedy", "clever")).options())


async def test_each_bot_seat_plays_the_level_asked_for() -> None:
    """Issue 9: `--bots hard,greedy,random` gives each bot its own level (the host used to get
    the first level for every bot). The host of the spec's options runs on this event loop, as
    the child would run it (`host_config`: the child's own parser; that a child starts is
    test_the_lines_before_the_ready_line_are_kept's to check)."""
    spec = HostSpec(seats=4, bots=3, levels=("hard", "greedy", "random"), bot_delay=0, db="")
    host = Host(host_config(spec.options()))
    await host.start()
    client = Client("127.0.0.1", host.port, "Ada")
    try:
        await client.connect()
        for _ in range(100):
            if client.lobby is not None:
                break
            await asyncio.sleep(0.05)
        assert client.lobby is not None
        (table,) = client.lobby.tables
        assert [s.level if s else None for s in table.seats] == [None, "hard", "greedy", "random"]
    finally:
        await client.close()
        await host.close()


async def test_the_lines_before_the_ready_line_are_kept() -> None:
    host = await start_host(HostSpec(seats=2, bots=1))
    try:
        assert host.address == "127.0.0.1" and host.port > 0
        assert host.join_lines == (f"pigeon-tui join 127.0.0.1:{host.port}",)
        assert host.running
    finally:
        await host.stop()
    assert not host.running and host.process.returncode == 0


async def test_the_ready_line_is_read_as_it_comes_without_a_thread() -> None:
    """Issue 9: the ready line is read from the pipe as the event loop sees it (here in three
    pieces, split mid-word, with more after it), the lines before it kept, and no thread started
    for it (to_thread's executor thread was on the app's way to its table)."""
    pieces = [b"pigeon-tui join 127.0.0.1:5555\nLIST", b"ENING 127.0.0.1 ", b"5555\nlater\n"]
    code = (
        "import sys, time\n"
        f"for p in {pieces!r}:\n"
        "    time.sleep(0.05)\n"
        "    sys.stdout.buffer.write(p)\n"
        "    sys.stdout.flush()\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    process = HostProcess(HostSpec(), child)
    threads = threading.active_count()
    try:
        assert await process.ready(timeout=10) is process
        assert (process.address, process.port) == ("127.0.0.1", 5555)
        assert process.said == ("pigeon-tui join 127.0.0.1:5555",)
        assert threading.active_count() == threads
    finally:
        process.kill()


async def test_a_host_silent_past_the_timeout_is_stopped_and_says_so() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    process = HostProcess(HostSpec(), child)
    with pytest.raises(HostFailed, match=r"did not start within 0\.3 s"):
        await process.ready(timeout=0.3)
    assert not process.running and child.stdout is not None and child.stdout.closed


async def test_a_host_that_cannot_start_says_why() -> None:
    with pytest.raises(HostFailed, match="bots must be"):
        await start_host(HostSpec(seats=3, bots=4, log_file=""))


async def test_a_host_started_with_a_log_file_writes_there() -> None:
    """Issue 9: the private host's log (and its stderr) go to a file in the log directory
    (`$PIGEON_TUI_LOG_DIR` here), not to /dev/null."""
    spec = HostSpec.private_game(2, ("random",), "3.5", 5, 0)
    host = spawn(spec)
    try:
        await host.ready()
        client = Client(host.address, host.port, "Ada", table=1)
        await client.connect()
        for _ in range(200):
            if client.view is not None:
                break
            await asyncio.sleep(0.05)
        await client.close()
    finally:
        await host.stop()
    text = (Path(os.environ[LOG_DIR_ENV]) / HOST_LOG).read_text()
    assert f"listening on 127.0.0.1:{host.port}" in text
    assert "game 1 starts (2 players, seed 5)" in text


def test_r4_6_house_rules_reach_the_host_child_and_its_games() -> None:
    """R4.6: a spec's house rules become `--house-rule` options, the host's table settings and
    the settings of every game it starts."""
    from core.house import InfamousEmpty

    spec = HostSpec.private_game(3, ("random",), "3.5", 4, 0.0, house=(("infamous_empty", "trophy"),))
    assert "--house-rule" in spec.options() and "infamous_empty=trophy" in spec.options()
    table = host_config(spec.options()).table
    assert table.settings == (("infamous_empty", "trophy"),)
    state = table.the_game.new_game(3, 1, table.game_settings())
    assert state.house.infamous_empty is InfamousEmpty.TROPHY
    assert host_config(HostSpec().options()).table.game_settings().get("infamous_empty", "resume") == "resume"


def test_r9_custom_cards_reach_the_host_child_and_its_games() -> None:
    """§9: a spec's custom cards become `--custom-card` options and the settings of the host's
    games, under their names."""
    spec = HostSpec.private_game(3, ("random",), "3.5", 4, 0.0, custom=("name=Racing Pigeon,rule=lady",))
    table = host_config(spec.options()).table
    state = table.the_game.new_game(3, 1, table.game_settings())
    assert state.custom[0].name == "Racing Pigeon" and state.custom[1].name == "Common Pigeon"


def test_a_browser_tabs_game_against_bots_is_kept_in_memory_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab of serve-web shares the server's account with strangers: its private host keeps no
    games database, so no tab brings back (or reads) another tab's game; a person's own
    `pigeon-tui` keeps its games."""
    from net.ssh.child import TermSize
    from pigeon_tui.web.child import tab_env

    assert tab_env({"PATH": "/bin"}, TermSize(80, 24), 1)[SHARED_ACCOUNT_ENV] == "1"
    mine = HostSpec.private_game(4, ("random",), "3.5", 1, 0.0).argv()
    assert "--no-db" not in mine and "--private" in mine
    monkeypatch.setenv(SHARED_ACCOUNT_ENV, "1")
    assert "--no-db" in HostSpec.private_game(4, ("random",), "3.5", 1, 0.0).argv()


_FORKED = """
import asyncio, sys
from net.client import Client
from net.host import Host
from net.spawn import HostFailed, HostSpec, spawn
from pigeon_tui.cli import main

async def play(host):
    await host.ready()
    client = Client(host.address, host.port, "Ada", table=1)
    await client.connect()
    for _ in range(200):
        if client.view is not None:
            break
        await asyncio.sleep(0.02)
    print("view", client.view is not None and client.view.seat == 0, flush=True)
    await client.close()
    await host.stop()
    print("stopped", host.process.returncode, flush=True)

async def refused(host):
    try:
        await host.ready()
    except HostFailed as exc:
        print("failed", exc, flush=True)

# Both forked before any event loop or thread exists, as the CLI does.
good = spawn(HostSpec(seats=2, bots=1, bot_delay=0, db=""), run_here=main)
bad = spawn(HostSpec(seats=3, bots=4, log_file="", db=""), run_here=main)
print("forked", type(good.process).__name__, type(bad.process).__name__, flush=True)
asyncio.run(play(good))
asyncio.run(refused(bad))
"""


def test_the_clis_private_host_is_a_fork_that_plays_stops_and_says_why_it_failed() -> None:
    """Issue 9: `pigeon-tui play` forks its private host (`net.forked`) instead of starting a new
    interpreter: the fork listens, deals, ends when its stdin closes, and a fork that refuses
    its options says why, as a spawned child does."""
    out = subprocess.run([sys.executable, "-c", _FORKED], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:3] == ["forked Forked Forked", "view True", "stopped 0"], out.stdout + out.stderr
    assert lines[3].startswith("failed the host exited with status 2: ") and "bots must be" in lines[3], lines
