"""What each SSH session runs, sans I/O: the TUI's command line and its minimal environment,
and the caps a front door keeps. `net/ssh/pty.py` starts it; `net/ssh/server.py` decides when."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from net.sanitize import clean_name

SSH_PORT: Final = 2222
"""The front door's default TCP port (22 is usually the machine's own sshd)."""
MAX_SESSIONS: Final = 32
"""SSH sessions (so TUI processes) at once; the next is told the server is full."""
MAX_CONNECTIONS: Final = 64
"""SSH connections at once, logged in or not; the next is disconnected at once."""
SESSIONS_PER_CONNECTION: Final = 2
"""Session channels one SSH connection may open (a multiplexing client asks for more)."""
CONNECTIONS_PER_ADDRESS: Final = 8
"""SSH connections at once from one address (an IPv4 address, an IPv6 /64); the next is
disconnected at once, so one machine cannot take every slot."""
SESSION_WAIT: Final = 30.0
"""Seconds a logged-in connection may have no session open (`ssh -N`, or a multiplexing master
whose sessions ended) before it is closed: only sessions are held for the idle timeout."""
LOGIN_TIMEOUT: Final = 30.0
"""Seconds a connection has to authenticate."""
IDLE_TIMEOUT: Final = 1800.0
"""Seconds without a key press before a session is closed (0: never)."""
KEEPALIVE_INTERVAL: Final = 30.0
"""Seconds between keepalive requests to a silent client."""
KEEPALIVE_COUNT_MAX: Final = 3
"""Unanswered keepalives before the connection is treated as dead."""
STOP_GRACE: Final = 2.0
"""Seconds a session's child has to exit after SIGHUP before it is killed."""
INPUT_BUFFER_MAX: Final = 64 * 1024
"""Bytes of key presses queued for a child that is not reading; more are dropped."""
TERM_COLUMNS_MAX: Final = 1000
TERM_ROWS_MAX: Final = 500
"""A terminal size beyond these is clamped (a client may say anything)."""
ENV_VALUE_MAX: Final = 64
"""Characters of a TERM, LANG or COLORTERM value taken from the client."""
PASSWORD_ENV: Final = "PIGEON_TUI_PASSWORD"
"""The game host's password for the child, if it has one (kept out of the command line)."""

CHILD_COMMAND: Final = (sys.executable, "-m", "pigeon_tui")
"""The TUI, as a child: the app's own entry point with the running interpreter."""
CLIENT_ENV: Final = ("LANG", "COLORTERM")
"""Variables taken from the SSH session's environment requests (TERM comes with the PTY)."""
SERVER_ENV: Final = ("PATH", "HOME")
"""Variables taken from the server's own environment: what it takes to run Python."""
DEFAULT_TERM: Final = "xterm-256color"
DEFAULT_LANG: Final = "C.UTF-8"
_SAFE_VALUE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]*")


@dataclass(frozen=True, slots=True)
class TermSize:
    columns: int
    rows: int

    @classmethod
    def clamp(cls, columns: int, rows: int) -> TermSize:
        """A size a terminal can have: at least 1x1, at most the caps (0 means "unknown": 80x24)."""
        columns = columns or 80
        rows = rows or 24
        return cls(max(1, min(columns, TERM_COLUMNS_MAX)), max(1, min(rows, TERM_ROWS_MAX)))


def safe_value(value: object) -> str | None:
    """A client-sent value fit for the child's environment: short, letters, digits and `._@+-`."""
    if isinstance(value, bytes):
        value = value.decode("ascii", errors="replace")
    if not isinstance(value, str) or len(value) > ENV_VALUE_MAX or not _SAFE_VALUE.fullmatch(value):
        return None
    return value


def child_env(
    term: str | None,
    client_env: Mapping[str, object],
    server_env: Mapping[str, str],
    game_password: str | None = None,
) -> dict[str, str]:
    """The child's whole environment: TERM from the PTY request, LANG and COLORTERM from the
    session, PATH and HOME from the server, and nothing else (no secret of the server leaks,
    and the colours are the client terminal's)."""
    env = {"TERM": safe_value(term) or DEFAULT_TERM, "LANG": DEFAULT_LANG}
    for name in CLIENT_ENV:
        value = safe_value(client_env.get(name))
        if value is not None:
            env[name] = value
    for name in SERVER_ENV:
        if name in server_env:
            env[name] = server_env[name]
    if game_password:
        env[PASSWORD_ENV] = game_password
    return env


def child_argv(
    address: str,
    port: int,
    user: str,
    token_file: str | None = None,
    command: tuple[str, ...] = CHILD_COMMAND,
) -> list[str]:
    """`pigeon-tui join ADDRESS:PORT --name USER --guest [--token-file FILE]`: the TUI at that
    host's lobby, as a guest (it can play there, never host or go elsewhere)."""
    argv = [*command, "join", f"{address}:{port}", "--name", player_name(user), "--guest"]
    if token_file is not None:
        argv += ["--token-file", token_file]
    return argv


def player_name(user: str) -> str:
    """The default player name for an SSH user name (cleaned like every name)."""
    return clean_name(user)


def token_name(fingerprint: str) -> str:
    """The file name under which a public key's seat token is kept (no key text in names)."""
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:32]
