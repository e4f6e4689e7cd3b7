"""SVG screenshots of the main screens from one seeded game against bots (`make screenshots`).

    python -m pigeon_tui.screenshots [DIRECTORY]      # default: screenshots/

The game runs in-process (LocalSession) with random bots so the pictures are the same on
every run; keys are pressed exactly as a player would.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Final

from textual.pilot import Pilot

from core.decisions import REACTIONS
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.game_over import GameOverScreen
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions, LocalSession
from pigeon_tui.widgets.prompt import BACK_KEY, PASS_KEY, Prompt

SEED: Final = 21
"""The game shown (4 players, random bots)."""


def _app() -> PigeonApp:
    return PigeonApp(GameOptions(players=4, bots=("random",), seed=SEED), play_now=True, local=True, bot_delay=0)


async def _prompt(pilot: Pilot[None]) -> Prompt | None:
    """Wait until the player has a decision on screen and the bots are idle (None: game over)."""
    for _ in range(2000):
        screen = pilot.app.screen
        if isinstance(screen, GameOverScreen):
            await pilot.pause(0.1)
            return None
        if isinstance(screen, TableScreen) and isinstance(screen.session, LocalSession) and screen.session.idle:
            found = screen.query(Prompt)
            if found and found.first().decision is not None:
                await pilot.pause()
                return found.first()
        await pilot.pause(0.01)
    raise RuntimeError("the game stalled")


async def _play(pilot: Pilot[None], decisions: int, rng: random.Random, stop_at_reaction: bool = False) -> bool:
    """Answer decisions by keys; True when stopped at a reaction prompt (if asked to)."""
    for _ in range(decisions):
        prompt = await _prompt(pilot)
        if prompt is None:
            return False
        decision = prompt.decision
        assert decision is not None
        if stop_at_reaction and decision.kind in REACTIONS:
            return True
        keys = [e.key for e in prompt.entries if e.key not in (PASS_KEY, BACK_KEY, "")]
        await pilot.press(rng.choice(keys) if keys else PASS_KEY)
    await _prompt(pilot)
    return False


async def shoot(directory: Path) -> list[Path]:
    """Take every screenshot into `directory`; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []

    def save(app: PigeonApp, name: str) -> None:
        out.append(Path(app.save_screenshot(filename=f"{name}.svg", path=str(directory))))

    app = PigeonApp(GameOptions(players=4, bots=("random",), seed=SEED), local=True, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        save(app, "start")
    for size, name in (((80, 24), "table-80x24"), ((120, 40), "table-120x40")):
        app = _app()
        async with app.run_test(size=size) as pilot:
            await _play(pilot, 5, random.Random(4))
            save(app, name)
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        if await _play(pilot, 80, random.Random(4), stop_at_reaction=True):
            save(app, "reaction")
        await pilot.press("question_mark")
        await pilot.pause(0.2)
        save(app, "help")
        await pilot.press("escape")
        await _play(pilot, 2000, random.Random(5))
        save(app, "game-over")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    files = asyncio.run(shoot(Path(args[0] if args else "screenshots")))
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
