"""The web front door (pigeon_tui/web/server.py) without a browser: a real server on 127.0.0.1,
port 0, real app processes, and an HTTP and WebSocket client (aiohttp) that speaks as
textual-serve's page does. Screens are read by feeding the tab's bytes to a terminal emulator
(pyte). Other source addresses are other loopback addresses (127.0.0.2, ...)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import aiohttp
import pyte
import pytest

import net.host
from pigeon_tui.cli import main
from pigeon_tui.web.config import COOKIE, MAX_MESSAGE, WebConfig
from pigeon_tui.web.server import WebServer, serve_web
from tests.web.browser import process_group

PASSWORD = "pigeons"
WAIT = 90.0
"""Seconds a screen may take to show what a test waits for (a loaded CI machine is slow)."""


@contextlib.asynccontextmanager
async def front_door(**kw: Any) -> AsyncIterator[WebServer]:
    config = WebConfig(bind="127.0.0.1", port=0, spares=0, idle_timeout=0)
    if "open" not in kw and "password" not in kw:
        kw["password"] = PASSWORD
    config = replace(config, **kw)
    started: asyncio.Future[WebServer] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve_web(config, started.set_result))
    try:
        yield await asyncio.wait_for(asyncio.shield(started), 20)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def url(server: WebServer, path: str = "/") -> str:
    return f"http://127.0.0.1:{server.addresses()[0][1]}{path}"


@contextlib.asynccontextmanager
async def browser(source: str = "127.0.0.1") -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client from `source` (a loopback address) that keeps cookies, as a browser does."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


async def log_in(session: aiohttp.ClientSession, server: WebServer, password: str = PASSWORD) -> aiohttp.ClientResponse:
    async with session.post(url(server, "/login"), data={"password": password}, allow_redirects=False) as r:
        await r.read()
        return r


class Tab:
    """A tab's WebSocket, as the page uses it; every screen byte goes through a VT emulator."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, columns: int, rows: int) -> None:
        self.ws = ws
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.texts: list[Any] = []
        self.close_code: int | None = None
        self.reason = ""
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                message = await self.ws.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.stream.feed(message.data)
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.texts.append(json.loads(message.data))
                elif message.type == aiohttp.WSMsgType.CLOSE:
                    self.close_code, self.reason = message.data, str(message.extra or "")
                    return
                else:  # closing, closed, error
                    self.close_code = self.ws.close_code
                    return
                self.changed.set()
        finally:
            self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    @property
    def closed(self) -> bool:
        return self._reader.done()

    async def wait_for(self, word: str, timeout: float = WAIT) -> None:
        async with asyncio.timeout(timeout):
            while word not in self.text:
                if self.closed:
                    raise AssertionError(f"the tab closed ({self.close_code}); last screen:\n{self.text}")
                self.changed.clear()
                await self.changed.wait()

    async def wait_closed(self, timeout: float = WAIT) -> tuple[int | None, str]:
        async with asyncio.timeout(timeout):
            await self._reader
        return self.close_code, self.reason

    async def send(self, *envelope: Any) -> None:
        await self.ws.send_str(json.dumps(list(envelope)))


@contextlib.asynccontextmanager
async def tab(
    session: aiohttp.ClientSession, server: WebServer, columns: int = 100, rows: int = 30, **kw: Any
) -> AsyncIterator[Tab]:
    ws = await session.ws_connect(url(server, f"/ws?width={columns}&height={rows}"), **kw)
    t = Tab(ws, columns, rows)
    try:
        yield t
    finally:
        await ws.close()
        with contextlib.suppress(Exception):
            await t._reader


async def wait_gone(pgid: int, timeout: float = WAIT) -> None:
    async with asyncio.timeout(timeout):
        while process_group(pgid):
            await asyncio.sleep(0.05)


def app_pids(server: WebServer) -> list[int]:
    return [t.child.pid for t in server.tabs if t.child is not None]


# ---- access ---------------------------------------------------------------------------------


async def test_the_page_asks_for_the_password_and_says_when_it_is_wrong() -> None:
    async with front_door() as server, browser() as session:
        async with session.get(url(server)) as r:
            page = await r.text()
        assert r.status == 200 and 'type="password"' in page and 'id="terminal"' not in page
        r = await log_in(session, server, "pigeon")
        assert r.status == 401
        async with session.post(url(server, "/login"), data={"password": "pigeon"}) as r:
            assert "Wrong password. Try again." in await r.text()
        assert not session.cookie_jar.filter_cookies(url(server))  # type: ignore[arg-type]
        async with session.get(url(server, "/static/textual.js")) as r:
            assert r.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(url(server, "/ws"))
        assert refused.value.status == 403


