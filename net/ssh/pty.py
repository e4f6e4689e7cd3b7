"""A child process on its own pseudo-terminal: the PTY is its controlling terminal (so a resize
reaches it as SIGWINCH, and closing the PTY hangs it up), its output is read without blocking,
and stopping it stops its whole process group."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import pty
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence

from net.ssh.child import INPUT_BUFFER_MAX, STOP_GRACE, TermSize

log = logging.getLogger(__name__)

_READ_CHUNK = 65536


_CTTY_SHIM = (
    "import fcntl,os,signal,sys,termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT)]; "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)
"""Run first in the new session: make its stdin (the PTY) the controlling terminal, give the
terminal's signals their default action, then become the real program. A server started with
`nohup` or `&` from a script ignores SIGHUP (SIGINT and SIGQUIT), an ignored signal stays ignored
across exec, and a child that ignores its terminal's hang-up would outlive its session. A program
of its own, not a `preexec_fn`: the server has threads, and Python code run between fork and exec
in a threaded process can deadlock."""


def set_size(fd: int, size: TermSize) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size.rows, size.columns, 0, 0))


def get_size(fd: int) -> TermSize:
    rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return TermSize(columns, rows)


class PtyChild:
    """A process whose stdin, stdout and stderr are one PTY. `on_output(bytes)` gets what it
    writes; `exited` is done once it has exited and its output is read."""

    def __init__(self, process: asyncio.subprocess.Process, master: int, on_output: Callable[[bytes], None]) -> None:
        self.process = process
        self.master = master
        self.on_output = on_output
        self.exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending = bytearray()
        self._reading = False
        self._eof = False
        self._closed = False
        self._waiter = asyncio.create_task(self._wait(), name=f"pty child {process.pid}")

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        env: Mapping[str, str],
        size: TermSize,
        on_output: Callable[[bytes], None],
        cwd: str | None = None,
    ) -> PtyChild:
        """Start `argv` on a new PTY of `size`, in a new session with the PTY as its controlling
        terminal. Raises OSError if it cannot start. Cancelling it is safe (no child is left)."""
        master, slave = pty.openpty()
        try:
            set_size(slave, size)
            os.set_blocking(master, False)
            spawn = asyncio.ensure_future(
                asyncio.create_subprocess_exec(
                    sys.executable,
                    "-I",
                    "-S",
                    "-c",
                    _CTTY_SHIM,
                    *argv,
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env=dict(env),
                    cwd=cwd,
                    start_new_session=True,
                )
            )
            try:
                process = await asyncio.shield(spawn)
            except asyncio.CancelledError:  # it may have started all the same: kill it, then go
                with contextlib.suppress(Exception):
                    late = await spawn
                    os.killpg(late.pid, signal.SIGKILL)
                    await late.wait()
                raise
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        child = cls(process, master, on_output)
        child.resume_reading()
        return child

    # ---- input and output -------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Type `data` into the terminal; past `INPUT_BUFFER_MAX` queued bytes, the rest is dropped."""
        if self._closed:
            return
        if self._pending:
            self._pending += data[: max(0, INPUT_BUFFER_MAX - len(self._pending))]
            return
        try:
            sent = os.write(self.master, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            return  # the terminal is gone; the exit comes next
        if sent < len(data):
            self._pending += data[sent : sent + INPUT_BUFFER_MAX]
            asyncio.get_running_loop().add_writer(self.master, self._flush)

    def _flush(self) -> None:
        try:
            sent = os.write(self.master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            sent = len(self._pending)
        del self._pending[:sent]
        if not self._pending:
            asyncio.get_running_loop().remove_writer(self.master)

    def resize(self, size: TermSize) -> None:
        """Set the terminal's size; the kernel tells the child (SIGWINCH)."""
        if not self._closed:
            set_size(self.master, size)

    def pause_reading(self) -> None:
        """Stop reading output (the SSH channel is full); the child blocks when the PTY fills."""
        if self._reading:
            asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False

    def resume_reading(self) -> None:
        if not self._reading and not self._eof and not self._closed:
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def _readable(self) -> None:
        try:
            data = os.read(self.master, _READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every end of the PTY's other side is closed
            if exc.errno != errno.EIO:
                log.debug("pty %d: %s", self.pid, exc)
            data = b""
        if not data:
            self._eof = True
            self.pause_reading()
            return
        self.on_output(data)

    async def _wait(self) -> None:
        code = await self.process.wait()
        # the child is gone: read what it left in the PTY (bounded), then close
        for _ in range(64):
            if self._eof or self._closed or not self._reading:
                break
            try:
                data = os.read(self.master, _READ_CHUNK)
            except OSError:
                break
            if not data:
                break
            self.on_output(data)
        self._close_master()
        if not self.exited.done():
            self.exited.set_result(code)

    def _close_master(self) -> None:
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        if self._reading:
            loop.remove_reader(self.master)
            self._reading = False
        if self._pending:
            loop.remove_writer(self.master)
            self._pending.clear()
        os.close(self.master)

    # ---- stopping ---------------------------------------------------------------------------

    def signal_group(self, sig: int) -> None:
        """Send `sig` to the child's whole process group (it leads its own session)."""
        if self.process.returncode is None:
            try:
                os.killpg(self.pid, sig)
            except ProcessLookupError:
                pass

    async def stop(self, grace: float = STOP_GRACE) -> int:
        """Hang up (SIGHUP to its process group, the PTY closed), kill it after `grace`
        seconds, and return its exit status. Safe to call twice; cancelling it is safe (the
        kill still happens: the wait is shielded)."""
        if not self.exited.done():
            self.signal_group(signal.SIGHUP)
            self.signal_group(signal.SIGCONT)
            try:
                async with asyncio.timeout(grace):
                    await asyncio.shield(self.exited)
            except TimeoutError:
                log.info("pty child %d did not exit on SIGHUP: killing it", self.pid)
                self.signal_group(signal.SIGKILL)
        code = await asyncio.shield(self.exited)
        await self._waiter
        try:  # anything it started in its group goes with it (the group id is still held by them)
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return code
