"""A host child made by forking this process instead of starting a new interpreter (`net.spawn`).

A new interpreter imports everything again before it listens: Python's own start, asyncio, the
engine and the protocol, about two thirds of a private host's start-up. A fork begins with
whatever this process has imported, so the private host of a game against bots listens sooner,
and on a busy machine takes that much less of the CPU that the app's start-up shares with it
(issue 9: the two are in one session, which Linux schedules as one group).

Only where forking without exec is safe: on Linux, before any thread has started (the CLI, before
it loads Textual). The child runs `run(argv)`, the `pigeon-tui host` command line in-process,
with the same pipes as a spawned child, so `HostProcess` cannot tell the two apart.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import IO, Final, NoReturn

_WAIT_STEP: Final = 0.01
"""Seconds between looks at a child being waited for with a timeout."""


def can_fork() -> bool:
    """This process may fork a host: Linux (elsewhere a fork without exec is unsafe or missing),
    and this thread alone (a fork copies no other thread, nor the locks they hold)."""
    return sys.platform == "linux" and threading.active_count() == 1


class Forked:
    """A forked child, with what `HostProcess` reads of a `subprocess.Popen`."""

    def __init__(self, pid: int, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes] | None) -> None:
        self.pid = pid
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.stderr = stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: its status is lost, as Popen says
                self.returncode = 0
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Its exit status; raises subprocess.TimeoutExpired after `timeout` seconds, as Popen."""
        if timeout is None:
            while (code := self.poll()) is None:
                with contextlib.suppress(ChildProcessError):
                    _, status = os.waitpid(self.pid, 0)
                    self.returncode = os.waitstatus_to_exitcode(status)
            return code
        deadline = time.monotonic() + timeout
        while (code := self.poll()) is None:
            if time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(["pigeon-tui", "host"], timeout)
            time.sleep(_WAIT_STEP)
        return code

    def kill(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def fork(argv: Sequence[str], run: Callable[[list[str]], int], *, stderr: bool) -> Forked:
    """A child that runs `run(argv)` and exits with what it returns, its stdin and stdout pipes
    to this process (and its stderr too with `stderr`; else it keeps this process's). Raises
    OSError if it cannot be started."""
    pipes: list[int] = []
    try:
        stdin_r, stdin_w = _pipe(pipes)
        stdout_r, stdout_w = _pipe(pipes)
        stderr_r, stderr_w = _pipe(pipes) if stderr else (-1, -1)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # else the child would write this process's buffered output again
        pid = os.fork()
    except OSError:
        for fd in pipes:
            os.close(fd)
        raise
    if pid == 0:
        _child(list(argv), run, stdin_r, stdout_w, stderr_w)
    for fd in (stdin_r, stdout_w, stderr_w):
        if fd >= 0:
            os.close(fd)
    return Forked(pid, open(stdin_w, "wb"), open(stdout_r, "rb"), open(stderr_r, "rb") if stderr else None)


def _pipe(opened: list[int]) -> tuple[int, int]:
    r, w = os.pipe()
    opened += (r, w)
    return r, w


def _child(argv: list[str], run: Callable[[list[str]], int], stdin: int, stdout: int, stderr: int) -> NoReturn:
    """The forked child: its pipes become its stdio, every other inherited file is closed (the
    other ends of its own pipes too, or its stdin would never end), then the host runs."""
    code = 1
    try:
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        if stderr >= 0:
            os.dup2(stderr, 2)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        gc.enable()  # the CLI turns it off while it imports; a host runs for hours
        code = run(argv)
    except SystemExit as exc:  # argparse's refusal of an option, with its message on stderr
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)  # not this process's atexit hooks and buffers: they are the app's
