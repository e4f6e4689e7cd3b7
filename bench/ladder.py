"""The bot ladder: a round-robin of every level in 2- and 4-player games, seats rotated, both
editions; win rates with 95% intervals and an Elo-style rating per level with its interval.

    python bench/ladder.py --jobs 2                              # the table in docs/bots.md
    python bench/ladder.py --games-2p 4 --games-4p 2 --levels random,greedy,easy   # a quick look
    python bench/ladder.py --out run.jsonl ...; python bench/ladder.py --load run.jsonl   # again
    python bench/ladder.py --lineup hard,greedy,greedy,greedy --games 200 --jobs 2   # one line-up
    python bench/ladder.py --lineup ... --games 200 --skip 63 --load first63.jsonl --out rest.jsonl   # go on

Bots run their iteration budgets with no clock, so a ladder replays exactly, whatever the
machine's load (only its duration changes). Every game is one line of `--out`, so a long run
can be summed up again, or pooled with another, with `--load`.

2-player games: every pair of levels, `--games-2p` games per pair and edition, the two seat
orders taking turns. 4-player games: every set of four distinct levels, `--games-4p` games per
set and edition, each set in another order round the table and rotated one place each game
(who sits after whom changes a game's odds a lot, so a fixed order round the table biases it).
A shared win counts as a fraction (R7.2).

The rating: a Bradley-Terry fit (Elo scale, random = 0) of every pairwise result, 2-player
games and each pair of seats of a 4-player game ranked by R7.2; with one virtual draw per pair
of levels, so a level that never lost still has a finite rating. Its interval, and the
interval of each step up the ladder, come from refitting 1,000 resamples of the games.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from core.bots import make_bot
from core.cards import Edition
from core.decisions import DecisionKind
from core.events import EventKind
from core.rules import apply
from core.scoring import ranking_key, scores, winners
from core.setup import new_game
from core.turn import DRAW, HAND_LIMIT
from core.views import view

LEVELS = ("random", "greedy", "easy", "medium", "hard")
Task = tuple[int, tuple[str, ...], str, int, bool]
"""(game number, level per seat, edition, seed, whether the bots keep their clock deadlines)."""


def tasks(
    levels: Sequence[str], games_2p: int, games_4p: int, seed: int, pairs: Sequence[tuple[str, str]] = ()
) -> list[Task]:
    """The round-robin's games; with `pairs`, the 2-player games of those pairs of levels only."""
    out: list[Task] = []
    n = 0
    for edition in (Edition.V35.value, Edition.V30.value):
        for pair in pairs or itertools.combinations(levels, 2):
            for g in range(games_2p):
                seats = pair if g % 2 == 0 else pair[::-1]
                out.append((n, seats, edition, seed * 1_000_003 + n, False))
                n += 1
        for four in itertools.combinations(levels, 4) if not pairs else ():
            for g in range(games_4p):
                out.append((n, seating(four, g, n), edition, seed * 1_000_003 + n, False))
                n += 1
    return out


def seating(lineup: Sequence[str], turn: int, order: int) -> tuple[str, ...]:
    """The seats: the `order`-th order of the levels round the table (who sits after whom
    matters: in 80 four-level games hard won 45% seated hard, medium, easy, greedy and 27.5%
    seated hard, easy, medium, greedy), rotated `turn` places (who starts). A line-up with one
    order (two players, or one level against copies of another) is only rotated."""
    first, *rest = lineup
    orders = sorted({(first, *p) for p in itertools.permutations(rest)})
    seats = orders[order % len(orders)]
    shift = turn % len(seats)
    return seats[shift:] + seats[:shift]


