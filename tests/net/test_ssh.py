"""The SSH front door (net/ssh): real asyncssh clients on 127.0.0.1, port 0, against a server
with its own game host. Screens are read by feeding the channel's bytes to a terminal emulator
(pyte) and looking for text the TUI draws."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import stat
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest

from core.decisions import REACTIONS
from net.clock import Clock, LoopFakeClock
from net.host import Host, HostConfig
from net.ssh.child import STOP_GRACE, TermSize, child_argv, child_env, safe_value
from net.ssh.config import SshConfig
from net.ssh.pty import PtyChild
from net.ssh.server import NEEDS_PTY, SshServer, serve_ssh
from net.table import Table, TableConfig
from tests.net.helpers import FAST
from tests.net.zygote import Zygote

PASSWORD = "pigeons"
STAND_IN = (sys.executable, str(Path(__file__).with_name("tui_stand_in.py")))
"""The child for tests of the server's own work: draws the lobby's words at once (the real TUI
is the child of the tests that play or draw)."""


@pytest.fixture(scope="module")
def tuis() -> Iterator[Zygote]:
    """TUIs forked from a process that has imported the app, for the tests that play or draw
    through the TUI (a new interpreter spends ~0.9 s of CPU importing it). A guest playing bots
    and p0 of the five sessions keep the TUI as a new interpreter, as serve-ssh runs it."""
    z = Zygote(tui=True)
    yield z
    z.close()


WAIT = 60.0
"""Seconds a screen may take to show what a test waits for (a loaded CI machine is slow)."""


def game_host(**table: Any) -> HostConfig:
    base: dict[str, Any] = dict(seats=2, bots=1, bot_level="random", seed=3, reaction_window=0.0)
    base.update(reaction_limit=0.0, turn_limit=0.0, bot_delay=0.0)
    base.update(table)
    return HostConfig(bind="127.0.0.1", port=0, tables=12, table=TableConfig(**base), limits=FAST)


@contextlib.asynccontextmanager
async def front_door(tmp_path: Path, clock: Clock | None = None, **kw: Any) -> AsyncIterator[tuple[SshServer, Host]]:
    config = SshConfig(bind="127.0.0.1", port=0, host_key=tmp_path / "host_key", host=game_host(), idle_timeout=0)
    if not {"password", "authorized_keys", "open"} & kw.keys():
        kw["password"] = PASSWORD
    config = replace(config, **kw)
    started: asyncio.Future[tuple[SshServer, Host | None]] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve_ssh(config, lambda s, h: started.set_result((s, h)), clock))
    try:
        server, host = await asyncio.wait_for(asyncio.shield(started), 20)
        assert host is not None
        yield server, host
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def login(server: SshServer, user: str = "ada", **kw: Any) -> Any:
    if "client_keys" not in kw and "password" not in kw:
        kw["password"] = PASSWORD
    kw.setdefault("client_keys", None)
    kw.setdefault("agent_path", None)
    return asyncssh.connect("127.0.0.1", server.port, username=user, known_hosts=None, **kw)


_SGR = re.compile(rb"\x1b\[[0-9;:]*m")
"""A complete Select Graphic Rendition sequence (colours and bold): it changes no character and
moves no cursor. One cut in two by the channel is left whole for pyte, which then parses it."""


class Terminal(asyncssh.SSHClientSession[bytes]):
    """A player's terminal: everything the channel sends goes through a VT emulator, less the
    colours. The tests read words, and pyte parses escape sequences one character at a time in
    Python: the TUI's colour changes were most of its bytes and about half of this module's CPU
    in the test process (`raw` keeps every byte as sent)."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self._lines: list[str] | None = None

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.raw += data
        self.stream.feed(_SGR.sub(b"", data))
        self._lines = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    @property
    def lines(self) -> list[str]:
        """The screen's rows, as pyte draws them (read again only after new bytes: the waits
        below look every 50 ms, and pyte builds every row from its cells at each look)."""
        if self._lines is None:
            self._lines = self.screen.display
        return self._lines

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def wait_for(self, *words: str, timeout: float = WAIT) -> str:
        """Wait until one of `words` is on screen; return it."""
        async with asyncio.timeout(timeout):
            while True:
                for word in words:
                    if word in self.text:
                        return word
                if self.closed.is_set():
                    raise AssertionError(f"the session closed; last screen:\n{self.text}")
                await asyncio.sleep(0.05)

    def press(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys.encode())

    def resize(self, columns: int, rows: int) -> None:
        assert self.chan is not None
        self.screen.resize(rows, columns)
        self._lines = None
        self.chan.change_terminal_size(columns, rows)


