"""Bot thinking off the event loop: a thread pool, or worker processes for bots that search.

A bot gets exactly what a human in its seat would: the seat's view and the open decision. Bots
are made afresh for each decision from a seed derived from the game and the decision, so a
worker process needs nothing but its arguments.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from core.decisions import BACK, Decision, OptionValue, normalize, plain
from core.games import DEFAULT, GAMES, Clock, GameBot, game, game_of_view

log = logging.getLogger(__name__)


def make_bot(level: str, seed: int, clock: Clock | None = None, game_id: str = DEFAULT) -> GameBot[Any]:
    """A bot of `game_id` (one per decision: bots are made afresh from the seed)."""
    return game(game_id).make_bot(level, seed, clock)


def think(level: str, seed: int, seen: Any, decision: Decision) -> OptionValue:
    """The bot's choice for `decision`, always one of its options (a bot that fails or answers
    off the list gets the first option that does not step back). `seen` is a view of any game
    of `core.games`: the bot is that game's."""
    try:
        bot = make_bot(level, seed, time.perf_counter, game_of_view(seen).id)
        option = normalize(bot.choose(seen, decision))
    except Exception:  # a bot bug must not stall the table
        log.exception("bot %r failed on decision %d", level, decision.id)
        option = None
    values = decision.values()
    if option in values:
        return option
    return next((v for v in values if v != BACK), values[0])


def _think_plain(game_id: str, level: str, seed: int, seen: dict[str, Any], decision: dict[str, Any]) -> Any:
    """`think` over plain data, for a worker process."""
    return plain(think(level, seed, game(game_id).view_from_dict(seen), Decision.from_dict(decision)))


def shard_seed(seed: int, shard: int) -> int:
    """The seed of part `shard` of a decision's search (part 0 is the bot's own seed)."""
    return seed + 1_000_003 * shard


def _think_shard(
    game_id: str, level: str, seed: int, shard: int, shards: int, seen: dict[str, Any], decision: dict[str, Any]
) -> dict[str, Any]:
    """Part `shard` of a searching bot's thinking, in a worker process: its share of the samples
    (`tally`), or, for a decision the bot does not search that way, its whole answer (part 0)."""
    view, d = game(game_id).view_from_dict(seen), Decision.from_dict(decision)
    bot = make_bot(level, shard_seed(seed, shard), time.perf_counter, game_id)
    tally = getattr(bot, "tally", None)
    part = tally(view, d, shard, shards) if tally is not None else None
    if part is None:
        return {"option": plain(think(level, seed, view, d)) if shard == 0 else None}
    return {"tally": part}


def _merge(game_id: str, level: str, seed: int, decision: Decision, parts: list[dict[str, Any]]) -> Any:
    """The option the parts of a decision's search settle on together (plain data)."""
    values = decision.values()
    fallback = next((v for v in values if v != BACK), values[0])
    if "option" in parts[0]:
        return parts[0]["option"]
    try:
        bot = make_bot(level, seed, None, game_id)
        option = normalize(bot.merged(decision, [p["tally"] for p in parts]))  # type: ignore[attr-defined]
    except Exception:  # a bot bug must not stall the table
        log.exception("bot %r could not merge its search of decision %d", level, decision.id)
        return plain(fallback)
    return plain(option if option in values else fallback)


def _gather(futures: list[Future[Any]], merge: Callable[[list[Any]], Any]) -> Future[Any]:
    """One future for several: `merge` of their results once all are in (on the thread that
    finished last); cancelling it cancels them."""
    out: Future[Any] = Future()
    left = [len(futures)]

    def one_done(_: Future[Any]) -> None:
        left[0] -= 1
        if left[0] or out.done():
            return
        try:
            out.set_result(merge([f.result() for f in futures]))
        except BaseException as exc:
            if not out.done():
                out.set_exception(exc)

    def cancelled(f: Future[Any]) -> None:
        if f.cancelled():
            for part in futures:
                part.cancel()

    out.add_done_callback(cancelled)
    for f in futures:
        f.add_done_callback(one_done)
    return out


Done = Callable[[OptionValue | None], None]
"""Called with a bot's option, or None if it could not think (the pool is closed or broken)."""
Post = Callable[..., object]
"""Calls a function on the table's thread, from any thread (`loop.call_soon_threadsafe`)."""


