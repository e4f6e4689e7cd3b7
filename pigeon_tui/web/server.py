"""The web front door (aiohttp): a password page (or `--open`), then one app process per browser
tab, behind caps on tabs at once and per address and an idle timeout. Routes: `/` (the login
page, or the tab's page), `POST /login`, `/ws` (the tab's game), `/static/NAME` (a fixed list of
files). Nothing else: no file download, no directory listing, no other command.

    await serve_web(WebConfig(password="party"))
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from net.host import bound_addresses, reachable
from net.ssh.child import TermSize
from pigeon_tui.web.access import Logins, Password, RateLimit
from pigeon_tui.web.child import AppChild, tab_env
from pigeon_tui.web.config import (
    COOKIE,
    HEARTBEAT,
    KEEPALIVE,
    LOGIN_LIFETIME,
    MAX_MESSAGE,
    SHUTDOWN_GRACE,
    SPARE_DELAY,
    SPARE_RETRY,
    WebConfig,
)
from pigeon_tui.web.page import Asset, Pages, load_assets

log = logging.getLogger(__name__)

MAX_FORM: Final = 4096
"""Bytes of a request body (the login form is far less)."""
SECURITY_HEADERS: Final = {
    # the page's own files only; textual.js adds style elements; the game's WebSocket
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Server": "pigeon-tui",
}
STATIC_CACHE: Final = {"Cache-Control": "private, max-age=3600"}
"""The page's files change only with an upgrade."""
SHUTTING_DOWN: Final = "The server is shutting down."


