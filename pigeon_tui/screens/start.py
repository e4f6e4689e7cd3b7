"""The start screen: play against bots (game, players, bot levels, edition), host, join, rules, quit."""

from __future__ import annotations

import os
from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from core.bots import ALIASES, LEVELS
from core.cards import Edition
from core.games import GAMES
from core.house import HOUSE_RULES, HouseRules
from net.places import SHARED_ACCOUNT_ENV
from pigeon_tui.house import label as house_label
from pigeon_tui.house import pairs as house_pairs
from pigeon_tui.house import shown as house_shown
from pigeon_tui.launch import MIXED_LEVELS, PACES
from pigeon_tui.screens.custom import CustomCards
from pigeon_tui.screens.size import GuardedScreen
from pigeon_tui.session import GameOptions
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.setting import Setting
from pigeon_tui.yours import Yours

if TYPE_CHECKING:
    from pigeon_tui.app import PigeonApp


TITLE = r"""
 ___ _                            ___    ___
| _ (_)__ _ ___ ___ _ _  ___     ( _ )  / __|_  _ __ _ _ _  ___
|  _/ / _` / -_) _ \ ' \(_-<     / _ \/| (_ | || / _` | ' \/ _ \
|_| |_\__, \___\___/_||_/__/     \___/\ \___|\_,_\__,_|_||_\___/
      |___/
""".strip("\n")
ABOUT: Final = {
    "host": "Host a LAN game: open a table on this machine that others on your network "
    "join with pigeon-tui join. Seats you do not fill can be bots.",
    "join": "Join a game: the tables open on your network are listed; or type a host's address (HOST:PORT).",
    "lobby": "Back to the lobby of this server: its tables, and people to play with.",
    "rules": "Rules and cards: how a turn goes, what every card does, the scoring. ? shows them at the table too.",
    "quit": "Quit Pigeons & Guano.",
}
"""What the side panel says of each entry of the menu but "Play against bots" (its settings)."""
MIXED = "mixed"
"""A level setting that gives each bot seat its own level (MIXED_LEVELS, or those asked for)."""


def mixed(asked: tuple[str, ...]) -> tuple[str, ...]:
    """The levels of a "mixed" table: those asked for (`play --bots hard,greedy`) if they differ,
    else `MIXED_LEVELS`."""
    return asked if len(set(asked)) > 1 else MIXED_LEVELS


def house_settings(current: tuple[tuple[str, str], ...], prefix: str) -> list[Setting[str]]:
    """One setting per house rule (core.house), at its value in `current` or the book's; each
    DOM id is `prefix` + the rule's name with dashes (`set-infamous-empty`)."""
    chosen = dict(current)
    out: list[Setting[str]] = []
    for name, rule in HOUSE_RULES.items():
        values = list(rule.values)
        index = values.index(chosen[name]) if chosen.get(name) in values else 0
        shown = [house_shown(name, v) for v in values]
        out.append(Setting(house_label(name), values, shown, index, id=prefix + name.replace("_", "-")))
    return out


def chosen_house(screen: Widget, prefix: str) -> tuple[tuple[str, str], ...]:
    """The house rules set away from the book on `screen`'s settings (see `house_settings`)."""
    values = {name: screen.query_one("#" + prefix + name.replace("_", "-"), Setting).value for name in HOUSE_RULES}
    return house_pairs(HouseRules.from_dict(values))


def game_setting(current: str, dom_id: str) -> Setting[str]:
    """The game to play, by title (Pigeons & Guano first)."""
    ids = list(GAMES)
    return Setting(
        "Game", ids, [g.title for g in GAMES.values()], ids.index(current) if current in ids else 0, id=dom_id
    )