async def open_terminal(conn: Any, columns: int = 80, rows: int = 24, **kw: Any) -> Terminal:
    kw.setdefault("env", {"LANG": "C.UTF-8", "COLORTERM": "truecolor"})
    _, term = await conn.create_session(
        lambda: Terminal(columns, rows), term_type="xterm-256color", term_size=(columns, rows), encoding=None, **kw
    )
    assert isinstance(term, Terminal)
    return term


def table_of(host: Host, name: str) -> tuple[Table, int]:
    for table in host.tables.values():
        for m in table.seats:
            if m is not None and m.name == name:
                return table, m.seat
    raise LookupError(name)


async def play_until_each_moved(host: Host, players: dict[str, Terminal], timeout: float = 90.0) -> None:
    """Press each player's keys when the host waits for them (0 passes a reaction, 1 picks the
    first option) until every one of them has made a choice the host recorded. A decision's key
    is pressed again if it is still open 0.3 s later (the press came before the screen)."""
    loop = asyncio.get_running_loop()
    pressed: dict[tuple[str, int], float] = {}
    async with asyncio.timeout(timeout):
        while True:
            moved = set()
            for name in players:
                table, seat = table_of(host, name)
                assert table.record is not None
                if any(c[0] == seat for c in table.record.choices):
                    moved.add(name)
            if moved == set(players):
                return
            for name, term in players.items():
                table, seat = table_of(host, name)
                if table.state is None:
                    continue
                for d in table.state.open:
                    if d.player == seat:
                        if loop.time() - pressed.get((name, d.id), -1.0) >= 0.3:
                            pressed[name, d.id] = loop.time()
                            term.press("0" if d.kind in REACTIONS else "1")
                        break
            await asyncio.sleep(0.05)


async def at_lobby(conn: Any, **kw: Any) -> Terminal:
    term = await open_terminal(conn, **kw)
    await term.wait_for("Lobby")
    await term.wait_for("Table 1")
    return term


# ---- the child's command and environment (sans I/O) ---------------------------------------


