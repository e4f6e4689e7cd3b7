"""A program in a pseudo-terminal of 80x24, as a person's terminal emulator runs it: keys in,
a VT screen (pyte) out, and every frame the program drew kept in order.

Textual asks the terminal whether it supports synchronized output (DECRQM 2026); this terminal
says yes, as modern terminals do, so each frame arrives between `CSI ? 2026 h` and
`CSI ? 2026 l` and the screen is read exactly at each frame's end, never half drawn.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pyte

COLUMNS: Final = 80
ROWS: Final = 24
SYNC_END: Final = b"\x1b[?2026l"
SYNC_QUERY: Final = b"\x1b[?2026$p"
SYNC_REPLY: Final = b"\x1b[?2026;2$y"
"""DECRPM: mode 2026 (synchronized output) is supported and reset."""
_MARKERS: Final = (SYNC_END, SYNC_QUERY)

KEYS: Final[Mapping[str, bytes]] = {"enter": b"\r", "escape": b"\x1b", "ctrl+q": b"\x11", "tab": b"\t"}
"""Named keys as a terminal sends them; any other key is its own character."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The whole screen at the end of one frame the program drew."""

    at: float
    """`time.monotonic()` when the bytes that completed the frame were read (frames read
    together share it: the time this process took to draw them is not counted)."""
    lines: tuple[str, ...]
    backgrounds: tuple[str, ...] = ()
    """The background colour of each row's second cell (tells a panel from what is under it)."""

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class Terminal:
    """One program in a pseudo-terminal. Runs on the caller's event loop."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str] | None = None,
        size: tuple[int, int] = (COLUMNS, ROWS),
        name: str = "",
    ) -> None:
        self.name = name or os.path.basename(argv[0])
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        child_env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "PYTEST", "COLUMNS", "LINES"))}
        child_env.update(TERM="xterm-256color", COLORTERM="truecolor")
        child_env.update(env or {})
        self.process = _spawn(list(argv), slave, child_env)
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(*size)
        self._stream = pyte.ByteStream(self.screen)
        self._pending = b""
        self._read_at = time.monotonic()
        self.frames: list[Frame] = []
        """Every distinct frame drawn, in order (a frame equal to the one before is not kept)."""
        self.keys: list[tuple[float, str]] = []
        """(`time.monotonic()`, key) of every key pressed."""
        self.synchronized = False
        """The program draws frames between sync markers (it asked, and was told yes)."""
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(master, self._read)

    # ---- output ---------------------------------------------------------------------------

    def _read(self) -> None:
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            data = b""
        if not data:
            self._loop.remove_reader(self.master)
            self._feed(self._pending)
            self._pending = b""
            self._frame()
            self.closed.set()
            self._changed.set()
            return
        self._read_at = time.monotonic()
        buf = self._pending + data
        while True:
            cuts = [(buf.find(m), m) for m in _MARKERS]
            found = [(i, m) for i, m in cuts if i >= 0]
            if not found:
                break
            i, marker = min(found)
            end = i + len(marker)
            if marker is SYNC_QUERY:
                self._feed(buf[:i])
                self.synchronized = True
                os.write(self.master, SYNC_REPLY)
            else:
                self._feed(buf[:end])
                self._frame()
            buf = buf[end:]
        keep = _partial_marker(buf)
        self._feed(buf[: len(buf) - keep])
        self._pending = buf[len(buf) - keep :]
        if not self.synchronized:
            self._frame()  # before the program knows, every read is taken as a frame

    def _feed(self, data: bytes) -> None:
        if data:
            self._stream.feed(data)

    def _frame(self) -> None:
        lines = tuple(self.screen.display)
        backgrounds = tuple(row[1].bg for row in (self.screen.buffer[r] for r in range(self.screen.lines)))
        if self.frames and self.frames[-1].lines == lines and self.frames[-1].backgrounds == backgrounds:
            return
        self.frames.append(Frame(self._read_at, lines, backgrounds))
        self._changed.set()

    @property
    def lines(self) -> tuple[str, ...]:
        """The screen as last drawn (a whole frame)."""
        return self.frames[-1].lines if self.frames else tuple(" " * COLUMNS for _ in range(ROWS))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def wait_for(
        self, test: Callable[[tuple[str, ...]], bool], timeout: float, what: str = ""
    ) -> tuple[str, ...]:
        """The first screen from now on (or the current one) for which `test` holds.
        Raises TimeoutError saying what the screen showed instead, or EOFError if the program ended."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines
            if test(lines):
                return lines
            if self.closed.is_set():
                raise EOFError(f"{self.name} ended while waiting for {what or test}; its screen:\n{self.text}")
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no {what or test} in {timeout} s; the screen:\n{self.text}")
            try:
                async with asyncio.timeout(left):
                    await self._changed.wait()
            except TimeoutError:
                pass

    async def shows(self, text: str, timeout: float) -> tuple[str, ...]:
        return await self.wait_for(lambda lines: text in "\n".join(lines), timeout, repr(text))

    async def settled(self, quiet: float, timeout: float) -> tuple[str, ...]:
        """The screen once no new frame has come for `quiet` seconds (a person reading it)."""
        deadline = time.monotonic() + timeout
        while True:
            self._changed.clear()
            try:
                async with asyncio.timeout(quiet):
                    await self._changed.wait()
            except TimeoutError:
                return self.lines
            if self.closed.is_set():
                return self.lines
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: the screen never stayed still for {quiet} s")

    # ---- input and the end ----------------------------------------------------------------

    def press(self, *keys: str) -> None:
        for key in keys:
            self.keys.append((time.monotonic(), key))
            os.write(self.master, KEYS.get(key, key.encode()))

    def hang_up(self) -> None:
        """Close the terminal under the program (its emulator, tmux or sshd is gone): no key,
        no signal; the program reads end-of-file and its writes fail."""
        if not self.closed.is_set():
            self._loop.remove_reader(self.master)
            self.closed.set()
            self._changed.set()
        os.close(self.master)
        self.master = -1

    async def close(self, grace: float = 5.0) -> int | None:
        """ctrl+q as a person would; then whatever is left of the program's process group
        (its host child, bot workers) is killed. Returns the program's exit code."""
        if self.process.poll() is None:
            try:
                self.press("ctrl+q")
            except OSError:
                pass
            deadline = time.monotonic() + grace
            while self.process.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        code = self.process.poll()
        kill_group(self.process.pid)
        if code is None:
            code = await asyncio.to_thread(self.process.wait)
        try:
            async with asyncio.timeout(2):
                await self.closed.wait()
        except TimeoutError:
            pass
        if self.master < 0:
            return code  # hung up: closed already
        if not self.closed.is_set():
            self._loop.remove_reader(self.master)
        os.close(self.master)
        return code


def _spawn(argv: list[str], slave: int, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """The program as the leader of a new session (and process group) on the pty."""
    return subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=dict(env), start_new_session=True, close_fds=True
    )


def kill_group(pgid: int) -> None:
    """Kill what is left of a process group the harness started (its leader started it with
    `start_new_session`), and wait until it is gone."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for _ in range(100):
        if not _group_alive(pgid):
            return
        time.sleep(0.02)


def _group_alive(pgid: int) -> bool:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            raw = stat.read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def _partial_marker(buf: bytes) -> int:
    """Bytes at the end of `buf` that may be the start of a marker split across reads."""
    for n in range(min(len(buf), max(map(len, _MARKERS)) - 1), 0, -1):
        tail = buf[-n:]
        if any(m.startswith(tail) for m in _MARKERS):
            return n
    return 0