def lineup_tasks(lineup: Sequence[str], games: int, seed: int, clock: bool) -> list[Task]:
    """`games` games of one line-up (a level per seat): seats rotated one place each game, the
    editions taking turns after every rotation, then the next order round the table (`seating`)."""
    n = len(lineup)
    editions = (Edition.V35.value, Edition.V30.value)
    return [
        (g, seating(lineup, g, g // (2 * n)), editions[g // n % 2], seed * 1_000_003 + g, clock) for g in range(games)
    ]


def play(task: Task) -> dict[str, Any]:
    """One game: who sat where, the R7.2 ranking, and what each seat did and how long it thought
    (CPU time, so other jobs on the machine do not count)."""
    n, seats, edition, seed, clock = task
    players = len(seats)
    state = new_game(players, seed, edition)
    bots = [make_bot(level, seed * 7 + s, time.perf_counter if clock else None) for s, level in enumerate(seats)]
    think: list[list[float]] = [[] for _ in seats]
    draws_full = [0] * players
    """Draws with a full hand (nothing drawn) while another action was offered."""
    actions = [0] * players
    restarts = [0] * players
    """Final phases this seat cancelled by sending the Infamous back into the empty deck (R4.6)."""
    t0 = time.perf_counter()
    while not state.over:
        d = state.open[0]
        seen = view(state, d.player)
        c0 = time.process_time()
        option = bots[d.player].choose(seen, d)
        think[d.player].append(time.process_time() - c0)
        if d.kind is DecisionKind.ACTION:
            actions[d.player] += 1
            if option == DRAW and len(seen.hand) >= HAND_LIMIT and len(d.options) > 1:
                draws_full[d.player] += 1
        if any(e.kind is EventKind.FINAL_CANCELLED for e in apply(state, d.player, d.id, option)):
            restarts[d.player] += 1
    keys = [list(ranking_key(s)) for s in scores(state)]
    return {
        "n": n,
        "seats": list(seats),
        "edition": edition,
        "seed": seed,
        "keys": keys,
        "winners": winners(state),
        "turns": state.turn,
        "seconds": time.perf_counter() - t0,
        "think": [[round(t, 5) for t in ts] for ts in think],
        "draws_full": draws_full,
        "actions": actions,
        "restarts": restarts,
    }


# ---- Statistics ------------------------------------------------------------------------------


def wilson(wins: float, n: float) -> tuple[float, float]:
    """95% Wilson interval of a rate (fractional wins allowed)."""
    if n <= 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def pairwise(game: dict[str, Any]) -> Iterator[tuple[str, str, float]]:
    """(level a, level b, a's score against b: 1, 0.5 or 0) for each pair of seats of the game."""
    seats, keys = game["seats"], [tuple(k) for k in game["keys"]]
    for i, j in itertools.combinations(range(len(seats)), 2):
        if seats[i] == seats[j]:
            continue
        s = 1.0 if keys[i] > keys[j] else 0.5 if keys[i] == keys[j] else 0.0
        yield seats[i], seats[j], s


def fit(levels: Sequence[str], games: Iterable[dict[str, Any]], prior: float = 0.5) -> dict[str, float]:
    """Bradley-Terry strengths by minorization-maximization (Hunter 2004), on the Elo scale with
    the first level at 0. `prior`: a virtual result of 1/2 each way between every pair."""
    idx = {lv: i for i, lv in enumerate(levels)}
    k = len(levels)
    wins = [[0.0] * k for _ in range(k)]
    for g in games:
        for a, b, s in pairwise(g):
            wins[idx[a]][idx[b]] += s
            wins[idx[b]][idx[a]] += 1 - s
    for i in range(k):
        for j in range(k):
            if i != j:
                wins[i][j] += prior
    n = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    w = [sum(row) for row in wins]
    p = [1.0] * k
    for _ in range(2000):
        new = [w[i] / sum(n[i][j] / (p[i] + p[j]) for j in range(k) if j != i) for i in range(k)]
        g = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, p, strict=True)) < 1e-10
        p = new
        if done:
            break
    return {lv: 400 * math.log10(p[idx[lv]] / p[0]) for lv in levels}


def bootstrap(levels: Sequence[str], games: list[dict[str, Any]], rounds: int, seed: int) -> list[dict[str, float]]:
    rng = random.Random(seed)
    return [fit(levels, [games[rng.randrange(len(games))] for _ in games]) for _ in range(rounds)]


def interval(xs: Sequence[float]) -> tuple[float, float]:
    s = sorted(xs)
    return s[int(0.025 * (len(s) - 1))], s[math.ceil(0.975 * (len(s) - 1))]


def percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))] if s else 0.0


