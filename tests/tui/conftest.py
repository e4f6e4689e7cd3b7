"""Pilot helpers: a seeded game against random bots that answer at once, on the real host (on
the test's event loop), and a key-only player."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from core.decisions import REACTIONS, OptionValue
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.screenshots import game_app, prompt, settled
from pigeon_tui.session import Session
from pigeon_tui.widgets.prompt import BACK_KEY, PASS_KEY, Prompt


def make_app(players: int = 4, seed: int = 7, *, play_now: bool = True, ascii_only: bool = False) -> PigeonApp:
    """A game against random bots with no pacing delay, dealt from `seed`."""
    return game_app(players, seed, play_now=play_now, ascii_only=ascii_only)


@pytest.fixture(autouse=True, scope="package")
def _without_asyncio_debug() -> Iterator[None]:
    """The app's event loops run without asyncio's debug mode (`make test` turns it on for the
    rest): it doubles the CPU time of a whole game through Textual, and what it adds here is
    slow-callback reports of Textual's own drawing; un-awaited coroutines and leaked
    transports are still warned of without it. Package-wide, so that module fixtures (the
    games test_context plays) are set up without it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONASYNCIODEBUG", raising=False)
        yield


@pytest.fixture
def app_factory() -> Callable[..., PigeonApp]:
    return make_app


def hold_results(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Every choice's result is held (as a host holds it until a reaction window's pacing
    ends) until the event returned is set; the choice itself reaches the host at once."""
    release = asyncio.Event()
    answer = Session.choose

    async def held(self: Session, decision_id: int, option: OptionValue) -> None:
        await answer(self, decision_id, option)
        await release.wait()

    monkeypatch.setattr(Session, "choose", held)
    return release


async def drawn_while_held(pilot: Pilot[None], key: str, release: asyncio.Event, drawn: Callable[[], bool]) -> None:
    """Press `key` (answering the prompt) while its result is held (`hold_results`), and
    wait until `drawn()`: a screen frozen on the answer never draws, nor takes the key in."""
    try:
        async with asyncio.timeout(20):
            await pilot.press(key)
            while not drawn():
                await pilot.pause(0.01)
    except TimeoutError:
        raise AssertionError("no update drawn while the result was held") from None
    finally:
        release.set()


def screen_text(app: App[Any]) -> str:
    """What the terminal shows, as plain text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def wait_for_prompt(pilot: Pilot[None]) -> Prompt | None:
    """Pause until the seat has a decision on screen and the host waits on it alone, or the
    game is over (None)."""
    return await prompt(pilot)


async def wait_until(pilot: Pilot[None], done: Callable[[], bool], seconds: float = 30.0) -> None:
    """Pause until `done()` (a screen pushed, a worker's result drawn), or fail after `seconds`."""
    async with asyncio.timeout(seconds):
        while not done():
            await pilot.pause(0.01)


async def settle(pilot: Pilot[None]) -> None:
    """Pause until the bots have nothing to do and the screen shows the latest view."""
    for _ in range(3000):
        if not isinstance(pilot.app.screen, TableScreen) or settled(pilot.app):
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("the bots never settled")


async def play_decisions(pilot: Pilot[None], count: int, seed: int = 0, stop_at_reaction: bool = False) -> Prompt:
    """Answer `count` decisions with seeded key presses, then wait on the next one."""
    rng = random.Random(seed)
    for _ in range(count + 1):
        shown = await wait_for_prompt(pilot)
        assert shown is not None, "the game ended too soon"
        decision = shown.decision
        assert decision is not None
        if stop_at_reaction and decision.kind in REACTIONS:
            return shown
        numbered = [e.key for e in shown.entries if e.key not in (PASS_KEY, BACK_KEY, "")]
        await pilot.press(rng.choice(numbered) if numbered else PASS_KEY)
    shown = await wait_for_prompt(pilot)
    assert shown is not None
    return shown


async def play_by_keys(pilot: Pilot[None], seed: int = 0, limit: int = 2000) -> dict[str, int]:
    """Answer every decision with key presses only, to the game-over screen.

    Returns counts of what was pressed (reactions passed or played, steps back)."""
    rng = random.Random(seed)
    counts = {"presses": 0, "reactions_passed": 0, "reactions_played": 0, "back": 0, "enter": 0}
    for _ in range(limit):
        shown = await wait_for_prompt(pilot)
        if shown is None:
            return counts
        decision = shown.decision
        assert decision is not None
        keys = [e.key for e in shown.entries if e.key]
        numbered = [k for k in keys if k not in (PASS_KEY, BACK_KEY)]
        if decision.kind in REACTIONS:
            if numbered and rng.random() < 0.5:
                key = numbered[0]
                counts["reactions_played"] += 1
            else:
                key = "0" if rng.random() < 0.5 else "p"
                counts["reactions_passed"] += 1
        elif BACK_KEY in keys and rng.random() < 0.15:
            key = "escape"
            counts["back"] += 1
        elif numbered and rng.random() < 0.2:
            steps = rng.randrange(len(shown.entries))
            for _ in range(steps):
                await pilot.press("down")
            key = "enter"
            counts["enter"] += 1
        else:
            pool = numbered or keys
            key = rng.choice(pool)
        await pilot.press(key)
        counts["presses"] += 1
        await pilot.pause()
    raise AssertionError("the game did not end")
