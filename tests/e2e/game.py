"""Whole games through the real CLI: `pigeon-tui play` (one person against three bots) and a LAN
game (`pigeon-tui host` and two `pigeon-tui join`), each person a pseudo-terminal played with
keys by a seeded player who reads the prompt; every frame is judged against the replayed record.
"""

from __future__ import annotations

import asyncio
import json
import operator
import random
import re
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

from net.client import Client, GameOver
from net.logs import CLIENT_LOG
from net.places import DATA_DIR_ENV, LOG_DIR_ENV
from net.spawn import HostSpec, start_host
from tests.e2e.check import Report, judge_frames
from tests.e2e.screen import option_keys, parse_table, reading
from tests.e2e.terminal import Frame, Terminal
from tests.e2e.truth import replay

CLI: Final = (sys.executable, "-m", "pigeon_tui")
GAME_OVER: Final = "Game over ·"
"""The game-over screen's title starts so."""
RECORD_LINE: Final = "game over: record "
"""What the TUI logs before a finished game's record (`pigeon_tui.session`)."""
STEP_TIMEOUT: Final = 120.0
"""Seconds a screen may stay without anything for the player to do before the game is called stuck."""


@dataclass(slots=True)
class Seat:
    """One person's terminal in a game, and what the check found on it."""

    name: str
    terminal: Terminal
    keys: int = 0
    """Keys pressed."""
    names: tuple[str, ...] = ()
    """The seats' names as this screen shows them."""
    me: int | None = None
    private: bool = False
    """At a table where every other seat is a bot (`pigeon-tui play`)."""
    report: Report | None = None
    problems: list[str] = field(default_factory=list)
    """What else is wrong: an error shown, final scores that differ from the game's."""
    notes: list[str] = field(default_factory=list)
    """What a player might frown at: a text cut short, a row running into the edge."""


@dataclass(slots=True)
class GameRun:
    """One whole game and the verdicts on every screen."""

    label: str
    seats: list[Seat]
    record: Mapping[str, Any] | None = None
    seconds: float = 0.0
    error: str | None = None

    @property
    def frames(self) -> int:
        return sum(s.report.frames for s in self.seats if s.report is not None)

    @property
    def stale(self) -> int:
        return sum(s.report.bad for s in self.seats if s.report is not None)


# ---- the player -----------------------------------------------------------------------------


async def play_seat(seat: Seat, rng: random.Random, think: float, timeout: float) -> None:
    """Answer every prompt with one of the keys it offers, chosen at random, until the
    game-over screen shows; then leave with q."""
    term = seat.terminal
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{seat.name}: the game did not end in {timeout} s; the screen:\n{term.text}")

        def ready(lines: tuple[str, ...]) -> bool:
            text = "\n".join(lines)
            if GAME_OVER in text and "Your hand (" not in text:
                return True
            table = parse_table(term.frames[-1], covered_too=True) if term.frames else None
            return table is not None and bool(option_keys(table))

        await term.wait_for(ready, STEP_TIMEOUT, "a prompt or the game-over screen")
        lines = await term.settled(think, STEP_TIMEOUT) if think else term.lines
        if GAME_OVER in "\n".join(lines) and "Your hand (" not in "\n".join(lines):
            return
        table = parse_table(term.frames[-1], covered_too=True)
        keys = option_keys(table) if table is not None else []
        if not keys:
            continue
        before = term.frames[-1].lines
        term.press(rng.choice(keys))
        seat.keys += 1
        try:
            await term.wait_for(partial(operator.ne, before), 5.0, "the screen to answer a key")
        except TimeoutError:
            pass  # the key was not taken (a stale prompt); read the screen again


def seat_names(frames: Sequence[Frame]) -> tuple[tuple[str, ...], int | None]:
    """The seats' names and which is the reader's, from the first dealt table frame."""
    for frame in frames:
        table = parse_table(frame)
        if table is None:
            continue
        shown = reading(table)
        names: list[str] = []
        me = None
        for seat in range(len(table.balconies)):
            name = shown[f"b{seat}.name"]
            if name == "You" or name.endswith(" (you)"):
                me = seat
                name = name.removesuffix(" (you)")
            names.append(name)
        return tuple(names), me
    return (), None


