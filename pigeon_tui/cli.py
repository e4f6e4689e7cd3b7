"""The `pigeon-tui` command. Headless subcommands never import textual (design.md)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from core.games import AnyGame, SettingValue
    from net.host import Host, HostConfig
    from net.spawn import HostProcess
    from net.ssh.config import SshConfig
    from net.ssh.server import SshServer
    from net.store import StoreConfig
    from pigeon_tui.joining import Joining
    from pigeon_tui.session import GameOptions


def _selfplay_plan(args: argparse.Namespace) -> tuple[AnyGame, list[str], dict[str, str], dict[str, SettingValue]]:
    """The game, the bot level of each seat, the house settings, and every setting the games
    run with. Raises ValueError, saying what is wrong with the command line."""
    from core.games import game as find_game

    played = find_game(args.game)
    levels = played.bot_levels
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    unknown = [s for s in specs if s not in levels]
    if not specs or unknown:
        raise ValueError(f"unknown bot level {unknown or args.bots!r}; known: {', '.join(levels)}")
    if not played.min_players <= args.players <= played.max_players:
        raise ValueError(f"{played.title} is for {played.min_players} to {played.max_players} players")
    house = house_settings(args, played)  # house rules and custom cards
    settings = played.check_settings(
        {**({"edition": args.edition} if any(s.name == "edition" for s in played.settings) else {}), **house}
    )
    return played, specs, house, settings


def _selfplay(args: argparse.Namespace) -> int:
    import json  # here, not at the top: every client start imports this module (issue 9)

    from core.selfplay import selfplay

    try:
        played, specs, house, settings = _selfplay_plan(args)
    except ValueError as exc:
        print(f"pigeon-tui selfplay: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    summary = selfplay(
        args.games,
        args.players,
        specs,
        args.seed,
        args.edition,
        time.perf_counter,
        deadlines=not args.no_deadline,
        game=played.id,
        settings=house,
    )
    elapsed = time.perf_counter() - t0
    result = {
        "games": summary.games,
        "game": played.id,
        "players": args.players,
        "edition": args.edition if any(s.name == "edition" for s in played.settings) else None,
        "seed": args.seed,
        "bots_per_seat": specs,
        "settings": settings,
        "turns_mean": round(summary.turns / summary.games, 3) if summary.games else 0.0,
        "turns_max": summary.turns_max,
        "restarts_mean": round(summary.restarts / summary.games, 3) if summary.games else 0.0,
        "restarts_max": summary.restarts_max,
        "decisions_mean": round(summary.decisions / summary.games, 3) if summary.games else 0.0,
        "wins": {spec: round(st.wins, 3) for spec, st in summary.stats.items()},
        "bots": {spec: st.summary() for spec, st in summary.stats.items()},
        "errors": summary.errors,
        "seconds": round(elapsed, 3),
        "games_per_s": round(summary.games / elapsed, 2) if elapsed else 0.0,
    }
    if not args.json:
        for spec, st in result["bots"].items():
            print(f"{spec:>10}: {st}")
    print(json.dumps(result))
    return 1 if summary.errors else 0


HOUSE_RULE_HELP: Final = (
    "a house rule, NAME=VALUE (repeatable): infamous_empty=resume (the book: converting the Infamous "
    "with the Flock deck empty calls the final phase off) or infamous_empty=trophy (it is the face-down "
    "trophy, nothing resumes) (R4.6)"
)


CUSTOM_CARD_HELP: Final = (
    "a customizable Flock card (given twice: F39, then F40): 'name=Racing Pigeon,size=1,"
    "places=road+statue+cables+crowd+balcony,rule=none|fat|infamous|lady|stupid|lame' (only name is "
    "needed: size 1, any City Location, no special rule)"
)
HOUSE_SETTINGS_HELP: Final = (
    'a TOML file of house settings: [house] infamous_empty = "trophy"; [[custom]] name = "Racing Pigeon", '
    'size = 1, places = ["road", "statue"], rule = "lady" (at most two); the options above win over it'
)


def add_house_rules(p: argparse.ArgumentParser) -> None:
    """`--house-rule NAME=VALUE` (repeatable), `--custom-card SPEC` (twice) and `--house-settings
    FILE`: a host's house settings (core.house, the customizable cards of core.cards)."""
    p.add_argument("--house-rule", action="append", default=[], metavar="NAME=VALUE", help=HOUSE_RULE_HELP)
    p.add_argument("--custom-card", action="append", default=[], metavar="SPEC", help=CUSTOM_CARD_HELP)
    p.add_argument("--house-settings", metavar="FILE", default=None, help=HOUSE_SETTINGS_HELP)


