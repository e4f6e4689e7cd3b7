"""LAN play: the host and join forms, and the lobby (the host's tables, seats, who is
connected, bot seats; start and leave) shown until the game begins."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from core.bots import ALIASES, LEVELS
from core.cards import Edition
from core.games import GAMES
from pigeon_tui.screens.custom import CustomCards
from pigeon_tui.screens.size import GuardedScreen
from pigeon_tui.screens.start import MIXED, chosen_house, game_setting, house_settings, mixed
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.setting import Setting

if TYPE_CHECKING:
    from net.client import TableInfo
    from net.discovery_udp import Found
    from pigeon_tui.app import PigeonApp
    from pigeon_tui.session import Session

DEFAULT_PORT = 7777


def _levels() -> list[str]:
    return [MIXED, *(lv for lv in LEVELS if lv not in ALIASES)]


class HostScreen(GuardedScreen):
    """Host a LAN game: a headless host child process others join; you take a seat."""

    CSS_PATH = "forms.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="host-back"),
        Binding("ctrl+s", "submit", "Host", id="host-submit", key_display="enter"),
    ]

    def __init__(self, glyphs: Glyphs, name: str) -> None:
        super().__init__()
        self.glyphs = glyphs
        self.player_name = name

    def compose(self) -> ComposeResult:
        levels = _levels()
        with Vertical(classes="form"):
            yield Static("Host a LAN game", classes="form-title")
            yield Static("Others on your network join with the line shown next.", classes="form-hint")
            yield Setting("Seats", [2, 3, 4, 5, 6], ["2", "3", "4", "5", "6"], 2, id="host-seats")
            yield Setting("Bots", [0, 1, 2, 3, 4, 5], ["0", "1", "2", "3", "4", "5"], 0, id="host-bots")
            yield Setting("Level", levels, levels, levels.index("random"), id="host-level")
            yield Setting("Edition", [Edition.V35, Edition.V30], ["3.5", "3.0"], 0, id="host-edition")
            yield game_setting("pigeons", "host-game")
            yield from house_settings((), "host-")
            yield CustomCards((), id="host-custom")
            yield Static("Your name", classes="form-label")
            yield Input(self.player_name, id="host-name", max_length=24)
            yield Static("Port", classes="form-label")
            yield Input(str(DEFAULT_PORT), id="host-port", restrict=r"[0-9]*", max_length=5)
            yield Static("Password (optional)", classes="form-label")
            yield Input("", id="host-password", password=True, max_length=64)
            yield Static("Tab moves, arrows change, Enter hosts.", classes="form-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#host-seats").focus()

    @on(Input.Submitted)
    def action_submit(self) -> None:
        seats: int = self.query_one("#host-seats", Setting).value
        bots: int = self.query_one("#host-bots", Setting).value
        game: str = self.query_one("#host-game", Setting).value
        if bots >= seats:
            self.notify("Leave at least one seat for you.", severity="error")
            return
        if seats > GAMES[game].max_players:
            self.notify(f"{GAMES[game].title} is for at most {GAMES[game].max_players} players.", severity="error")
            return
        port_text = self.query_one("#host-port", Input).value or str(DEFAULT_PORT)
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.lan.host(
            seats=seats,
            bots=bots,
            levels=mixed(()) if (level := self.query_one("#host-level", Setting).value) == MIXED else (level,),
            edition=self.query_one("#host-edition", Setting).value,
            port=int(port_text),
            name=self.query_one("#host-name", Input).value.strip() or "Host",
            password=self.query_one("#host-password", Input).value or None,
            game=game,
            house=chosen_house(self, "host-") if game == "pigeons" else (),
            custom=self.query_one("#host-custom", CustomCards).texts if game == "pigeons" else (),
        )

    def action_back(self) -> None:
        self.dismiss()


class JoinScreen(GuardedScreen):
    """Join a game: one found on this LAN (listed live), or the host's address typed; your
    name, and the password if it has one."""

    CSS_PATH = "forms.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="join-back"),
    ]

    def __init__(self, glyphs: Glyphs, name: str, address: str = "") -> None:
        super().__init__()
        self.glyphs = glyphs
        self.player_name = name
        self.address = address
        self.found: list[Found] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="form"):
            yield Static("Join a game", classes="form-title")
            yield Static("Games on this network", classes="form-label")
            yield OptionList(id="join-found")
            yield Static(f"Looking{self.glyphs.ellipsis}", id="join-found-status", classes="form-hint")
            yield Static("Address (the host shows it: ADDRESS:PORT)", classes="form-label")
            yield Input(self.address, placeholder="192.168.1.20:7777", id="join-address")
            yield Static("Your name", classes="form-label")
            yield Input(self.player_name, id="join-name", max_length=24)
            yield Static("Password (if the host set one)", classes="form-label")
            yield Input("", id="join-password", password=True, max_length=64)
            yield Static("Tab moves, Enter joins, Esc goes back.", classes="form-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#join-address").focus()
        self.find_games()

    @work(exclusive=True, group="discovery")
    async def find_games(self) -> None:
        """Probe the LAN (or `--discover-at`) and list the games that answer, live; the probe
        loop stops by itself after `WATCH_ROUNDS` rounds, or when the screen goes."""
        from net.discovery_udp import Finder, default_targets

        app: PigeonApp = self.app  # type: ignore[assignment]
        targets = app.joining.discover_at
        try:
            await Finder(default_targets() if targets is None else targets).run(self._games_changed)
        except OSError as exc:
            self.query_one("#join-found-status", Static).update(f"LAN discovery failed ({exc}); type an address.")

    def _games_changed(self, found: list[Found]) -> None:
        from net.messages import PROTOCOL_VERSION

        if not self.is_attached:
            return
        self.found = found
        games = self.query_one("#join-found", OptionList)
        highlighted = games.highlighted
        games.clear_options()
        for i, f in enumerate(found):
            g = f.game
            notes = [
                f"{g.free} free seat{'s' if g.free != 1 else ''}",
                f"{g.tables} table{'s' if g.tables != 1 else ''}",
            ]
            if g.password:
                notes.append("password")
            if g.protocol != PROTOCOL_VERSION:
                notes.append("another version")
            # A host bound to 127.0.0.1 only this machine can join: said as such (issue 9).
            where = f"this machine, port {g.port}" if f.this_machine_only else f.join_address
            games.add_option(Option(f"{g.host} {self.glyphs.dot} {where} ({', '.join(notes)})", id=str(i)))
        if highlighted is not None and highlighted < games.option_count:
            games.highlighted = highlighted
        elif games.option_count:
            games.highlighted = 0
        address = self.query_one("#join-address", Input)
        if found and not address.value and address.has_focus:
            games.focus()  # nothing typed yet: Enter joins the game found
        status = (
            "Enter joins the game chosen; Tab goes to the address."
            if found
            else ("None found yet. A firewall may block UDP port 7778: type the address.")
        )
        self.query_one("#join-found-status", Static).update(status)

    @on(OptionList.OptionSelected, "#join-found")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_id is None or int(event.option_id) >= len(self.found):
            return
        self._join_found(self.found[int(event.option_id)])

    def _join_found(self, f: Found) -> None:
        self.query_one("#join-address", Input).value = f.join_address
        password = self.query_one("#join-password", Input)
        if f.game.password and not password.value:
            self.notify("This game needs a password.", severity="warning")
            password.focus()
            return
        self._submit()

    @on(Input.Submitted)
    def _submit(self) -> None:
        from pigeon_tui.remote import parse_address

        games = self.query_one("#join-found", OptionList)
        if not self.query_one("#join-address", Input).value and games.highlighted is not None and self.found:
            self._join_found(self.found[min(games.highlighted, len(self.found) - 1)])
            return
        try:
            host, port = parse_address(self.query_one("#join-address", Input).value, DEFAULT_PORT)
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.lan.join(
            host,
            port,
            self.query_one("#join-name", Input).value.strip() or "Player",
            self.query_one("#join-password", Input).value or None,
        )

    def action_back(self) -> None:
        self.dismiss()


class LobbyScreen(GuardedScreen):
    """The host's tables and seats until the game begins; Enter sits (or watches a game under
    way), w watches, s starts, Esc leaves."""

    CSS_PATH = "forms.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start now", id="lobby-start"),
        Binding("w", "watch", "Watch", id="lobby-watch"),
        Binding("escape", "leave", "Leave", id="lobby-leave"),
    ]

    def __init__(self, session: Session, glyphs: Glyphs, share: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.session = session
        self.glyphs = glyphs
        self.share = share

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(id="lobby-title")
            if self.share:
                lines = "\n".join(f"  {line}" for line in self.share)
                yield Static(f"Friends on your network type:\n{lines}", id="lobby-share")
            yield Static("Tables", classes="form-label")
            yield OptionList(id="lobby-tables")
            yield Static(id="lobby-seats")
            yield Static(
                "Enter sits at a table (or watches a game under way); w watches; s starts now with who is there.",
                id="lobby-hint",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.session.on_change = self._changed
        self.query_one(OptionList).focus()
        self._changed()
        self.wait_for_game()

    def on_unmount(self) -> None:
        if self.session.on_change == self._changed:
            self.session.on_change = None

    @work(exclusive=True, group="lobby")
    async def wait_for_game(self) -> None:
        """Go to the table as soon as the first view of a game arrives."""
        from net.spawn import HostFailed

        try:
            await self.session.first_view(timeout=None)
        except HostFailed as exc:
            app: PigeonApp = self.app  # type: ignore[assignment]
            if app.session is not self.session:
                return  # the player left (Esc, another game): they closed it, nothing was lost
            self.notify(f"Disconnected: {exc}", severity="error")
            app.back_to_start()
            return
        app = self.app  # type: ignore[assignment]
        app.show_table(self.session)

    def _changed(self) -> None:
        if not self.is_attached or not self.query("#lobby-title"):
            return  # the game began and this screen is going away
        client = self.session.client
        lobby = client.lobby
        g = self.glyphs
        status = self.session.status
        title = Text(f"Lobby {g.dot} {lobby.host if lobby else client.host} {g.dot} ", style="bold")
        title.append(status.link.value + (f": {status.message}" if status.message else ""))
        self.query_one("#lobby-title", Static).update(title)
        tables = self.query_one(OptionList)
        highlighted = tables.highlighted
        tables.clear_options()
        listed = lobby.tables if lobby else ((client.table,) if client.table is not None else ())
        for t in listed:
            if client.table is not None and t.id == client.table.id:
                t = client.table  # ours is the newer (the lobby list may lag behind a seat taken)
            tables.add_option(Option(self._table_line(t), id=str(t.id)))
        if highlighted is not None and highlighted < tables.option_count:
            tables.highlighted = highlighted
        elif tables.option_count:
            tables.highlighted = 0  # Enter sits at the first table straight away
        mine = client.table
        seats = Text()
        if mine is not None and client.seat is not None:
            seats.append(f"You sit at {mine.name} (seat {client.seat + 1}). Seats:\n", style="bold")
            for i, s in enumerate(mine.seats):
                if s is None:
                    who = "(free)"
                elif s.kind == "bot":
                    who = f"{s.name} {s.level or ''}".strip()
                else:
                    who = s.name + ("" if s.connected else " (offline)")
                mark = g.active if i == client.seat else " "
                seats.append(f" {mark} {i + 1}. {who}\n")
            seats.append("Waiting for the table to fill, or for its first player to start.")
        self.query_one("#lobby-seats", Static).update(seats)

    def _table_line(self, t: TableInfo) -> str:
        taken = sum(1 for s in t.seats if s is not None)
        names = ", ".join(s.name for s in t.seats if s is not None) or "empty"
        played = GAMES.get(t.game_id)
        what = f"{played.title}, " if played is not None else ""
        if played is not None and any(s.name == "edition" for s in played.settings):
            what += f"edition {t.edition}, "
        return f"{t.name}: {what}{t.phase}, {taken}/{len(t.seats)} seats ({names})"

    @on(OptionList.OptionSelected, "#lobby-tables")
    async def _sit(self, event: OptionList.OptionSelected) -> None:
        if event.option_id is None:
            return
        table = int(event.option_id)
        if self._phase(table) in ("playing", "over") and self.session.client.table_id != table:
            self._watch(table)  # "already playing; you may watch": so we do
            return
        if self.session.client.table_id != table:
            await self.session.stand_up()
        out = await self.session.client.join(table)
        if not out.ok:
            self.notify(out.text or "You cannot sit there.", severity="error")

    def _phase(self, table: int) -> str | None:
        lobby = self.session.client.lobby
        listed = lobby.tables if lobby is not None else ()
        return next((t.phase for t in listed if t.id == table), None)

    def _watch(self, table: int) -> None:
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.lan.watch(table)

    def action_watch(self) -> None:
        """Watch the highlighted table."""
        tables = self.query_one(OptionList)
        if tables.highlighted is None:
            return
        option = tables.get_option_at_index(tables.highlighted)
        if option.id is not None:
            self._watch(int(option.id))

    async def action_start(self) -> None:
        out = await self.session.client.start()
        if not out.ok:
            self.notify(self._why_not(out.text), severity="error")

    def _why_not(self, text: str | None) -> str:
        """The host's refusal, and what to do: alone at a table, how to play against bots."""
        if text and "at least two players" in text:
            return (
                "Nobody else is at this table yet. Wait for someone to sit, or play against bots: "
                "Esc leaves the lobby, then choose Play against bots on the start screen."
            )
        return text or "The game cannot start yet."

    async def action_leave(self) -> None:
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.back_to_start()