def judge_seat(seat: Seat, record: Mapping[str, Any]) -> None:
    seat.names, seat.me = seat_names(seat.terminal.frames)
    story = replay(record, seat.me, seat.names, seat.private)
    keys = [t for t, _ in seat.terminal.keys]
    seat.report = judge_frames(seat.terminal.frames, story, seat.names, seat.me, keys)
    seat.problems.extend(final_scores(seat.terminal.frames, story.points[-1].view.scores(), seat.names))
    seat.problems.extend(alarms(seat.terminal.frames))
    seat.notes.extend(screen_notes(seat.terminal.frames))


_WAITING = re.compile(r"(to play|moving|thinking|Dealing|connecting|reconnecting|Waiting[^…]*)…")
_CUT = re.compile(r"[^─━│┃╭╮╰╯┏┓┗┛]*\w…[^─━│┃╭╮╰╯┏┓┗┛]*")
_ALARMS = ("Traceback", "Error", "refused", "Exception")


def alarms(frames: Sequence[Frame]) -> list[str]:
    """Every distinct row that shows an error, an exception or a refused move."""
    seen: dict[str, None] = {}
    for frame in frames:
        for row in frame.lines:
            if any(a in row for a in _ALARMS):
                seen[f"shown: {row.strip()!r}"] = None
    return list(seen)


def screen_notes(frames: Sequence[Frame]) -> list[str]:
    """Texts cut short with an ellipsis, and rows running into the screen's right edge, each
    kind once (numbers aside)."""
    seen: dict[str, str] = {}
    for frame in frames:
        for row in frame.lines:
            for m in _CUT.finditer(_WAITING.sub("", row)):
                seen.setdefault(re.sub(r"\d+", "#", m.group().strip()), f"cut short: {m.group().strip()!r}")
            if row.rstrip() and len(row.rstrip()) == len(row) and row[-1] not in "│┃╮╯┓┛─━":
                seen.setdefault(f"edge {row[-12:]}", f"runs into the right edge: {row.strip()!r}")
    return list(seen.values())


_SCORE_ROW = re.compile(r"^\s*(?:★\s)?\s*(?P<name>\S.*?)\s+(?:[-+]?\d+\s+){8}(?P<score>-?\d+)\s+(?P<hand>\d+)\s*$")


def final_scores(frames: Sequence[Frame], scores: Sequence[Any], names: Sequence[str]) -> list[str]:
    """The game-over screen's totals against the replayed game's."""
    for frame in reversed(frames):
        text = frame.text
        if GAME_OVER not in text or "Your hand (" in text:
            continue
        shown = {}
        for line in frame.lines:
            m = _SCORE_ROW.match(line)
            if m:
                shown[m["name"].removeprefix("★").strip()] = int(m["score"])
        notes = []
        for s in scores:
            name = names[s.seat]
            if shown.get(name) != s.total:
                notes.append(f"game over screen: {name} {shown.get(name)} VP, the replayed game {s.total} VP")
        return notes
    return ["the game-over screen never showed"]


# ---- where the game's record comes from ---------------------------------------------------


async def watch_for_record(port: int, timeout: float) -> Mapping[str, Any]:
    """Watch table 1 of the host on `port` as a spectator until the game is over; its record."""
    async with Client("127.0.0.1", port, "harness", table=1, watch=True) as client:
        async with asyncio.timeout(timeout):
            async for update in client.updates():
                if isinstance(update, GameOver):
                    return update.result.record
    raise EOFError("the host closed before the game was over")