class WebServer:
    """The front door: one aiohttp application, its logins and its tabs."""

    def __init__(self, config: WebConfig, clock: Callable[[], float] = time.monotonic) -> None:
        config.check()
        self.config = config
        self.clock = clock
        self.password = Password(config.password) if config.password else None
        self.rate_limit = RateLimit(config.login_failures, config.login_window)
        self.logins = Logins()
        self.pages = Pages()
        self.assets = load_assets()
        self.tabs: set[Tab] = set()
        """Tabs running (or starting) an app."""
        self.spares: list[AppChild] = []
        """Apps started for the next tabs (`config.spares` of them, while a tab could take one)."""
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        """Set when a spare was taken or a tab ended: the keeper looks again."""
        self._taken = False
        self._closing = False

    # ---- running ----------------------------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_FORM)
        app.router.add_get("/", self.index, allow_head=True)
        app.router.add_post("/login", self.login)
        app.router.add_get("/ws", self.websocket, allow_head=False)
        app.router.add_get("/static/{name}", self.static, allow_head=True)
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> None:
        """Listen. Raises OSError if the address is taken."""
        runner = web.AppRunner(
            self.application(), access_log=None, shutdown_timeout=SHUTDOWN_GRACE, keepalive_timeout=KEEPALIVE
        )
        await runner.setup()
        self._runner = runner
        handler = runner.server
        assert handler is not None  # set up above

        def connection() -> asyncio.BaseProtocol:
            if len(handler.connections) >= self.config.max_connections:
                return _Refused()
            return handler()

        try:
            self._server = await asyncio.get_running_loop().create_server(
                connection, self.config.bind, self.config.port
            )
        except OSError:
            await runner.cleanup()
            self._runner = None
            raise
        log.info("serving the web front door on %s", ", ".join(f"{a}:{p}" for a, p in self.addresses()))
        if self.config.spares:
            self._keeper = asyncio.create_task(self._keep_spares(), name="web spare apps")

    def addresses(self) -> list[tuple[str, int]]:
        return bound_addresses(self._server)

    def urls(self) -> list[str]:
        """The addresses to open in a browser, one per network address of this machine."""
        return [f"http://{f'[{a}]' if ':' in a else a}:{p}/" for a, p in reachable(self.addresses())]

    async def serve_forever(self) -> None:
        if self._server is not None:
            await self._server.serve_forever()

    async def close(self) -> None:
        """Stop listening, end every tab (each app and what it started is stopped: no orphans).
        Safe to call twice; not to be cancelled halfway."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
            self._keeper = None
        tabs = list(self.tabs)
        for tab in tabs:
            tab.end(SHUTTING_DOWN, WSCloseCode.GOING_AWAY)
        spares, self.spares = self.spares, []
        await asyncio.gather(
            *(tab.finished.wait() for tab in tabs), *(child.stop(self.config.stop_grace) for child in spares)
        )
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self._server = None

    # ---- apps --------------------------------------------------------------------------------

    def new_app(self, size: TermSize) -> asyncio.Future[AppChild]:
        """Start an app for a tab of `size` (raises OSError if it cannot)."""
        return asyncio.ensure_future(AppChild.start(self.config.command, tab_env(os.environ, size, os.getpid())))

    def take_spare(self) -> AppChild | None:
        """A spare app for a new tab (started, or starting), if there is one."""
        while self.spares:
            child = self.spares.pop(0)
            if not child.ended.is_set():
                self._taken = True
                self._changed.set()
                return child
        return None

    def tab_ended(self) -> None:
        self._changed.set()

    async def _keep_spares(self) -> None:
        """Keep `config.spares` apps started, one start at a time, each only once the last is
        drawn; none while every tab is taken, and not at once after a tab took one (its app
        redraws at the tab's size first). Cancel it to stop (the spares are stopped by `close`)."""
        while True:
            for child in [c for c in self.spares if c.ended.is_set()]:
                self.spares.remove(child)
                await asyncio.shield(asyncio.ensure_future(child.stop(self.config.stop_grace)))
                log.warning("a spare app ended: %s", child.failure or "it exited")
                await asyncio.sleep(SPARE_RETRY)
            if self._taken:
                self._taken = False
                await asyncio.sleep(SPARE_DELAY)
                continue
            if len(self.spares) < self.config.spares and len(self.tabs) < self.config.max_sessions:
                try:
                    child = await self.new_app(TermSize(80, 24))
                except OSError as exc:
                    log.error("could not start a spare app: %s", exc)
                    await asyncio.sleep(SPARE_RETRY)
                    continue
                self.spares.append(child)
                await _first(child.drawn.wait(), child.ended.wait())
                if child.drawn.is_set():
                    log.info("spare app %d ready", child.pid)
                continue
            await _first(self._changed.wait(), *(c.ended.wait() for c in self.spares))
            self._changed.clear()

    # ---- who may come in --------------------------------------------------------------------

    def authorized(self, request: web.Request) -> bool:
        return self.config.open or self.logins.valid(request.cookies.get(COOKIE), self.clock())

    def refusal(self, address: str) -> str | None:
        """Why a new tab from `address` may not start now (None: it may)."""
        if self._closing:
            return SHUTTING_DOWN
        if len(self.tabs) >= self.config.max_sessions:
            return f"The server is full: {self.config.max_sessions} games are open. Try again later."
        if sum(1 for tab in self.tabs if tab.address == address) >= self.config.max_per_address:
            return (
                f"Your address has the most games open here at once ({self.config.max_per_address}): close one first."
            )
        return None

    @staticmethod
    def same_origin(request: web.Request) -> bool:
        """A browser says which page opened a WebSocket: only our own pages may (a page of
        another site must not drive a game with the visitor's login)."""
        origin = request.headers.get("Origin")
        return origin is None or urlsplit(origin).netloc.lower() == request.host.lower()

    # ---- routes -----------------------------------------------------------------------------

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers.setdefault("Cache-Control", "no-store")

    def _html(self, text: str, status: int = 200) -> web.Response:
        return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")

    async def index(self, request: web.Request) -> web.Response:
        if not self.authorized(request):
            return self._html(self.pages.login())
        refusal = self.refusal(request.remote or "")
        if refusal is not None:
            return self._html(self.pages.message(refusal), status=503)
        return self._html(self.pages.app)

    async def login(self, request: web.Request) -> web.StreamResponse:
        if self.password is None:
            raise web.HTTPSeeOther("/")
        address = request.remote or ""
        now = self.clock()
        wait = self.rate_limit.wait(address, now)
        if wait > 0:
            log.info("%s: login refused, too many wrong passwords", address)
            text = f"Too many wrong passwords from your address: wait {math.ceil(wait)} s, then try again."
            response = self._html(self.pages.login(text), status=429)
            response.headers["Retry-After"] = str(math.ceil(wait))
            return response
        form = await request.post()
        given = form.get("password")
        if not isinstance(given, str) or not self.password.matches(given):
            self.rate_limit.failed(address, now)
            log.info("%s: wrong password", address)
            return self._html(self.pages.login("Wrong password. Try again."), status=401)
        self.rate_limit.succeeded(address)
        log.info("%s: logged in", address)
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(
            COOKIE, self.logins.new(now), max_age=int(LOGIN_LIFETIME), path="/", httponly=True, samesite="Strict"
        )
        return response

    async def static(self, request: web.Request) -> web.Response:
        if not self.authorized(request):
            raise web.HTTPForbidden(text="Log in first.")
        asset: Asset | None = self.assets.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        return web.Response(body=asset.body, headers={"Content-Type": asset.content_type, **STATIC_CACHE})

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not self.authorized(request):
            raise web.HTTPForbidden(text="Log in first.")
        if not self.same_origin(request):
            log.info("%s: refused a WebSocket opened by %r", request.remote, request.headers.get("Origin", "")[:80])
            raise web.HTTPForbidden(text="Open the game from its own page.")
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        address = request.remote or ""
        refusal = self.refusal(address)
        if refusal is not None:
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=refusal.encode())
            return ws
        size = TermSize.clamp(_int(request.query.get("width"), 80), _int(request.query.get("height"), 24))
        tab = Tab(self, ws, address, size)
        self.tabs.add(tab)
        try:
            await tab.run()
        finally:
            self.tabs.discard(tab)
        return ws


