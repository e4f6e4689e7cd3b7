"""Issue 9: a client whose terminal goes away exits, and its private host child with it.
Orphaned `pigeon-tui join --guest` processes, left by SSH sessions and test runs that ended,
kept spinning at about 20 % of a core for over an hour: with SIGHUP ignored (inherited: an
ignored signal stays ignored across exec) or a terminal that is not the controlling one, no
signal comes, and Textual's input thread reads end-of-file in a loop."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import asyncssh
import pytest

from tests.e2e.game import CLI, _user_dirs
from tests.e2e.terminal import Terminal, kill_group
from tests.net.test_ssh import open_terminal

HUP_IGNORED: Final = (
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); os.execvp(sys.argv[1], sys.argv[1:])",
)
"""Runs a program with SIGHUP ignored, as `nohup` or a harness that ignores it would."""
EXIT_WITHIN: Final = 15.0
"""Seconds a client may take to notice and exit (a loaded machine; it takes about one)."""
HUNG_UP: Final = 129


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid`."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError):
            raw = stat.read_text()
            state, ppid = raw[raw.rindex(")") + 2 :].split()[:2]
            if int(ppid) == pid and state != "Z":
                out.append(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return raw[raw.rindex(")") + 2] != "Z"


async def gone(*pids: int, within: float = EXIT_WITHIN) -> list[int]:
    """The processes of `pids` still alive after `within` seconds (none as soon as all are gone)."""
    deadline = time.monotonic() + within
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return left


async def started_game(home: str, argv: tuple[str, ...]) -> tuple[Terminal, int]:
    """`pigeon-tui play` at its table in a pseudo-terminal, and its private host child."""
    term = Terminal([*argv, *CLI, "play", "--pace", "fast"], env=_user_dirs(home), name="play")
    await term.shows("Your hand", 90)
    hosts = children(term.process.pid)
    assert len(hosts) == 1, hosts
    return term, hosts[0]


@pytest.mark.parametrize("how", ["terminal closed, SIGHUP ignored", "SIGHUP"])
async def test_a_client_whose_terminal_goes_away_exits_with_its_host(how: str) -> None:
    """The pseudo-terminal's master closes under a client that ignores SIGHUP and does not
    have it as its controlling terminal (as tmux or a harness that died leaves it); or the
    client gets SIGHUP. Either way it exits (129, as a shell reports a hang-up), and so does
    its private host."""
    with tempfile.TemporaryDirectory(prefix="pigeon-hup-") as home:
        term, host = await started_game(home, HUP_IGNORED if how != "SIGHUP" else ())
        try:
            if how == "SIGHUP":
                os.kill(term.process.pid, signal.SIGHUP)
            else:
                term.hang_up()
            code = await asyncio.to_thread(term.process.wait, EXIT_WITHIN)
            assert code == HUNG_UP
            assert not await gone(host), "the private host outlived its client"
        finally:
            await term.close(grace=0)
            kill_group(host)


@contextlib.asynccontextmanager
async def serve_ssh(home: str) -> AsyncIterator[tuple[subprocess.Popen[str], int]]:
    """`pigeon-tui serve-ssh --open` with SIGHUP ignored (its guests inherit that), and its port."""
    argv = [*HUP_IGNORED, *CLI, "serve-ssh", "--bind", "127.0.0.1", "--port", "0", "--open"]
    argv += ["--host-key", f"{home}/host_key"]
    env = {**os.environ, **_user_dirs(home)}
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert server.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(server.stdout.readline), 60)
        assert "SSH on port" in line, line
        yield server, int(line.split("SSH on port ")[1].split(",")[0])
    finally:
        server.kill()
        server.wait()


@pytest.mark.parametrize("how", ["the player's connection drops", "serve-ssh is killed"])
async def test_a_guest_of_serve_ssh_exits_when_its_terminal_goes(how: str) -> None:
    """A player's `pigeon-tui join --guest` (the process serve-ssh runs on the SSH session's
    pseudo-terminal) exits when the connection drops, and when serve-ssh itself dies (a test
    run that ended), with SIGHUP ignored: nobody is left to end it."""
    with tempfile.TemporaryDirectory(prefix="pigeon-hup-") as home:
        async with serve_ssh(home) as (server, port):
            conn = await asyncssh.connect(
                "127.0.0.1", port, username="ada", password="any", known_hosts=None, client_keys=None, agent_path=None
            )
            guests: list[int] = []
            try:
                term = await open_terminal(conn)
                await term.wait_for("Lobby")
                guests = children(server.pid)
                assert len(guests) == 1, guests
                if how == "serve-ssh is killed":
                    server.kill()
                else:
                    conn.abort()
                assert not await gone(*guests), f"the guest outlived its terminal ({how})"
            finally:
                conn.abort()
                for pid in guests:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
