"""The commands that read the games database: `pigeon-tui replay` (watch, list, export, open a
file) and `pigeon-tui stats`. Headless except the viewer itself, which loads textual when run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from net.archive import SavedRecord

ALL_CARDS = "all"


def add_db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="PATH",
        help="the games database (default: games.sqlite in the user data directory, or in $PIGEON_TUI_DATA_DIR if set)",
    )


def db_path(args: argparse.Namespace) -> Path:
    from net.store import default_path

    return Path(args.db) if args.db else default_path()


def _viewer(text: str) -> int | str | None:
    if text == ALL_CARDS:
        return ALL_CARDS
    if text == "spectator":
        return None
    try:
        return int(text) - 1
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a seat number (1, 2...), 'spectator' or 'all'") from None


def _export(args: argparse.Namespace) -> int:
    """`replay --export ID FILE` (StoreError, ValueError)."""
    from net.archive import export, load, open_db

    gid, target = args.export
    db = open_db(db_path(args))
    try:
        found = load(db, _game_id(gid))
    finally:
        db.close()
    export(found, Path(target))
    state = "finished" if found.over else "not finished: its replay hides the other seats' cards"
    print(f"game {found.id} ({state}) written to {target}")
    return 0


def _list(args: argparse.Namespace) -> int:
    """`replay --list` (StoreError)."""
    from net.archive import games, open_db

    lines = []
    if db_path(args).exists():
        db = open_db(db_path(args))
        try:
            lines = games(db, finished=not args.every)
        finally:
            db.close()
    for line in lines:
        print(_line_text(line))
    if not lines:
        print("no finished games yet")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from net.archive import check_replays, load, open_db, read_export
    from net.store import StoreError

    def fail(message: str) -> int:
        print(f"pigeon-tui replay: {message}", file=sys.stderr)
        return 1

    saved: SavedRecord | None
    try:
        if args.export is not None:
            return _export(args)
        if args.list:
            return _list(args)
        saved = None
        if args.game is not None:
            if args.game.isdigit():
                db = open_db(db_path(args))
                try:
                    saved = load(db, int(args.game))
                finally:
                    db.close()
                check_replays(saved, f"game {saved.id}")
            else:
                saved = read_export(Path(args.game))
        viewer = args.view
        if saved is not None:
            from pigeon_tui.screens.replay import viewers

            allowed = viewers(saved)
            if viewer is not None and viewer not in allowed:
                from pigeon_tui.screens.replay import refusal

                return fail(refusal(saved, viewer))
        else:
            open_db(db_path(args)).close()  # a missing or damaged database: say so before the screen
    except StoreError as exc:
        return fail(str(exc))
    except ValueError as exc:
        return fail(str(exc))
    from pigeon_tui.replay_app import ReplayApp

    app = ReplayApp(saved, db=db_path(args), viewer=viewer, ascii_only=args.ascii)
    app.run()
    if app.return_code:
        return app.return_code
    return 0


def _game_id(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a game number (see `pigeon-tui replay --list`)") from None


def _line_text(line: Any) -> str:
    from pigeon_tui.screens.replay import game_text
    from pigeon_tui.themes import glyphs

    return game_text(line, glyphs(True))


def _stats(args: argparse.Namespace) -> int:
    from net.archive import Stats, open_db, stats
    from net.store import StoreError

    try:
        s = Stats(args.name or "you")
        if db_path(args).exists():  # no database yet: no games (reading makes none)
            db = open_db(db_path(args))
            try:
                s = stats(db, args.name)
            finally:
                db.close()
    except StoreError as exc:
        print(f"pigeon-tui stats: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(s.to_dict()))
    else:
        print("\n".join(s.lines()))
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rp = sub.add_parser(
        "replay",
        help="watch a finished game again (no GAME: choose from the list), or export one",
        description="Watch a recorded game: step with the arrows (left/right a point, up/down a turn), "
        "t jumps to a turn, v changes whose view is shown, q closes.",
    )
    rp.add_argument("game", nargs="?", metavar="GAME|FILE", help="a game number of the database, or an exported file")
    rp.add_argument(
        "--export", nargs=2, metavar=("GAME", "FILE"), help="write game GAME to a new JSON file FILE, to share it"
    )
    rp.add_argument("--list", action="store_true", help="print the finished games and exit")
    rp.add_argument("--every", action="store_true", help="with --list: unfinished games too")
    rp.add_argument(
        "--view",
        type=_viewer,
        default=None,
        metavar="SEAT",
        help="whose view to start with: a seat number (1, 2...), 'spectator', or 'all' (every card; "
        "finished games only)",
    )
    rp.add_argument("--ascii", action="store_true", help="ASCII only (no box-drawing or symbols)")
    add_db_option(rp)
    rp.set_defaults(run=_replay)
    st = sub.add_parser("stats", help="your games: played, won, average score, by bot level and edition")
    st.add_argument("--name", help="the stats of the player of this name (default: you, in your games against bots)")
    st.add_argument("--json", action="store_true", help="print one JSON object")
    add_db_option(st)
    st.set_defaults(run=_stats)