class _Refused(asyncio.Protocol):
    """A connection beyond the cap (`WebConfig.max_connections`): closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        log.info("refused a connection: too many open already")
        transport.close()


class Tab:
    """One browser tab: its WebSocket and its app process."""

    def __init__(self, server: WebServer, ws: web.WebSocketResponse, address: str, size: TermSize) -> None:
        self.server = server
        self.ws = ws
        self.address = address
        self.size = size
        self.child: AppChild | None = None
        self.finished = asyncio.Event()
        """Set once the app is stopped and the WebSocket closed."""
        self._reason = "Session ended."
        self._code = WSCloseCode.OK
        self._ending = asyncio.Event()
        self._idle: asyncio.TimerHandle | None = None
        self._touched = False

    def end(self, reason: str, code: WSCloseCode = WSCloseCode.OK) -> None:
        """End the tab: its app is stopped and the page says `reason` (at most 123 bytes)."""
        if not self._ending.is_set():
            self._reason, self._code = reason, code
            self._ending.set()

    async def run(self) -> None:
        """Take a spare app (or start one) and relay both ways until the tab closes, the app
        ends, or `end`."""
        try:
            child = self.server.take_spare()
            if child is None:
                try:
                    child = await self.server.new_app(self.size)
                except OSError as exc:
                    log.error("%s: could not start the game: %s", self.address, exc)
                    self.end("The game could not start on the server.", WSCloseCode.INTERNAL_ERROR)
                    return
            else:
                await child.resize(self.size)
            self.child = child
            log.info("%s: tab opened, app %d", self.address, child.pid)
            await self._relay(child)
        finally:
            await self._finish()

    async def _relay(self, child: AppChild) -> None:
        await child.attach(self._screen)
        await _first(child.ended.wait(), self._browser(child), self._ending.wait())
        if child.ended.is_set():
            if child.failure is not None:
                log.error("%s: the game failed: %s", self.address, child.failure)
                self.end("The game could not go on: it stopped on the server.", WSCloseCode.INTERNAL_ERROR)
            else:
                self.end("The game was closed.")

    async def _finish(self) -> None:
        """Stop the app (shielded: a cancelled handler still leaves no process behind) and close."""
        if self._idle is not None:
            self._idle.cancel()
        try:
            if self.child is not None:
                await asyncio.shield(asyncio.ensure_future(self.child.stop(self.server.config.stop_grace)))
                log.info("%s: tab closed, app %d stopped", self.address, self.child.pid)
            if not self.ws.closed:
                await self.ws.close(code=self._code, message=self._reason.encode()[:123])
        finally:
            self.finished.set()
            self.server.tab_ended()

    async def _screen(self, data: bytes) -> None:
        if not self._touched:
            self._touch()  # the idle time counts from the first screen (a slow start is not the player's)
        if self.ws.closed:
            return
        try:
            await self.ws.send_bytes(data)
        except (ConnectionError, RuntimeError):
            self.end("The connection was lost.")

    async def _browser(self, child: AppChild) -> None:
        """What the page sends: key presses (and pastes), resizes, focus, pings."""
        async for message in self.ws:
            if message.type == WSMsgType.ERROR:
                return
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, body = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(body, str):
                self._touch()
                await child.keys(body)
            elif kind == "resize" and isinstance(body, dict):
                self.size = TermSize.clamp(_int(body.get("width"), 80), _int(body.get("height"), 24))
                await child.resize(self.size)
            elif kind in ("focus", "blur"):
                await child.focus(kind == "focus")
            elif kind == "ping" and isinstance(body, str):
                await self.ws.send_json(["pong", body[:32]])

    def _touch(self) -> None:
        self._touched = True
        timeout = self.server.config.idle_timeout
        if timeout <= 0:
            return
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(timeout, self._idle_out)

    def _idle_out(self) -> None:
        log.info("%s: idle, closing", self.address)
        self.end(f"No key pressed for {_duration(self.server.config.idle_timeout)}: the game was closed.")


async def _first(*waits: Coroutine[Any, Any, Any]) -> None:
    """Run `waits` until the first of them is done; the others are cancelled."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for result in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(result, Exception):
                log.error("a web tab's task failed: %r", result)