def read_house_settings(path: str) -> tuple[list[tuple[str, str]], list[str]]:
    """A house settings file: its house rules as (name, value) pairs and its custom cards in their
    text form (core.cards.custom_from_text). Raises ValueError naming the file and what is wrong."""
    import tomllib
    from pathlib import Path

    from core.cards import custom_pigeon, custom_to_text

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read the house settings file {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not a TOML file: {exc}") from None
    unknown = sorted(set(data) - {"house", "custom"})
    if unknown:
        raise ValueError(f"{path}: unknown section {', '.join(unknown)} (known: [house], [[custom]])")
    house = data.get("house", {})
    if not isinstance(house, dict):
        raise ValueError(f'{path}: [house] must be a table of NAME = "VALUE"')
    cards = data.get("custom", [])
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        raise ValueError(f"{path}: custom cards are [[custom]] tables")
    texts = []
    for i, c in enumerate(cards, 1):
        extra = sorted(set(c) - {"name", "size", "places", "rule"})
        name = c.get("name", "")
        places = c.get("places", ["road", "statue", "cables", "crowd"])
        try:
            if extra:
                raise ValueError(f"unknown field {', '.join(extra)} (known: name, size, places, rule)")
            if isinstance(name, str) and ("," in name or "=" in name):
                raise ValueError("a name may not hold ',' or '='")
            if isinstance(places, str):
                places = [places]
            if not isinstance(places, list):
                raise ValueError('places is a list such as ["road", "statue"]')
            texts.append(custom_to_text(custom_pigeon(name, c.get("size", 1), tuple(places), c.get("rule", "none"))))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}: custom card {i}: {exc}") from None
    return [(str(k), str(v)) for k, v in house.items()], texts


def house_settings(args: argparse.Namespace, played: object = None) -> dict[str, str]:
    """The house settings of `--house-settings FILE`, then `--house-rule` (later ones win) and
    `--custom-card` (replacing the file's cards), as game settings: the house rules given and
    `custom_1`/`custom_2`. Raises ValueError on an unknown rule or value, a bad card, more than
    two cards, or house settings for a game that has none."""
    rules: list[tuple[str, str] | str] = []
    cards: list[str] = []
    path = getattr(args, "house_settings", None)
    if path:
        from_file, cards = read_house_settings(path)
        rules += from_file
    rules += list(getattr(args, "house_rule", None) or [])
    cards = list(getattr(args, "custom_card", None) or []) or cards
    if not rules and not cards:
        return {}
    # Not before: `play` spawns its host before it loads the engine's modules.
    from core.cards import CUSTOM_SETTINGS, custom_from_text, custom_to_text
    from core.games import PIGEONS
    from core.house import house_rules

    if played is not None and played is not PIGEONS:
        raise ValueError("house rules and custom cards are Pigeons & Guano's (--game pigeons)")
    if len(cards) > 2:
        raise ValueError(f"there are two customizable cards (F39, F40): {len(cards)} given")
    out = house_rules(rules).to_dict() if rules else {}
    for name, text in zip(CUSTOM_SETTINGS, cards, strict=False):
        out[name] = custom_to_text(custom_from_text(text))
    return out


def _house_pairs(args: argparse.Namespace) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The house rules set away from the book, as (name, value) pairs, and the custom cards'
    texts, of the command line (ValueError)."""
    given = house_settings(args)
    if not given:
        return (), ()
    from core.cards import CUSTOM_SETTINGS
    from core.house import HOUSE_RULES, house_rules

    house = house_rules([(k, v) for k, v in given.items() if k in HOUSE_RULES]).changed()
    return tuple(house.items()), tuple(given[k] for k in CUSTOM_SETTINGS if k in given)


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def _players(text: str) -> int:
    """2 to 6 (each game checks its own range: CuBirds is for 2 to 5)."""
    n = int(text)
    if not 2 <= n <= 6:
        raise argparse.ArgumentTypeError("Pigeons & Guano is for 2 to 6 players, CuBirds for 2 to 5")
    return n


_GAME_HELP: Final = "the game: pigeons (Pigeons & Guano, the default) or cubirds (CuBirds)"


def bot_delay_of(args: argparse.Namespace) -> float:
    """Seconds a bot waits before each move of its turn: `--bot-delay`, else `--pace`'s."""
    from pigeon_tui.launch import BOT_DELAY, PACES

    if getattr(args, "bot_delay", None) is not None:
        return float(args.bot_delay)
    return PACES[args.pace] if getattr(args, "pace", None) else BOT_DELAY


