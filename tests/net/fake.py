"""A table on a fake clock, without sockets: its frames go to `Inbox`es, its bots think at once
and answer on the clock, and time moves only when the test says (in microseconds of real time).

The table is the host's own `net.table.Table`, unchanged: only its clock, its bot pool's
executor and the connections are stand-ins."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from core.decisions import REACTIONS, Decision
from net.bots import BotPool
from net.clock import FakeClock
from net.errors import NetError
from net.table import Frame, Member, Phase, Table, TableConfig

from .helpers import pick

T = TypeVar("T")


class AtOnce(Executor):
    """Runs each job as it is submitted (the bot's answer still comes later, on the clock)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


class Inbox:
    """A connection as a table sees it: it keeps every frame it is sent, and when (by `clock`)."""

    def __init__(self, name: str = "", clock: FakeClock | None = None) -> None:
        self.name = name
        self.clock = clock
        self.frames: list[Frame] = []
        self.times: list[float] = []

    def send(self, message: Mapping[str, Any], /) -> bool:
        self.frames.append(dict(message))
        self.times.append(self.clock.now() if self.clock is not None else 0.0)
        return True

    def of(self, *types: str) -> list[Frame]:
        return [f for f in self.frames if f["t"] in types]

    def last(self, *types: str) -> Frame:
        return self.of(*types)[-1]

    def __repr__(self) -> str:
        return f"Inbox({self.name!r})"


def fake_table(config: TableConfig, clock: FakeClock | None = None, persistent: bool = False) -> Table:
    """A table whose time is `clock`'s (a new `FakeClock` by default) and whose bots think at once."""
    clock = clock or FakeClock()
    pool = BotPool(executor=AtOnce(), post=clock.call_soon)
    return Table(1, config, pool, persistent=persistent, clock=clock)


def clock_of(table: Table) -> FakeClock:
    assert isinstance(table.clock, FakeClock)
    return table.clock


class Player:
    """A person at a fake table: their inbox, their seat, and the decisions they answered."""

    def __init__(self, table: Table, name: str, seed: int = 0) -> None:
        self.table = table
        self.inbox = Inbox(name, clock_of(table))
        self.member: Member = table.sit(self.inbox, name)
        self.rng = random.Random(seed)
        self.answered: set[int] = set()
        self.react = True
        """Answer reactions (False: leave them to time out)."""

    def open(self) -> list[Decision]:
        """The decisions the last update or snapshot gave this person, not answered yet."""
        frames = self.inbox.of("update", "snapshot")
        if not frames or self.table.phase is not Phase.PLAYING:
            return []
        return [d for d in map(Decision.from_dict, frames[-1]["decisions"]) if d.id not in self.answered]

    def act(self) -> bool:
        """Answer the first open decision at random (reactions only if `react`); True if one was."""
        for d in self.open():
            if d.kind in REACTIONS and not self.react:
                continue
            self.answered.add(d.id)
            value = pick(d, self.rng)
            try:
                self.table.choose(self.member, d.id, list(value) if isinstance(value, tuple) else value)
            except NetError:
                pass  # answered for them meanwhile (a bot, or the clock)
            return True
        return False


def play(table: Table, players: list[Player], limit: float = 100_000.0) -> float:
    """Play the game to its end: people answer as soon as they are asked, and fake time moves
    on only when nobody can act. Returns the seconds of fake time it took."""
    clock = clock_of(table)
    start = clock.now()
    while table.phase is Phase.PLAYING:
        clock.advance(0)
        if table.phase is not Phase.PLAYING:
            break
        if any(p.act() for p in players):
            continue
        due = clock.next_due()
        assert due is not None, "the game is stuck: nobody may act and nothing is due"
        assert due - start <= limit, "the game takes too long"
        clock.advance(due - clock.now())
    return clock.now() - start