async def logged_record(log_file: Path, timeout: float) -> Mapping[str, Any]:
    """The record of the last game the TUI logged as over: its `game over: record {json}` line
    (`pigeon_tui.session`), in the TUI's log file."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            lines = log_file.read_text().splitlines()
        except FileNotFoundError:
            lines = []
        for line in reversed(lines):
            if RECORD_LINE in line:
                record: Mapping[str, Any] = json.loads(line.split(RECORD_LINE, 1)[1])
                return record
        await asyncio.sleep(0.1)
    raise TimeoutError(f"no game record in {log_file}")


# ---- whole games ----------------------------------------------------------------------------


def _user_dirs(root: str) -> dict[str, str]:
    """Data, state, cache and config directories of a user of its own (tokens, logs)."""
    return {
        "XDG_DATA_HOME": f"{root}/data",
        "XDG_STATE_HOME": f"{root}/state",
        "XDG_CACHE_HOME": f"{root}/cache",
        "XDG_CONFIG_HOME": f"{root}/config",
        LOG_DIR_ENV: f"{root}/log",
        DATA_DIR_ENV: f"{root}/data/pigeon-tui",
    }


async def private_game(
    edition: str,
    bots: Sequence[str],
    seed: int,
    player_seed: int,
    think: float = 0.02,
    timeout: float = 600.0,
    extra: Sequence[str] = (),
) -> GameRun:
    """`pigeon-tui play` (you and three bots) played to its end with keys, then judged."""
    label = f"play --edition {edition} --bots {','.join(bots)} --seed {seed}"
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pigeon-e2e-") as home:
        argv = [*CLI, "play", "--edition", edition, "--bots", ",".join(bots), "--seed", str(seed), *extra]
        term = Terminal(argv, env=_user_dirs(home), name="play")
        seat = Seat("You", term, private=True)
        run = GameRun(label, [seat])
        try:
            await play_seat(seat, random.Random(player_seed), think, timeout)
            run.record = await logged_record(Path(home, "log", CLIENT_LOG), 30.0)
        except (TimeoutError, EOFError, OSError, ValueError) as exc:
            run.error = f"{type(exc).__name__}: {exc}"
        finally:
            term.press("q")
            await term.close()
    run.seconds = time.monotonic() - t0
    if run.record is not None:
        judge_seat(seat, run.record)
    return run


async def lan_game(
    edition: str,
    bots: Sequence[str],
    seed: int,
    player_seed: int,
    people: Sequence[str] = ("Ada", "Bea"),
    think: float = 0.02,
    reaction_window: float = 0.3,
    bot_delay: float = 0.0,
    timeout: float = 600.0,
) -> GameRun:
    """A LAN game: a headless host, a terminal per person joining it, a spectator for the record."""
    label = f"LAN host --edition {edition} --bot-level {','.join(bots) or '-'} --seed {seed}, {len(people)} people"
    t0 = time.monotonic()
    host = await start_host(
        HostSpec(
            seats=len(people) + len(bots),
            bots=len(bots),
            levels=tuple(bots) or ("random",),
            edition=edition,
            seed=seed,
            bot_delay=bot_delay,
            extra=("--reaction-window", str(reaction_window)),
        )
    )
    port = host.port
    run = GameRun(label, [])
    watcher: asyncio.Task[Mapping[str, Any]] | None = None
    homes = [tempfile.TemporaryDirectory(prefix="pigeon-e2e-") for _ in people]
    try:
        watcher = asyncio.create_task(watch_for_record(port, timeout))
        for name, home in zip(people, homes, strict=True):
            argv = [*CLI, "join", f"127.0.0.1:{port}", "--name", name]
            run.seats.append(Seat(name, Terminal(argv, env=_user_dirs(home.name), name=name)))
        for seat in run.seats:  # sit at the table as a person does: Enter in the lobby
            await seat.terminal.shows("Table 1", 30.0)
            await seat.terminal.settled(0.2, 10.0)
            seat.terminal.press("enter")
            await seat.terminal.wait_for(
                lambda lines: any("You sit at Table 1" in x or "Your hand (" in x for x in lines), 10.0, "a seat"
            )
        rngs = [random.Random(player_seed * 100 + i) for i in range(len(people))]
        await asyncio.gather(*(play_seat(s, r, think, timeout) for s, r in zip(run.seats, rngs, strict=True)))
        run.record = await asyncio.wait_for(watcher, 30.0)
    except (TimeoutError, EOFError, OSError, ValueError, IndexError) as exc:
        run.error = f"{type(exc).__name__}: {exc}"
    finally:
        if watcher is not None and not watcher.done():
            watcher.cancel()
        for seat in run.seats:
            seat.terminal.press("q")
            await seat.terminal.close()
        await host.stop()  # the host and its bot workers
        for home in homes:
            home.cleanup()
    run.seconds = time.monotonic() - t0
    if run.record is not None:
        for seat in run.seats:
            judge_seat(seat, run.record)
    return run
