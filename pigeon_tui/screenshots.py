"""SVG screenshots of the main screens from one seeded game against bots (`make screenshots`).

    python -m pigeon_tui.screenshots [DIRECTORY]      # default: screenshots/

The game runs on the real host (`net`), on this event loop (`PigeonApp(host_here=True)`), with
random bots that answer at once; a picture is taken only when the host waits on the player and
the screen shows all it sent, so the pictures are the same on every run. Keys are pressed
exactly as a player would. Tests use the same waiting (`settled`, `prompt`).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any, Final

from textual.app import App
from textual.pilot import Pilot

from core.decisions import REACTIONS
from pigeon_tui.app import PigeonApp
from pigeon_tui.remote import HostHere
from pigeon_tui.screens.cubirds import CubirdsTableScreen
from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions
from pigeon_tui.widgets.prompt import BACK_KEY, PASS_KEY, Prompt

SEED: Final = 21
"""The game shown (4 players, random bots)."""
CUBIRDS_SEED: Final = 5
"""The CuBirds game shown (5 players at 80x24, 4 at 120x40; random bots)."""
PICTURE_FLASH: Final = 3600.0
"""The marks of what changed stay this long in pictures and tests, so a busy machine cannot
decide whether a picture shows them (a test of their end sets its own)."""
STALL: Final = 60.0
"""Seconds without any update after which a game is said to have stalled."""


def game_app(players: int = 4, seed: int = SEED, game: str = "pigeons", **kw: Any) -> PigeonApp:
    """A game against random bots that answer at once, on a host on this event loop."""
    options = GameOptions(players=players, bots=("random",), seed=seed, game=game)
    app = PigeonApp(options, host_here=True, bot_delay=0, **kw)
    app.flash_seconds = PICTURE_FLASH
    return app


def settled(app: App[None]) -> bool:
    """The host waits on nobody but the player, and the screen has every update it sent (a host
    this process cannot look into, such as a child's, counts as settled)."""
    session = getattr(app.screen, "session", None)
    host = getattr(session, "host", None)
    if session is None or not isinstance(host, HostHere):
        return True
    return host.settled(session)


async def prompt(pilot: Pilot[None], stall: float = STALL) -> Prompt | None:
    """Wait until the player has a decision on screen and the game is settled (None: game over).
    Raises RuntimeError if nothing moves for `stall` seconds."""
    app = pilot.app
    moved, last = time.monotonic(), _progress(app)
    while True:
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            await pilot.pause(0.1)
            return None
        if isinstance(screen, TableScreen | CubirdsTableScreen) and settled(app):
            await pilot.pause()  # the screen handles the last update posted to it
            found = screen.query(Prompt)
            if found and found.first().decision is not None and settled(app):
                await pilot.pause()
                return found.first()
        await pilot.pause(0.01)
        now, seen = time.monotonic(), _progress(app)
        if seen != last:
            moved, last = now, seen
        elif now - moved > stall:
            raise RuntimeError(f"the game stalled: {_why(app)}")


def _progress(app: App[None]) -> object:
    """What changes as the game goes on (the screen, the updates the client has had)."""
    session = getattr(app.screen, "session", None)
    client = getattr(session, "client", None)
    return (app.screen, getattr(client, "seq", None))


def _why(app: App[None]) -> str:
    session = getattr(app.screen, "session", None)
    host = getattr(session, "host", None)
    if session is None or not isinstance(host, HostHere):
        return f"screen {type(app.screen).__name__}, no host to look into"
    table = host.table_of(session)
    if table is None:
        return "no table"
    client = session.client
    member = table.seats[client.seat] if client.seat is not None else None
    return (
        f"table settled {table.settled}, open {table.state.open if table.state else None}, "
        f"host seq {member.stream.seq if member else None}, client seq {client.seq}, "
        f"client updates {client.pending_updates}, session idle {session.idle}"
    )


def still(app: App[None]) -> None:
    """For a picture that is the same on every run however busy the machine: the toasts go
    (they time out) and the marks of what changed stay (their timer is stopped)."""
    app.clear_notifications()
    timer = getattr(app.screen, "_flash_timer", None)
    if isinstance(app.screen, TableScreen) and timer is not None:
        timer.stop()


async def hold_still(pilot: Pilot[None]) -> None:
    still(pilot.app)
    await pilot.pause()


async def _play(pilot: Pilot[None], decisions: int, rng: random.Random, stop_at_reaction: bool = False) -> bool:
    """Answer decisions by keys; True when stopped at a reaction prompt (if asked to)."""
    for _ in range(decisions):
        shown = await prompt(pilot)
        if shown is None:
            return False
        decision = shown.decision
        assert decision is not None
        if stop_at_reaction and decision.kind in REACTIONS:
            return True
        keys = [e.key for e in shown.entries if e.key not in (PASS_KEY, BACK_KEY, "")]
        await pilot.press(rng.choice(keys) if keys else PASS_KEY)
    await prompt(pilot)
    return False


async def shoot(directory: Path) -> list[Path]:
    """Take every screenshot into `directory`; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240  (once, before the app starts)
    out: list[Path] = []

    def save(app: PigeonApp, name: str) -> None:
        still(app)
        out.append(Path(app.save_screenshot(filename=f"{name}.svg", path=str(directory))))

    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        save(app, "start")
    for size, name in (((80, 24), "table-80x24"), ((120, 40), "table-120x40")):
        app = game_app(play_now=True)
        async with app.run_test(size=size) as pilot:
            await _play(pilot, 5, random.Random(4))
            save(app, name)
    app = game_app(play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        if await _play(pilot, 80, random.Random(4), stop_at_reaction=True):
            save(app, "reaction")
        await pilot.press("question_mark")
        await pilot.pause(0.2)
        save(app, "help")
        await pilot.press("escape")
        await _play(pilot, 2000, random.Random(5))
        await pilot.pause(0.3)  # the footer's keys are drawn after the results
        save(app, "game-over")
        await pilot.press("b")
        await pilot.pause(0.2)
        save(app, "final-board")
    for size, name in (((80, 24), "cubirds-80x24"), ((120, 40), "cubirds-120x40")):
        app = game_app(5 if size[0] == 80 else 4, CUBIRDS_SEED, "cubirds", play_now=True)
        async with app.run_test(size=size) as pilot:
            await _play(pilot, 25, random.Random(4))
            save(app, name)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    files = asyncio.run(shoot(Path(args[0] if args else "screenshots")))
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
