"""The SSH front door (asyncssh): authenticates players, and gives each PTY session the TUI as a
child process on its own pseudo-terminal, joined to a game host. Nothing else is offered: no
exec, no shell without a terminal, no subsystems (SFTP), no forwarding of ports, agents or X11.

    await serve_ssh(SshConfig(password="party"))     # runs its own game host on 127.0.0.1
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

import asyncssh

from net.clock import Clock, Handle, LoopClock
from net.host import Host, HostConfig, bound_addresses, bound_port
from net.peers import address_key
from net.ssh.child import (
    KEEPALIVE_COUNT_MAX,
    KEEPALIVE_INTERVAL,
    SESSIONS_PER_CONNECTION,
    TermSize,
    child_argv,
    child_env,
    token_name,
)
from net.ssh.config import SshConfig
from net.ssh.hostkey import fingerprint, load_or_create
from net.ssh.pty import PtyChild

log = logging.getLogger(__name__)

SERVER_VERSION: Final = "pigeon_tui"
"""What the server calls itself in the SSH banner."""
NEEDS_PTY: Final = (
    b"pigeon-tui needs a terminal: connect with plain `ssh -p PORT name@host` (or add -t), not a command.\r\n"
)
SERVER_FULL: Final = b"pigeon-tui: every seat of this server is taken right now; try again later.\r\n"
RESTORE_TERMINAL: Final = b"\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?25h\x1b[?1049l"
"""Sent before a line of our own when the TUI was stopped (it could not restore the terminal):
plain colours, mouse reporting and bracketed paste off, the cursor shown, the main screen back."""


class AuthorizedKeys:
    """An authorized_keys file, read again whenever it changes (add a friend, no restart)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self.load()

    def load(self) -> None:
        """Read the file if it changed. Raises OSError or ValueError on the first read only;
        later failures keep the keys already read (and are logged)."""
        st = self.path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return
        try:
            keys = asyncssh.read_authorized_keys(str(self.path))
        except (OSError, ValueError) as exc:
            if self._keys is None:
                raise
            log.warning("could not read %s again (%s): keeping the keys read before", self.path, exc)
            return
        self._keys, self._stamp = keys, stamp

    def allows(self, key: asyncssh.SSHKey, address: str) -> bool:
        try:
            self.load()
        except OSError as exc:
            log.warning("could not check %s: %s", self.path, exc)
        return self._keys is not None and self._keys.validate(key, address, address) is not None


