"""Crash and resume through the real CLI (issue 11): the host process is killed (SIGKILL) at a
decision, started again with `--resume`, the clients reconnect by themselves, and the game ends
exactly as it would have without the crash. bench/resume.py runs 50 such games.

The hosts are `pigeon-tui host` command lines run in child processes forked from a prepared
process (tests/net/zygote.py: ~0.45 s of CPU less a host than a new interpreter), except seed
11's, which are new interpreters as bench/resume.py starts them. A game played without the crash
is played once for this module and compared with every crash of it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import net.link
from net.client import Client, GameOver
from net.spawn import start_host
from tests.net.crash import PEOPLE, Played, free_port, game, spec
from tests.net.zygote import Zygote


@pytest.fixture(autouse=True)
def quick_reconnect(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clients try the restarted host every 50 ms: the book back-off (0.2, 0.5, 1, 2 s)
    left them seconds behind a host that was up, which only made these tests slow."""
    monkeypatch.setattr(net.link, "RECONNECT_DELAYS", (0.05,))


@pytest.fixture(scope="module")
def zygote() -> Iterator[Zygote]:
    z = Zygote()
    yield z
    z.close()


class Wholes:
    """Games played without a crash, each once for the module: (seed, game) -> what was played."""

    def __init__(self, zygote: Zygote, workdir: Path) -> None:
        self.zygote = zygote
        self.workdir = workdir
        self.played: dict[tuple[int, str], Played] = {}

    async def __call__(self, seed: int, game_id: str = "pigeons") -> Played:
        if (seed, game_id) not in self.played:
            self.played[seed, game_id] = await game(seed, self.workdir, None, game_id, start=self.zygote.start_host)
        return self.played[seed, game_id]

    def db(self, seed: int) -> Path:
        """The games database of the whole game `seed` (pigeons)."""
        return self.workdir / f"games-{seed}-None.sqlite"


@pytest.fixture(scope="module")
def wholes(zygote: Zygote, tmp_path_factory: pytest.TempPathFactory) -> Wholes:
    return Wholes(zygote, tmp_path_factory.mktemp("whole"))


@pytest.mark.parametrize("seed", [4, 11])
async def test_a_game_killed_at_a_random_decision_ends_as_without_the_crash(
    seed: int, tmp_path: Path, zygote: Zygote, wholes: Wholes
) -> None:
    whole = await wholes(seed)
    total = len(whole.record["choices"])
    kill_at = random.Random(seed).randrange(1, total)
    start = start_host if seed == 11 else zygote.start_host  # 11: new interpreters, as bench/resume.py
    crashed = await game(seed, tmp_path, kill_at, start=start)
    assert crashed.killed_at is not None and crashed.killed_at >= kill_at
    assert crashed.agree and whole.agree
    assert crashed.final == whole.final


async def test_killed_at_the_last_choice_the_results_still_come(tmp_path: Path, zygote: Zygote, wholes: Wholes) -> None:
    """The host killed once the game's last choice is written, before its `over` went out (the
    database says the game is still being played): the resumed host sends the results to the
    people who come back with their tokens."""
    whole = await wholes(4)
    db = tmp_path / "games-4-None.sqlite"
    with contextlib.closing(sqlite3.connect(wholes.db(4))) as kept, contextlib.closing(sqlite3.connect(db)) as copy:
        kept.backup(copy)  # the whole game's database, as its host left it
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET status='playing', result=NULL, ended=NULL")
        seats = json.loads(conn.execute("SELECT seats FROM games").fetchone()[0])
    port = free_port()
    host = await zygote.start_host(spec(4, db, port, resume=True))
    try:
        clients = [Client("127.0.0.1", port, s["name"], token=s["token"]) for s in seats if s["kind"] == "human"]
        async with asyncio.timeout(30):
            for c in clients:
                await c.connect()
                async for update in c.updates():
                    if isinstance(update, GameOver):
                        break
                assert c.result is not None and dict(c.result.record) == whole.record
                await c.close()
    finally:
        await host.stop()


async def test_a_cubirds_game_is_kept_and_resumed(tmp_path: Path, zygote: Zygote, wholes: Wholes) -> None:
    whole = await wholes(6, "cubirds")
    total = len(whole.record["choices"])
    crashed = await game(6, tmp_path, total // 2, "cubirds", start=zygote.start_host)
    assert crashed.final == whole.final


async def test_a_game_the_bots_finish_before_its_people_are_back_keeps_their_results(
    tmp_path: Path, zygote: Zygote, wholes: Wholes
) -> None:
    """Killed once only the bot's moves are left (seed 17 ends on a run of them): the resumed
    host plays them at once and the game is over before its people reconnect; their seats, and
    the results, wait for them (the table was reset and their tokens refused)."""
    whole = await wholes(17)
    choices = whole.record["choices"]
    people = len(PEOPLE)  # the bot sits after them
    kill_at = max(i for i, (seat, _, _) in enumerate(choices, 1) if seat < people)
    crashed = await game(17, tmp_path, kill_at, start=zygote.start_host)
    assert crashed.agree and crashed.final == whole.final


async def test_killed_as_a_reaction_window_opens_it_comes_back_as_it_was_shown(
    tmp_path: Path, zygote: Zygote, wholes: Wholes
) -> None:
    """Killed as a choice opens a reaction window for a person: the resumed host shows the
    window on the board as it stood then, the events after it held until it closes, as the live
    host did; the person answers what they saw, and the game ends as without the crash (shown
    on the board after the whole move, seed 4 went another way)."""
    from core.games import game as find_game
    from core.games import record_from_dict

    whole = await wholes(4)
    rules = find_game("pigeons")
    record = record_from_dict(whole.record)
    state = record.start()
    kill_at = 0
    for n, (seat, decision, option) in enumerate(record.choices, 1):
        events = rules.apply_watching(state, seat, decision, option, lambda s: None)
        asked = [d for d in state.open if d.kind in rules.reactions and d.player < len(PEOPLE)]
        if asked and any(rules.window_of(e) for e in events):
            kill_at = n
            break
    assert kill_at
    crashed = await game(4, tmp_path, kill_at, start=zygote.start_host)
    assert crashed.final == whole.final