class BotPool:
    """Where bots think: `processes` worker processes, or (0) a small thread pool.

    Threads suit cheap bots (random, greedy); processes keep a searching bot from taking the
    interpreter lock away from the event loop. A table on a fake clock (tests) passes an
    `executor` that thinks at once and a `post` that is its clock's `call_soon`.
    """

    def __init__(
        self, processes: int = 0, threads: int = 2, *, executor: Executor | None = None, post: Post | None = None
    ) -> None:
        self.processes = processes
        self._executor: Executor = executor or (
            _processes(processes)
            if processes > 0
            else ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bot")
        )
        self._post = post

    def request(self, level: str, seed: int, seen: Any, decision: Decision, done: Done) -> Job:
        """Start the bot thinking about `decision`; `done(option)` is called later on the
        table's thread (the running event loop's, or `post`'s), never from inside this call,
        and not at all once the returned job is cancelled."""
        post = self._post or asyncio.get_running_loop().call_soon_threadsafe
        try:
            future = self._submit(level, seed, seen, decision)
        except RuntimeError:  # the pool is shut down: the host is closing
            future = Future()
            future.cancel()
        return Job(future, done, post, self.processes > 0)

    def _submit(self, level: str, seed: int, seen: Any, decision: Decision) -> Future[Any]:
        """The bot's answer to come (plain data from worker processes). With two processes or
        more, a searching bot's samples are spread over all of them: a 2-core machine thinks
        twice as fast, and the event loop only merges the parts."""
        if self.processes == 0:
            return self._executor.submit(think, level, seed, seen, decision)
        gid = game_of_view(seen).id
        seen_d, decision_d = seen.to_dict(), decision.to_dict()
        if self.processes < 2 or level not in game(gid).search_levels:
            return self._executor.submit(_think_plain, gid, level, seed, seen_d, decision_d)
        n = self.processes
        parts = [self._executor.submit(_think_shard, gid, level, seed, i, n, seen_d, decision_d) for i in range(n)]
        return _gather(parts, lambda got: _merge(gid, level, seed, decision, got))

    async def choose(self, level: str, seed: int, seen: Any, decision: Decision) -> OptionValue:
        """The bot's option. Cancelling it is safe (the result of the worker is dropped)."""
        raw = await asyncio.wrap_future(self._submit(level, seed, seen, decision))
        return normalize(raw) if self.processes > 0 else raw

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _processes(workers: int) -> Executor:
    """A pool of worker processes. Imported here, not at the top: multiprocessing costs a host
    ~8 ms of its start-up, and a host whose bots are quick (a game against greedy bots) never
    starts one (issue 9)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


class Job:
    """One decision a bot is thinking about."""

    def __init__(self, future: Future[Any], done: Done, post: Post, plain: bool) -> None:
        self._future = future
        self._done = done
        self._post = post
        self._plain = plain
        self.cancelled = False
        future.add_done_callback(self._finished)

    def cancel(self) -> None:
        """Drop the bot's answer (and its work, if it has not started)."""
        self.cancelled = True
        self._future.cancel()

    def _finished(self, future: Future[Any]) -> None:  # on a worker's thread, or at once
        if self.cancelled:
            return
        try:
            self._post(self._deliver, future)
        except RuntimeError:  # the event loop is closed: nobody waits for this any more
            pass

    def _deliver(self, future: Future[Any]) -> None:
        if self.cancelled:
            return
        option: OptionValue | None = None
        if future.cancelled():
            log.info("a bot's move was called off by its pool")
        elif (exc := future.exception()) is not None:
            log.error("a bot could not think: %r", exc)
        else:
            option = normalize(future.result()) if self._plain else future.result()
        self._done(option)


def known_level(level: str) -> bool:
    return any(level in g.bot_levels for g in GAMES.values())


def default_processes(levels: set[str], cpus: int | None, game_id: str = DEFAULT) -> int:
    """Worker processes for these bot levels of `game_id`: none for quick bots; for searching
    ones one per core, up to two (a bot's samples are spread over them, BotPool._submit): the
    event loop waits on the workers most of the time, so it needs no core of its own."""
    if not levels & game(game_id).search_levels:
        return 0
    return max(1, min(2, cpus or 1))