def _tui(args: argparse.Namespace) -> int:
    """Start the table client; the only place the CLI loads textual (style §5.1).

    For a game against bots, the private host process is started first of all (before Textual
    is imported), so it gets ready while the app loads. It is a fork of this process where that
    is safe (`net.forked`), once the modules the host and the app both need are imported here."""
    import gc

    gc.disable()  # until the first screen is painted (PigeonApp.collect_garbage): little is garbage
    from net.spawn import HostSpec, spawn
    from pigeon_tui.launch import DEFAULT_BOTS

    command = getattr(args, "command", None)
    levels = DEFAULT_BOTS
    if command == "play":
        levels = tuple(s.strip() for s in (args.bots or "").split(",") if s.strip()) or DEFAULT_BOTS
    prespawned = None
    bot_delay = bot_delay_of(args)
    if command in (None, "play"):
        players, seed = (args.players, args.seed) if command == "play" else (4, None)
        played = args.game if command == "play" else "pigeons"
        try:
            house, custom = _house_pairs(args) if played == "pigeons" else ((), ())
        except ValueError as exc:
            print(f"pigeon-tui play: {exc}", file=sys.stderr)
            return 2
        try:
            spec = HostSpec.private_game(players, levels, args.edition, seed, bot_delay, played, house, custom)
            import net.client  # noqa: F401  (asyncio, the engine, the protocol: imported once for both)

            prespawned = spawn(spec, run_here=main)
        except OSError:
            prespawned = None  # the app tries again and says what failed
    try:
        return _run_app(args, command, levels, prespawned, bot_delay)
    finally:
        if prespawned is not None:
            prespawned.kill()


def _play_options(args: argparse.Namespace, levels: tuple[str, ...]) -> GameOptions:
    """`pigeon-tui play`'s game. Raises ValueError, saying what is wrong with the command line."""
    from core.cards import Edition
    from core.games import game as find_game
    from pigeon_tui.session import GameOptions

    played = find_game(args.game)
    if not played.min_players <= args.players <= played.max_players:
        raise ValueError(f"{played.title} is for {played.min_players} to {played.max_players} players")
    unknown = [level for level in levels if level not in played.bot_levels]
    if unknown:
        raise ValueError(f"unknown bot level {unknown}; known: {', '.join(played.bot_levels)}")
    house_settings(args, played)
    house, custom = _house_pairs(args)
    return GameOptions(
        players=args.players,
        bots=levels,
        seed=args.seed,
        edition=Edition(args.edition),
        game=played.id,
        house=house,
        custom=custom,
    )


def _joining(args: argparse.Namespace) -> tuple[tuple[str, int, str, str | None] | None, Joining]:
    """`pigeon-tui join`'s host (host, port, name, password; None: find one) and how to join.
    Raises ValueError, saying what is wrong with the command line."""
    import os

    from net.discovery_udp import parse_target
    from pigeon_tui.joining import Joining
    from pigeon_tui.remote import parse_address

    password = args.password or os.environ.get("PIGEON_TUI_PASSWORD") or None
    join = None
    if args.address:
        host, port = parse_address(args.address, 7777)
        join = (host, port, args.name, password)
    targets = tuple(parse_target(t) for t in args.discover_at) if args.discover_at else None
    if args.guest and join is None:
        raise ValueError("--guest needs an address")
    return join, Joining(args.guest, args.token_file, join is None, args.name, targets)