# ---- Report ----------------------------------------------------------------------------------


def report(levels: Sequence[str], games: list[dict[str, Any]], rounds: int, seed: int) -> bool:
    """Prints the tables; True if every level beats the one below it beyond the 95% interval."""
    two = [g for g in games if len(g["seats"]) == 2]
    four = [g for g in games if len(g["seats"]) == 4]
    print(f"{len(two)} 2-player and {len(four)} 4-player games, both editions, seats rotated\n")

    print("2-player head to head: row's win rate against column [95% interval] (games)")
    print("| | " + " | ".join(levels[1:]) + " |")
    print("|---" * len(levels) + "|")
    for a in levels[:-1]:
        cells = []
        for b in levels[1:]:
            if levels.index(b) <= levels.index(a):
                cells.append("")
                continue
            got = [s for g in two for x, y, s in pairwise(g) if (x, y) == (a, b)]
            got += [1 - s for g in two for x, y, s in pairwise(g) if (x, y) == (b, a)]
            lo, hi = wilson(sum(got), len(got))
            cells.append(f"{sum(got) / max(1, len(got)):.0%} [{lo:.0%}, {hi:.0%}] ({len(got)})" if got else "")
        print(f"| {a} | " + " | ".join(cells) + " |")

    print("\n4-player games (four different levels a game): win share per level, fair share 25%")
    print(
        "| level | seats | win share [95% interval] | mean score | full-hand draws / 100 actions "
        "| final phases cancelled / game |"
    )
    print("|---|---|---|---|---|---|")
    for lv in levels:
        seats = [(g, i) for g in four for i, x in enumerate(g["seats"]) if x == lv]
        if not seats:
            continue
        share = sum(1 / len(g["winners"]) for g, i in seats if i in g["winners"])
        lo, hi = wilson(share, len(seats))
        score = statistics.fmean(g["keys"][i][0] for g, i in seats)
        acts = sum(g["actions"][i] for g, i in seats)
        full = sum(g["draws_full"][i] for g, i in seats)
        restarts = sum(g["restarts"][i] for g, i in seats) / len(seats)
        print(
            f"| {lv} | {len(seats)} | {share / len(seats):.1%} [{lo:.1%}, {hi:.1%}] | {score:.2f} "
            f"| {100 * full / max(1, acts):.1f} | {restarts:.2f} |"
        )

    elo = fit(levels, games)
    boots = bootstrap(levels, games, rounds, seed)
    print(
        f"\nRating (Bradley-Terry on every pairwise result, Elo scale, {levels[0]} = 0; "
        f"95% intervals from {rounds} resamples of the games)"
    )
    print(
        "| level | rating [95% interval] | step up from the level below [95% interval] | think p50 / p95 ms "
        "| turns, median (4p) |"
    )
    print("|---|---|---|---|---|")
    ordered = True
    for i, lv in enumerate(levels):
        lo, hi = interval([b[lv] for b in boots])
        step = ""
        if i:
            below = levels[i - 1]
            slo, shi = interval([b[lv] - b[below] for b in boots])
            step = f"{elo[lv] - elo[below]:+.0f} [{slo:+.0f}, {shi:+.0f}]"
            ordered = ordered and slo > 0
        times = [1000 * t for g in games for j, x in enumerate(g["seats"]) if x == lv for t in g["think"][j]]
        turns = [g["turns"] for g in four if lv in g["seats"]]
        print(
            f"| {lv} | {elo[lv]:.0f} [{lo:.0f}, {hi:.0f}] | {step} | {percentile(times, 0.5):.1f} / "
            f"{percentile(times, 0.95):.1f} | {statistics.median(turns) if turns else 0:.0f} |"
        )
    print(f"\nStrictly ordered, every step beyond its 95% interval: {'yes' if ordered else 'NO'}")
    return ordered


