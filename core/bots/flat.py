"""The flat search of the level presets: sequential halving over the seat's options, every option
played out on the same samples (common random numbers).

A search fills a `Tally`; tallies of searches run apart (other processes, other seeds) add up with
`merge`, so a decision's samples can be spread over a machine's cores and judged as one search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from core.bots.determinize import Unseen, determinize
from core.bots.greedy import cancels, settle_count
from core.bots.heuristic import Policy
from core.bots.playout import horizon, play_on, rewards
from core.bots.rollout import LookAhead
from core.decisions import Decision, OptionValue
from core.rules import apply
from core.scoring import best as leaders
from core.turn import DRAW, HAND_LIMIT
from core.views import PlayerView

WASTE_EDGE: Final = 0.03
"""Reward a wasted turn (a draw with a full hand, R3.3) or calling the final phase off (R4.6)
must gain over the best other option, beyond twice the standard error of the paired difference:
both are legal, but taken on noise they make a bot look lost and a game drag on."""
CALM_ROUNDS: Final = 4
"""Rounds of turns after which the edge a wasted turn needs grows by WASTE_EDGE a round: a game
clock, or search bots that are behind keep calling the final phase off (R4.6, R6.2) at every
chance and a game of four hard bots runs past 40 turns."""

PLAYOUT_STEPS: Final = 3
"""What a playout costs beyond the decisions it plays (its copy of the sample, the option's own
move, the scoring), in decisions played: measured on 2- and 4-player positions of bench/bots.py."""

Sample = tuple[int, int]
"""(search, sample number): which samples two options were both played on."""


@dataclass(slots=True)
class Tally:
    """Per option: reward sum, playouts, samples it won, whether it wastes the turn, and its
    reward per sample."""

    sums: list[float]
    counts: list[int]
    votes: list[int]
    waste: list[bool]
    got: list[dict[Sample, float]]
    edge: float = WASTE_EDGE
    """The edge a wasted turn needs (`waste_edge`)."""
    steps: int = 0
    """Playout steps the search spent (Preset.steps' measure, counted whatever its budget)."""

    @classmethod
    def empty(cls, n: int) -> Tally:
        return cls([0.0] * n, [0] * n, [0] * n, [False] * n, [{} for _ in range(n)])

    def to_plain(self) -> dict[str, Any]:
        """Lists and numbers only (for a worker process's answer)."""
        got = [[[k[0], k[1], r] for k, r in g.items()] for g in self.got]
        return {
            "sums": self.sums,
            "counts": self.counts,
            "votes": self.votes,
            "waste": self.waste,
            "got": got,
            "edge": self.edge,
            "steps": self.steps,
        }

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> Tally:
        got = [{(int(a), int(b)): float(r) for a, b, r in g} for g in d["got"]]
        edge = float(d.get("edge", WASTE_EDGE))
        sums, counts, votes, waste = list(d["sums"]), list(d["counts"]), list(d["votes"]), list(d["waste"])
        return cls(sums, counts, votes, waste, got, edge, int(d.get("steps", 0)))


def search(
    view: PlayerView,
    decision: Decision,
    values: list[OptionValue],
    rng: random.Random,
    noise: float,
    rounds: float,
    budget: int,
    done: Callable[[], bool] | None = None,
    shard: int = 0,
    ply: bool = False,
    steps: int = 0,
    learned: bool = False,
    end: int = 0,
) -> Tally:
    """Sequential halving over `values` with about `budget` playouts; each sample (a
    determinization and a playout seed) is shared by every option still in the race and votes
    for its best. `shard` names this search's samples apart from those of searches merged with it.

    With `steps`, the search spends that many playout steps (decisions played, and PLAYOUT_STEPS
    for each playout's copy and scoring), each stage an equal share of what is left, and
    `budget` playouts at most. With `learned`, an unfinished playout is judged by the learned
    evaluation (core.bots.learned). A sample whose Flock deck holds fewer than `end` cards is
    played out to the end of the game (`horizon`)."""
    seat = decision.player
    n = len(values)
    unseen = Unseen(view)
    t = Tally.empty(n)
    t.edge = waste_edge(view)
    t.waste = [v == DRAW and len(view.hand) >= HAND_LIMIT for v in values]
    final = view.final_left is not None
    alive = list(range(n))
    stages = max(1, math.ceil(math.log2(len(alive))))
    used = sample = stage = 0
    while True:
        if steps:
            share = t.steps + (steps - t.steps) / max(1, stages - stage)
            runs = 1 << 30
        else:
            share, runs = 0, max(1, budget // (len(alive) * stages))
        stage += 1
        for _ in range(runs):
            if used and done is not None and done():
                return t
            seed = rng.getrandbits(48)
            base = determinize(view, decision, random.Random(seed), unseen)
            stop = horizon(base, rounds, end)
            best, best_r = alive[0], -1.0
            sample += 1
            for i in alive:
                state = base.clone()
                cancelled = cancels(apply(state, seat, decision.id, values[i]))
                fast = Policy(random.Random(seed + 1), noise)
                policy = LookAhead(fast) if ply else fast
                if final:
                    called_off, played = settle_count(state, policy)
                    t.waste[i] = called_off or cancelled or t.waste[i]
                    t.steps += played
                t.steps += play_on(state, policy, stop) + PLAYOUT_STEPS
                r = rewards(state, learned)[seat]
                t.sums[i] += r
                t.counts[i] += 1
                t.got[i][(shard, sample)] = r
                used += 1
                if r > best_r:
                    best, best_r = i, r
            t.votes[best] += 1
            if steps and (t.steps >= share or used >= budget):
                break
        if used >= budget or (steps and t.steps >= steps):
            return t
        alive.sort(key=lambda i: -t.sums[i] / t.counts[i])
        alive = alive[: (len(alive) + 1) // 2]
        if len(alive) == 1 and not final:
            # a lone option's extra playouts pair with no rival's, so they change no choice; in
            # the final phase they still look for samples in which it calls the phase off
            return t


def merge(tallies: list[Tally]) -> Tally:
    """The tally of all these searches' samples together (they must name their samples apart)."""
    n = len(tallies[0].sums)
    out = Tally.empty(n)
    out.edge = max(t.edge for t in tallies)
    for t in tallies:
        out.steps += t.steps
        for i in range(n):
            out.sums[i] += t.sums[i]
            out.counts[i] += t.counts[i]
            out.votes[i] += t.votes[i]
            out.waste[i] = out.waste[i] or t.waste[i]
            out.got[i].update(t.got[i])
    return out


def best(t: Tally) -> int:
    """The option the search settled on: among those played most (the last ones in the race),
    the best mean, votes breaking ties; a wasted turn only with a clear edge over the best other
    option."""
    most = max(t.counts)
    top = max((i for i, c in enumerate(t.counts) if c == most), key=lambda i: (t.sums[i] / t.counts[i], t.votes[i]))
    calm = [i for i, c in enumerate(t.counts) if c and not t.waste[i]]
    if not t.waste[top] or not calm:
        return top
    other = max(calm, key=lambda i: t.sums[i] / t.counts[i])
    return top if gains(t.got[top], t.got[other], t.edge) else other


def waste_edge(view: PlayerView) -> float:
    """The reward a wasted turn must gain over the best other option: WASTE_EDGE, and WASTE_EDGE
    more for every round of turns past CALM_ROUNDS; WASTE_EDGE alone in the final phase of a
    2-player game for a seat that would lose if it ended now. Calling the phase off (R4.6) is
    then that seat's one chance, which the clock took from it: in 15 of hard's 23 losses of 240
    against greedy the clock vetoed such a call, and played on from five of those positions the
    call won nearly every time (docs/bots.md, "The end of a duel")."""
    if view.players == 2 and view.final_left is not None and view.seat not in leaders(view.scores()):
        return WASTE_EDGE
    return WASTE_EDGE * (1 + max(0.0, view.turn / view.players - CALM_ROUNDS))


def used(t: Tally) -> int:
    """Playouts the tally holds."""
    return sum(t.counts)


def gains(a: dict[Sample, float], b: dict[Sample, float], edge: float) -> bool:
    """Whether rewards `a` beat `b` by more than `edge` plus twice the standard error, over the
    samples both were played on."""
    diffs = [a[k] - b[k] for k in a if k in b]
    if len(diffs) < 2:
        return False
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean > edge + 2 * math.sqrt(var / len(diffs))
