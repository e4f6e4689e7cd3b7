"""Fit the learned leaf evaluation (core.bots.learned) and write its weights (core.bots.weights).

    python bench/evalfit.py --games 2000 --seed 1          # fit, print the log-losses, write
    python bench/evalfit.py --games 200 --seed 2 --check   # the current weights on fresh games

Games of the fast policy (core.bots.heuristic, the searches' playout policy, at their noise) are
played to the end; every turn's first position is a sample (a playout stops at a turn's start),
labelled with the game's outcome (a shared win split). A conditional logit over the seats is fitted
by Newton's method (the Hessian on a subsample) with a little ridge, for 2 players and for 4 (the
weights for more than 2 players). A fifth of the games is held out to compare log-losses: the
fit's, the hand-made guess's (core.bots.playout.guess) and a uniform guess's. Pure Python.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from operator import add, mul
from pathlib import Path

from core.bots import learned
from core.bots.heuristic import Policy
from core.bots.playout import guess, worths
from core.cards import Edition
from core.rules import apply
from core.scoring import winners
from core.setup import new_game

NOISE = 0.25
"""The playout policy's noise in the searches (core.bots.expert)."""
RIDGE = 1.0
"""L2 penalty on the weights (in units of one sample's log-loss): the hand size is the sum of the
hand by kind, so without it the fit is not unique."""
HESSIAN_SAMPLES = 5000
OUT = Path(__file__).resolve().parent.parent / "core" / "bots" / "weights.py"

Sample = tuple[list[list[float]], list[float], list[float]]
"""(every seat's features, the hand-made guess, the outcome: every seat's share of the win)."""


def game(players: int, seed: int, edition: Edition) -> list[Sample]:
    """One game of the fast policy: a sample at the start of each turn."""
    state = new_game(players, seed, edition)
    policy = Policy(random.Random(seed * 7919), NOISE)
    got: list[tuple[list[list[float]], list[float]]] = []
    turn = -1
    while not state.over:
        if state.turn != turn:
            turn = state.turn
            got.append((learned.rows(state), guess(state, worths(state))))
        d = state.open[0]
        apply(state, d.player, d.id, policy.choose(state, d))
    won = winners(state)
    y = [1.0 / len(won) if s in won else 0.0 for s in range(players)]
    return [(x, h, y) for x, h in got]


def probabilities(w: list[float], xs: list[list[float]]) -> list[float]:
    return learned.softmax([sum(map(mul, w, x)) for x in xs])


def log_loss(ps: list[float], y: list[float]) -> float:
    return -sum(t * math.log(max(p, 1e-12)) for p, t in zip(ps, y, strict=True) if t)


def objective(w: list[float], data: list[Sample]) -> float:
    loss = sum(log_loss(probabilities(w, xs), y) for xs, _, y in data) / len(data)
    return loss + 0.5 * RIDGE / len(data) * sum(v * v for v in w)


def gradient(w: list[float], data: list[Sample]) -> list[float]:
    g = [0.0] * len(w)
    for xs, _, y in data:
        for p, t, x in zip(probabilities(w, xs), y, xs, strict=True):
            c = p - t
            if c:
                g = list(map(add, g, [c * v for v in x]))
    return [v / len(data) + RIDGE / len(data) * wi for v, wi in zip(g, w, strict=True)]


def hessian(w: list[float], data: list[Sample], total: int) -> list[list[float]]:
    k = len(w)
    h = [[0.0] * k for _ in range(k)]
    for xs, _, _ in data:
        ps = probabilities(w, xs)
        mean = [0.0] * k
        for p, x in zip(ps, xs, strict=True):
            mean = list(map(add, mean, [p * v for v in x]))
        for p, x in zip(ps, xs, strict=True):
            d = list(map(lambda a, b: a - b, x, mean))
            for i in range(k):
                a = p * d[i]
                if a:
                    h[i] = list(map(add, h[i], [a * v for v in d]))
    n = len(data)
    return [[v / n + (RIDGE / total if i == j else 0.0) for j, v in enumerate(row)] for i, row in enumerate(h)]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination, partial pivoting)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [u - f * v for u, v in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: list[Sample], rng: random.Random, rounds: int = 20) -> list[float]:
    """Newton's method on the penalized log-loss, the Hessian on a subsample, halving steps."""
    w = [0.0] * (2 * len(learned.NAMES))
    loss = objective(w, data)
    for _ in range(rounds):
        sub = rng.sample(data, min(HESSIAN_SAMPLES, len(data)))
        step = solve(hessian(w, sub, len(data)), gradient(w, data))
        size = 1.0
        while size > 1e-3:
            trial = [a - size * b for a, b in zip(w, step, strict=True)]
            new = objective(trial, data)
            if new < loss:
                break
            size /= 2
        else:
            break
        gain = loss - new
        w, loss = trial, new
        if gain < 1e-6:
            break
    return w


def losses(w: list[float], data: list[Sample]) -> tuple[float, float, float]:
    """Mean log-loss of the fit, the hand-made guess and a uniform guess."""
    fitted = sum(log_loss(probabilities(w, xs), y) for xs, _, y in data) / len(data)
    hand = sum(log_loss(h, y) for _, h, y in data) / len(data)
    uniform = sum(log_loss([1.0 / len(y)] * len(y), y) for _, _, y in data) / len(data)
    return fitted, hand, uniform


def samples(players: int, games: int, seed: int) -> tuple[list[Sample], list[Sample]]:
    """(training, hold-out): every fifth game held out."""
    train: list[Sample] = []
    held: list[Sample] = []
    editions = (Edition.V35, Edition.V30)
    for g in range(games):
        got = game(players, seed * 1_000_003 + players * 100_000 + g, editions[g % 2])
        (held if g % 5 == 4 else train).extend(got)
    return train, held


def module(weights: dict[str, list[float]], notes: list[str]) -> str:
    names = [*learned.NAMES, *(f"{n} x late" for n in learned.NAMES)]
    out = [
        '"""The learned evaluation\'s weights (core.bots.learned): data written by bench/evalfit.py."""',
        "",
        *(f"# {line}" for line in notes),
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
    ]
    for name, w in weights.items():
        out.append(f"{name}: Final[tuple[float, ...]] = (")
        out.extend(f"    {v!r},  # {n}" for v, n in zip(w, names, strict=True))
        out.append(")")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per table size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="score the current weights on fresh games, write nothing")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    c0 = time.process_time()
    rng = random.Random(args.seed)
    from core.bots import weights as current

    fitted: dict[str, list[float]] = {}
    command = f"python bench/evalfit.py --games {args.games} --seed {args.seed}"
    notes = [f"{command}; hold-out log-loss (fit, hand-made, uniform):"]
    for name, players in (("DUEL", 2), ("MANY", 4)):
        train, held = samples(players, args.games, args.seed)
        w = list(getattr(current, name)) if args.check else fit(train, rng)
        fitted[name] = [round(v, 5) for v in w]
        if args.check:  # every game is fresh
            f, h, u = losses(fitted[name], train + held)
            line = f"{players} players: {f:.3f}, {h:.3f}, {u:.3f} ({len(train) + len(held)} positions)"
        else:
            f, h, u = losses(fitted[name], held)
            line = f"{players} players: {f:.3f}, {h:.3f}, {u:.3f} ({len(train)} positions fitted, {len(held)} held out)"
        notes.append(line)
        print(line, flush=True)
    print(f"{time.process_time() - c0:.1f} s CPU")
    if not args.check:
        args.out.write_text(module(fitted, notes))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
