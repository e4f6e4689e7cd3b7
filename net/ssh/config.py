"""serve-ssh's settings, apart from the server: the command line is checked (and a bad one
refused) before asyncssh, a quarter of a second of imports, is loaded."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from net.host import HostConfig
from net.ssh.child import (
    CHILD_COMMAND,
    CONNECTIONS_PER_ADDRESS,
    IDLE_TIMEOUT,
    LOGIN_TIMEOUT,
    MAX_CONNECTIONS,
    MAX_SESSIONS,
    SESSION_WAIT,
    SSH_PORT,
    STOP_GRACE,
)


@dataclass(frozen=True, slots=True)
class SshConfig:
    """How `serve-ssh` runs (its command-line options)."""

    bind: str = "0.0.0.0"
    port: int = SSH_PORT
    """0 picks a free port (see `SshServer.port`)."""
    host_key: Path | None = None
    """The host key file; None: `net.ssh.hostkey.default_path()` in the user data directory."""
    authorized_keys: Path | None = None
    """Players whose public key is in this file (OpenSSH format) may play."""
    password: str | None = None
    """Players who give this password may play (any user name)."""
    open: bool = False
    """Anyone may play, with no key or password (a LAN party). Excludes the other two."""
    game: tuple[str, int] | None = None
    """The game host to join; None runs one in-process on 127.0.0.1 (`host`)."""
    game_password: str | None = None
    """The game host's password, if it has one."""
    host: HostConfig = field(default_factory=lambda: HostConfig(bind="127.0.0.1", port=0, tables=MAX_SESSIONS + 1))
    """The in-process game host (bound to 127.0.0.1: only the sessions' children reach it, so
    its per-address limits are raised to the session cap: players are counted here instead)."""
    max_sessions: int = MAX_SESSIONS
    max_connections: int = MAX_CONNECTIONS
    per_address: int = CONNECTIONS_PER_ADDRESS
    idle_timeout: float = IDLE_TIMEOUT
    login_timeout: float = LOGIN_TIMEOUT
    session_wait: float = SESSION_WAIT
    stop_grace: float = STOP_GRACE
    """Seconds a session's game has to exit once hung up (the session ended) before it is killed."""
    command: tuple[str, ...] = CHILD_COMMAND
    """How the TUI is started (`join ADDRESS --name USER --guest ...` is appended)."""

    def check(self) -> None:
        """Raises ValueError unless exactly one way in is chosen (keys and password may go together)."""
        if self.open and (self.authorized_keys is not None or self.password is not None):
            raise ValueError("--open lets everyone in: it takes no --authorized-keys or --password")
        if not self.open and self.authorized_keys is None and not self.password:
            raise ValueError("choose how players get in: --authorized-keys FILE, --password PW, or --open")
        if self.max_sessions < 1 or self.max_connections < 1 or self.per_address < 1:
            raise ValueError("the session and connection caps must be at least 1")
        if self.idle_timeout < 0:
            raise ValueError("the idle timeout must be 0 (none) or more")