def test_child_env_takes_only_the_client_terminal_and_what_python_needs() -> None:
    server_env = {"PATH": "/usr/bin", "HOME": "/home/srv", "SECRET_TOKEN": "x", "TERM": "dumb", "COLORTERM": "no"}
    env = child_env("xterm-kitty", {"COLORTERM": "truecolor", "LANG": "fr_FR.UTF-8", "EVIL": "1"}, server_env)
    assert env == {
        "TERM": "xterm-kitty",
        "LANG": "fr_FR.UTF-8",
        "COLORTERM": "truecolor",
        "PATH": "/usr/bin",
        "HOME": "/home/srv",
    }
    hostile = child_env("x\x1b]0;pwn\x07", {"COLORTERM": "a b", "LANG": "x" * 200}, {})
    assert hostile == {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    assert safe_value(b"screen-256color") == "screen-256color"
    assert child_env("xterm", {}, {}, "hostpw")["PIGEON_TUI_PASSWORD"] == "hostpw"


def test_child_argv_joins_as_a_guest_with_a_clean_name() -> None:
    argv = child_argv("127.0.0.1", 4242, "\x1b[31mada\x07", "/tmp/t", command=("pt",))
    assert argv == ["pt", "join", "127.0.0.1:4242", "--name", "ada", "--guest", "--token-file", "/tmp/t"]
    assert TermSize.clamp(0, 0) == TermSize(80, 24)
    assert TermSize.clamp(99999, -3) == TermSize(1000, 1)


def test_config_needs_exactly_one_way_in() -> None:
    with pytest.raises(ValueError):
        SshConfig().check()
    with pytest.raises(ValueError):
        SshConfig(open=True, password="x").check()
    SshConfig(password="x", authorized_keys=Path("k")).check()


# ---- sessions -----------------------------------------------------------------------------


async def test_pty_session_reaches_the_lobby_then_a_table_and_makes_a_move(tmp_path: Path, tuis: Zygote) -> None:
    async with front_door(tmp_path, command=tuis.tui_command) as (server, host), login(server, "ada") as conn:
        term = await at_lobby(conn)
        assert "ada" not in host.tables[1].info()["seats"]
        term.press("\r")  # sit at Table 1: its other seat is a bot, so the game starts
        await term.wait_for("Your hand")
        (session,) = server.sessions
        assert session.child is not None
        await play_until_each_moved(host, {"ada": term})
        table, seat = table_of(host, "ada")
        assert table.record is not None and any(c[0] == seat for c in table.record.choices)


async def test_a_guest_sits_at_the_cubirds_table_of_serve_ssh_game_cubirds_and_lays_birds(
    tmp_path: Path, tuis: Zygote
) -> None:
    async with (
        front_door(tmp_path, host=game_host(game="cubirds"), command=tuis.tui_command) as (server, host),
        login(server, "ada") as conn,
    ):
        term = await at_lobby(conn)
        assert host.tables[1].info()["game_id"] == "cubirds"
        term.press("\r")
        await term.wait_for("Rows")
        await play_until_each_moved(host, {"ada": term})


async def test_the_child_gets_the_client_terminal_and_no_server_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIGEON_SERVER_SECRET", "hunter2")
    monkeypatch.setenv("COLORTERM", "server-colours")
    async with front_door(tmp_path, command=STAND_IN) as (server, _host), login(server) as conn:
        await at_lobby(conn, env={"COLORTERM": "truecolor", "LANG": "C.UTF-8"})
        (session,) = server.sessions
        assert session.child is not None
        with open(f"/proc/{session.child.pid}/environ", "rb") as f:
            env = dict(item.split(b"=", 1) for item in f.read().split(b"\0") if b"=" in item)
        assert env[b"TERM"] == b"xterm-256color"
        assert env[b"COLORTERM"] == b"truecolor"
        assert b"PIGEON_SERVER_SECRET" not in env
        assert set(env) <= {b"TERM", b"LANG", b"COLORTERM", b"PATH", b"HOME"}
        # the PTY is the child's controlling terminal: it leads its own session on it
        with open(f"/proc/{session.child.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        assert int(fields[3]) == session.child.pid  # session id (setsid)
        assert int(fields[4]) != 0  # tty_nr: it has a controlling terminal


async def test_resize_reaches_the_tui_and_it_redraws(tmp_path: Path, tuis: Zygote) -> None:
    async with front_door(tmp_path, command=tuis.tui_command) as (server, _host), login(server) as conn:
        term = await at_lobby(conn)
        async with asyncio.timeout(WAIT):  # the footer may be drawn a frame after the lobby
            while "Quit" not in term.lines[23]:
                await asyncio.sleep(0.05)
        term.resize(100, 30)
        async with asyncio.timeout(WAIT):
            while "Quit" not in term.lines[29]:
                await asyncio.sleep(0.05)
        assert len(term.lines[29].rstrip()) > 0
        term.resize(80, 24)
        async with asyncio.timeout(WAIT):
            while "Quit" not in term.lines[23]:
                await asyncio.sleep(0.05)


async def test_a_guest_plays_bots_on_the_same_host_and_cannot_host_or_go_elsewhere(tmp_path: Path) -> None:
    async with front_door(tmp_path) as (server, host), login(server, "ada") as conn:
        term = await at_lobby(conn)
        term.press("\x1b")  # Esc: the lobby's "Leave", to the start menu
        await term.wait_for("Play against bots")
        assert "Back to the lobby" in term.text
        assert "Host a LAN game" not in term.text and "Join a game" not in term.text
        term.press("\r")  # Play against bots: a new table with bots on the same host
        try:
            await term.wait_for("Your hand", timeout=5.0)
        except TimeoutError:  # the key came before the menu took keys: once more, if still there
            if "Play against bots" in term.text:
                term.press("\r")
            await term.wait_for("Your hand")
        table, _seat = table_of(host, "ada")
        assert table.id != 1 and sum(1 for m in table.seats if m is not None and not m.human) == 3
        (session,) = server.sessions
        assert session.child is not None
        with open(f"/proc/{session.child.pid}/task/{session.child.pid}/children") as f:
            assert f.read().split() == []  # no private host process of its own


@pytest.mark.parametrize("deaf", [False, True], ids=["hung-up", "deaf-to-its-hang-up"])
async def test_session_end_stops_the_child(tmp_path: Path, deaf: bool) -> None:
    """The session's game goes when its player leaves: hung up, or, if it ignores SIGHUP, killed
    `stop_grace` seconds later. Neither the process nor the session's slot outlives the session."""
    command = (*STAND_IN, "--deaf") if deaf else STAND_IN
    async with front_door(tmp_path, command=command, stop_grace=0.2 if deaf else STOP_GRACE) as (server, _host):
        async with login(server) as conn:
            await at_lobby(conn)
            (session,) = server.sessions
            assert session.child is not None
            pid = session.child.pid
        async with asyncio.timeout(WAIT):
            while server.sessions:
                await asyncio.sleep(0.05)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_the_game_hears_its_hang_up_from_a_server_started_with_nohup() -> None:
    """A server that ignores SIGHUP and SIGQUIT (`nohup`, `&` in a script) starts its games with
    their default actions: an ignored signal would stay ignored across exec."""
    out = bytearray()
    report = "import signal as s; print(s.getsignal(s.SIGHUP).name, s.getsignal(s.SIGQUIT).name)"
    before = [signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGHUP, signal.SIGQUIT)]
    try:
        child = await PtyChild.start([sys.executable, "-c", report], {}, TermSize(80, 24), out.extend)
    finally:
        for sig, handler in zip((signal.SIGHUP, signal.SIGQUIT), before, strict=True):
            signal.signal(sig, handler)
    async with asyncio.timeout(WAIT):
        assert await child.exited == 0
    assert out.split() == [b"SIG_DFL", b"SIG_DFL"]


async def test_server_shutdown_stops_every_child(tmp_path: Path) -> None:
    pids = []
    async with front_door(tmp_path, command=STAND_IN) as (server, _host):
        async with login(server) as conn:
            for _ in range(2):
                await at_lobby(conn)
            pids = [s.child.pid for s in server.sessions if s.child is not None]
            assert len(pids) == 2
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


# ---- refusals -----------------------------------------------------------------------------


async def test_exec_is_refused(tmp_path: Path) -> None:
    async with front_door(tmp_path) as (server, _host), login(server) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_session(asyncssh.SSHClientSession, "id")
        assert not server.sessions


async def test_shell_without_a_pty_gets_one_line_and_is_closed(tmp_path: Path) -> None:
    async with front_door(tmp_path) as (server, _host), login(server) as conn:
        chan, term = await conn.create_session(Terminal, encoding=None)
        await asyncio.wait_for(term.closed.wait(), WAIT)
        assert bytes(term.raw) == NEEDS_PTY
        assert chan.get_exit_status() == 1
        assert not server.sessions


async def test_sftp_and_other_subsystems_are_refused(tmp_path: Path) -> None:
    async with front_door(tmp_path) as (server, _host), login(server) as conn:
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_session(asyncssh.SSHClientSession, subsystem="netconf")


async def test_port_forwarding_is_refused_both_ways(tmp_path: Path) -> None:
    async with front_door(tmp_path) as (server, host), login(server) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):  # ssh -L: the game host is right there
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", host.port)
        with pytest.raises(asyncssh.ChannelListenError):  # ssh -R
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", host.port)


