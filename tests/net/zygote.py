"""Children for tests that start many of them, forked from one prepared process instead of each
a new interpreter: `pigeon-tui play`'s own fast path (`net.forked`), served to the tests.

Hosts (crash and resume): a host child's new interpreter spends ~0.45 s of CPU importing before
it listens, and the crash tests start three hosts each. The zygote is started once (a plain
interpreter that has imported the CLI, the host, the engine and the database; no pytest, no
thread), and for each host it forks, with `net.forked.fork`, a child that runs `pigeon-tui host`'s
command line in-process, with the test's environment at that moment and its own stdin, stdout and
stderr pipes. The pipes and a pidfd of the child come back to the test process over a Unix
socket, so `HostProcess` reads and stops it as it does a spawned child, and the test can SIGKILL
it. That a new interpreter starts a host is tests/net/test_spawn.py's to check, and one crash
test keeps it.

TUIs (serve-ssh's sessions, `Zygote(tui=True)`): the app's imports cost a new interpreter ~0.9 s
of CPU. serve-ssh runs `tests/net/tui_launch.py` as the session's child; it hands the session's
terminal to the zygote, which forks `pigeon-tui join ...` onto it as the leader of a new session
with that controlling terminal (hang-up and resize reach it as they reach a TUI serve-ssh starts).

A child is the zygote's, not the test process's: its exit status is not known here (what
`Popen.returncode` would say is None while it runs, then -9 if it was killed here, else 0)."""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import json
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import termios
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import IO, Any

from net.forked import Forked
from net.forked import _child as run_forked
from net.spawn import HostFailed, HostProcess, HostSpec

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the zygote runs `-m tests.net.zygote` from it)."""
LAUNCH = Path(__file__).with_name("tui_launch.py")
TUI_PREPARED = (
    "pigeon_tui.app",
    "net.client",
    "pigeon_tui.remote",
    "pigeon_tui.screens.start",
    "pigeon_tui.screens.lobby",
    "pigeon_tui.screens.table",
    "pigeon_tui.screens.cubirds",
    "textual.drivers.linux_driver",
)
"""What the zygote imports more to fork TUIs: Textual and the app, and what a TUI imports only
as it runs (its driver, the connection, the screens of the start menu, lobby and both games'
tables): ~40 ms a TUI would otherwise spend each, for ~40 ms here once."""
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
    """The prepared process (see the module docstring); `close` ends it. With `tui`, it has
    imported the app too and also listens at `tui_command`'s socket: serve-ssh runs that command
    as a session's child, and the TUI it asks for is forked onto the session's terminal."""

    def __init__(self, tui: bool = False) -> None:
        self._sock, theirs = socket.socketpair()
        self._dir = tempfile.TemporaryDirectory(prefix="zygote-") if tui else None
        where = [os.path.join(self._dir.name, "tui")] if self._dir is not None else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.net.zygote", str(theirs.fileno()), *where],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            cwd=ROOT,
        )
        theirs.close()
        self.tui_command = (sys.executable, "-I", "-S", str(LAUNCH), *where)
        """serve-ssh's child command: `tests/net/tui_launch.py`, which hands its terminal to a TUI
        forked here (the session's `pigeon-tui join ...` arguments are appended)."""
        if where:  # ready once it listens (it answers this process's request after it imported)
            self._ask({"ping": True})

    def _ask(self, request: dict[str, Any]) -> tuple[bytes, list[int]]:
        self._sock.sendall(json.dumps(request).encode() + b"\n")
        msg, fds, _, _ = socket.recv_fds(self._sock, 64, 4)
        if not msg:
            raise OSError("the zygote has gone")
        return msg, fds

    def spawn(self, spec: HostSpec) -> HostProcess:
        """Fork a host child for `spec` now, as `net.spawn.spawn` would start one."""
        stderr = spec.log_file is not None
        msg, fds = self._ask(
            {"argv": spec.argv(("host",)), "stderr": stderr, "env": dict(os.environ), "cwd": os.getcwd()}
        )
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
        if self._dir is not None:
            self._dir.cleanup()


def _serve(fd: int, tui_at: str | None) -> None:
    """The zygote: import what a host (and with `tui_at` the app) imports, then fork a child for
    each request until the test process closes its socket."""
    for name in (*PREPARED, *(TUI_PREPARED if tui_at else ())):
        importlib.import_module(name)
    from pigeon_tui.cli import main

    ours = socket.socket(fileno=fd)
    sel = selectors.DefaultSelector()
    sel.register(ours, selectors.EVENT_READ, [b"", []])
    if tui_at is not None:
        door = socket.socket(socket.AF_UNIX)
        door.bind(tui_at)
        door.listen(8)
        sel.register(door, selectors.EVENT_READ, None)
    while True:
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        for key, _ in sel.select(_REAP_EVERY):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            if key.data is None:  # a launcher knocks
                conn, _ = sock.accept()
                sel.register(conn, selectors.EVENT_READ, [b"", []])
                continue
            more, fds, _, _ = socket.recv_fds(sock, 1 << 20, 4)
            key.data[0] += more
            key.data[1] += fds
            if not more:
                if sock is ours:
                    return
                sel.unregister(sock)
                sock.close()
            elif b"\n" in key.data[0]:
                line, key.data[0] = key.data[0].split(b"\n", 1)
                fds, key.data[1] = key.data[1], []
                _answer(sock, json.loads(line), fds, main)


def _answer(sock: socket.socket, request: dict[str, Any], fds: list[int], main: Callable[[list[str]], int]) -> None:
    """Fork what `request` asks for and send back its pid, its pidfd and its pipes' ends."""
    from net.forked import fork

    if request.get("ping"):
        socket.send_fds(sock, [b"0"], [])
        return
    run = _in(main, request["env"], request["cwd"])
    if "tui" in request:
        argv = request["tui"]
        if argv[:1] == ["--play"]:  # the stand-in's players, one of which may be the TUI
            from tests.net import tui_stand_in

            run = _in(partial(tui_stand_in.main, tui=main), request["env"], request["cwd"])
        pid = _fork_on_terminal(argv, run, fds[0])
        pipes: list[IO[bytes]] = []
    else:
        child = fork(request["argv"], run, stderr=request["stderr"])
        pid = child.pid
        pipes = [p for p in (child.stdin, child.stdout, child.stderr) if p is not None]
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    socket.send_fds(sock, [str(pid).encode()], [pidfd, *(p.fileno() for p in pipes)])
    os.close(pidfd)
    for pipe in pipes:
        pipe.close()


def _fork_on_terminal(argv: list[str], run: Callable[[list[str]], int], tty: int) -> int:
    """A child that leads a new session on `tty` (its controlling terminal, and its stdio) and
    runs `run(argv)`, as serve-ssh's child would after its shim."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid:
        return pid
    try:
        os.setsid()
        fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
    except BaseException:
        traceback.print_exc()
        os._exit(1)
    run_forked(argv, run, tty, tty, tty)  # as play's forked host from here: stdio, files, gc, exit


def _in(main: Callable[[list[str]], int], env: dict[str, str], cwd: str) -> Callable[[list[str]], int]:
    """`main` in the test's environment and folder as they were when the host was asked for."""

    def run(argv: list[str]) -> int:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        return main(argv)

    return run


if __name__ == "__main__":
    _serve(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None)
