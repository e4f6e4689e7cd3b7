"""A client whose terminal goes away exits.

The terminal can go in ways that send no signal we act on: SIGHUP ignored from the parent
(`nohup`, a harness that ignores it; an ignored signal stays ignored across exec), or a
pseudo-terminal that is not the process's controlling terminal (a test harness's, whose master
closes when the harness dies). Textual's input thread then reads end-of-file forever without
waiting (about 20 % of a core, seen for over an hour in orphaned `join --guest` processes).
So the app exits on SIGHUP, and on the terminal hanging up however it is told: a thread
blocked in poll() on stdin with no events asked for wakes only for POLLHUP/POLLERR/POLLNVAL,
so it costs nothing while the terminal is there.
"""

from __future__ import annotations

import asyncio
import logging
import os
import select
import signal
import sys
import threading
from typing import Any, Final

from textual.app import App

log = logging.getLogger(__name__)

EXIT_GRACE: Final = 5.0
"""Seconds the app has to exit by itself once the terminal is gone; then the process ends
(nobody is left to see a tidy exit, and a stuck one must not linger)."""
HUNG_UP: Final = 129
"""The exit code after a hang-up (128 + SIGHUP, as a shell reports it)."""


def terminal_fd() -> int | None:
    """The terminal the app reads its keys from, if it reads them from a terminal."""
    stdin = sys.__stdin__
    try:
        fd = stdin.fileno() if stdin is not None else -1
    except (OSError, ValueError):
        return None
    return fd if fd >= 0 and os.isatty(fd) else None


def watch_terminal(app: App[Any]) -> bool:
    """Exit `app` when its terminal goes away. Only for an app drawn on a real terminal (not a
    test's headless app, nor one served to a browser). Returns whether it watches."""
    fd = terminal_fd()
    if app.is_headless or app.is_web or fd is None:
        return False
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGHUP, hang_up, app, "SIGHUP")
    threading.Thread(target=_wait_for_hangup, args=(fd, app, loop), name="terminal watch", daemon=True).start()
    return True


def _wait_for_hangup(fd: int, app: App[Any], loop: asyncio.AbstractEventLoop) -> None:
    poller = select.poll()
    poller.register(fd, 0)  # no events asked: only a hang-up, an error or a closed fd wakes it
    while True:
        try:
            ready = poller.poll()
        except InterruptedError:
            continue
        except OSError:
            break
        if ready:
            break
    try:
        loop.call_soon_threadsafe(hang_up, app, "the terminal hung up")
    except RuntimeError:  # the loop is closed: the app has exited already
        return


def hang_up(app: App[Any], why: str) -> None:
    """Exit: the player's terminal is gone. If the app is not gone within `EXIT_GRACE`, the
    process ends anyway."""
    log.info("%s: exiting", why)
    timer = threading.Timer(EXIT_GRACE, os._exit, args=(HUNG_UP,))
    timer.daemon = True
    timer.start()
    app.exit(return_code=HUNG_UP)