async def test_wrong_password_is_refused(tmp_path: Path) -> None:
    async with front_door(tmp_path) as (server, _host):
        with pytest.raises(asyncssh.PermissionDenied):
            async with login(server, password="not it"):
                pass


async def test_unknown_key_is_refused_and_a_known_key_gets_in(tmp_path: Path) -> None:
    known, stranger = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(known.export_public_key())
    async with front_door(tmp_path, authorized_keys=keys, command=STAND_IN) as (server, _host):
        with pytest.raises(asyncssh.PermissionDenied):
            async with login(server, client_keys=[stranger]):
                pass
        with pytest.raises(asyncssh.PermissionDenied):  # no password way in either
            async with login(server, password="anything"):
                pass
        async with login(server, client_keys=[known]) as conn:
            await at_lobby(conn)


async def test_host_key_is_kept_private_and_survives_a_restart(tmp_path: Path) -> None:
    prints = []
    for _ in range(2):
        async with front_door(tmp_path) as (server, _host), login(server) as conn:
            prints.append(conn.get_server_host_key().get_fingerprint())
            assert prints[-1] == server.fingerprint
    assert prints[0] == prints[1]
    assert stat.S_IMODE((tmp_path / "host_key").stat().st_mode) == 0o600


async def test_the_same_key_takes_its_seat_back(tmp_path: Path, tuis: Zygote) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    async with front_door(tmp_path, authorized_keys=keys, command=tuis.tui_command) as (server, host):
        async with login(server, "ada", client_keys=[key]) as conn:
            term = await at_lobby(conn)
            term.press("\r")
            await term.wait_for("Your hand")
            table, seat = table_of(host, "ada")
        async with login(server, "ada", client_keys=[key]) as conn:
            term = await open_terminal(conn)
            await term.wait_for("Your hand")  # straight back to the table
            assert "Table 1: waiting" not in term.text
            member = table.seats[seat]
            assert member is not None and member.conn is not None and member.name == "ada"


