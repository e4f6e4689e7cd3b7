"""Start a private host as a child process and learn its port (a game against bots on this
machine is a host on 127.0.0.1 that the app joins over TCP like any other)."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from typing import Final, Sequence

from net.host import READY_LINE

HOST_COMMAND: Final = (sys.executable, "-m", "pigeon_tui", "host")
"""How the host is started: the app's own `host` subcommand, which never loads a UI."""
START_TIMEOUT: Final = 15.0
"""Seconds the child has to print its ready line."""


class HostFailed(Exception):
    """The host process did not start (its last words are in the message)."""


@dataclass(slots=True)
class HostProcess:
    """A host running as a child process. It exits when `stop` closes its stdin (its stderr
    goes nowhere, so a chatty log can never block it)."""

    process: asyncio.subprocess.Process
    address: str
    port: int

    async def stop(self) -> None:
        """Close its stdin (it exits by itself), kill it if it lingers. Safe to call twice."""
        proc = self.process
        if proc.returncode is not None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            async with asyncio.timeout(3.0):
                await proc.wait()
        except TimeoutError:
            proc.kill()
            await proc.wait()


async def spawn_host(options: Sequence[str] = (), command: Sequence[str] = HOST_COMMAND) -> HostProcess:
    """Start `command --bind 127.0.0.1 --port 0 --ready --exit-with-stdin OPTIONS` and wait for
    its `LISTENING ADDRESS PORT` line. `options` are more `host` options (`--seats 4 --bots 3`).

    Raises HostFailed if it exits or stays silent. Cancelling it kills the child.
    """
    args = [*command, "--bind", "127.0.0.1", "--port", "0", "--ready", "--exit-with-stdin", *options]
    proc = await asyncio.create_subprocess_exec(
        *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    assert proc.stdout is not None
    try:
        async with asyncio.timeout(START_TIMEOUT):
            while True:
                raw = await proc.stdout.readline()
                if not raw:
                    code = await proc.wait()
                    raise HostFailed(f"the host exited with status {code} (run `pigeon-tui host` to see why)")
                words = raw.decode(errors="replace").split()
                if len(words) == 3 and words[0] == READY_LINE:
                    return HostProcess(proc, words[1], int(words[2]))
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise HostFailed("the host did not start in time") from None
    except BaseException:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        raise