def _run_app(
    args: argparse.Namespace,
    command: str | None,
    levels: tuple[str, ...],
    prespawned: HostProcess | None,
    bot_delay: float,
) -> int:
    from core.cards import Edition
    from pigeon_tui.session import GameOptions

    options = GameOptions(edition=Edition(args.edition))
    join: tuple[str, int, str, str | None] | None = None
    joining: Joining | None = None
    try:
        if command == "play":
            options = _play_options(args, levels)
        elif command == "join":
            join, joining = _joining(args)
    except ValueError as exc:
        print(f"pigeon-tui {command}: {exc}", file=sys.stderr)
        return 2
    from pigeon_tui.app import PigeonApp

    app = PigeonApp(
        options,
        play_now=command == "play",
        ascii_only=args.ascii,
        join=join,
        prespawned=prespawned,
        joining=joining,
        bot_delay=bot_delay,
    )
    app.run()  # which freezes what the start made and turns the collector on once it has painted
    return app.return_code or 0  # 129 after the terminal hung up


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from pigeon_tui.launch import PACE, PACES

    pp = sub.add_parser("play", help="play now against bots on this machine")
    pp.add_argument("--game", default="pigeons", help=_GAME_HELP)
    pp.add_argument("--players", type=_players, default=4)
    pp.add_argument(
        "--bots", default=None, help="bot level per bot seat, comma-separated, the last repeats (default: greedy)"
    )
    pp.add_argument("--seed", type=int, default=None, help="deal a given game (default: a fresh one)")
    pp.add_argument(
        "--pace",
        choices=list(PACES),
        default=PACE,
        help=f"how fast bots play their turns ({', '.join(f'{k} {v:g} s' for k, v in PACES.items())} a move; "
        "default %(default)s)",
    )
    pp.add_argument(
        "--bot-delay", type=_seconds, default=None, help="seconds a bot waits before each move of its turn (not --pace)"
    )
    add_house_rules(pp)
    _add_look(pp)
    pp.set_defaults(run=_tui)