class StartScreen(GuardedScreen):
    """Choose how to play. Enter on "Play against bots" starts a game with the settings shown."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["forms.tcss", "start.tcss"]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "rules", "Rules", id="rules", key_display="?"),
        Binding("q", "app.quit", "Quit", show=False, id="quit"),
        Binding("enter", "play", "Play", show=False, id="play-with-settings"),
    ]

    def __init__(self, glyphs: Glyphs, options: GameOptions, network: bool = False, guest: bool = False) -> None:
        super().__init__()
        self.glyphs = glyphs
        self.options = options
        self.network = network
        self.guest = guest
        """Playing through serve-ssh: no hosting and no other address from here."""
        self.yours = Yours()
        """This machine's games (read in a thread once the screen shows)."""

    def compose(self) -> ComposeResult:
        o = self.options
        levels = [MIXED, *(lv for lv in LEVELS if lv not in ALIASES)]
        current = MIXED if len(set(o.bots)) > 1 else (o.bots[0] if o.bots else MIXED)
        with Vertical(id="start"):
            yield Static(TITLE, id="start-title")
            yield Center(Static("the card game of city pigeons and their guano", id="start-tagline"))
            with Center(), Horizontal(id="start-body"):
                yield OptionList(*self._menu(), id="start-menu")
                with Vertical(id="start-settings"):
                    yield Static("Game against bots", id="start-settings-title")
                    yield Setting(
                        "Players", [2, 3, 4, 5, 6], ["2", "3", "4", "5", "6"], o.players - 2, id="set-players"
                    )
                    yield Setting(
                        "Bots", levels, levels, levels.index(current) if current in levels else 0, id="set-bots"
                    )
                    editions = [Edition.V35, Edition.V30]
                    yield Setting("Edition", editions, ["3.5", "3.0"], editions.index(o.edition), id="set-edition")
                    yield game_setting(o.game, "set-game")
                    yield self._pace_setting()
                    yield from house_settings(o.house, "set-")
                    yield CustomCards(o.custom, id="set-custom")
                    yield Static("Tab here: arrows, Enter plays", id="start-settings-hint")
                yield Static("", id="start-about")
        yield Footer()

    def _menu(self) -> list[Option]:
        """The menu's entries ("Resume your game" first when a game against bots was left)."""
        net_note = "" if self.network else " (soon)"
        lan = [
            Option(f"Host a LAN game{net_note}", id="host", disabled=not self.network),
            Option(f"Join a game{net_note}", id="join", disabled=not self.network),
        ]
        return [
            *([Option("Resume your game", id="resume")] if self.yours.token else []),
            Option("Play against bots", id="play"),
            *([Option("Back to the lobby", id="lobby")] if self.guest else lan),
            *([] if self.guest else [Option("Your games", id="games")]),
            Option("Rules and cards", id="rules"),
            Option("Quit", id="quit"),
        ]

    def _pace_setting(self) -> Setting[float]:
        """How long each bot move stays on screen; a `--bot-delay` of another length is kept as
        one more value."""
        delays, shown = list(PACES.values()), list(PACES)
        if self.options.bot_delay not in delays:
            delays.append(self.options.bot_delay)
            shown.append(f"{self.options.bot_delay:g} s")
        return Setting("Pace", delays, shown, delays.index(self.options.bot_delay), id="set-pace")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        # A guest of serve-ssh or a browser tab: the server's games are not theirs.
        if not self.guest and not os.environ.get(SHARED_ACCOUNT_ENV):
            self.look_up()

    @work(thread=True, exclusive=True, group="yours")
    def look_up(self) -> None:
        """Read this machine's games (in a thread): a game left unfinished, the history."""
        from pigeon_tui.yours import look_up

        app: PigeonApp = self.app  # type: ignore[assignment]
        spawned = app.prespawned
        yours = look_up((spawned.process.pid,) if spawned is not None else ())
        app.call_from_thread(self.show_yours, yours)

    def show_yours(self, yours: Yours) -> None:
        """Offer (or stop offering) "Resume your game", and update the side panel."""
        found = self.query("#start-menu")
        if not found:
            return  # the screen changed its menu (a lobby's) while the games were read
        menu = found.first(OptionList)
        had, self.yours = bool(self.yours.token), yours
        if bool(yours.token) != had:
            at = menu.highlighted or 0
            menu.set_options(self._menu())
            menu.highlighted = 0 if yours.token and at == 0 else max(0, at + (1 if yours.token else -1))
        option = menu.highlighted_option
        if option is not None:
            self._describe(option.id)

    def chosen_options(self) -> GameOptions:
        players: int = self.query_one("#set-players", Setting).value
        level: str = self.query_one("#set-bots", Setting).value
        edition: Edition = self.query_one("#set-edition", Setting).value
        game: str = self.query_one("#set-game", Setting).value
        delay: float = self.query_one("#set-pace", Setting).value
        bots = mixed(self.options.bots) if level == MIXED else (level,)
        players = min(players, GAMES[game].max_players)  # CuBirds: at most 5
        pigeons = game == "pigeons"
        house = chosen_house(self, "set-") if pigeons else ()
        custom = self.query_one("#set-custom", CustomCards).texts if pigeons else ()
        return self.options._replace(
            players=players,
            bots=bots,
            edition=edition,
            game=game,
            bot_delay=delay,
            house=house,
            custom=custom,
        )

    @on(OptionList.OptionHighlighted, "#start-menu")
    def _on_highlight(self, event: OptionList.OptionHighlighted) -> None:
        self._describe(event.option_id)

    def _describe(self, option_id: str | None) -> None:
        """The side panel: the settings of a game against bots, or what the entry does."""
        from pigeon_tui.yours import left_text, stats_text

        about: str | Text = ABOUT.get(option_id or "", "")
        if option_id == "resume" and self.yours.left is not None:
            about = left_text(self.yours.left)
        elif option_id == "games":
            about = stats_text(self.yours)
        self.query_one("#start-settings").display = not about
        panel = self.query_one("#start-about", Static)
        panel.display = bool(about)
        panel.update(about)

    @on(OptionList.OptionSelected, "#start-menu")
    async def _on_menu(self, event: OptionList.OptionSelected) -> None:
        app: PigeonApp = self.app  # type: ignore[assignment]
        if event.option_id == "play":
            app.start_game(self.chosen_options())
        elif event.option_id == "resume" and self.yours.token is not None:
            app.resume_game(self.yours.token)
        elif event.option_id == "games":
            from net.store import default_path
            from pigeon_tui.screens.replay import GameListScreen

            self.app.push_screen(GameListScreen(self.yours.finished, self.glyphs, self.yours.db or default_path()))
        elif event.option_id == "host":
            from pigeon_tui.screens.lobby import HostScreen

            self.app.push_screen(HostScreen(self.glyphs, self._player_name()))
        elif event.option_id == "join":
            from pigeon_tui.screens.lobby import JoinScreen

            self.app.push_screen(JoinScreen(self.glyphs, self._player_name()))
        elif event.option_id == "lobby" and app.join_address is not None:
            app.lan.join(*app.join_address)
        elif event.option_id == "rules":
            self.action_rules()
        elif event.option_id == "quit":
            await app.action_quit()

    def _player_name(self) -> str:
        """A default player name for LAN games: the login name, else "Player"."""
        import getpass

        try:
            return getpass.getuser()[:24] or "Player"
        except (KeyError, OSError):
            return "Player"

    def action_play(self) -> None:
        """Enter on a setting: play against bots with the settings shown (the menu's own Enter
        chooses its highlighted line)."""
        app: PigeonApp = self.app  # type: ignore[assignment]
        app.start_game(self.chosen_options())

    def action_rules(self) -> None:
        from pigeon_tui.screens.help import HelpScreen

        if self.query_one("#set-game", Setting).value == "cubirds":
            from pigeon_tui.screens.cubirds import BirdsHelpScreen

            self.app.push_screen(BirdsHelpScreen(self.glyphs))
            return
        edition = self.query_one("#set-edition", Setting).value
        self.app.push_screen(
            HelpScreen(self.glyphs, edition, house=HouseRules.from_dict(dict(chosen_house(self, "set-"))))
        )
