"""A browser tab's app, server side: a child process in its own process group, speaking Textual's
web driver protocol on its stdin and stdout (what textual-serve speaks): the first line
`__GANGLION__`, then packets of one type byte (`D` screen data, `M` JSON meta, `P` packed),
a 4-byte big-endian length and the payload; the same `D` and `M` packets carry keys and resizes
the other way. Stopping it kills its whole process group, so nothing it started outlives it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Final

from net.places import SHARED_ACCOUNT_ENV
from net.ssh.child import TermSize
from pigeon_tui.joining import NO_STORE_ENV
from pigeon_tui.web.config import MAX_BACKLOG, MAX_OUTPUT_PACKET, START_TIMEOUT

log = logging.getLogger(__name__)

PRELUDE: Final = b"__GANGLION__\n"
"""The line the web driver prints once the app runs."""
PRELUDE_LINES_MAX: Final = 10
"""Lines the app may print before the prelude (a warning); more and it is not a Textual app."""
PARENT_ENV: Final = "PIGEON_TUI_WEB_PARENT"
"""The server's pid, for the child to check it was not orphaned before it could ask to die with it."""
STDERR_KEPT: Final = 4096
"""Bytes of the child's last error output kept for the log (the rest is read and dropped)."""
DATA: Final = b"D"
META: Final = b"M"

OnData = Callable[[bytes], Awaitable[None]]


class AppFailed(Exception):
    """The app did not start (its last words, if any, are in the message)."""


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def meta(**fields: object) -> bytes:
    return packet(META, json.dumps(fields).encode())


def tab_env(server_env: Mapping[str, str], size: TermSize, parent_pid: int) -> dict[str, str]:
    """The child's whole environment: what Textual's web driver needs, `PATH` and `HOME` to run
    Python, and nothing else of the server's (no secret of the server reaches a tab)."""
    env = {name: server_env[name] for name in ("PATH", "HOME") if name in server_env}
    env.update(
        LANG="C.UTF-8",
        TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver",
        TEXTUAL_FPS="60",
        TEXTUAL_COLOR_SYSTEM="truecolor",
        TERM_PROGRAM="textual",
        COLUMNS=str(size.columns),
        ROWS=str(size.rows),
    )
    env[PARENT_ENV] = str(parent_pid)
    env[NO_STORE_ENV] = "1"  # tabs share the server's account: no tab takes another's seat,
    env[SHARED_ACCOUNT_ENV] = "1"  # nor another's game against bots, nor reads their history
    return env