def _add_join(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    jp = sub.add_parser("join", help="join a game on a host (another machine, or one on this LAN)")
    jp.add_argument(
        "address",
        nargs="?",
        default=None,
        help="HOST[:PORT], as the host shows it (port 7777 if left out); none: list the games on this LAN",
    )
    jp.add_argument("--name", default="Player", help="your name at the table")
    jp.add_argument("--password", default=None, help="the host's password, if it set one (or $PIGEON_TUI_PASSWORD)")
    jp.add_argument(
        "--discover-at",
        action="append",
        metavar="ADDRESS[:PORT]",
        help="send LAN discovery probes here (a host, or a subnet's broadcast address; repeatable) "
        "instead of every broadcast address of this machine",
    )
    jp.add_argument(
        "--token-file", default=None, help="keep the seat token in this file, and take that seat back with it"
    )
    jp.add_argument(
        "--guest",
        action="store_true",
        help="as serve-ssh runs it: stay on this host (no hosting, no other address; bot games are tables there)",
    )
    _add_look(jp, edition=False)
    jp.set_defaults(run=_tui)


def _serve(command: str, served: Coroutine[Any, Any, None], cannot: str = "") -> int:
    """Run a server until it ends or Ctrl+C; 1 with a message on stderr if its store is unusable
    or it cannot listen (`cannot` says where it tried)."""
    import asyncio

    from net.store import StoreError

    try:
        asyncio.run(served)
    except KeyboardInterrupt:
        pass
    except StoreError as exc:
        print(f"pigeon-tui {command}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"pigeon-tui {command}: {cannot}{exc}", file=sys.stderr)
        return 1
    return 0


def _host(args: argparse.Namespace) -> int:
    """A headless host (never imports textual): a lobby, tables, bots, and the protocol."""
    import logging

    from net.host import run

    try:
        config = _host_config(args)
    except ValueError as exc:
        print(f"pigeon-tui host: {exc}", file=sys.stderr)
        return 2
    level = logging.INFO if args.verbose else logging.WARNING
    if args.log_file is not None:
        from net.logs import HOST_LOG, log_path, log_to_file

        try:
            log_to_file(log_path(args.log_file, HOST_LOG), level, take_stderr=True)
        except OSError as exc:
            print(f"pigeon-tui host: cannot log to {args.log_file or HOST_LOG}: {exc}", file=sys.stderr)
            logging.basicConfig(level=level, format="%(levelname)s %(message)s")
    else:
        logging.basicConfig(level=level, format="%(levelname)s %(message)s")
    served = run(config, ready_line=args.ready, exit_with_stdin=args.exit_with_stdin)
    return _serve("host", served, f"cannot listen on {args.bind}:{args.port}: ")


def store_config(args: argparse.Namespace) -> StoreConfig | None:
    """The games database a host's `--db` options name (None: `--no-db`, kept in memory)."""
    from pathlib import Path

    from net.store import StoreConfig, default_path

    if args.no_db:
        return None
    path = Path(args.db) if args.db else default_path()
    game = getattr(args, "resume_game", None)
    return StoreConfig(
        path,
        private=getattr(args, "private", False),
        resume=getattr(args, "resume", False) or game is not None,
        game=game,
        reset=args.db_reset,
    )


def add_store_arguments(p: argparse.ArgumentParser) -> None:
    """A host's options for its games database."""
    p.add_argument(
        "--db",
        metavar="PATH",
        help="the games database (default: games.sqlite in the user data directory, or in $PIGEON_TUI_DATA_DIR)",
    )
    p.add_argument("--no-db", action="store_true", help="keep games in memory only (lost when the host stops)")
    p.add_argument(
        "--db-reset",
        action="store_true",
        help="if the games database is damaged or unreadable, set it aside (renamed) and start a new one",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="bring back every game a host left unfinished in the database (crashed, killed, stopped): "
        "players reconnect into their seats by themselves",
    )
    p.add_argument("--resume-game", type=int, metavar="GAME", help="with --resume: only this game (its number)")


def _host_config(args: argparse.Namespace) -> HostConfig:
    """The host that `pigeon-tui host` options describe. Raises ValueError on impossible settings."""
    import os

    from core.games import game as find_game
    from net.bots import default_processes
    from net.host import HostConfig
    from net.limits import TABLES_MAX
    from net.table import TableConfig

    levels = tuple(lv.strip() for lv in args.bot_level.split(",") if lv.strip()) or ("random",)
    house = house_settings(args, find_game(args.game))
    table = TableConfig(
        game=args.game,
        settings=tuple(house.items()),
        seats=args.seats,
        bots=args.bots,
        bot_level=levels[0],
        bot_levels=levels if len(levels) > 1 else (),
        edition=args.edition,
        seed=args.seed,
        reaction_window=args.reaction_window,
        reaction_limit=args.reaction_limit,
        turn_limit=args.turn_limit,
        away_grace=args.grace,
        bot_delay=args.bot_delay,
        blind_windows=args.blind_windows,
    )
    table.check()
    if not 1 <= args.tables <= TABLES_MAX:
        raise ValueError(f"--tables must be 1 to {TABLES_MAX}")
    processes = args.bot_processes
    if processes is None:
        processes = default_processes(set(levels), os.cpu_count(), args.game)
    return HostConfig(
        bind=args.bind,
        port=args.port,
        name=args.name,
        password=args.password,
        tables=args.tables,
        table=table,
        bot_processes=processes,
        discovery_port=None if args.no_discovery else args.discovery_port,
        store=store_config(args),
    )


def host_config(options: Sequence[str]) -> HostConfig:
    """The host `pigeon-tui host OPTIONS` would run, for one on this event loop
    (`net.spawn.HostSpec.options()`: the same spec a child gets). Raises ValueError."""
    p = argparse.ArgumentParser(prog="pigeon-tui host", add_help=False, exit_on_error=False)
    _host_arguments(p)
    try:
        args = p.parse_args(list(options))
    except (argparse.ArgumentError, SystemExit) as exc:
        raise ValueError(f"bad host options {list(options)}: {exc}") from None
    return _host_config(args)


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _add_host(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hp = sub.add_parser("host", help="run a headless host others join (a LAN game, a server)")
    _host_arguments(hp)
    hp.set_defaults(run=_host)


def _host_arguments(hp: argparse.ArgumentParser) -> None:
    from net.limits import AWAY_GRACE, REACTION_LIMIT, REACTION_WINDOW, TURN_LIMIT

    hp.add_argument("--game", default="pigeons", help=_GAME_HELP)
    hp.add_argument("--bind", default="0.0.0.0", help="address to listen on (127.0.0.1: this machine only)")
    hp.add_argument("--port", type=int, default=7777, help="0 picks a free port")
    hp.add_argument("--seats", type=_players, default=4, help="seats at the host's table")
    hp.add_argument("--bots", type=int, default=0, help="seats taken by bots")
    hp.add_argument(
        "--bot-level",
        default="random",
        help="random, greedy, easy, medium, hard or expert; comma-separated: one per bot seat, the last repeats",
    )
    hp.add_argument("--password", default=None, help="players must give it to join")
    _add_look(hp, ascii_only=False)
    add_house_rules(hp)
    hp.add_argument("--seed", type=int, default=None, help="deal reproducible (so predictable) games")
    hp.add_argument("--tables", type=_positive, default=1, help="tables open at once (players open the others)")
    hp.add_argument(
        "--reaction-window",
        type=_seconds,
        default=REACTION_WINDOW,
        help="seconds every reaction window stays open when two or more people play (hides who holds what)",
    )
    hp.add_argument(
        "--reaction-limit", type=_seconds, default=REACTION_LIMIT, help="seconds to react before passing (0: none)"
    )
    hp.add_argument(
        "--turn-limit", type=_seconds, default=TURN_LIMIT, help="seconds per decision before a bot plays (0: none)"
    )
    hp.add_argument(
        "--grace", type=_seconds, default=AWAY_GRACE, help="seconds a dropped player keeps their seat from the bots"
    )
    hp.add_argument("--bot-delay", type=_seconds, default=0.5, help="seconds a bot waits before each move")
    hp.add_argument(
        "--blind-windows",
        action="store_true",
        help="with two or more people, ask everyone who may react in every window, cards or not (a Pass each time)",
    )
    _host_process_arguments(hp)


def _host_process_arguments(hp: argparse.ArgumentParser) -> None:
    """The host process's options (the table's come before them in --help)."""
    from net.discovery import DISCOVERY_PORT

    hp.add_argument("--bot-processes", type=int, default=None, help="worker processes for bots (default: auto)")
    hp.add_argument("--name", default="pigeon_tui", help="the host's name in the lobby")
    hp.add_argument(
        "--no-discovery",
        action="store_true",
        help="do not answer LAN discovery probes (a host bound to 127.0.0.1 answers this machine's only)",
    )
    hp.add_argument(
        "--discovery-port", type=int, default=DISCOVERY_PORT, help="UDP port for LAN discovery probes (0: any)"
    )
    add_store_arguments(hp)
    hp.add_argument(
        "--private", action="store_true", help="the private host of a game against bots (the app starts it so)"
    )
    hp.add_argument("--ready", action="store_true", help="print `LISTENING ADDRESS PORT` once listening")
    hp.add_argument("--exit-with-stdin", action="store_true", help="stop when stdin closes (a child process)")
    hp.add_argument(
        "--log-file",
        nargs="?",
        const="",
        default=None,
        metavar="PATH",
        help="log to this file, rotated at 2 MB (no PATH: host.log in the user log directory, "
        "or $PIGEON_TUI_LOG_DIR); stderr goes there too",
    )
    hp.add_argument("-v", "--verbose", action="store_true", help="log connections and games")


def _serve_ssh(args: argparse.Namespace) -> int:
    """The SSH front door (never imports textual; each session's TUI is a child process). A bad
    command line is refused before asyncssh is imported (a quarter of a second)."""
    import logging

    try:
        config = _ssh_config(args)
    except ValueError as exc:
        print(f"pigeon-tui serve-ssh: {exc}", file=sys.stderr)
        return 2
    try:
        from net.ssh.server import serve_ssh
    except ImportError:
        print("pigeon-tui serve-ssh needs asyncssh: pip install 'pigeon-tui[ssh]'", file=sys.stderr)
        return 1

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")

    def ready(server: SshServer, game_host: Host | None) -> None:
        _say_ssh_ready(config, args.bind, server, game_host)

    return _serve("serve-ssh", serve_ssh(config, ready))


def _ssh_config(args: argparse.Namespace) -> SshConfig:
    """serve-ssh's settings. Raises ValueError, saying what is wrong with the command line."""
    from pathlib import Path

    from net.host import HostConfig
    from net.limits import TABLES_MAX
    from net.ssh.config import SshConfig
    from net.table import TableConfig
    from pigeon_tui.remote import parse_address

    game = parse_address(args.host, 7777) if args.host else None
    levels = tuple(lv.strip() for lv in args.bot_level.split(",") if lv.strip()) or ("greedy",)
    table = TableConfig(
        game=args.game,
        seats=args.seats,
        bots=args.bots,
        bot_level=levels[0],
        bot_levels=levels if len(levels) > 1 else (),
    )
    host = HostConfig(
        bind="127.0.0.1",
        port=0,
        name=args.name,
        tables=min(args.max_sessions + 1, TABLES_MAX),
        table=table,
        store=None if game is not None else store_config(args),
    )
    config = SshConfig(
        bind=args.bind,
        port=args.port,
        host_key=Path(args.host_key) if args.host_key else None,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        password=args.password,
        open=args.open,
        game=game,
        game_password=args.host_password,
        host=host,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout,
    )
    table.check()
    config.check()
    return config


def _say_ssh_ready(config: SshConfig, bind: str, server: SshServer, game_host: Host | None) -> None:
    """How players come in, once serve-ssh listens (and a warning if anyone may)."""
    from net.host import lan_addresses

    if config.open:
        print(
            "\n  *** OPEN: anyone who can reach this port plays, with no key and no password. ***\n"
            "  *** Use it on a LAN you trust (a party), not on the internet.                ***\n",
            file=sys.stderr,
            flush=True,
        )
    address = ("127.0.0.1", game_host.port) if game_host is not None else server.game
    where = f"{'its own' if game_host is not None else 'the'} game host at {address[0]}:{address[1]}"
    print(f"pigeon-tui serve-ssh: SSH on port {server.port}, joining {where}", flush=True)
    print(f"host key fingerprint: {server.fingerprint}", flush=True)
    addresses = lan_addresses() if bind in ("0.0.0.0", "::") else [bind]
    port_flag = "" if server.port == 22 else f"-p {server.port} "
    for addr in addresses or ["127.0.0.1"]:
        print(f"players type: ssh {port_flag}NAME@{addr}", flush=True)


def _add_serve_ssh(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from net.ssh.child import IDLE_TIMEOUT, MAX_SESSIONS, SSH_PORT

    sp = sub.add_parser("serve-ssh", help="let players in over SSH: `ssh -p 2222 name@this-host`, nothing installed")
    sp.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    sp.add_argument("--port", type=int, default=SSH_PORT, help="SSH port (0 picks a free one)")
    way = sp.add_argument_group("how players get in (one of; keys and a password may go together)")
    way.add_argument("--authorized-keys", metavar="FILE", help="public keys allowed (OpenSSH authorized_keys format)")
    way.add_argument("--password", help="a password every player gives (any user name)")
    way.add_argument("--open", action="store_true", help="anyone may play, no key or password (a LAN party)")
    sp.add_argument("--host-key", metavar="PATH", help="host key file (default: kept in the user data directory)")
    sp.add_argument(
        "--host", metavar="ADDRESS:PORT", help="join this game host (default: run one on 127.0.0.1 in this process)"
    )
    sp.add_argument("--host-password", help="that game host's password, if it has one")
    sp.add_argument("--max-sessions", type=_positive, default=MAX_SESSIONS, help="players connected at once")
    sp.add_argument(
        "--idle-timeout", type=_seconds, default=IDLE_TIMEOUT, help="seconds without a key press before a session ends"
    )
    sp.add_argument("--name", default="pigeon_tui", help="the game host's name in the lobby")
    sp.add_argument("--game", default="pigeons", help=_GAME_HELP + " at the game host's own table")
    sp.add_argument("--seats", type=_players, default=4, help="seats at the game host's own table")
    sp.add_argument("--bots", type=int, default=0, help="bot seats at that table")
    sp.add_argument("--bot-level", default="greedy", help="level of bots (comma-separated: one per bot seat)")
    add_store_arguments(sp)
    sp.add_argument("-v", "--verbose", action="store_true", help="log connections and sessions")
    sp.set_defaults(run=_serve_ssh)


def _serve_web(args: argparse.Namespace) -> int:
    """The web front door: each browser tab gets the app as a child process (docs/web.md)."""
    import logging

    from pigeon_tui.web.config import WebConfig

    try:
        from pigeon_tui.web.server import run
    except ImportError:
        print("pigeon-tui serve-web needs textual-serve: pip install 'pigeon-tui[web]'", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    config = WebConfig(
        bind=args.bind,
        port=args.port,
        password=args.password,
        open=args.open,
        max_sessions=args.max_sessions,
        max_per_address=args.max_per_address,
        idle_timeout=args.idle_timeout,
        spares=args.spares,
    )
    try:
        config.check()
    except ValueError as exc:
        print(f"pigeon-tui serve-web: {exc}", file=sys.stderr)
        return 2
    return run(config)


def _add_serve_web(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from pigeon_tui.web.config import IDLE_TIMEOUT, MAX_PER_ADDRESS, MAX_SESSIONS, SPARES, WEB_PORT

    wp = sub.add_parser(
        "serve-web", help="let players in with a web browser: http://this-host:8080/, nothing installed"
    )
    wp.add_argument("--bind", default="0.0.0.0", help="address to listen on (127.0.0.1: this machine only)")
    wp.add_argument("--port", type=int, default=WEB_PORT, help="HTTP port (0 picks a free one)")
    way = wp.add_mutually_exclusive_group()
    way.add_argument("--password", help="a password every player gives on the page")
    way.add_argument("--open", action="store_true", help="anyone who reaches the port plays, no password (a LAN party)")
    wp.add_argument("--max-sessions", type=_positive, default=MAX_SESSIONS, help="browser tabs playing at once")
    wp.add_argument(
        "--max-per-address", type=_positive, default=MAX_PER_ADDRESS, help="tabs playing at once from one address"
    )
    wp.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=IDLE_TIMEOUT,
        help="seconds without a key press before a tab's game ends",
    )
    wp.add_argument(
        "--spares",
        type=int,
        default=SPARES,
        help="apps kept started for the next tabs, so a page opens at once (0: each starts when opened)",
    )
    wp.add_argument("-v", "--verbose", action="store_true", help="log logins and tabs")
    wp.set_defaults(run=_serve_web)


class _Version(argparse.Action):
    """`--version`: the version the store stamps records with (net.version)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from net.version import VERSION

        parser.exit(message=f"pigeon-tui {VERSION}\n")


EDITION_HELP = "Pigeons & Guano's rules edition: 3.5 (French, the default) or 3.0 (English)"
ASCII_HELP = "draw with ASCII only (no box or symbol glyphs)"


def _add_look(p: argparse.ArgumentParser, *, edition: bool = True, ascii_only: bool = True) -> None:
    """--edition and --ascii after a command. Their defaults live on the root parser (so that
    `pigeon-tui --edition 3.0` works without a command); SUPPRESS keeps a sub-parser from
    writing its own default over a value given before the command."""
    if edition:
        p.add_argument("--edition", choices=["3.5", "3.0"], default=argparse.SUPPRESS, help=EDITION_HELP)
    if ascii_only:
        p.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=ASCII_HELP)


COMMANDS: Final = ("selfplay", "play", "join", "host", "serve-ssh", "serve-web", "replay", "stats")
"""The subcommands, for `command_of` (a command missing here still works: all are then built)."""


def command_of(words: Sequence[str]) -> str | None:
    """The command a command line runs ("": none, the start screen), for building the options
    of that command alone; None to build them all (help, the version, or a word that names
    no command, which argparse then explains)."""
    if any(word in ("-h", "--help", "--version") for word in words):
        return None
    after_edition = False
    for word in words:
        if after_edition:
            after_edition = False
        elif word == "--edition":
            after_edition = True
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return ""


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only` (a command, or "" for none), the options of that
    command alone: each command's options cost imports and time, and a game against bots
    starts its private host only once its own options are read."""
    p = argparse.ArgumentParser(
        prog="pigeon-tui",
        description="Pigeons & Guano in the terminal. With no command: the start screen, a game against bots.",
    )
    p.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    p.add_argument("--edition", choices=["3.5", "3.0"], default="3.5", help=EDITION_HELP)
    p.add_argument("--ascii", action="store_true", help=ASCII_HELP)
    sub = p.add_subparsers(dest="command")
    if only is None or only == "selfplay":
        _add_selfplay(sub)
    for name, add in (
        ("play", _add_play),
        ("join", _add_join),
        ("host", _add_host),
        ("serve-ssh", _add_serve_ssh),
        ("serve-web", _add_serve_web),
    ):
        if only is None or only == name:
            add(sub)
    if only is None or only in ("replay", "stats"):
        from pigeon_tui.history import add_commands

        add_commands(sub)
    return p


def _add_selfplay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sp = sub.add_parser("selfplay", help="bots play each other with no network; prints a JSON summary")
    sp.add_argument("--games", type=_positive, default=100)
    sp.add_argument("--players", type=_players, default=4)
    sp.add_argument("--bots", default="random", help="bot level per seat, comma-separated (the last repeats)")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--game", default="pigeons", help=_GAME_HELP)
    _add_look(sp, ascii_only=False)
    add_house_rules(sp)
    sp.add_argument("--json", action="store_true", help="print only the JSON summary")
    sp.add_argument(
        "--no-deadline",
        action="store_true",
        help="search bots run their whole iteration budget, never cut by the clock (reproducible)",
    )
    sp.set_defaults(run=_selfplay)


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    args = parser(command_of(words)).parse_args(words)
    if args.command is None:
        return _tui(args)
    return int(args.run(args))
