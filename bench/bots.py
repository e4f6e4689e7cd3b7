"""Bot benchmarks: think time per decision for each level on 4-player mid-game positions, and a
small tournament table. Prints figures; nothing depends on them (design.md, "Tests").

    python bench/bots.py                      # timings, two whole hard games, a small table
    python bench/bots.py --positions 40 --full-games 5 --games 20 --levels greedy,easy,medium,hard
    python bench/bots.py --positions 20 --full-games 0 --games 0 --pool 2   # one process vs two
    python bench/bots.py --positions 40 --full-games 0 --games 0 --levels hard --no-deadline --shards 2
    python bench/bots.py --positions 30 --position-players 2 --full-games 0 --games 0 --no-deadline
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence

from core import new_game
from core.bots import LEVELS, make_bot
from core.decisions import Decision
from core.rules import apply
from core.selfplay import selfplay
from core.state import GameState
from core.views import view


def mid_game_positions(count: int, players: int = 4, seed: int = 1) -> list[tuple[GameState, Decision]]:
    """Decision points from turn 6 on of games played by greedy bots (a real mid-game)."""
    out: list[tuple[GameState, Decision]] = []
    g = 0
    while len(out) < count:
        state = new_game(players, seed * 1000 + g)
        bots = [make_bot("greedy", seed * 1000 + g * 10 + s) for s in range(players)]
        step = 0
        while not state.over and len(out) < count:
            d = state.open[0]
            if state.turn >= 6 and step % 3 == 0:
                out.append((state.clone(), d))
            apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))
            step += 1
        g += 1
    return out


def percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def time_levels(levels: Sequence[str], positions: list[tuple[GameState, Decision]], deadlines: bool = True) -> None:
    """Wall and CPU ms per decision, and the playouts a search ran (mean per decision). With
    deadlines a loaded machine shows in wall times that stop at the time limits, and in fewer
    playouts than the budgets alone run (what a player gets); the CPU times show what a quiet
    machine would take. Steps are what a flat search spent (decisions played in its playouts, 3 more
    a playout: core.bots.flat): its cost, the same whatever the load."""
    how = "clock deadlines on" if deadlines else "playout budgets alone, no deadline"
    players = positions[0][0].players if positions else 0
    print(f"Think time per decision, {len(positions)} positions of {players}-player mid-games ({how})")
    print(f"load {os.getloadavg()[0]:.1f}")
    print(
        f"{'level':>8} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9} {'mean ms':>9} {'CPU p50':>9} {'CPU p95':>9}"
        f" {'playouts':>9} {'steps p50':>9} {'steps p95':>9}"
    )
    for level in levels:
        times, cpu, runs, steps = [], [], [], []
        for i, (state, d) in enumerate(positions):
            bot = make_bot(level, i, clock=time.perf_counter if deadlines else None)
            v = view(state, d.player)
            t0, c0 = time.perf_counter(), time.process_time()
            bot.choose(v, d)
            times.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.process_time() - c0))
            runs.append(getattr(bot, "last_iterations", 0))
            steps.append(getattr(bot, "last_steps", 0))
        print(
            f"{level:>8} {percentile(times, 0.5):9.1f} {percentile(times, 0.95):9.1f} "
            f"{max(times):9.1f} {statistics.fmean(times):9.1f} "
            f"{percentile(cpu, 0.5):9.1f} {percentile(cpu, 0.95):9.1f} {statistics.fmean(runs):9.1f}"
            f" {percentile(steps, 0.5):9.0f} {percentile(steps, 0.95):9.0f}",
            flush=True,
        )


def time_pool(level: str, positions: list[tuple[GameState, Decision]], processes: int) -> list[float]:
    """Wall seconds per decision of `level` asked through a host's BotPool of `processes` workers
    (two or more spread a search's samples over them)."""
    import asyncio
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `net` is the package, not bench/net.py
    from net.bots import BotPool

    async def run() -> list[float]:
        pool = BotPool(processes=processes)
        try:
            state0, d0 = positions[0]
            await pool.choose(level, 0, view(state0, d0.player), d0)  # workers started and warm
            out = []
            for i, (state, d) in enumerate(positions):
                t0 = time.perf_counter()
                await pool.choose(level, i, view(state, d.player), d)
                out.append(time.perf_counter() - t0)
            return out
        finally:
            pool.close()

    return asyncio.run(run())


def time_shards(level: str, positions: list[tuple[GameState, Decision]], shards: int) -> None:
    """CPU ms per decision of `level`'s whole search against its search split into `shards` parts
    as a host's pool splits it (net.bots: each part a bot of its own seed, its share of the
    playouts), run one after another here: the longest part is what `shards` free cores would
    wait for. CPU time, so a busy machine does not blur the comparison; no deadline."""
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `net` is the package, not bench/net.py
    from net.bots import shard_seed

    whole: list[float] = []
    longest: list[float] = []
    merge: list[float] = []
    same = 0
    for i, (state, d) in enumerate(positions):
        v = view(state, d.player)
        bot = make_bot(level, i)
        c0 = time.process_time()
        alone = bot.choose(v, d)
        whole.append(1000 * (time.process_time() - c0))
        parts: list[object] = []
        cpu: list[float] = []
        for k in range(shards):
            c0 = time.process_time()
            part = make_bot(level, shard_seed(i, k)).tally(v, d, k, shards)  # type: ignore[attr-defined]
            cpu.append(1000 * (time.process_time() - c0))
            parts.append(part)
        if parts[0] is None:  # not searched in parts: the pool asks one process
            longest.append(whole[-1])
            merge.append(0.0)
            same += 1
            continue
        c0 = time.process_time()
        together = bot.merged(d, parts)  # type: ignore[attr-defined]
        merge.append(1000 * (time.process_time() - c0))
        longest.append(max(cpu) + merge[-1])
        same += together == alone
    ratio = [a / b for a, b in zip(whole, longest, strict=True) if b > 0]
    print(
        f"\n{level}: one search against {shards} parts, CPU ms per decision ({len(positions)} positions, no deadline)"
    )
    print(f"whole search   p50 {percentile(whole, 0.5):7.1f}  p95 {percentile(whole, 0.95):7.1f}")
    print(f"longest part   p50 {percentile(longest, 0.5):7.1f}  p95 {percentile(longest, 0.95):7.1f}  (merge included)")
    print(f"merge          p50 {percentile(merge, 0.5):7.2f}  p95 {percentile(merge, 0.95):7.2f}")
    print(
        f"speed-up (whole / longest part) median {statistics.median(ratio):.2f}; same option {same} of {len(positions)}"
    )


def tournament(levels: Sequence[str], games: int, players: int, against: str, seed: int) -> None:
    print(f"\n{players}-player games, each level against {against} x{players - 1}, {games} games, seats rotated")
    print(f"{'level':>8} {'win rate':>9} {'95% CI':>15} {'score':>7} {'rival score':>12} {'s/game':>7}")
    for level in levels:
        t0 = time.perf_counter()
        s = selfplay(games, players, [level, against], seed, now=time.perf_counter)
        mine = s.stats[level].summary()
        rival = s.stats[against].summary()
        ci = mine["win_rate_ci95"]
        assert isinstance(ci, list)
        print(
            f"{level:>8} {mine['win_rate']:9.3f} {f'[{ci[0]:.2f}, {ci[1]:.2f}]':>15} {mine['mean_score']:7.2f} "
            f"{rival['mean_score']:12.2f} {(time.perf_counter() - t0) / max(1, s.games):7.1f}",
            flush=True,
        )


def full_games(level: str, games: int, players: int, seed: int) -> None:
    """Wall time of whole games of `players` bots of one level, clock deadlines on."""
    print(f"\nWhole {players}-player games of {players} {level} bots")
    print(f"{'game':>5} {'turns':>6} {'decisions':>10} {'seconds':>8}")
    for g in range(games):
        state = new_game(players, seed * 1_000_003 + g)
        bots = [make_bot(level, seed * 1000 + g * 10 + s, clock=time.perf_counter) for s in range(players)]
        t0 = time.perf_counter()
        n = 0
        while not state.over:
            d = state.open[0]
            apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))
            n += 1
        print(f"{g:>5} {state.turn:>6} {n:>10} {time.perf_counter() - t0:8.1f}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--positions", type=int, default=30, help="mid-game positions timed per level")
    p.add_argument("--position-players", type=int, default=4, help="players of the timed positions' games")
    p.add_argument("--games", type=int, default=6, help="games per tournament row")
    p.add_argument("--players", type=int, default=2, help="players per tournament game")
    p.add_argument("--against", default="greedy", help="the level every row plays against")
    p.add_argument("--levels", default="random,greedy,easy,medium,hard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--full-games", type=int, default=2, help="whole 4-player games of four hard bots to time")
    p.add_argument("--no-deadline", action="store_true", help="time the playout budgets alone")
    p.add_argument("--pool", type=int, default=0, help="also time hard through a host's pool of 1 and N processes")
    p.add_argument("--shards", type=int, default=0, help="also split hard's search in N parts (CPU per part)")
    args = p.parse_args(argv)
    levels = [x for x in args.levels.split(",") if x]
    unknown = [x for x in [*levels, args.against] if x not in LEVELS]
    if unknown:
        print(f"unknown levels {unknown}; known: {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    positions = mid_game_positions(args.positions, args.position_players, args.seed)
    time_levels(levels, positions, not args.no_deadline)
    if args.pool:
        print(f"\nhard through a host's bot pool, wall ms per decision ({len(positions)} positions)")
        for n in (1, args.pool):
            ms = [1000 * t for t in time_pool("hard", positions, n)]
            print(f"{n} process(es): p50 {percentile(ms, 0.5):7.1f}  p95 {percentile(ms, 0.95):7.1f}", flush=True)
    if args.shards:
        time_shards("hard", positions, args.shards)
    if args.full_games:
        full_games("hard", args.full_games, 4, args.seed)
    if args.games:
        tournament([x for x in levels if x != args.against], args.games, args.players, args.against, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