async def test_sessions_are_capped(tmp_path: Path) -> None:
    async with front_door(tmp_path, max_sessions=1, command=STAND_IN) as (server, _host), login(server) as conn:
        await at_lobby(conn)
        _chan, term = await conn.create_session(Terminal, term_type="xterm", term_size=(80, 24), encoding=None)
        await asyncio.wait_for(term.closed.wait(), WAIT)
        assert b"every seat of this server is taken" in term.raw


async def test_a_connection_without_a_session_is_closed(tmp_path: Path) -> None:
    """`ssh -N` (logged in, no session) holds no slot for long: it is closed after
    `session_wait`; a connection whose session ended waits the same (on a clock the test moves)."""
    clock = LoopFakeClock()
    async with front_door(tmp_path, clock, session_wait=30.0) as (server, _host):
        async with login(server) as conn:
            assert clock.advance(29.9) == 0
            assert clock.advance(0.2) == 1
            await asyncio.wait_for(conn.wait_closed(), WAIT)
            assert server.connections == 0 and not server.per_address
        async with login(server) as conn:
            _chan, term = await conn.create_session(Terminal, encoding=None)  # no PTY: it ends at once
            await asyncio.wait_for(term.closed.wait(), WAIT)
            async with asyncio.timeout(WAIT):
                while clock.next_due() is None:
                    await asyncio.sleep(0.01)
            clock.advance(30.0)
            await asyncio.wait_for(conn.wait_closed(), WAIT)


async def test_connections_from_one_address_are_capped(tmp_path: Path) -> None:
    """One machine cannot take every slot: past `per_address` connections from its address the
    next is disconnected at once, and a slot is free again when one closes."""
    async with front_door(tmp_path, per_address=2) as (server, _host):
        async with login(server) as one, login(server) as two:
            with pytest.raises((asyncssh.Error, OSError)):
                async with login(server):
                    pass
            assert server.per_address == {"127.0.0.1": 2}
            assert one is not None and two is not None
        async with asyncio.timeout(WAIT):
            while server.per_address:
                await asyncio.sleep(0.05)
        async with login(server):  # the slot is free again
            pass


