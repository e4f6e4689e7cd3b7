"""SSH front door figures, in one run (a benchmark, not a test: nothing depends on a machine's speed).

The server runs as a user runs it: `pigeon-tui serve-ssh --bind 127.0.0.1 --port 0 --password
...` in a child process, with its own game host (its table: one seat and one bot).

1. Start: (a) the TUI started locally, exactly as each SSH session starts it (`python -m
   pigeon_tui join 127.0.0.1:GAMEPORT --name bench --guest`, on a new 80x24 pseudo-terminal),
   from process start to the lobby on screen; (b) `ssh` (asyncssh, password) from the TCP
   connect to the same lobby on the session's screen. The screen is a VT emulator (pyte) fed
   with every byte; the marker is the lobby's "Table 1" line, the first screen a player sees.
   Run turn about, after one warm-up each; medians. Bar: (b) <= 1.5 x (a).
2. Ten sessions at once, each at its own table (lobby, Esc, "Play against bots": a table of
   bots on the server's game host), each having made a move; then the resident memory of the
   server's whole process tree (server and every session's TUI), summed RSS and PSS from
   /proc. Bar: RSS < 1 GB.

    python bench/ssh.py [--runs 7] [--sessions 10] [--json]

Linux only (pty, /proc). Needs asyncssh and pyte (the test extra).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh
import pyte

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.ssh.child import CHILD_COMMAND, TermSize, child_argv, child_env
from net.ssh.pty import PtyChild
from tests.procs import descendants, memory

PASSWORD = "bench"
MARKER = "Table 1"
TIMEOUT = 60.0


class Screen:
    """A VT screen fed with every byte a terminal receives."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)
        self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, marker: str, timeout: float = TIMEOUT) -> None:
        async with asyncio.timeout(timeout):
            while marker not in self.text:
                self.changed.clear()
                await self.changed.wait()


class Terminal(asyncssh.SSHClientSession[bytes]):
    def __init__(self) -> None:
        self.view = Screen()
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:  # type: ignore[override]
        self.chan = chan

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.view.feed(data)

    def press(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys.encode())


@contextlib.asynccontextmanager
async def server(tmp: Path, sessions: int) -> Any:
    """`pigeon-tui serve-ssh` as a child process; yields (process, ssh port, game port)."""
    proc = await asyncio.create_subprocess_exec(
        *CHILD_COMMAND,
        "serve-ssh",
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--password",
        PASSWORD,
        "--host-key",
        str(tmp / "host_key"),
        "--seats",
        "2",
        "--bots",
        "1",
        "--max-sessions",
        str(sessions + 2),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    ssh_port = game_port = 0
    async with asyncio.timeout(30):
        while not (ssh_port and game_port):
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("serve-ssh exited")
            m = re.search(r"SSH on port (\d+), joining its own game host at [\d.]+:(\d+)", line)
            if m:
                ssh_port, game_port = int(m[1]), int(m[2])
    try:
        yield proc, ssh_port, game_port
    finally:
        proc.terminate()
        await proc.wait()


def connect(port: int, user: str) -> Any:
    return asyncssh.connect(
        "127.0.0.1", port, username=user, password=PASSWORD, known_hosts=None, client_keys=None, agent_path=None
    )


async def open_terminal(conn: Any) -> Terminal:
    _, term = await conn.create_session(
        Terminal, term_type="xterm-256color", term_size=(80, 24), encoding=None, env={"LANG": "C.UTF-8"}
    )
    assert isinstance(term, Terminal)
    return term


async def local_start(game_port: int) -> float:
    """Seconds from starting the TUI on a new PTY to the lobby on its screen."""
    view = Screen()
    env = child_env("xterm-256color", {"LANG": "C.UTF-8"}, os.environ)
    t0 = time.perf_counter()
    child = await PtyChild.start(child_argv("127.0.0.1", game_port, "bench"), env, TermSize(80, 24), view.feed)
    try:
        await view.wait_for(MARKER)
        return time.perf_counter() - t0
    finally:
        await child.stop()


async def ssh_start(port: int) -> float:
    """Seconds from the SSH connect to the lobby on the session's screen."""
    t0 = time.perf_counter()
    async with connect(port, "bench") as conn:
        term = await open_terminal(conn)
        await term.view.wait_for(MARKER)
        elapsed = time.perf_counter() - t0
        conn.close()
    return elapsed


async def at_table(port: int, user: str, stack: contextlib.AsyncExitStack) -> Terminal:
    conn = await stack.enter_async_context(connect(port, user))
    term = await open_terminal(conn)
    await term.view.wait_for(MARKER)
    term.press("\x1b")  # leave the lobby: the start screen, "Play against bots" chosen
    await term.view.wait_for("Play against bots")
    await asyncio.sleep(0.3)
    term.press("\r")
    await term.view.wait_for("Your hand")
    async with asyncio.timeout(TIMEOUT):  # a move: draw, or the first card offered
        while "Action 1 of 2" not in term.view.text:
            await asyncio.sleep(0.1)
        term.press("1")
        while "Action 1 of 2" in term.view.text:
            await asyncio.sleep(0.1)
    return term


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        async with server(Path(tmp), args.sessions) as (proc, ssh_port, game_port):
            await local_start(game_port)  # warm-ups: caches, the host's first connection
            await ssh_start(ssh_port)
            local, ssh = [], []
            for _ in range(args.runs):
                local.append(await local_start(game_port))
                ssh.append(await ssh_start(ssh_port))
            async with contextlib.AsyncExitStack() as stack:
                terms = []
                for i in range(args.sessions):  # one after another: each start has the CPU
                    terms.append(await at_table(ssh_port, f"p{i}", stack))
                await asyncio.sleep(1.0)
                pids = [proc.pid, *descendants(proc.pid)]
                figures = [memory(p) for p in pids]
                rss = sum(r for r, _ in figures)
                pss = sum(p for _, p in figures)
    result = {
        "local_start_median_s": round(statistics.median(local), 3),
        "ssh_start_median_s": round(statistics.median(ssh), 3),
        "ratio": round(statistics.median(ssh) / statistics.median(local), 2),
        "local_runs": [round(x, 3) for x in local],
        "ssh_runs": [round(x, 3) for x in ssh],
        "sessions_at_tables": len(terms),
        "processes": len(pids),
        "tree_rss_mb": round(rss / 2**20, 1),
        "tree_pss_mb": round(pss / 2**20, 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"start to lobby: local median {result['local_start_median_s']:.3f} s, "
        f"ssh median {result['ssh_start_median_s']:.3f} s, ratio {result['ratio']} (bar <= 1.5)"
    )
    print(
        f"{len(terms)} sessions at tables: {len(pids)} processes, RSS {result['tree_rss_mb']} MB "
        f"(bar < 1024), PSS {result['tree_pss_mb']} MB"
    )


if __name__ == "__main__":
    asyncio.run(main())
