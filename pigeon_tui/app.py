"""The Textual app: screens for start, table, help and game over; styles in app.tcss.

A game against bots runs on a private headless host (a child process on 127.0.0.1) that the
app joins over TCP like any LAN game; `local=True` plays in-process instead (tests, and the
fallback when the host cannot start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable, ClassVar, Final

from textual.app import App
from textual.binding import Binding, BindingType
from textual.scrollbar import ScrollBar, ScrollBarRender

from core.views import PlayerView

if TYPE_CHECKING:
    import subprocess

    from pigeon_tui.launch import HostSpec
    from pigeon_tui.remote import HostProcess
    from pigeon_tui.screens.table import TableScreen
from pigeon_tui.joining import Joining
from pigeon_tui.launch import BOT_DELAY
from pigeon_tui.session import GameOptions, LocalSession, Seat, Session
from pigeon_tui.themes import KIND_COLOURS, glyphs

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
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
    ]

    def __init__(
        self,
        options: GameOptions | None = None,
        *,
        play_now: bool = False,
        ascii_only: bool = False,
        local: bool = False,
        bot_delay: float = BOT_DELAY,
        session_factory: SessionFactory | None = None,
        join: tuple[str, int, str, str | None] | None = None,
        prespawned: tuple[HostSpec, subprocess.Popen[bytes]] | None = None,
        joining: Joining | None = None,
    ) -> None:
        super().__init__()
        self.options = options or GameOptions()
        self.play_now = play_now
        self.join_address = join
        """(host, port, name, password) to join at start (`pigeon-tui join`)."""
        self.prespawned = prespawned
        """A private host the CLI started (for these options) while the app was loading."""
        self.joining = joining or Joining()
        """How `pigeon-tui join` joins: as a guest of serve-ssh, a token file, discovery targets."""
        self.ascii_only = ascii_only
        self.glyphs = glyphs(ascii_only)
        self.local = local
        self.bot_delay = bot_delay
        self.session_factory: SessionFactory = session_factory or (
            self._local_session if local else self._hosted_session
        )
        self.session: Session | None = None
        ScrollBar.renderer = AsciiScrollBarRender if ascii_only else ScrollBarRender

    # -- looks ---------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(KIND_COLOURS)

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer; plain words for --ascii (enter, up) instead of symbols."""
        shown = super().get_key_display(binding)
        if self.ascii_only and not shown.isascii():
            modifiers, key = binding.parse_key()
            return "+".join([*modifiers, key])
        return shown

    # -- sessions ------------------------------------------------------------------------

    async def _local_session(self, options: GameOptions) -> Session:
        return LocalSession(options, bot_delay=self.bot_delay)

    async def _hosted_session(self, options: GameOptions) -> Session:
        """The real path: a private host child process, joined over TCP. Falls back to the
        in-process engine (with a notice) if the host cannot be started or reached."""
        from pigeon_tui.launch import HostSpec
        from pigeon_tui.remote import HostFailed, private_game, stop_process

        spawned = None
        if self.prespawned is not None:
            spec, process = self.prespawned
            self.prespawned = None
            if spec == HostSpec.for_game(options, self.bot_delay) and process.poll() is None:
                spawned = process
            else:
                await stop_process(process)
        levels = options.bot_levels()
        if len(set(levels)) > 1:
            self.notify(f"The game host plays every bot at one level: {levels[0]}.", timeout=4)
        try:
            return await private_game(options, bot_delay=self.bot_delay, spawned=spawned)
        except (HostFailed, OSError, TimeoutError, ValueError) as exc:
            self.notify(f"Could not start the game host ({exc}); playing in-process.", severity="warning")
        except Exception as exc:  # noqa: BLE001  (net.client.Refused and the like: still play)
            self.notify(f"The game host refused ({exc}); playing in-process.", severity="warning")
        return LocalSession(options, bot_delay=self.bot_delay)

    async def _drop_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            await session.close()

    # -- screens -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.set_class(self.ascii_only, "-ascii")
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

    def back_to_start(self) -> None:
        """Leave the game (if any) and show the start screen alone on the stack."""
        self.run_worker(self._drop_session(), group="session", exit_on_error=False)
        self._show_start()

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
        await self._drop_session()
        dealing: list[TableScreen] = []
        timer = self.set_timer(DEALING_AFTER, lambda: dealing.append(self._show_table(None, options.players)))
        try:
            session = await self.session_factory(options)
        finally:
            timer.stop()
        if dealing and dealing[0].is_attached and dealing[0].session is None:
            self.session = session
            dealing[0].attach(session)
        else:
            self._show_table(session)

    def _show_table(self, session: Session | None, players: int | None = None) -> TableScreen:
        from pigeon_tui.screens.table import TableScreen

        if session is not None:
            self.session = session
        screen = TableScreen(session, self.glyphs, players)
        if type(self.screen).__name__ in ("GameOverScreen", "TableScreen", "LobbyScreen"):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        return screen

    def show_table_from_lobby(self, session: Session) -> None:
        """The game at the lobby's table has begun."""
        self._show_table(session)

    # -- LAN -----------------------------------------------------------------------------

    def host_lan(
        self, *, seats: int, bots: int, level: str, edition: str, port: int, name: str, password: str | None
    ) -> None:
        """Start a headless host bound to the LAN, sit at its table, and show the lobby."""
        self.run_worker(
            self._host_lan(seats, bots, level, edition, port, name, password), exclusive=True, group="start"
        )

    async def _host_lan(
        self, seats: int, bots: int, level: str, edition: str, port: int, name: str, password: str | None
    ) -> None:
        from pigeon_tui.launch import HostSpec
        from pigeon_tui.remote import HostFailed, start_host

        await self._drop_session()
        spec = HostSpec(seats, bots, level, edition, None, "0.0.0.0", port, self.bot_delay, password)
        try:
            process = await start_host(spec)
        except HostFailed as exc:
            self.notify(f"{exc} (is port {port} free?)", severity="error")
            return
        share = process.join_lines or (f"pigeon-tui join <this machine's address>:{process.port}",)
        await self._enter_lobby("127.0.0.1", process.port, name, password, process, share, table=1)

    def join_game(self, host: str, port: int, name: str, password: str | None, table: int | None = None) -> None:
        """Connect to a host and show its lobby."""
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
        try:
            session = await connect(
                host, port, name, password, process, table=table, token_file=self.joining.token_file
            )
            if bots is not None:
                out = await session.client.create(
                    bots.players, bots.players - 1, bots.bot_levels()[0], bots.edition.value
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

    def show_game_over(self, view: PlayerView, seats: tuple[Seat, ...]) -> None:
        from pigeon_tui.screens.game_over import GameOverScreen

        self.switch_screen(GameOverScreen(view, seats, self.glyphs))

    async def action_quit(self) -> None:
        """Leave the table (the private host ends with it) and quit."""
        await self._drop_session()
        if self.prespawned is not None:
            from pigeon_tui.remote import stop_process

            await stop_process(self.prespawned[1])
            self.prespawned = None
        self.exit()
