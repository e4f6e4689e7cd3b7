"""How `serve-web` runs: its options, and every limit a named constant."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Final

WEB_PORT: Final = 8080
"""The default TCP port of the web server."""
MAX_SESSIONS: Final = 16
"""Browser tabs playing at once (each runs the app, and a game host while it plays bots)."""
MAX_PER_ADDRESS: Final = 4
"""Tabs playing at once from one network address."""
IDLE_TIMEOUT: Final = 1800.0
"""Seconds without a key press before a tab's game is closed (0: never)."""
LOGIN_FAILURES: Final = 5
"""Wrong passwords one address may give within `LOGIN_WINDOW` before it must wait."""
LOGIN_WINDOW: Final = 60.0
"""Seconds over which wrong passwords are counted."""
LOGIN_LIFETIME: Final = 12 * 3600.0
"""Seconds a login (its cookie) stays valid; a server restart forgets every login."""
MAX_LOGINS: Final = 1024
"""Logins remembered at once; the oldest is forgotten first."""
MAX_TRACKED_ADDRESSES: Final = 4096
"""Addresses whose wrong passwords are remembered at once; the oldest is forgotten first."""
MAX_CONNECTIONS: Final = 128
"""TCP connections at once, logged in or not (each tab holds one, a page load a few more); the
next is closed at once."""
KEEPALIVE: Final = 15.0
"""Seconds an idle HTTP connection (between page requests) is kept open."""
MAX_MESSAGE: Final = 64 * 1024
"""Bytes of one WebSocket message from a browser (key presses, a resize); a bigger one closes it."""
MAX_OUTPUT_PACKET: Final = 32 * 1024 * 1024
"""Bytes of one packet from a tab's app (a whole screen is far less); a bigger one ends the tab."""
MAX_BACKLOG: Final = 4 * 1024 * 1024
"""Bytes a spare app may draw before a tab takes it (its first screen is far less); more ends it."""
SPARES: Final = 1
"""Apps kept started for the next tabs: a tab that takes one skips the app's start (0: none)."""
SPARE_DELAY: Final = 2.0
"""Seconds after a tab took a spare before the next spare starts (the tab's first screen first)."""
SPARE_RETRY: Final = 30.0
"""Seconds before starting a spare again after one failed to start."""
HEARTBEAT: Final = 30.0
"""Seconds between WebSocket pings; a browser that does not answer in time is gone."""
START_TIMEOUT: Final = 30.0
"""Seconds a tab's app has to say it runs (its first line) before it is stopped."""
STOP_GRACE: Final = 3.0
"""Seconds a tab's app has to quit by itself before its process group is killed."""
SHUTDOWN_GRACE: Final = 5.0
"""Seconds the server gives open connections to finish when it stops."""
COOKIE: Final = "pigeon_tui_login"
"""The login cookie's name."""
CHILD_COMMAND: Final = (sys.executable, "-m", "pigeon_tui.web")
"""A tab's process: the normal app (`pigeon_tui.web.__main__`), with the running interpreter."""


@dataclass(frozen=True, slots=True)
class WebConfig:
    """How `serve-web` runs (its command-line options)."""

    bind: str = "0.0.0.0"
    port: int = WEB_PORT
    """0 picks a free port (see `WebServer.addresses`)."""
    password: str | None = None
    """Players who give this password on the login page may play."""
    open: bool = False
    """Anyone who reaches the port plays, with no password (a LAN party). Excludes `password`."""
    max_sessions: int = MAX_SESSIONS
    max_per_address: int = MAX_PER_ADDRESS
    max_connections: int = MAX_CONNECTIONS
    idle_timeout: float = IDLE_TIMEOUT
    login_failures: int = LOGIN_FAILURES
    login_window: float = LOGIN_WINDOW
    stop_grace: float = STOP_GRACE
    spares: int = SPARES
    command: tuple[str, ...] = CHILD_COMMAND
    """How a tab's app is started."""

    def check(self) -> None:
        """Raises ValueError unless exactly one way in is chosen and the limits make sense."""
        if self.open and self.password is not None:
            raise ValueError("--open lets everyone in: it takes no --password")
        if not self.open and not self.password:
            raise ValueError("choose how players get in: --password PW, or --open (anyone who reaches the port)")
        if self.max_sessions < 1 or self.max_per_address < 1 or self.max_connections < 1:
            raise ValueError("the session and connection caps must be at least 1")
        if self.spares < 0:
            raise ValueError("the number of spare apps must be 0 or more")
        if self.idle_timeout < 0:
            raise ValueError("the idle timeout must be 0 (none) or more")
        if self.login_failures < 1 or self.login_window <= 0:
            raise ValueError("the login rate limit needs at least 1 try over a positive window")