class SshServer:
    """The front door: one asyncssh server, its sessions and their children."""

    def __init__(
        self, config: SshConfig, game: tuple[str, int], host_key: asyncssh.SSHKey, clock: Clock | None = None
    ) -> None:
        config.check()
        self.config = config
        self.clock: Clock = clock or LoopClock()
        """Where the idle and session-wait timers run (tests move a fake one)."""
        self.game = game
        """The game host's address the children join."""
        self.host_key = host_key
        self.keys = AuthorizedKeys(config.authorized_keys) if config.authorized_keys is not None else None
        self.sessions: set[SshSession] = set()
        """Sessions running (or starting) a child."""
        self.connections = 0
        self.per_address: dict[str, int] = {}
        """Connections open now, by address (`net.peers.address_key`)."""
        self.token_dir = Path(tempfile.mkdtemp(prefix="pigeon-tui-ssh-"))
        """Seat tokens per public key (mode 0700, removed on close): a key's next session
        resumes the seat its last one held."""
        self._server: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    async def start(self) -> None:
        """Listen. Raises OSError if the address is taken."""
        c = self.config
        self._server = await asyncssh.create_server(
            lambda: SshConnection(self),
            c.bind,
            c.port,
            server_host_keys=[self.host_key],
            server_version=SERVER_VERSION,
            encoding=None,
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            host_based_auth=False,
            gss_auth=False,
            gss_kex=False,
            public_key_auth=True,
            password_auth=c.open or bool(c.password),
            kbdint_auth=c.open,
            login_timeout=c.login_timeout,
            keepalive_interval=KEEPALIVE_INTERVAL,
            keepalive_count_max=KEEPALIVE_COUNT_MAX,
            config=None,
        )
        log.info(
            "serving SSH on %s (host key %s)", ", ".join(f"{a}:{p}" for a, p in self.addresses()), self.fingerprint
        )

    def addresses(self) -> list[tuple[str, int]]:
        return bound_addresses(self._server)

    @property
    def port(self) -> int:
        return bound_port(self._server, "the SSH server")

    def token_file(self, key_fingerprint: str | None) -> str | None:
        if key_fingerprint is None:
            return None
        return str(self.token_dir / token_name(key_fingerprint))

    def track(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait_closed(self) -> None:
        if self._server is not None:
            await self._server.wait_closed()

    async def close(self) -> None:
        """Stop listening, end every session (each child is stopped and reaped: no orphans),
        and remove the token directory. Safe to call twice; not to be cancelled halfway."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        for session in list(self.sessions):
            session.end(b"pigeon-tui: the server is shutting down.\r\n")
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        shutil.rmtree(self.token_dir, ignore_errors=True)


class SshConnection(asyncssh.SSHServer):
    """One SSH connection: authentication, and what it may open (sessions only)."""

    def __init__(self, server: SshServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = ""
        self.address = ""
        self.key_fingerprint: str | None = None
        """The public key this connection logged in with (None: a password, or --open)."""
        self._candidate: str | None = None
        self._sessions = 0
        self._open: set[SshSession] = set()
        self._waiting: Handle | None = None
        self._counted = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.address = address_key(self.peer)
        server = self.server
        here = server.per_address.get(self.address, 0)
        if server._closing or server.connections >= server.config.max_connections or here >= server.config.per_address:
            log.info("%s: refused, %d connections already (%d from there)", self.peer, server.connections, here)
            asyncio.get_running_loop().call_soon(conn.close)
            return
        server.connections += 1
        server.per_address[self.address] = here + 1
        self._counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self.conn = None
        if self._counted:
            server = self.server
            server.connections -= 1
            left = server.per_address.get(self.address, 1) - 1
            if left > 0:
                server.per_address[self.address] = left
            else:
                server.per_address.pop(self.address, None)
            self._counted = False

    # ---- a connection holds a slot only while it has a session --------------------------------

    def _wait_for_a_session(self) -> None:
        wait = self.server.config.session_wait
        if self._waiting is None and not self._open and wait > 0 and self.conn is not None:
            self._waiting = self.server.clock.call_later(wait, self._no_session)

    def _stop_waiting(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None

    def _no_session(self) -> None:
        self._waiting = None
        if not self._open and self.conn is not None:
            log.info("%s: no session open for %gs, closing", self.peer, self.server.config.session_wait)
            self.conn.close()

    def session_ended(self, session: SshSession) -> None:
        self._open.discard(session)
        self._wait_for_a_session()

    # ---- authentication ---------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        return True  # every mode authenticates: even --open takes a key to learn its fingerprint

    def public_key_auth_supported(self) -> bool:
        return self.server.keys is not None or self.server.config.open

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        server = self.server
        ok = server.config.open or (server.keys is not None and server.keys.allows(key, self.peer))
        # asyncssh calls this for the query and again for the signed request, then checks the
        # signature; the last method tried before `auth_completed` is the one that succeeded
        self._candidate = fingerprint(key) if ok else None
        return ok

    def password_auth_supported(self) -> bool:
        return self.server.config.open or bool(self.server.config.password)

    def validate_password(self, username: str, password: str) -> bool:
        self._candidate = None
        config = self.server.config
        if config.open:
            return True
        expected = config.password or ""
        return bool(expected) and hmac.compare_digest(password.encode(), expected.encode())

    def kbdint_auth_supported(self) -> bool:
        return self.server.config.open

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._candidate = None
        return self.server.config.open  # True: in, with no question asked

    def auth_completed(self) -> None:
        self.key_fingerprint = self._candidate
        log.info("%s: logged in%s", self.peer, " with a key" if self.key_fingerprint else "")
        self._wait_for_a_session()

    # ---- what may be opened -----------------------------------------------------------------

    def session_requested(self) -> SshSession | bool:
        if self._sessions >= SESSIONS_PER_CONNECTION:
            return False
        self._sessions += 1
        session = SshSession(self.server, self)
        self._open.add(session)
        self._stop_waiting()
        return session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        return False  # no direct-tcpip (ssh -L)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False  # no tcpip-forward (ssh -R)

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> bool:
        return False

    def tap_requested(self, unit: int | None) -> bool:
        return False


class SshSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel: a PTY and a shell request start the TUI; anything else is refused."""

    def __init__(self, server: SshServer, connection: SshConnection) -> None:
        self.server = server
        self.connection = connection
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.pty = False
        self.term: str | None = None
        self.size = TermSize(80, 24)
        self.child: PtyChild | None = None
        self.user = ""
        self._task: asyncio.Task[None] | None = None
        self._idle: Handle | None = None
        self._output_paused = False
        self._ended = False
        self._gone = asyncio.Event()  # the session ended (left, idle, shutdown): stop the game

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.pty = True
        self.term = term_type
        self.size = TermSize.clamp(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True  # without a PTY, `session_started` says why and closes

    def exec_requested(self, command: str) -> bool:
        log.info("%s: refused a command", self.connection.peer)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("%s: refused subsystem %r", self.connection.peer, subsystem[:32])
        return False

    def session_started(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"ssh session {self.connection.peer}")
        self.server.track(self._task)

    async def _run(self) -> None:
        chan = self.chan
        assert chan is not None
        server = self.server
        if not self.pty:
            self._finish(NEEDS_PTY, 1)
            return
        if len(server.sessions) >= server.config.max_sessions or server._closing:
            self._finish(SERVER_FULL, 1)
            return
        server.sessions.add(self)
        try:
            self.user = str(chan.get_extra_info("username") or "")
            env = child_env(self.term, chan.get_environment(), os.environ, server.config.game_password)
            token = server.token_file(self.connection.key_fingerprint)
            argv = child_argv(*server.game, self.user, token, server.config.command)
            try:
                self.child = await PtyChild.start(argv, env, self.size, self._output)
            except OSError as exc:
                log.error("could not start the game for %s: %s", self.connection.peer, exc)
                self._finish(b"pigeon-tui: the game could not start on the server.\r\n", 1)
                return
            if self._ended:  # the player left while it started: `finally` stops it
                return
            if self._output_paused:
                self.child.pause_reading()
            log.info("%s: session for %r, child %d", self.connection.peer, self.user, self.child.pid)
            gone = asyncio.ensure_future(self._gone.wait())
            try:  # until the game exits, or the session ends first (then `finally` stops the game)
                await asyncio.wait((self.child.exited, gone), return_when=asyncio.FIRST_COMPLETED)
            finally:
                gone.cancel()
            if self.child.exited.done():
                code = self.child.exited.result()
                self._finish(b"", code if 0 <= code < 256 else 1)
        finally:
            if self._idle is not None:
                self._idle.cancel()
            if self.child is not None:
                await self.child.stop(server.config.stop_grace)
            server.sessions.discard(self)

    def _output(self, data: bytes) -> None:
        chan = self.chan
        if chan is None or self._ended:
            return
        if self._idle is None:
            self._touch()  # idle time counts from the first screen: a slow start is not the player's
        try:
            chan.write(data)
        except (OSError, asyncssh.Error):
            self.end()

    def _finish(self, message: bytes, status: int) -> None:
        """Say `message` (if any) and close the channel with exit `status`."""
        if self._ended:
            return
        self._ended = True
        chan = self.chan
        if chan is None:
            return
        try:
            if message:
                chan.write(message)
            chan.exit(status)
        except (OSError, asyncssh.Error):
            chan.close()

    def end(self, message: bytes = b"") -> None:
        """Stop the TUI now (idle, shutdown): its process group is hung up and reaped by `_run`,
        and the player's terminal is put back to normal before `message`."""
        self._gone.set()  # `_run` hangs the game up, kills it if need be, and reaps it
        self._finish(RESTORE_TERMINAL + b"\r\n" + message if self.child is not None else message, 1)

    def _touch(self) -> None:
        timeout = self.server.config.idle_timeout
        if timeout <= 0:
            return
        if self._idle is not None:
            self._idle.cancel()
        self._idle = self.server.clock.call_later(timeout, self._idle_out)

    def _idle_out(self) -> None:
        minutes = self.server.config.idle_timeout / 60
        log.info("%s: idle, closing", self.connection.peer)
        self.end(f"pigeon-tui: no key pressed for {minutes:g} minutes: goodbye.\r\n".encode())

    # ---- the channel ------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.child is not None:
            self.child.write(data)
            self._touch()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = TermSize.clamp(width, height)
        if self.child is not None:
            self.child.resize(self.size)

    def eof_received(self) -> bool:
        return False  # the player's side is done: close

    def pause_writing(self) -> None:
        self._output_paused = True
        if self.child is not None:
            self.child.pause_reading()

    def resume_writing(self) -> None:
        self._output_paused = False
        if self.child is not None:
            self.child.resume_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self._gone.set()  # `_run` stops the game (or, if it is still starting, once it has)
        self.connection.session_ended(self)


# ---- running it ---------------------------------------------------------------------------


def inner_host(config: SshConfig) -> HostConfig:
    """The in-process game host's config: every session's child comes from 127.0.0.1, so its
    per-address limits must let every session in (each player is counted at the front door),
    and a player in the lobby stays as long as their session does (the idle timeout)."""
    limits = config.host.limits
    limits = limits._replace(
        per_address=max(limits.per_address, config.max_sessions),
        pending_per_address=max(limits.pending_per_address, config.max_sessions),
        tables_per_address=max(limits.tables_per_address, config.max_sessions),
        lobby_timeout=max(limits.lobby_timeout, config.idle_timeout),
    )
    return replace(config.host, limits=limits)


async def serve_ssh(
    config: SshConfig, ready: Callable[[SshServer, Host | None], None] | None = None, clock: Clock | None = None
) -> None:
    """Run the front door (and its own game host, unless `config.game` names one) until
    cancelled; `ready(server, host)` is called once both listen. Cancelling it ends every
    session and stops every child. Idle and session-wait timers run on `clock` (the event loop's
    unless a test gives a fake one). Raises ValueError (bad config), OSError (a port taken)."""
    config.check()
    key = load_or_create(config.host_key)
    host: Host | None = None
    if config.game is None:
        host = Host(inner_host(config))
        await host.start()
        game = ("127.0.0.1", host.port)
    else:
        game = config.game
    server = SshServer(config, game, key, clock)
    try:
        await server.start()
        if ready is not None:
            ready(server, host)
        async with asyncio.TaskGroup() as tg:
            if host is not None:
                tg.create_task(host.serve_forever(), name="game host")
            tg.create_task(server.wait_closed(), name="ssh server")
    finally:
        await server.close()
        if host is not None:
            await host.close()
