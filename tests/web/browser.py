"""A real browser for tests and bench/web.py: Debian's Chromium, headless, driven by Playwright,
and `pigeon-tui serve-web` run as a user runs it (a child process). The game's screen is read
from the page's terminal (xterm.js keeps its text in `terminal.buffer`), as drawn."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from playwright.sync_api import BrowserContext, Page, sync_playwright

CHROMIUM: Final = os.environ.get("PIGEON_TUI_CHROMIUM", "/usr/bin/chromium")
"""The browser (Debian's `chromium` package; CI installs it)."""
FLAGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Headless, and quiet: the machine's network is closed, nothing is fetched from outside."""
WAIT: Final = 90.0
"""Seconds a page may take to show what a test waits for (a loaded 2-core machine is slow)."""
POLL: Final = 0.05
"""Seconds between two looks at the screen while waiting for something on it."""
SCREEN_JS: Final = """() => {
  const element = document.getElementById("terminal");
  const terminal = element && element.terminal;
  if (!terminal) return null;
  const buffer = terminal.buffer.active, rows = [];
  for (let y = 0; y < terminal.rows; y++)
    rows.push(buffer.getLine(buffer.viewportY + y).translateToString(true, 0, terminal.cols));
  return {columns: terminal.cols, rows: terminal.rows, text: rows.join("\\n")};
}"""
CURSOR: Final = re.compile(r"^\s*[›@]\s+(\S)\s", re.M)
"""The prompt's cursor line when a decision of ours is pending: its option key."""


@contextlib.contextmanager
def chromium(width: int = 1280, height: int = 800) -> Iterator[BrowserContext]:
    """A fresh headless Chromium (its own empty profile) with one context of that window size."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)")
    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="pigeon-chromium-") as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=list(FLAGS),
            headless=True,
            viewport={"width": width, "height": height},
        )
        context.set_default_timeout(WAIT * 1000)  # navigations, clicks and waits of a loaded machine
        try:
            yield context
        finally:
            context.close()


class Server:
    """`pigeon-tui serve-web --bind 127.0.0.1 --port 0 ARGS` as a child process."""

    def __init__(self, *args: str) -> None:
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pigeon_tui", "serve-web", "--bind", "127.0.0.1", "--port", "0", "-v", *args],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        self.url = ""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            m = re.match(r"players open: (\S+)", line)
            if m:
                self.url = m[1]
                break
        if not self.url:
            raise RuntimeError(f"serve-web did not start:\n{self.errors()}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def errors(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def apps(self) -> list[int]:
        """The pid of each tab's app, in the order the tabs opened (from the server's log)."""
        return [int(pid) for pid in re.findall(r"tab opened, app (\d+)", self.errors())]

    def ready_spares(self) -> set[int]:
        """The pids of the spare apps ready and not yet taken by a tab (from the server's log)."""
        log = self.errors()
        ready = {int(pid) for pid in re.findall(r"spare app (\d+) ready", log)}
        return ready - {int(pid) for pid in re.findall(r"tab opened, app (\d+)", log)}

    def stop(self) -> int:
        """SIGTERM, as a service manager stops it; returns its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
        return self.process.wait(timeout=WAIT)


@contextlib.contextmanager
def serve_web(*args: str) -> Iterator[Server]:
    server = Server(*args)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
        server.log.close()


class GamePage:
    """A browser tab on the game: read its screen, press keys, wait for text."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def open(self, url: str) -> None:
        self.page.goto(url)

    def log_in(self, password: str) -> str:
        """Submit the password form; returns the page's text after it (a login error, or nothing)."""
        with self.page.expect_navigation():
            self.page.fill("#password", password)
            self.page.click("button[type=submit]")
        error = self.page.locator(".error")
        return error.inner_text() if error.count() else ""

    def state(self) -> dict[str, object] | None:
        result = self.page.evaluate(SCREEN_JS)
        return result if isinstance(result, dict) else None

    @property
    def text(self) -> str:
        state = self.state()
        return str(state["text"]) if state else ""

    @property
    def size(self) -> tuple[int, int]:
        state = self.state()
        return (int(str(state["columns"])), int(str(state["rows"]))) if state else (0, 0)

    def wait_until(self, what: str, check: Callable[[str], bool], timeout: float = WAIT) -> str:
        """Poll the screen until `check(text)`; returns that text. Fails saying `what` it waited for."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text
            if check(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {timeout:g} s; the screen:\n{text}")
            self.page.wait_for_timeout(POLL * 1000)

    def wait_for(self, *words: str, timeout: float = WAIT) -> str:
        """Wait until one of `words` is on screen; returns it."""
        text = self.wait_until(" or ".join(map(repr, words)), lambda t: any(w in t for w in words), timeout)
        return next(w for w in words if w in text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def decide(self, timeout: float = WAIT) -> str:
        """Wait for a decision of ours, choose the option under the cursor's key, and wait until
        the prompt shows that the choice was taken. Returns the prompt's question."""
        text = self.wait_until("decision of ours", lambda t: CURSOR.search(t) is not None, timeout)
        before = prompt(text)
        m = CURSOR.search(text)
        assert m is not None
        self.press(m[1])
        self.wait_until("change of the prompt", lambda t: prompt(t) != before, timeout)
        return before[0] if before else ""


def prompt(text: str) -> list[str]:
    """The pending decision as drawn: the question line and the option lines under it."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if CURSOR.match(line):
            start = i
            while start > 0 and re.match(r"^\s*[›@]?\s+\S\s", lines[start - 1]):
                start -= 1
            end = i
            while end + 1 < len(lines) and re.match(r"^\s*[›@]?\s+\S\s", lines[end + 1]):
                end += 1
            # the question is the line above the options (left of the hand, when it is beside them)
            return [re.split(r"\s{3,}", lines[start - 1].strip())[0]] + [ln.strip() for ln in lines[start : end + 1]]
    return []


def process_group(pgid: int) -> list[int]:
    """Every living process of process group `pgid`."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if fields[0] != "Z" and int(fields[2]) == pgid:
                    out.append(int(entry))
    return out


def process_group_of(pid: int) -> int:
    """The process group of `pid` (0 if it is gone)."""
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return 0


def wait_gone(what: Callable[[], list[int]], timeout: float = WAIT) -> None:
    """Wait until `what()` lists no process."""
    wait_until("the processes gone", lambda: not what(), timeout)


def wait_until(what: str, check: Callable[[], bool], timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(POLL)