async def test_the_right_password_gives_a_strict_cookie_and_the_game_page() -> None:
    async with front_door() as server, browser() as session:
        r = await log_in(session, server)
        assert r.status == 303 and r.headers["Location"] == "/"
        cookie = r.headers["Set-Cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        async with session.get(url(server)) as r:
            page = await r.text()
        assert 'id="terminal"' in page and "/static/textual.js" in page
        assert "googleapis" not in page  # everything the page loads comes from this server


async def test_wrong_passwords_are_rate_limited_per_address() -> None:
    async with front_door(login_failures=3) as server, browser() as session:
        for _ in range(3):
            assert (await log_in(session, server, "nope")).status == 401
        async with session.post(url(server, "/login"), data={"password": PASSWORD}, allow_redirects=False) as r:
            text = await r.text()
            assert r.status == 429 and int(r.headers["Retry-After"]) > 0
        assert "Too many wrong passwords from your address" in text
        async with browser("127.0.0.2") as other:
            assert (await log_in(other, server)).status == 303


def test_serve_web_is_never_open_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve-web", "--port", "0"]) == 2
    assert "choose how players get in: --password PW, or --open" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve-web", "--password", "x", "--open"])
    assert "not allowed with" in capsys.readouterr().err


async def test_open_lets_anyone_in_with_no_password() -> None:
    async with front_door(open=True) as server, browser() as session:
        async with session.get(url(server)) as r:
            assert 'id="terminal"' in await r.text()
        async with tab(session, server) as t:
            await t.wait_for("Play against bots")


# ---- nothing but the game -------------------------------------------------------------------


async def test_nothing_but_the_game_and_its_files_is_served() -> None:
    async with front_door() as server, browser() as session:
        await log_in(session, server)
        async with session.get(url(server, "/static/textual.js")) as r:
            assert r.status == 200 and r.content_type == "application/javascript"
            assert "e.terminal=this.terminal" in await r.text()  # the screen's text is readable
        for path in ("/static/page.js", "/static/page.css", "/static/xterm.css", "/static/RobotoMono.ttf"):
            async with session.get(url(server, path)) as r:
                assert r.status == 200, path
        for path in (
            "/static/",
            "/static/js/textual.js",
            "/static/..%2F..%2Fserver.py",
            "/static/%2e%2e/%2e%2e/pyproject.toml",
            "/download/0123456789abcdef",
            "/../../etc/passwd",
            "/ws/x",
            "/index.html",
        ):
            async with session.get(url(server, path)) as r:
                assert r.status == 404, path
        async with session.get(url(server)) as r:
            headers = r.headers
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Cache-Control"] == "no-store"


async def test_a_websocket_opened_by_another_site_is_refused() -> None:
    async with front_door() as server, browser() as session:
        await log_in(session, server)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(url(server, "/ws"), headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        origin = url(server).rstrip("/")
        async with tab(session, server, headers={"Origin": origin}) as t:
            await t.wait_for("Play against bots")


# ---- tabs -----------------------------------------------------------------------------------


async def test_a_tab_gets_the_app_at_its_size_and_its_keys_and_ends_with_it() -> None:
    async with front_door() as server, browser() as session:
        await log_in(session, server)
        async with tab(session, server, columns=120, rows=36) as t:
            await t.wait_for("Play against bots")
            (app,) = app_pids(server)
            assert len(process_group(app)) >= 2  # the app, and the game host it starts for bots
            await t.send("ping", "1234")
            await t.send("stdin", "?")
            await t.wait_for("Rules in short")
            assert ["pong", "1234"] in t.texts
        await wait_gone(app)
        async with asyncio.timeout(WAIT):
            while server.tabs:  # the tab is forgotten once its app is stopped and its socket closed
                await asyncio.sleep(0.05)


async def test_bad_messages_from_a_page_change_nothing_and_a_huge_one_closes_the_tab() -> None:
    async with front_door() as server, browser() as session:
        await log_in(session, server)
        async with tab(session, server) as t:
            await t.wait_for("Play against bots")
            for junk in ("", "{", "[]", "{}", "[1, 2]", '["stdin", 5]', '["resize", "big"]', '["nope", {}]'):
                await t.ws.send_str(junk)
            await t.ws.send_bytes(b"\x00\xff" * 100)
            await t.send("resize", {"width": 10**9, "height": -5})
            await t.send("resize", {"width": "80", "height": None})
            await t.send("stdin", "?")
            await t.wait_for("Rules in short")
            (app,) = app_pids(server)
            await t.ws.send_str("x" * (MAX_MESSAGE + 1))
            code, _ = await t.wait_closed()
            assert code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        await wait_gone(app)
        async with tab(session, server) as t:  # the server goes on
            await t.wait_for("Play against bots")


async def test_caps_on_tabs_at_once_and_per_address() -> None:
    async with front_door(max_sessions=2, max_per_address=1) as server:
        async with browser() as ada, browser("127.0.0.2") as bob, browser("127.0.0.3") as cy:
            for session in (ada, bob, cy):
                await log_in(session, server)
            async with tab(ada, server) as first:
                await first.wait_for("Play against bots")
                async with tab(ada, server) as second:
                    code, reason = await second.wait_closed()
                assert code == aiohttp.WSCloseCode.TRY_AGAIN_LATER
                assert reason == "Your address has the most games open here at once (1): close one first."
                async with tab(bob, server) as third:
                    await third.wait_for("Play against bots")
                    async with cy.get(url(server)) as r:
                        assert r.status == 503 and "The server is full" in await r.text()
                    async with tab(cy, server) as fourth:
                        code, reason = await fourth.wait_closed()
                    assert code == aiohttp.WSCloseCode.TRY_AGAIN_LATER
                    assert reason == "The server is full: 2 games are open. Try again later."
                (app, _other) = app_pids(server)
            await wait_gone(app)
            async with asyncio.timeout(WAIT):
                while len(server.tabs) >= 2:  # a tab counts until its app is stopped and its socket closed
                    await asyncio.sleep(0.05)
            async with tab(cy, server) as fifth:
                await fifth.wait_for("Play against bots")


async def test_connections_beyond_the_cap_are_closed_at_once() -> None:
    async with front_door(max_connections=3) as server:
        port = server.addresses()[0][1]
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        async with asyncio.timeout(WAIT):  # the server counts a connection once it has accepted it
            while len(server._runner.server.connections) < 3:
                await asyncio.sleep(0.05)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert await asyncio.wait_for(reader.read(), WAIT) == b""  # closed, nothing said
        writer.close()
        for _, w in held:
            w.close()
        async with asyncio.timeout(WAIT):  # once the server has seen those close, it serves again
            while True:
                with contextlib.suppress(aiohttp.ClientError):
                    async with browser() as session, session.get(url(server)) as r:
                        if r.status == 200:
                            break
                await asyncio.sleep(0.05)


async def test_a_tab_with_no_key_pressed_is_closed_after_the_idle_timeout() -> None:
    async with front_door(idle_timeout=5.0) as server, browser() as session:
        await log_in(session, server)
        async with tab(session, server) as t:
            await t.wait_for("Play against bots")
            (app,) = app_pids(server)
            code, reason = await t.wait_closed()
        assert code == aiohttp.WSCloseCode.OK
        assert reason == "No key pressed for 5 seconds: the game was closed."
        await wait_gone(app)


async def test_stopping_the_server_ends_every_tab_and_spare_app() -> None:
    config = WebConfig(bind="127.0.0.1", port=0, password=PASSWORD, spares=1, idle_timeout=0)
    started: asyncio.Future[WebServer] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve_web(config, started.set_result))
    server = await asyncio.wait_for(asyncio.shield(started), 20)
    try:
        async with browser() as session:
            await log_in(session, server)
            async with tab(session, server) as t:
                await t.wait_for("Play against bots")
                async with asyncio.timeout(WAIT):
                    while not (server.spares and server.spares[0].drawn.is_set()):
                        await asyncio.sleep(0.05)
                apps = [*app_pids(server), server.spares[0].pid]
                task.cancel()
                code, reason = await t.wait_closed()
        assert code == aiohttp.WSCloseCode.GOING_AWAY and reason == "The server is shutting down."
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    for app in apps:
        await wait_gone(app)


def test_a_killed_server_leaves_no_app_behind() -> None:
    """The kernel ends each app with the server (PR_SET_PDEATHSIG): even a SIGKILL leaves no orphan."""
    server = subprocess.Popen(
        [sys.executable, "-m", "pigeon_tui", "serve-web", "--bind", "127.0.0.1", "--port", "0", "--open", "-v"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        said = ""
        for line in server.stderr:
            said += line
            m = re.search(r"spare app (\d+) ready", line)
            if m:
                spare = int(m[1])
                break
        else:
            raise AssertionError("no spare app started")
        assert "*** OPEN: anyone who can reach this port plays, with no password. ***" in said  # loud
        assert len(process_group(spare)) >= 2  # the app and its game host
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        asyncio.run(wait_gone(spare))
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_the_addresses_to_open_are_one_per_network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.host, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.7"])
    assert net.host.reachable([("0.0.0.0", 8080)]) == [("192.168.1.20", 8080), ("10.0.0.7", 8080)]
    assert net.host.reachable([("127.0.0.1", 8080)]) == [("127.0.0.1", 8080)]
    monkeypatch.setattr(net.host, "lan_addresses", lambda: [])
    assert net.host.reachable([("0.0.0.0", 9000)]) == [("127.0.0.1", 9000)]
