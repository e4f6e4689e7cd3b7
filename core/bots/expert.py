"""The expert bot: search over determinizations of the seat's view, with policy playouts.

Every sample deals the hidden cards anew from what the seat has seen (core.bots.determinize) and
plays on with the fast policy (core.bots.heuristic) for a round of turns (or to the end), then
scores every seat. Two searches share that machinery:

- flat (the level presets): each of the seat's options is played out on the same samples
  (common random numbers), sequential halving keeps the better half at each stage, and each
  sample votes for the option it liked best (the tie-break);
- `tree=True`: single-observer information-set MCTS, one shared tree whose edges are choices as
  any player could name them (Action cards by kind, pigeons and Zones by id), UCB with
  availability counts, every player's own reward backed up (max^n), most visited option played.

The budget is a number of playouts, cut short by an optional `deadline` the caller builds (core
reads no clock).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Final

from core.bots.determinize import Unseen, determinize
from core.bots.greedy import cancels, settle
from core.bots.heuristic import Policy, invasion_cost, kind, totals
from core.cards import ACTIONS
from core.decisions import BACK, Decision, DecisionKind, OptionValue
from core.rules import apply
from core.scoring import winners
from core.state import GameState
from core.turn import DRAW, HAND_LIMIT
from core.views import PlayerView

Deadline = Callable[[], bool]
"""True once the bot must answer: built by the caller for each decision, e.g. from a clock."""
DeadlineFactory = Callable[[], Deadline]


@dataclass(frozen=True, slots=True)
class Preset:
    iterations: int
    """Iterations per decision (each one determinization, one descent, one playout)."""
    rounds: float
    """How far playouts go before the position is judged, in rounds of turns beyond the current
    one (1: until the seat's next turn is over; 0 or less: to the end of the game). A search
    that stops before its rivals have all answered misjudges every lead."""
    seconds: float
    """The time limit a caller with a clock should enforce through a deadline."""
    explore: float = 0.7
    """UCB exploration constant, rewards being in 0..1."""
    minor: float = 1.0
    """Share of the iterations spent on decisions other than an action or its target (a
    reaction, a landing place, a pigeon to pick, a card to discard...)."""
    late: int = 6
    """Turns per player after which the budget shrinks in proportion to the turn: a game clock,
    so that a game the players keep alive (R4.6, R6.2) stays quick."""
    tree: bool = True
    """True: IS-MCTS over one shared tree. False: flat search of the seat's options with common
    random numbers (every option played out on the same samples) and sequential halving."""


PRESETS: Final[dict[str, Preset]] = {
    "easy": Preset(iterations=12, rounds=0.5, seconds=0.08, minor=0.5, tree=False),
    "medium": Preset(iterations=48, rounds=1, seconds=0.3, minor=0.3, tree=False),
    "hard": Preset(iterations=150, rounds=1, seconds=0.6, minor=0.3, tree=False),
}
"""Level presets. All search flat with common random numbers; `tree=True` gives the IS-MCTS."""
MAJOR: Final = frozenset({DecisionKind.ACTION, DecisionKind.TARGET})
"""Decisions that get the whole budget (see Preset.minor)."""
BY_POLICY: Final = frozenset({DecisionKind.DISCARD, DecisionKind.KEEP})
"""Decisions the policy answers alone: which card to discard, which guano to keep."""
SCALE: Final = 2.5
"""VP of lead that turns into a reward of about 0.73 (a logistic curve)."""
SWING: Final = 1.5
"""How many VP the worths of two seats drift apart per round of turns (the spread of the
guessed win shares grows with the root of the rounds left)."""
INVASION_MEAN: Final = 1.6
"""Flock cards an Invasion reveals on average (to count the turns left in the Flock deck)."""
WASTE_EDGE: Final = 0.03
"""Reward a wasted turn (a draw with a full hand, R3.3) or calling the final phase off (R4.6)
must gain over the best other option, beyond twice the standard error of the paired difference:
both are legal, but taken on noise they make a bot look lost and a game drag on."""


def key(value: OptionValue) -> object:
    """An option as any player could name it: copies of an Action card are one choice."""
    if isinstance(value, tuple):
        return tuple(key(v) for v in value)
    if isinstance(value, str) and value in ACTIONS:
        return kind(value).value
    return value


Key = tuple[int, object]
"""A tree edge: the player choosing and the option as `key` names it."""


class Node:
    __slots__ = ("children", "visits", "reward", "avail", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.reward = 0.0
        """Sum of the rewards of `player`, who chose the edge into this node."""
        self.avail = 0
        """Visits of the parent in which this choice was offered (ISMCTS availability)."""
        self.player = player


def rewards(state: GameState) -> list[float]:
    """Every seat's reward in 0..1: 0.7 of its win share and 0.3 of its lead through a logistic.
    Before the end the win share is guessed from the worths (the active player's Invasion still
    to come counted at its expected cost), the sharper the fewer turns are left: a reward that
    rated any unfinished game above a lost one made bots that are behind call the final phase off
    (R4.6) again and again, for no better chance."""
    n = state.players
    vals = totals(state)
    if not state.over:
        vals[state.active] -= invasion_cost(state, state.active)
    out = []
    for s in range(n):
        others = [v for i, v in enumerate(vals) if i != s]
        lead = vals[s] - 0.5 * (max(others) + sum(others) / len(others))
        out.append(1.0 / (1.0 + math.exp(-lead / SCALE)))
    if state.over:
        won = winners(state)
        return [0.7 * (1.0 / len(won) if s in won else 0.0) + 0.3 * out[s] for s in range(n)]
    left = state.final_left if state.final_left is not None else n + len(state.flock) / INVASION_MEAN
    spread = SWING * math.sqrt(max(0.5, left / n))
    top = max(vals)
    odds = [math.exp((v - top) / spread) for v in vals]
    total = sum(odds)
    return [0.7 * odds[s] / total + 0.3 * out[s] for s in range(n)]


class ExpertBot:
    def __init__(
        self,
        seed: int,
        preset: Preset = PRESETS["hard"],
        deadline: DeadlineFactory | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.preset = preset
        self.deadline = deadline
        self.policy = Policy(self.rng, noise=0.25)
        self.last_iterations = 0
        """Iterations the last decision ran (for benchmarks)."""

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        values = [o.value for o in decision.options if o.value != BACK]
        if len(values) == 1:
            return values[0]
        done = self.deadline() if self.deadline else None
        seat = decision.player
        unseen = Unseen(view)
        if decision.kind in BY_POLICY:
            self.last_iterations = 0
            state = determinize(view, decision, self.rng, unseen)
            return self.policy.choose(state, next(d for d in state.open if d.id == decision.id))
        size = float(self.preset.iterations)
        if decision.kind not in MAJOR:
            size *= self.preset.minor
        late = self.preset.late * view.players
        if view.turn > late:
            size *= late / view.turn
        budget = max(1, round(size))
        if not self.preset.tree:
            return values[self._flat(view, decision, values, unseen, done, budget)]
        root = Node(seat)
        by_key: dict[Key, OptionValue] = {(seat, key(v)): v for v in values}
        runs = 0
        while runs < budget and not (runs and done is not None and done()):
            self._iterate(root, determinize(view, decision, self.rng, unseen), decision)
            runs += 1
            if runs % 16 == 0 and decided(root, budget - runs):
                break
        self.last_iterations = runs
        self.last_root = root
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))
        return by_key[best[0]]

    def _iterate(self, root: Node, state: GameState, decision: Decision) -> None:
        policy = self.policy
        stop = horizon(state, self.preset.rounds)
        node = root
        path = [root]
        d = next(x for x in state.open if x.id == decision.id)
        expanded = False
        while True:
            values = [o.value for o in d.options if o.value != BACK]
            p = d.player
            keys: list[Key] = [(p, key(v)) for v in values]
            fresh = [i for i, k in enumerate(keys) if k not in node.children]
            if fresh:
                if len(fresh) == len(values):
                    pick = values.index(policy.choose(state, d)) if len(values) > 1 else 0
                else:
                    pick = fresh[self.rng.randrange(len(fresh))]
                child = Node(p)
                node.children[keys[pick]] = child
                expanded = True
            else:
                pick = self._select(node, keys)
                child = node.children[keys[pick]]
            for k in keys:
                ch = node.children.get(k)
                if ch is not None:
                    ch.avail += 1
            apply(state, p, d.id, values[pick])
            node = child
            path.append(node)
            if expanded or state.over or state.turn > stop:
                break
            d = state.open[0]
        r = playout(state, policy, stop)
        for n in path:
            n.visits += 1
            n.reward += r[n.player]

    def _flat(
        self,
        view: PlayerView,
        decision: Decision,
        values: list[OptionValue],
        unseen: Unseen,
        done: Deadline | None,
        budget: int,
    ) -> int:
        """Sequential halving over the seat's options; each sample (a determinization and a
        playout seed) is shared by every option still in the race, and votes for its best."""
        seat = decision.player
        n = len(values)
        alive = list(range(n))
        sums, counts, votes = [0.0] * n, [0] * n, [0] * n
        got: list[dict[int, float]] = [{} for _ in range(n)]
        """Each option's reward per sample, for paired comparisons."""
        waste = [v == DRAW and len(view.hand) >= HAND_LIMIT for v in values]
        final = view.final_left is not None
        sample = 0
        stages = max(1, math.ceil(math.log2(n)))
        used = 0
        stopped = False
        while not stopped:
            per = max(1, budget // (len(alive) * stages))
            for _ in range(per):
                if used and done is not None and done():
                    stopped = True
                    break
                seed = self.rng.getrandbits(48)
                base = determinize(view, decision, random.Random(seed), unseen)
                stop = horizon(base, self.preset.rounds)
                best, best_r = alive[0], -1.0
                sample += 1
                for i in alive:
                    state = base.clone()
                    cancelled = cancels(apply(state, seat, decision.id, values[i]))
                    policy = Policy(random.Random(seed + 1), self.policy.noise)
                    if final:
                        waste[i] = settle(state, policy) or cancelled or waste[i]
                    r = playout(state, policy, stop)[seat]
                    sums[i] += r
                    counts[i] += 1
                    got[i][sample] = r
                    used += 1
                    if r > best_r:
                        best, best_r = i, r
                votes[best] += 1
            if len(alive) == 1 or used >= budget:
                break
            alive.sort(key=lambda i: -sums[i] / counts[i])
            alive = alive[: (len(alive) + 1) // 2]
        self.last_iterations = used
        most = max(counts[i] for i in alive)
        best = max((i for i in alive if counts[i] == most), key=lambda i: (sums[i] / counts[i], votes[i]))
        calm = [i for i in range(n) if not waste[i] and counts[i]]
        if not waste[best] or not calm:
            return best
        other = max(calm, key=lambda i: sums[i] / counts[i])
        return best if gains(got[best], got[other], WASTE_EDGE) else other

    def _select(self, node: Node, keys: list[Key]) -> int:
        c = self.preset.explore
        best, best_v = 0, -1.0
        for i, k in enumerate(keys):
            ch = node.children[k]
            v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_v:
                best, best_v = i, v
        return best


def horizon(state: GameState, rounds: float) -> int:
    """The last turn a playout from `state` plays (Preset.rounds)."""
    return state.turn + max(1, round(rounds * state.players)) if rounds > 0 else 1 << 30


def playout(state: GameState, policy: Policy, stop: int) -> list[float]:
    """Play on with `policy` to the end of turn `stop` (or of the game); every seat's reward."""
    while not state.over and state.turn <= stop:
        d = state.open[0]
        apply(state, d.player, d.id, policy.choose(state, d))
    return rewards(state)


def gains(a: dict[int, float], b: dict[int, float], edge: float) -> bool:
    """Whether rewards `a` beat `b` by more than `edge` plus twice the standard error, over the
    samples both were played on."""
    diffs = [a[k] - b[k] for k in a if k in b]
    if len(diffs) < 2:
        return False
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean > edge + 2 * math.sqrt(var / len(diffs))


def decided(root: Node, left: int) -> bool:
    """Whether the most visited option stays ahead whatever the `left` iterations do."""
    visits = sorted((c.visits for c in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left


def time_limit(clock: Callable[[], float], seconds: float) -> DeadlineFactory:
    """Deadlines `seconds` after each decision starts, read from the caller's `clock`."""

    def start() -> Deadline:
        end = clock() + seconds
        return lambda: clock() >= end

    return start