def _duration(seconds: float) -> str:
    return f"{seconds:g} seconds" if seconds < 120 else f"{seconds / 60:g} minutes"


def _int(value: object, default: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 6:
        return int(value)
    return default


# ---- running it ---------------------------------------------------------------------------


async def serve_web(config: WebConfig, ready: Callable[[WebServer], None] | None = None) -> None:
    """Run the front door until cancelled; `ready(server)` is called once it listens. Cancelling
    it ends every tab and stops every app. Raises ValueError (bad config), OSError (port taken)."""
    server = WebServer(config)
    try:
        await server.start()
        if ready is not None:
            ready(server)
        await server.serve_forever()
    finally:
        await server.close()


def announce(server: WebServer) -> None:
    """What `serve-web` prints once it listens: a loud word if it is open, and the addresses."""
    if server.config.open:
        print(
            "\n  *** OPEN: anyone who can reach this port plays, with no password. ***\n"
            "  *** Use it on a LAN you trust (a party), not on the internet.     ***\n",
            file=sys.stderr,
            flush=True,
        )
    port = server.addresses()[0][1]
    print(f"pigeon-tui serve-web: the game in a browser, on port {port}", flush=True)
    for url in server.urls():
        print(f"players open: {url}", flush=True)


def run(config: WebConfig) -> int:
    """What `pigeon-tui serve-web` runs: serve until Ctrl-C or SIGTERM, then stop every tab."""

    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        await serve_web(config, announce)

    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    except OSError as exc:
        print(f"pigeon-tui serve-web: cannot listen on {config.bind}:{config.port}: {exc}", file=sys.stderr)
        return 1
    return 0
