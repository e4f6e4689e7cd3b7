"""Host children for tests that kill and restart hosts (crash and resume), forked from one
prepared process instead of each a new interpreter: `pigeon-tui play`'s own fast path
(`net.forked`), served to the test process.

A host child's new interpreter spends ~0.45 s of CPU importing before it listens, and the crash
tests start three hosts each. The zygote is started once (a plain interpreter that has imported
the CLI, the host, the engine and the database; no pytest, no thread), and for each host it
forks, with `net.forked.fork`, a child that runs `pigeon-tui host`'s command line in-process, with
the test's environment at that moment and its own stdin, stdout and stderr pipes. The pipes and
a pidfd of the child come back to the test process over a Unix socket, so `HostProcess` reads
and stops it as it does a spawned child, and the test can SIGKILL it. That a new interpreter
starts a host is tests/net/test_spawn.py's to check, and one crash test keeps it.

The child is the zygote's, not the test process's: its exit status is not known here (what
`Popen.returncode` would say is None while it runs, then -9 if it was killed here, else 0)."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from net.forked import Forked
from net.spawn import HostFailed, HostProcess, HostSpec

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the zygote runs `-m tests.net.zygote` from it)."""
PREPARED = ("net.host", "net.journal", "net.logs", "net.resume", "net.store", "core.games")
"""What the zygote imports before it forks: asyncio, the engine, the protocol, the tables, the
games database and the log (a host child imports the rest of itself)."""
_REAP_EVERY = 0.2
"""Seconds between the zygote's looks for children that have exited (it reaps them)."""


class ZygoteChild(Forked):
    """A host the zygote forked: a `Forked` that is not this process's child (it is watched
    through its pidfd, and killed by pid)."""

    def __init__(self, pid: int, pidfd: int, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes] | None) -> None:
        super().__init__(pid, stdin, stdout, stderr)
        self._pidfd = pidfd
        self._killed = False

    def poll(self) -> int | None:
        return self.wait(0) if self._exited(0) else None

    def _exited(self, timeout: float | None) -> bool:
        if self.returncode is not None:
            return True
        return bool(select.select([self._pidfd], [], [], timeout)[0])

    def wait(self, timeout: float | None = None) -> int:
        if not self._exited(timeout):
            raise subprocess.TimeoutExpired(["pigeon-tui", "host"], timeout or 0)
        if self.returncode is None:
            self.returncode = -signal.SIGKILL if self._killed else 0
            os.close(self._pidfd)
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            self._killed = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


class Zygote:
    """The prepared process (see the module docstring); `close` ends it."""

    def __init__(self) -> None:
        self._sock, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.net.zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            cwd=ROOT,
        )
        theirs.close()

    def spawn(self, spec: HostSpec) -> HostProcess:
        """Fork a host child for `spec` now, as `net.spawn.spawn` would start one."""
        stderr = spec.log_file is not None
        request = {"argv": spec.argv(("host",)), "stderr": stderr, "env": dict(os.environ), "cwd": os.getcwd()}
        self._sock.sendall(json.dumps(request).encode() + b"\n")
        msg, fds, _, _ = socket.recv_fds(self._sock, 64, 4)
        if not msg:
            raise OSError("the zygote has gone")
        pidfd, stdin, stdout, *err = fds
        child = ZygoteChild(int(msg), pidfd, open(stdin, "wb"), open(stdout, "rb"), open(err[0], "rb") if err else None)
        return HostProcess(spec, child)

    async def start_host(self, spec: HostSpec) -> HostProcess:
        """`net.spawn.start_host` with a forked child. Raises HostFailed."""
        try:
            process = self.spawn(spec)
        except OSError as exc:
            raise HostFailed(f"could not run the host: {exc}") from None
        return await process.ready()

    def close(self) -> None:
        self._sock.close()  # the zygote reads its end and exits
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _serve(fd: int) -> None:
    """The zygote: import what a host imports, then fork a host for each request until the
    test process closes the socket."""
    for name in PREPARED:
        importlib.import_module(name)
    from net.forked import fork
    from pigeon_tui.cli import main

    sock = socket.socket(fileno=fd)
    buffered = b""
    while True:
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        if b"\n" not in buffered:
            if not select.select([sock], [], [], _REAP_EVERY)[0]:
                continue
            more = sock.recv(1 << 20)
            if not more:
                return
            buffered += more
            continue
        line, buffered = buffered.split(b"\n", 1)
        request = json.loads(line)
        child = fork(request["argv"], _in(main, request["env"], request["cwd"]), stderr=request["stderr"])
        pidfd = os.pidfd_open(child.pid)
        pipes: list[IO[bytes]] = [p for p in (child.stdin, child.stdout, child.stderr) if p is not None]
        socket.send_fds(sock, [str(child.pid).encode()], [pidfd, *(p.fileno() for p in pipes)])
        os.close(pidfd)
        for pipe in pipes:
            pipe.close()


def _in(main: Callable[[list[str]], int], env: dict[str, str], cwd: str) -> Callable[[list[str]], int]:
    """`main` in the test's environment and folder as they were when the host was asked for."""

    def run(argv: list[str]) -> int:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        return main(argv)

    return run


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
