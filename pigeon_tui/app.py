"""The Textual app: screens for start, table, help and game over; styles in app.tcss.

Every game runs on a `net` host that the app joins over TCP: a game against bots on a private
host child process on 127.0.0.1 (`host_here=True`: the same host on this event loop, for tests
and screenshots), a LAN game on the host someone runs.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Awaitable, Callable, ClassVar, Final

from textual.app import App
from textual.binding import Binding, BindingType
from textual.scrollbar import ScrollBar, ScrollBarRender

from core.views import PlayerView

if TYPE_CHECKING:
    from net.spawn import HostProcess, HostSpec
    from pigeon_tui.screens.cubirds import CubirdsTableScreen
    from pigeon_tui.screens.game_over import ReplayKey
    from pigeon_tui.screens.table import TableScreen
from pigeon_tui.birds import BIRD_COLOURS
from pigeon_tui.changes import FLASH_SECONDS
from pigeon_tui.hangup import watch_terminal
from pigeon_tui.joining import Joining, SeatKeeper
from pigeon_tui.session import GameOptions, Seat, Session
from pigeon_tui.themes import KIND_COLOURS, glyphs

log = logging.getLogger(__name__)

_GAME_SCREENS: Final = frozenset(
    {"GameOverScreen", "TableScreen", "LobbyScreen", "CubirdsTableScreen", "BirdsOverScreen"}
)
"""Screens a new table (or the lobby) replaces rather than covers."""
DEALING_AFTER: Final = 0.25
"""Seconds to wait for a new game's first view before drawing its table empty (a table drawn
first and dealt after costs the first paint another layout, so only when the host is slow)."""
SessionFactory = Callable[[GameOptions], Awaitable[Session]]
"""Makes the session of a new game against bots."""


class AsciiScrollBarRender(ScrollBarRender):
    """Scroll bars drawn with spaces only, for --ascii."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class PigeonApp(App[None]):
    """Pigeons & Guano at the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "Pigeons & Guano"
    ENABLE_COMMAND_PALETTE = False
    flash_seconds: float = FLASH_SECONDS
    """How long the table marks what an update changed (0: never; pictures keep the marks on)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "ask_quit", "Quit", id="quit", priority=True),
    ]

    def __init__(
        self,
        options: GameOptions | None = None,
        *,
        play_now: bool = False,
        ascii_only: bool = False,
        host_here: bool = False,
        bot_delay: float | None = None,
        session_factory: SessionFactory | None = None,
        join: tuple[str, int, str, str | None] | None = None,
        prespawned: HostProcess | None = None,
        joining: Joining | None = None,
    ) -> None:
        super().__init__()
        self.options = options or GameOptions()
        if bot_delay is not None:  # the pace asked for on the command line, or a test's
            self.options = replace(self.options, bot_delay=bot_delay)
        self.play_now = play_now
        self.join_address = join
        """(host, port, name, password) to join at start (`pigeon-tui join`)."""
        self.prespawned = prespawned
        """A private host the CLI started (for `options`) while the app was loading."""
        self.joining = joining or Joining()
        """How `pigeon-tui join` joins: as a guest of serve-ssh, a token file, discovery targets."""
        self.ascii_only = ascii_only
        self.glyphs = glyphs(ascii_only)
        self.host_here = host_here
        """Private hosts run on this event loop instead of as a child (tests, screenshots)."""
        self.session_factory: SessionFactory = session_factory or self._private_game
        self.session: Session | None = None
        ScrollBar.renderer = AsciiScrollBarRender if ascii_only else ScrollBarRender

    # -- looks ---------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**KIND_COLOURS, **BIRD_COLOURS}

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer; plain words for --ascii (enter, up) instead of symbols."""
        shown = super().get_key_display(binding)
        if self.ascii_only and not shown.isascii():
            modifiers, key = binding.parse_key()
            return "+".join([*modifiers, key])
        return shown

    # -- sessions ------------------------------------------------------------------------

    async def _private_game(self, options: GameOptions) -> Session:
        """A private host with bots (the one the CLI started for these options, if it did),
        joined over TCP. Raises HostFailed, Refused, OSError."""
        from pigeon_tui.remote import private_game

        spawned, self.prespawned = self.prespawned, None
        if spawned is not None and (spawned.spec != options.host_spec() or not spawned.running):
            await spawned.stop()
            spawned = None
        return await private_game(options, spawned, here=self.host_here)

    async def _drop_session(self, leave: bool = False) -> None:
        """Close the current session; with `leave`, give up its seat for good first."""
        session, self.session = self.session, None
        if session is not None:
            await session.close(leave=leave)

    # -- screens -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.set_class(self.ascii_only, "-ascii")
        watch_terminal(self)
        self.call_after_refresh(self._start_logging)
        if self.play_now:
            self.start_game(self.options)  # the start screen is built only if asked for
            return
        self._show_start()
        if self.join_address is not None:
            self.join_game(*self.join_address)
        elif self.joining.find:
            from pigeon_tui.screens.lobby import JoinScreen

            self.push_screen(JoinScreen(self.glyphs, self.joining.name))

    def _show_start(self) -> None:
        from pigeon_tui.screens.start import StartScreen

        stack = self.screen_stack
        keep = 2 if len(stack) > 1 and isinstance(stack[1], StartScreen) else 1  # the start screen as it was
        while len(self.screen_stack) > keep:
            self.pop_screen()
        if keep == 1:
            self.push_screen(StartScreen(self.glyphs, self.options, network=True, guest=self.joining.guest))
        else:
            self._look_up_again()

    def _look_up_again(self) -> None:
        """Have the start screen read this machine's games again (a game was left or ended)."""
        from pigeon_tui.screens.start import StartScreen

        for screen in self.screen_stack:
            if isinstance(screen, StartScreen) and not screen.guest:
                screen.look_up()

    def _start_logging(self) -> None:
        """Log to the TUI's file (after the first paint: the handler's imports cost ~30 ms)."""
        from net.logs import CLIENT_LOG, log_path, log_to_file

        try:
            log_to_file(log_path(None, CLIENT_LOG), logging.INFO)
        except OSError as exc:
            self.notify(f"Not logging: {exc}", severity="warning", timeout=4)

    def back_to_start(self) -> None:
        """Leave the game or table (if any) for good and show the start screen alone."""
        self.run_worker(self._back_to_start(), group="session", exit_on_error=False)
        self._show_start()

    async def _back_to_start(self) -> None:
        await self._drop_session(leave=True)
        self._look_up_again()  # its host gone, a game left unfinished is offered

    def start_game(self, options: GameOptions) -> None:
        """A new game against bots, over the start screen: dealt as soon as the host is ready,
        or drawn empty ("Dealing...") if the host takes longer than `DEALING_AFTER`."""
        self.options = options
        if self.joining.guest and self.join_address is not None:
            host, port, name, password = self.join_address  # a new table with bots on our host
            self.run_worker(self._enter_lobby(host, port, name, password, bots=options), exclusive=True, group="start")
            return
        self.run_worker(self._start_game(options), exclusive=True, group="start")

    async def _start_game(self, options: GameOptions) -> None:
        from net.client import Refused
        from net.spawn import HostFailed

        await self._drop_session()
        dealing: list[TableScreen | CubirdsTableScreen] = []
        waiting = True

        def draw_empty() -> None:
            # The timer queues this call when it fires: it may run after the session came (on a
            # busy machine), and an empty table would then replace the dealt one for good.
            if waiting:
                dealing.append(self._show_table(None, options.players, options.game))

        timer = self.set_timer(DEALING_AFTER, draw_empty)
        try:
            session = await self.session_factory(options)
        except (HostFailed, Refused, OSError, TimeoutError) as exc:
            log.error("the game could not start: %s", exc)
            self.notify(f"The game could not start: {exc}", severity="error", timeout=10)
            self._show_start()
            return
        finally:
            waiting = False
            timer.stop()
        if dealing and dealing[0].is_attached and dealing[0].session is None:
            self.session = session
            dealing[0].attach(session)
        else:
            self._show_table(session)

    def resume_game(self, token: str) -> None:
        """Take up the game against bots left unfinished here (crash, Ctrl+Q, closed terminal):
        the private host brings it back as it starts, and its seat token leads back to it."""
        self.run_worker(self._resume_game(token), exclusive=True, group="start")

    async def _resume_game(self, token: str) -> None:
        from net.client import Refused
        from net.spawn import HostFailed
        from pigeon_tui.remote import private_game

        await self._drop_session()
        spawned, self.prespawned = self.prespawned, None  # whatever its options: it holds the game
        if spawned is not None and not spawned.running:
            await spawned.stop()
            spawned = None
        try:
            session = await private_game(self.options, spawned, here=self.host_here, token=token)
        except Refused as exc:
            self.notify(f"Your game could not be taken up: {exc.text or exc.code}", severity="error", timeout=10)
            self._show_start()
            return
        except (HostFailed, OSError, TimeoutError) as exc:
            log.error("the game could not be resumed: %s", exc)
            self.notify(f"Your game could not be taken up: {exc}", severity="error", timeout=10)
            self._show_start()
            return
        self._show_table(session)

    def _show_table(
        self, session: Session | None, players: int | None = None, game_id: str | None = None
    ) -> TableScreen | CubirdsTableScreen:
        """The table of the session's game (or of `game_id`, before the session comes)."""
        from pigeon_tui.screens.table import TableScreen

        if session is not None:
            self.session = session
            game_id = session.game_id or game_id
        screen: TableScreen | CubirdsTableScreen
        if (game_id or self.options.game) == "cubirds":
            from pigeon_tui.screens.cubirds import CubirdsTableScreen

            screen = CubirdsTableScreen(session, self.glyphs, letters=self.ascii_only or self.no_color)
        else:
            screen = TableScreen(session, self.glyphs, players)
        self._leave_results()
        if type(self.screen).__name__ in _GAME_SCREENS:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        return screen

    def show_table_from_lobby(self, session: Session) -> None:
        """The game at the lobby's table has begun."""
        self._show_table(session)

    # -- LAN -----------------------------------------------------------------------------

    def host_lan(
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
            bot_delay=self.options.bot_delay,
            password=password,
            discovery=True,
            log_file="",
            verbose=True,
            game=game,
            house=house,
            custom=custom,
        )
        self.run_worker(self._host_lan(spec, name), exclusive=True, group="start")

    async def _host_lan(self, spec: HostSpec, name: str) -> None:
        from net.spawn import HostFailed, start_host

        await self._drop_session()
        try:
            process = await start_host(spec)
        except HostFailed as exc:
            log.error("the LAN host did not start: %s", exc)
            self.notify(f"{exc} (is port {spec.port} free?)", severity="error", timeout=10)
            return
        share = process.join_lines or (f"pigeon-tui join <this machine's address>:{process.port}",)
        await self._enter_lobby("127.0.0.1", process.port, name, spec.password, process, share, table=1)

    def join_game(self, host: str, port: int, name: str, password: str | None, table: int | None = None) -> None:
        """Connect to a host and show its lobby (or take back the seat we had there)."""
        self.run_worker(self._enter_lobby(host, port, name, password, table=table), exclusive=True, group="start")

    async def _enter_lobby(
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
        from pigeon_tui.remote import connect
        from pigeon_tui.screens.lobby import LobbyScreen

        await self._drop_session()
        keeper: SeatKeeper | None = SeatKeeper.for_host(host, port, self.joining.token_file)
        if process is not None or (self.joining.guest and self.joining.token_file is None):
            # The host we started ends with us: its tokens are worth nothing. A guest of
            # serve-ssh without a key shares the server's account with every such guest.
            keeper = None
        try:
            session = await connect(host, port, name, password, process, table=table, keeper=keeper)
            if bots is not None:
                levels = ",".join(bots.bot_levels())
                out = await session.client.create(
                    seats=bots.players,
                    bots=bots.players - 1,
                    level=levels,
                    edition=bots.edition.value,
                    game_id=bots.game,
                    bot_delay=bots.bot_delay,  # the pace chosen on the start screen (an SSH guest's too)
                )
                if not out.ok:
                    self.notify(f"The host refused a table: {out.text or out.code}", severity="error", timeout=8)
        except Refused as exc:
            self.notify(f"The host refused: {exc.text or exc.code}", severity="error", timeout=8)
            if process is not None:
                await process.stop()
            return
        except (OSError, TimeoutError) as exc:
            self.notify(f"Could not reach {host}:{port} ({exc or 'timed out'})", severity="error", timeout=8)
            if process is not None:
                await process.stop()
            return
        self.session = session
        self._show_start()
        self.push_screen(LobbyScreen(session, self.glyphs, share))

    def rematch(self) -> None:
        """Another game at the same table (the next seed, or the host's rematch)."""
        self.run_worker(self._rematch(), exclusive=True, group="start")

    async def _rematch(self) -> None:
        from pigeon_tui.session import ChoiceRefused

        session = self.session
        if session is None:
            self.start_game(self.options)
            return
        try:
            self._show_table(await session.rematch())
        except ChoiceRefused as exc:
            self.notify(str(exc), severity="error")

    def _leave_results(self) -> None:
        """The results go (they lie over the final board, which goes next)."""
        if type(self.screen).__name__ == "GameOverScreen":
            self.pop_screen()

    def show_game_over(self, view: PlayerView, seats: tuple[Seat, ...], can_rematch: bool = True) -> None:
        """The results, over the final board (b shows the board, l the whole log)."""
        from pigeon_tui.screens.game_over import GameOverScreen
        from pigeon_tui.screens.table import TableScreen
        from pigeon_tui.widgets.log import GameLog

        log = self.screen.query_one(GameLog).lines if isinstance(self.screen, TableScreen) else []
        self.clear_notifications()  # the last moves' toasts would lie over the results
        self.push_screen(GameOverScreen(view, seats, self.glyphs, can_rematch, log, self._replay_key()))

    def _replay_key(self) -> ReplayKey | None:
        from pigeon_tui.screens.game_over import replay_key

        return replay_key(self.session)

    def watch_table(self, table: int) -> None:
        """From the lobby: watch a game under way (the spectator's view, live, with its log)."""
        self.run_worker(self._watch_table(table), exclusive=True, group="start")

    async def _watch_table(self, table: int) -> None:
        from pigeon_tui.session import ChoiceRefused

        session = self.session
        if session is None:
            return
        try:
            await session.watch(table)
        except ChoiceRefused as exc:
            self.notify(f"You cannot watch that table: {exc}", severity="error")

    def back_to_lobby(self) -> None:
        """Stop watching (or leave a seat) and show the host's lobby again."""
        self.run_worker(self._back_to_lobby(), exclusive=True, group="start")

    async def _back_to_lobby(self) -> None:
        from pigeon_tui.screens.lobby import LobbyScreen

        session = self.session
        if session is None:
            self._show_start()
            return
        await session.to_lobby()
        screen = LobbyScreen(session, self.glyphs)
        self._leave_results()
        if type(self.screen).__name__ in _GAME_SCREENS - {"LobbyScreen"}:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    async def on_unmount(self) -> None:
        """The app is ending (however): close the session, stop any host we started."""
        await self._drop_session()
        spawned, self.prespawned = self.prespawned, None
        if spawned is not None:
            await spawned.stop()

    def action_ask_quit(self) -> None:
        """Ctrl+Q: at a game under way, ask first (a second Ctrl+Q answers yes)."""
        from pigeon_tui.screens.confirm import ConfirmScreen
        from pigeon_tui.screens.table import TableScreen

        screen = self.screen
        if isinstance(screen, ConfirmScreen):
            screen.dismiss(True)
            return
        view = screen.view if isinstance(screen, TableScreen) else None
        if view is None or view.over or view.seat is None:
            self.run_worker(self.action_quit(), group="quit")
            return
        elsewhere = "" if self.session is not None and self.session.private else " (your seat waits for you)"
        question = f"Quit in the middle of the game{elsewhere}?"
        self.push_screen(ConfirmScreen(question), self._quit_if)

    def _quit_if(self, yes: bool | None) -> None:
        if yes:
            self.run_worker(self.action_quit(), group="quit")

    async def action_quit(self) -> None:
        """Quit (the private host ends with the app; a seat elsewhere waits for us to come back)."""
        await self._drop_session()
        spawned, self.prespawned = self.prespawned, None
        if spawned is not None:
            await spawned.stop()
        self.exit()
