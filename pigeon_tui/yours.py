"""What the start screen tells of this machine's games (issue 11): the game against bots left
unfinished, which "Resume your game" takes up, and the history of finished games ("Your games").

`look_up` reads the games database and blocks: the start screen runs it in a thread.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from net.archive import GameLine, Stats
    from net.resume import Unfinished


@dataclass(frozen=True, slots=True)
class Yours:
    """This machine's games, as the start screen shows them."""

    left: Unfinished | None = None
    """The newest game against bots left unfinished, if any."""
    stats: Stats | None = None
    """The history (None: no finished game, or no database yet)."""
    finished: tuple[GameLine, ...] = ()
    """The finished games, newest first (to watch again)."""
    db: Path | None = None
    error: str = ""
    """Why the database could not be read (the start screen says so, and nothing else fails)."""

    @property
    def token(self) -> str | None:
        """The seat token that leads back to the game left unfinished."""
        tokens = self.left.tokens if self.left is not None else ()
        return tokens[0] if tokens else None


def look_up(ours: Collection[int] = (), db: Path | None = None) -> Yours:
    """Read the games database (`db`, else the default one); `ours`: the pids of the app's own
    private host (which holds the game it brought back). Never raises."""
    from net.archive import games, open_db, stats
    from net.resume import unfinished
    from net.store import StoreError, default_path

    path = db or default_path()
    if not path.exists():
        return Yours(db=path)
    try:
        conn = open_db(path)
        try:
            left = [u for u in unfinished(conn, private=True, ours=ours) if u.tokens]
            return Yours(left[0] if left else None, stats(conn), tuple(games(conn)), path)
        finally:
            conn.close()
    except (StoreError, sqlite3.Error, ValueError) as exc:
        return Yours(db=path, error=str(exc))


def left_text(left: Unfinished) -> str:
    """The side panel of "Resume your game": which game, how far it went."""
    from core.games import GAMES

    title = GAMES[left.game_id].title if left.game_id in GAMES else left.game_id
    bots = [str(s.get("level") or "bot") for s in left.seats if s.get("kind") == "bot"]
    levels = sorted(set(bots))
    against = f"{len(bots)} {levels[0]} bot{'s' if len(bots) > 1 else ''}" if len(levels) == 1 else f"{len(bots)} bots"
    when = time.strftime("%d %b %H:%M", time.localtime(left.started))
    moves = f"{left.turns} move{'' if left.turns == 1 else 's'} made"
    return (
        f"Your game of {title} against {against}, begun {when}, was left unfinished ({moves}). "
        "Enter takes it up where it stopped. Playing a new game gives it up."
    )


def stats_text(yours: Yours) -> Text:
    """The side panel of "Your games": games played and won, average and best score, by bot
    level and edition."""
    out = Text()
    out.append("Your games against bots\n", style="bold")
    if yours.error:
        out.append(yours.error)
        return out
    s = yours.stats
    if s is None or not s.all.played:
        out.append("No finished game yet. Your games against bots are counted here.")
        return out
    a = s.all
    out.append(f"{a.played} played, {a.won} won ({100 * a.won // a.played}%)\n")
    out.append(f"Average score {a.average:.1f}\n")
    if s.best is not None:
        out.append(f"Best: {s.best[0]} points (#{s.best[1]})\n")
    for title, group in (("vs", s.by_level), ("Edition", s.by_edition)):
        parts = [f"{k} {v.won}/{v.played}" for k, v in sorted(group.items())]
        out.append(f"{title} " + ", ".join(parts) + "\n")
    out.append("Enter: watch a finished game", style="italic")
    return out