async def test_five_sessions_play_at_one_table(tmp_path: Path, tuis: Zygote) -> None:
    """Five SSH sessions, each its own PTY and child, fill one table and each make a choice by
    keys. p0's child is the TUI; the other four are the stand-in's players (a client that sits
    and chooses on the same keys), as five TUIs drawing every move cost ~13 s of CPU. All five
    are forked from the zygote (a TUI as a new interpreter: the guest-plays-bots test)."""
    config = game_host(seats=5, bots=0)
    players = (*tuis.tui_command, "--play", "--tui-for", "p0")
    async with front_door(tmp_path, host=config, command=players) as (server, host):
        names = [f"p{i}" for i in range(5)]
        async with contextlib.AsyncExitStack() as stack:
            conns = [await stack.enter_async_context(login(server, name)) for name in names]
            terms = await asyncio.gather(*(at_lobby(c) for c in conns))
            for n, term in enumerate(terms, 1):
                term.press("\r")  # each sits at Table 1; the fifth fills it and the game starts
                async with asyncio.timeout(WAIT):
                    while sum(m is not None for m in host.tables[1].seats) < n:
                        await asyncio.sleep(0.01)
            await asyncio.gather(*(t.wait_for("Your hand") for t in terms))
            assert len(server.sessions) == 5
            await terms[0].wait_for("Quit")  # p0's is the TUI (its footer), playing among the others
            assert not any("Quit" in t.text for t in terms[1:])
            await play_until_each_moved(host, dict(zip(names, terms, strict=True)), timeout=150)


async def test_an_idle_session_is_closed_and_the_terminal_put_back(tmp_path: Path) -> None:
    """The idle timer counts from the first screen and starts again at each key; run out, it
    stops the TUI and puts the player's terminal back (on a clock the test moves)."""
    clock = LoopFakeClock()
    async with (
        front_door(tmp_path, clock, idle_timeout=60.0, command=STAND_IN) as (server, _host),
        login(server) as conn,
    ):
        term = await at_lobby(conn)
        (session,) = server.sessions
        assert session.child is not None
        pid = session.child.pid
        assert clock.next_due() == 60.0
        assert clock.advance(30.0) == 0
        term.press("z")  # a key: the session is kept
        async with asyncio.timeout(WAIT):
            while clock.next_due() != 90.0:
                await asyncio.sleep(0.01)
        assert clock.advance(59.9) == 0 and not term.closed.is_set()
        assert clock.advance(0.2) == 1
        await asyncio.wait_for(term.closed.wait(), WAIT)
        assert b"no key pressed for 1 minutes" in term.raw
        assert b"\x1b[?1049l" in term.raw  # the main screen is back
        async with asyncio.timeout(WAIT):
            while server.sessions:
                await asyncio.sleep(0.05)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_open_mode_lets_anyone_in_and_still_learns_the_key(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with front_door(tmp_path, open=True, command=STAND_IN) as (server, _host):
        async with login(server, "eve", client_keys=[key]) as conn:
            await at_lobby(conn)
            (session,) = server.sessions
            assert session.connection.key_fingerprint == key.get_fingerprint("sha256")
        async with login(server, "mallory", password="anything") as conn:
            await at_lobby(conn)


async def test_agent_and_x11_forwarding_are_not_granted(tmp_path: Path) -> None:
    agent = str(tmp_path / "agent.sock")  # asked for, never used: the server says no
    async with front_door(tmp_path, command=STAND_IN) as (server, _host), login(server, agent_forwarding=True) as conn:
        conn._agent_forward_path = agent
        await at_lobby(conn, x11_forwarding="ignore_failure", x11_display="127.0.0.1:99")
        (session,) = server.sessions
        assert session.chan is not None
        assert session.chan.get_agent_path() is None
        assert session.chan.get_x11_display() is None


def test_serve_ssh_is_headless_and_wants_a_way_in() -> None:
    """No textual ever; and a command line without a way in is refused before asyncssh is even
    imported (SshConfig lives apart from the server: a refusal costs no SSH import)."""
    code = (
        "import sys\n"
        "from pigeon_tui.cli import main\n"
        "print(main(['serve-ssh', '--port', '0']), 'textual' in sys.modules, 'asyncssh' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["2", "False", "False"]
    assert "--authorized-keys FILE, --password PW, or --open" in out.stderr


def test_serve_ssh_game_names_the_game_of_its_own_table(capsys: pytest.CaptureFixture[str]) -> None:
    from pigeon_tui.cli import main  # in this process: the settings are refused before anything starts

    assert main(["serve-ssh", "--port", "0", "--open", "--game", "cubirds", "--seats", "6"]) == 2
    assert "for CuBirds" in capsys.readouterr().err
