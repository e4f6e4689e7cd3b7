"""Engine speed: 4-player random games/s, decisions/s, decisions per game, clone() and view() µs
(view() of one mid-game state over and over, and per decision over whole games).

Prints medians of several runs (the machines here are shared and noisy). Run:
    python bench/engine.py [--runs 5] [--games 300]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from core.bots.random import RandomBot
from core.rules import apply
from core.selfplay import play_game
from core.setup import new_game
from core.state import GameState
from core.views import view


def games_run(games: int, players: int, seed: int) -> tuple[float, float, float, float]:
    """(games/s wall, games per CPU-second, decisions per CPU-second, decisions per game), bots
    choosing as in selfplay, which hands a bot that reads views glances (core.views.glance: a
    view built when first read) and the random bot, which reads none (`reads_view`), none. CPU
    time is what one core spends, whatever else runs. The view() figures below are of eager
    views, as a host builds them."""
    decisions = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        state = new_game(players, seed + g)
        count, _ = play_game(state, [RandomBot(seed + g * 7 + s) for s in range(players)])
        decisions += count
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return games / dt, games / cpu, decisions / cpu, decisions / games


def view_in_games(games: int, players: int, seed: int) -> float:
    """CPU µs per view() over whole random games, one view per decision as in selfplay: the
    games are replayed twice from their recorded choices, with and without the views, so states
    that change between views count (the mid-game figure below views one state over and over)."""
    records = []
    for g in range(games):
        state = new_game(players, seed + g)
        bots = [RandomBot(seed + g * 7 + s) for s in range(players)]
        choices = []
        while not state.over:
            d = state.open[0]
            choices.append((d.player, d.id, bots[d.player].choose(view(state, d.player), d)))
            apply(state, *choices[-1])
        records.append(choices)

    def replay(with_views: bool) -> float:
        c0 = time.process_time()
        for g, choices in enumerate(records):
            state = new_game(players, seed + g)
            for player, decision_id, option in choices:
                if with_views:
                    view(state, player)
                apply(state, player, decision_id, option)
        return time.process_time() - c0

    decisions = sum(map(len, records))
    return (replay(True) - replay(False)) / decisions * 1e6


def mid_game(players: int, seed: int) -> GameState:
    """A state about halfway through a random game."""
    state = new_game(players, seed)
    bots = [RandomBot(seed + s) for s in range(players)]
    total, _ = play_game(state.clone(), bots)
    bots = [RandomBot(seed + s) for s in range(players)]
    for _ in range(total // 2):
        d = state.open[0]
        apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))
    return state


def per_call_us(fn: Callable[[], object], reps: int) -> float:
    """CPU µs per call."""
    t0 = time.process_time()
    for _ in range(reps):
        fn()
    return (time.process_time() - t0) / reps * 1e6


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--games", type=int, default=300)
    args = p.parse_args()
    runs = [games_run(args.games, 4, 1000 * r) for r in range(args.runs)]
    state6 = mid_game(6, 3)
    state4 = mid_game(4, 5)
    clone_us = [per_call_us(state6.clone, 20000) for _ in range(args.runs)]
    view_us = [per_call_us(lambda: view(state4, state4.open[0].player), 20000) for _ in range(args.runs)]
    view_games_us = [view_in_games(max(20, args.games // 5), 4, 7000 + 100 * r) for r in range(args.runs)]
    med = [statistics.median(r[i] for r in runs) for i in range(4)]
    print(f"medians of {args.runs} runs of {args.games} games; CPU figures are one core's, wall ones feel the load")
    print(f"4-player random games/s, CPU {med[1]:8.1f}")
    print(f"4-player random games/s, wall{med[0]:8.1f}")
    print(f"decisions/s, CPU             {med[2]:8.0f}")
    print(f"decisions per game           {med[3]:8.1f}")
    print(f"clone() 6-player mid-game µs {statistics.median(clone_us):8.2f}")
    print(f"view() 4-player mid-game µs  {statistics.median(view_us):8.2f}")
    print(f"view() per decision of games {statistics.median(view_games_us):8.2f}")


if __name__ == "__main__":
    main()
