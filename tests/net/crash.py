"""Crash and resume, through the real CLI: a seeded game between two people (clients) and a
bot at a `pigeon-tui host` child process; the host is killed (SIGKILL) once the database holds
`kill_at` choices, started again with `--resume` on the same port and database, and the clients
reconnect by themselves and play on. Every choice is a function of what its seat sees, so the
game ends exactly as the same game played without the crash (used by tests/net/test_resume.py
and bench/resume.py)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import socket
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.decisions import BACK, Decision
from core.games import record_from_dict
from net.client import Client
from net.spawn import HostProcess, HostSpec, start_host

PEOPLE = ("Ada", "Bob")


@dataclass(frozen=True, slots=True)
class Played:
    record: dict[str, Any]
    """The `over` frame's record (as the first client got it)."""
    final: dict[str, Any]
    """The state the record replays to, in its dict form."""
    killed_at: int | None
    """Choices in the database when the host was killed (None: not killed)."""
    agree: bool
    """Every client got the same record."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spec(seed: int, db: Path, port: int, game: str = "pigeons", resume: bool = False) -> HostSpec:
    extra = ("--reaction-window", "0", "--grace", "120", "--bot-processes", "0")
    return HostSpec(
        seats=3,
        bots=1,
        seed=seed,
        bot_delay=0,
        reaction_limit=0,
        turn_limit=0,
        port=port,
        db=str(db),
        game=game,
        levels=("random",),
        log_file=str(db.with_suffix(".log")),
        verbose=True,
        extra=(*extra, "--resume") if resume else extra,
    )


def choose(view: Any, d: Decision, seed: int) -> Any:
    """The option a seat takes: a hash of the seed, what the seat sees and the decision's options
    (never of wire numbers, clocks or how many choices this client sent)."""
    shown = view.to_dict()
    shown.pop("decisions", None)
    values = [o.value for o in d.options if o.value != BACK]
    key = json.dumps([seed, shown, str(d.kind), [repr(v) for v in values]], sort_keys=True, default=repr)
    return values[int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(values)]


async def play(client: Client, seed: int) -> None:
    """Answer this seat's decisions until the game is over, through drops and the host's restart."""
    updates = client.updates()
    tried: set[int] = set()
    while client.result is None:
        todo = [d for d in client.decisions if d.id not in tried]
        if todo and client.view is not None:
            d = todo[0]
            tried.add(d.id)
            outcome = await client.choose(d.id, choose(client.view, d, seed))
            if outcome.ok:
                continue
            if outcome.code not in ("disconnected", "stale_decision", "not_your_decision", "timeout", "game_over"):
                raise AssertionError(outcome)
            tried.discard(d.id)  # lost with the host, or stale: the next snapshot says what is open
        try:
            await anext(updates)
        except StopAsyncIteration:
            raise AssertionError(f"{client.name}'s client closed: {client.status}") from None


def choices_in(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return int(conn.execute("SELECT count(*) FROM choices").fetchone()[0])
    except sqlite3.Error:
        return 0


StartHost = Callable[[HostSpec], Awaitable[HostProcess]]
"""How a host child is started: `net.spawn.start_host` (a new interpreter) or a test's faster way
(tests/net/zygote.py) that runs the same `pigeon-tui host` command line in a child process."""


async def game(
    seed: int,
    workdir: Path,
    kill_at: int | None,
    game_id: str = "pigeons",
    limit: float = 180,
    start: StartHost = start_host,
) -> Played:
    """Play game `seed` (killing the host once `kill_at` choices are written, if given)."""
    db = workdir / f"games-{seed}-{kill_at}.sqlite"
    port = free_port()
    host: HostProcess = await start(spec(seed, db, port, game_id))
    clients = [Client("127.0.0.1", port, name, table=1) for name in PEOPLE]
    killed_at = None
    try:
        for c in clients:
            await c.connect()
        players = [asyncio.create_task(play(c, seed)) for c in clients]
        async with asyncio.timeout(limit):
            if kill_at is not None:
                while choices_in(db) < kill_at and not all(p.done() for p in players):
                    await asyncio.sleep(0.002)
                host.process.kill()
                host.process.wait()
                killed_at = choices_in(db)
                await host.stop()
                host = await start(spec(seed, db, port, game_id, resume=True))
            await asyncio.gather(*players)
    finally:
        for c in clients:
            await c.close()
        await host.stop()
    records = [dict(c.result.record) for c in clients if c.result is not None]
    assert len(records) == len(clients)
    final = record_from_dict(records[0]).replay().to_dict()
    return Played(records[0], final, killed_at, all(r == records[0] for r in records))
