"""The Textual app: screens for start, table, help and game over; styles in app.tcss (the table)
and in each other screen's own file (screens/styles.py).

Every game runs on a `net` host that the app joins over TCP: a game against bots on a private
host child process on 127.0.0.1 (`host_here=True`: the same host on this event loop, for tests
and screenshots), a LAN game on the host someone runs.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar, Final

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender

if TYPE_CHECKING:
    from net.spawn import HostProcess, HostSpec
    from pigeon_tui.screens.cubirds import CubirdsTableScreen
    from pigeon_tui.screens.table import TableScreen
from pigeon_tui.birds import BIRD_COLOURS
from pigeon_tui.changes import FLASH_SECONDS
from pigeon_tui.hangup import watch_terminal
from pigeon_tui.joining import Joining
from pigeon_tui.lan_games import LanGames
from pigeon_tui.session import GameOptions, Session
from pigeon_tui.themes import KIND_COLOURS, glyphs

log = logging.getLogger(__name__)

_GAME_SCREENS: Final = frozenset(
    {"GameOverScreen", "TableScreen", "LobbyScreen", "CubirdsTableScreen", "BirdsOverScreen"}
)
"""Screens a new table (or the lobby) replaces rather than covers."""
_RESULTS: Final = frozenset({"GameOverScreen", "BirdsOverScreen"})
"""The game screens of a game's results (`leave_results`)."""
COLLECT_AFTER: Final = 2.0
"""Seconds after the app starts by which the garbage collector is on again, whatever is shown
(a game that never came); normally it is on once the first table or the start screen is painted."""
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
            self.options = self.options._replace(bot_delay=bot_delay)
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
        self.lan = LanGames(self)
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

        spawned = await self._take_prespawned(options.host_spec())
        return await private_game(options, spawned, here=self.host_here)

    async def _take_prespawned(self, spec: HostSpec | None = None) -> HostProcess | None:
        """The private host the CLI started, if it still runs (and was started for `spec`)."""
        spawned, self.prespawned = self.prespawned, None
        if spawned is not None and ((spec is not None and spawned.spec != spec) or not spawned.running):
            await spawned.stop()
            spawned = None
        return spawned

    async def drop_session(self, leave: bool = False) -> None:
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
            self.set_timer(COLLECT_AFTER, self.collect_garbage)  # normally the first table does
            self.start_game(self.options)  # the start screen is built only if asked for
            return
        self.call_after_refresh(self.collect_garbage)
        self.show_start()
        if self.join_address is not None:
            self.lan.join(*self.join_address)
        elif self.joining.find:
            from pigeon_tui.screens.lobby import JoinScreen

            self.push_screen(JoinScreen(self.glyphs, self.joining.name))

    def show_start(self) -> None:
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

    def collect_garbage(self) -> None:
        """Turn the garbage collector back on, if the CLI turned it off while it started: from
        the imports to the first screen painted, about forty collections walked objects that all
        live as long as the app (issue 9: 18 M instructions of `pigeon-tui play`). Frozen first, so
        no collection walks them later (idle CPU); the start's few garbage cycles (~280 KB) are kept."""
        if not gc.isenabled():
            gc.freeze()
            gc.enable()

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
        self.show_start()

    async def _back_to_start(self) -> None:
        await self.drop_session(leave=True)
        self._look_up_again()  # its host gone, a game left unfinished is offered

    def start_game(self, options: GameOptions) -> None:
        """A new game against bots, over the start screen: dealt as soon as the host is ready,
        or drawn empty ("Dealing...") if the host takes longer than `DEALING_AFTER`."""
        self.options = options
        if self.joining.guest and self.join_address is not None:
            host, port, name, password = self.join_address  # a new table with bots on our host
            self.run_worker(
                self.lan.enter_lobby(host, port, name, password, bots=options), exclusive=True, group="start"
            )
            return
        self.run_worker(self._start_game(options), exclusive=True, group="start")

    async def _start_game(self, options: GameOptions) -> None:
        from net.client import Refused
        from net.spawn import HostFailed

        await self.drop_session()
        dealing: list[TableScreen | CubirdsTableScreen] = []
        waiting = True

        def draw_empty() -> None:
            # The timer queues this call when it fires: it may run after the session came (on a
            # busy machine), and an empty table would then replace the dealt one for good.
            if waiting:
                dealing.append(self.show_table(None, options.players, options.game))

        timer = self.set_timer(DEALING_AFTER, draw_empty)
        try:
            session = await self.session_factory(options)
        except (HostFailed, Refused, OSError, TimeoutError) as exc:
            log.error("the game could not start: %s", exc)
            self.notify(f"The game could not start: {exc}", severity="error", timeout=10)
            self.show_start()
            return
        finally:
            waiting = False
            timer.stop()
        if dealing and dealing[0].is_attached and dealing[0].session is None:
            self.session = session
            dealing[0].attach(session)
        else:
            self.show_table(session)

    def resume_game(self, token: str) -> None:
        """Take up the game against bots left unfinished here (crash, Ctrl+Q, closed terminal):
        the private host brings it back as it starts, and its seat token leads back to it."""
        self.run_worker(self._resume_game(token), exclusive=True, group="start")

    async def _resume_game(self, token: str) -> None:
        from net.client import Refused
        from net.spawn import HostFailed
        from pigeon_tui.remote import private_game

        await self.drop_session()
        spawned = await self._take_prespawned()  # whatever its options: it holds the game
        try:
            session = await private_game(self.options, spawned, here=self.host_here, token=token)
        except Refused as exc:
            self.notify(f"Your game could not be taken up: {exc.text or exc.code}", severity="error", timeout=10)
            self.show_start()
            return
        except (HostFailed, OSError, TimeoutError) as exc:
            log.error("the game could not be resumed: %s", exc)
            self.notify(f"Your game could not be taken up: {exc}", severity="error", timeout=10)
            self.show_start()
            return
        self.show_table(session)

    def show_table(
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
        self.leave_results()
        self.replace_game_screen(screen)
        return screen

    def replace_game_screen(self, screen: Screen[None], lobby_too: bool = True) -> None:
        """`screen` in place of the game screen on top (a table, the results, a lobby unless not
        `lobby_too`), or over any other (the start screen stays under a game)."""
        replaced = _GAME_SCREENS if lobby_too else _GAME_SCREENS - {"LobbyScreen"}
        if type(self.screen).__name__ in replaced:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def leave_results(self) -> None:
        """The results go (they lie over the final board, which goes next), and what lies over
        them (the log, a question: a rematch is dealt as the others agree, whatever is open)."""
        names = [type(s).__name__ for s in reversed(self.screen_stack)]
        game = next((n for n, name in enumerate(names) if name in _GAME_SCREENS), None)
        if game is not None and names[game] in _RESULTS:
            for _ in range(game + 1):
                self.pop_screen()

    async def on_unmount(self) -> None:
        """The app is ending (however): close the session, stop any host we started."""
        await self._close()

    async def _close(self) -> None:
        await self.drop_session()
        if (spawned := await self._take_prespawned()) is not None:
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
        await self._close()
        self.exit()