class AppChild:
    """One tab's app process. Its screen is read from the start: kept until a tab `attach`es (a
    spare started before anyone asked), then relayed. `ended` is set once it is done."""

    def __init__(self, process: asyncio.subprocess.Process, start_timeout: float) -> None:
        self.process = process
        self.drawn = asyncio.Event()
        """Set once the app drew its first screen."""
        self.ended = asyncio.Event()
        """Set once its screen is over (it exited, said it is done, or failed)."""
        self.failure: AppFailed | None = None
        """Why it ended, if it did not start or broke the protocol."""
        self._backlog: list[bytes] = []
        self._backlog_bytes = 0
        self._sink: OnData | None = None
        self._stderr = bytearray()
        self._stderr_task = asyncio.create_task(self._drain_stderr(), name=f"web app {process.pid} stderr")
        self._reader = asyncio.create_task(self._read(start_timeout), name=f"web app {process.pid} screen")

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    async def start(cls, argv: Sequence[str], env: Mapping[str, str], start_timeout: float = START_TIMEOUT) -> AppChild:
        """Start `argv` in a new session (its own process group). Raises OSError if it cannot.
        Cancelling it is safe: a process started meanwhile is killed."""
        spawn = asyncio.ensure_future(
            asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=dict(env),
                start_new_session=True,
                limit=2**16,
            )
        )
        try:
            process = await asyncio.shield(spawn)
        except asyncio.CancelledError:
            with contextlib.suppress(OSError):
                process = await spawn
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
            raise
        return cls(process, start_timeout)

    async def _drain_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        while chunk := await stream.read(65536):
            self._stderr += chunk
            del self._stderr[:-STDERR_KEPT]

    @property
    def last_words(self) -> str:
        return self._stderr.decode(errors="replace").strip()

    async def attach(self, on_data: OnData) -> None:
        """Send everything the app drew so far to `on_data`, then each screen update as it comes."""
        while self._backlog:
            data = self._backlog.pop(0)
            self._backlog_bytes -= len(data)
            await on_data(data)
        self._sink = on_data  # no await since the backlog was found empty: nothing is reordered

    async def _read(self, start_timeout: float) -> None:
        """Read the app's screen until it exits or says it is done. Packets that would deliver
        files or open URLs in the browser are dropped: a tab gets the app's screen, nothing else."""
        try:
            await self._relay(start_timeout)
        except AppFailed as exc:
            self.failure = exc
        except Exception as exc:  # a task's boundary: say what broke, and end
            log.exception("app %d: its screen could not be relayed", self.pid)
            self.failure = AppFailed(repr(exc))
        finally:
            self.ended.set()

    async def _relay(self, start_timeout: float) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        line = b""
        try:
            async with asyncio.timeout(start_timeout):
                for _ in range(PRELUDE_LINES_MAX):
                    line = await stdout.readline()
                    if not line or line == PRELUDE:
                        break
        except (TimeoutError, ValueError):
            line = b""
        if line != PRELUDE:
            await self._stopped_stderr()
            raise AppFailed(self.last_words or "the app did not start")
        try:
            while True:
                head = await stdout.readexactly(5)
                size = int.from_bytes(head[1:], "big")
                if size > MAX_OUTPUT_PACKET:
                    raise AppFailed(f"a {size}-byte packet")
                payload = await stdout.readexactly(size)
                kind = head[:1]
                if kind == DATA:
                    self.drawn.set()
                    await self._screen(payload)
                elif kind == META and _meta_type(payload) == "exit":
                    return
        except asyncio.IncompleteReadError:
            return

    async def _screen(self, data: bytes) -> None:
        if self._sink is not None:
            await self._sink(data)
            return
        self._backlog.append(data)
        self._backlog_bytes += len(data)
        if self._backlog_bytes > MAX_BACKLOG:
            raise AppFailed(f"{self._backlog_bytes} bytes drawn with nobody watching")

    async def _stopped_stderr(self) -> None:
        """Wait a moment for the error output of an app that failed to start."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await self.process.wait()
        await self._stderr_done(1.0)

    async def send(self, data: bytes) -> None:
        """Write packets to the app; a gone app is not an error (`ended` is set)."""
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing():
            return
        try:
            stdin.write(data)
            await stdin.drain()
        except (ConnectionError, RuntimeError):
            pass

    async def keys(self, text: str) -> None:
        await self.send(packet(DATA, text.encode()))

    async def resize(self, size: TermSize) -> None:
        await self.send(meta(type="resize", width=size.columns, height=size.rows))

    async def focus(self, focused: bool) -> None:
        await self.send(meta(type="focus" if focused else "blur"))

    async def stop(self, grace: float) -> None:
        """Ask the app to quit (it stops what it started), wait `grace` seconds, then kill its
        whole process group and reap it. Safe to call twice; not to be cancelled halfway."""
        proc = self.process
        if proc.returncode is None:
            await self.send(meta(type="quit"))
            if proc.stdin is not None:
                proc.stdin.close()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(grace):
                    await proc.wait()
        # the group outlives its leader while any member lives, and its id is not reused before
        # the group is empty: this reaches only what the app started
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        await self._stderr_done(1.0)
        try:  # its stdout closed with it: the reader ends, unless a tab's send is stuck
            async with asyncio.timeout(1.0):
                await asyncio.shield(self._reader)
        except TimeoutError:
            self._reader.cancel()

    async def _stderr_done(self, timeout: float) -> None:  # noqa: ASYNC109  (stops reading, not the caller)
        """Let the error output be read to its end (the pipe closes with the last process that
        holds it), for at most `timeout` seconds."""
        try:
            async with asyncio.timeout(timeout):
                await asyncio.shield(self._stderr_task)
        except TimeoutError:
            self._stderr_task.cancel()


def _meta_type(payload: bytes) -> str | None:
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None
