"""The app's LAN side: host a table on this machine, join a host's lobby, watch a table there,
and come back to the lobby. `PigeonApp.lan` holds one; the app keeps the session and the screens."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from net.spawn import HostProcess, HostSpec
    from pigeon_tui.app import PigeonApp
    from pigeon_tui.session import GameOptions

log = logging.getLogger(__name__)


class LanGames:
    def __init__(self, app: PigeonApp) -> None:
        self.app = app

    def host(
        self,
        *,
        seats: int,
        bots: int,
        levels: tuple[str, ...],
        edition: str,
        port: int,
        name: str,
        password: str | None,
        game: str = "pigeons",
        house: tuple[tuple[str, str], ...] = (),
        custom: tuple[str, ...] = (),
    ) -> None:
        """Start a headless host bound to the LAN, sit at its table, and show the lobby."""
        from net.spawn import HostSpec

        spec = HostSpec(
            seats=seats,
            bots=bots,
            levels=levels,
            edition=edition,
            bind="0.0.0.0",
            port=port,
            bot_delay=self.app.options.bot_delay,
            password=password,
            discovery=True,
            log_file="",
            verbose=True,
            game=game,
            house=house,
            custom=custom,
        )
        self.app.run_worker(self._host(spec, name), exclusive=True, group="start")

    async def _host(self, spec: HostSpec, name: str) -> None:
        from net.spawn import HostFailed, start_host

        await self.app.drop_session()
        try:
            process = await start_host(spec)
        except HostFailed as exc:
            log.error("the LAN host did not start: %s", exc)
            self.app.notify(f"{exc} (is port {spec.port} free?)", severity="error", timeout=10)
            return
        share = process.join_lines or (f"pigeon-tui join <this machine's address>:{process.port}",)
        await self.enter_lobby("127.0.0.1", process.port, name, spec.password, process, share, table=1)

    def join(self, host: str, port: int, name: str, password: str | None, table: int | None = None) -> None:
        """Connect to a host and show its lobby (or take back the seat we had there)."""
        self.app.run_worker(self.enter_lobby(host, port, name, password, table=table), exclusive=True, group="start")

    async def enter_lobby(
        self,
        host: str,
        port: int,
        name: str,
        password: str | None,
        process: HostProcess | None = None,
        share: tuple[str, ...] = (),
        table: int | None = None,
        bots: GameOptions | None = None,
    ) -> None:
        """Connect and show the lobby; with `bots`, open a table of bots there and sit at it."""
        from net.client import Refused
        from pigeon_tui.joining import SeatKeeper
        from pigeon_tui.remote import connect
        from pigeon_tui.screens.lobby import LobbyScreen

        app = self.app
        await app.drop_session()
        keeper: SeatKeeper | None = SeatKeeper.for_host(host, port, app.joining.token_file)
        if process is not None or (app.joining.guest and app.joining.token_file is None):
            # The host we started ends with us: its tokens are worth nothing. A guest of
            # serve-ssh without a key shares the server's account with every such guest.
            keeper = None
        try:
            session = await connect(host, port, name, password, process, table=table, keeper=keeper)
            if bots is not None:
                out = await session.client.create(
                    seats=bots.players,
                    bots=bots.players - 1,
                    level=",".join(bots.bot_levels()),
                    edition=bots.edition.value,
                    game_id=bots.game,
                    bot_delay=bots.bot_delay,  # the pace chosen on the start screen (an SSH guest's too)
                )
                if not out.ok:
                    app.notify(f"The host refused a table: {out.text or out.code}", severity="error", timeout=8)
        except Refused as exc:
            app.notify(f"The host refused: {exc.text or exc.code}", severity="error", timeout=8)
            if process is not None:
                await process.stop()
            return
        except (OSError, TimeoutError) as exc:
            app.notify(f"Could not reach {host}:{port} ({exc or 'timed out'})", severity="error", timeout=8)
            if process is not None:
                await process.stop()
            return
        app.session = session
        app.show_start()
        app.push_screen(LobbyScreen(session, app.glyphs, share))

    def watch(self, table: int) -> None:
        """From the lobby: watch a game under way (the spectator's view, live, with its log)."""
        self.app.run_worker(self._watch(table), exclusive=True, group="start")

    async def _watch(self, table: int) -> None:
        from pigeon_tui.session import ChoiceRefused

        session = self.app.session
        if session is None:
            return
        try:
            await session.watch(table)
        except ChoiceRefused as exc:
            self.app.notify(f"You cannot watch that table: {exc}", severity="error")

    def back_to_lobby(self) -> None:
        """Stop watching (or leave a seat) and show the host's lobby again."""
        self.app.run_worker(self._back_to_lobby(), exclusive=True, group="start")

    async def _back_to_lobby(self) -> None:
        from pigeon_tui.screens.lobby import LobbyScreen

        app = self.app
        session = app.session
        if session is None:
            app.show_start()
            return
        await session.to_lobby()
        screen = LobbyScreen(session, app.glyphs)
        app.leave_results()
        app.replace_game_screen(screen, lobby_too=False)