def report_lineup(games: list[dict[str, Any]]) -> None:
    """Per level of a line-up: win share with its 95% interval, mean score, think times; the
    games' length."""
    players = len(games[0]["seats"])
    print(f"{len(games)} {players}-player games of {','.join(games[0]['seats'])}, seats rotated, both editions")
    print(
        "| level | seats | win share [95% interval] | mean score | think p50 / p95 ms (CPU) "
        "| full-hand draws / 100 actions | final phases cancelled / game |"
    )
    print("|---|---|---|---|---|---|---|")
    for lv in dict.fromkeys(x for g in games for x in g["seats"]):
        seats = [(g, i) for g in games for i, x in enumerate(g["seats"]) if x == lv]
        share = sum(1 / len(g["winners"]) for g, i in seats if i in g["winners"])
        lo, hi = wilson(share, len(seats))
        times = [1000 * t for g, i in seats for t in g["think"][i]]
        acts = sum(g["actions"][i] for g, i in seats)
        full = sum(g["draws_full"][i] for g, i in seats)
        print(
            f"| {lv} | {len(seats)} | {share / len(seats):.1%} [{lo:.1%}, {hi:.1%}] "
            f"| {statistics.fmean(g['keys'][i][0] for g, i in seats):.2f} "
            f"| {percentile(times, 0.5):.1f} / {percentile(times, 0.95):.1f} | {100 * full / max(1, acts):.1f} "
            f"| {sum(g['restarts'][i] for g, i in seats) / len(seats):.2f} |"
        )
    turns = [g["turns"] for g in games]
    print(f"turns a game: median {statistics.median(turns):.0f}, p90 {percentile(turns, 0.9):.0f}, max {max(turns)}")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--levels", default=",".join(LEVELS), help="weakest first")
    p.add_argument("--games-2p", type=int, default=40, help="games per pair of levels and edition")
    p.add_argument("--games-4p", type=int, default=8, help="games per set of four levels and edition")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--out", help="append every game, one JSON line each")
    p.add_argument("--load", action="append", default=[], help="sum up games from a file of --out")
    p.add_argument(
        "--lineup", help="instead of the round-robin, one line-up: a level per seat, e.g. hard,greedy,greedy,greedy"
    )
    p.add_argument("--games", type=int, default=200, help="games of the --lineup")
    p.add_argument(
        "--skip", type=int, default=0, help="leave out the line-up's first games (already played, in a --load file)"
    )
    p.add_argument("--pairs", help="only 2-player games of these pairs, e.g. easy-medium,medium-hard (beside --load)")
    p.add_argument("--only-with", help="only the games a level plays in (to add a level, or redo it, beside --load)")
    p.add_argument("--clock", action="store_true", help="search bots keep their time limits (as in play)")
    args = p.parse_args(argv)
    levels = [x for x in args.levels.split(",") if x]
    lineup = [x for x in (args.lineup or "").split(",") if x]
    games: list[dict[str, Any]] = []
    for path in args.load:
        with open(path) as f:
            games += [json.loads(line) for line in f if line.strip()]
    if not args.load or args.only_with or args.pairs or args.skip:
        if lineup:
            todo = lineup_tasks(lineup, args.games, args.seed, args.clock)[args.skip :]
        else:
            pairs = [tuple(x.split("-", 1)) for x in (args.pairs or "").split(",") if x]
            todo = tasks(levels, args.games_2p, args.games_4p, args.seed, pairs)  # type: ignore[arg-type]
            if args.only_with:
                todo = [t for t in todo if args.only_with in t[1]]
        print(f"{len(todo)} games on {args.jobs} process(es), load {os.getloadavg()[0]:.1f}", file=sys.stderr)
        t0 = time.perf_counter()
        out = open(args.out, "a") if args.out else None
        with ProcessPoolExecutor(args.jobs) as pool:
            for i, g in enumerate(pool.map(play, todo, chunksize=1)):
                games.append(g)
                if out:
                    out.write(json.dumps(g) + "\n")
                    out.flush()
                if (i + 1) % 20 == 0:
                    print(f"{i + 1}/{len(todo)} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        if out:
            out.close()
        print(f"{len(todo)} games in {time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    if lineup:
        games = [g for g in games if sorted(g["seats"]) == sorted(lineup)]
        report_lineup(games)
        return 0
    games = [g for g in games if set(g["seats"]) <= set(levels)]
    return 0 if report(levels, games, args.bootstrap, args.seed) else 1


if __name__ == "__main__":
    sys.exit(main())
