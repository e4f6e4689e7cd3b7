"""The expert bot: information-set Monte Carlo tree search with determinization (SO-ISMCTS).

Every iteration samples the hidden cards anew from the seat's view (core.bots.determinize), walks
one shared tree whose edges are the choices as a player could name them (Action cards by kind,
pigeons and Zones by id), adds one node, plays on with the fast policy (core.bots.heuristic) for
a few turns or to the end, and backs the outcome up to every player's own choices (max^n). Each
sample votes for a root option with its visit; the most voted option is played. The budget is a
number of iterations, cut short by an optional `deadline` the caller builds (core reads no clock).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Final

from core.bots.determinize import Unseen, determinize
from core.bots.heuristic import RECALL_COST, Policy, kind, totals
from core.cards import ACTIONS
from core.decisions import BACK, Decision, OptionValue
from core.rules import apply
from core.scoring import winners
from core.state import GameState
from core.views import PlayerView

Deadline = Callable[[], bool]
"""True once the bot must answer: built by the caller for each decision, e.g. from a clock."""
DeadlineFactory = Callable[[], Deadline]


@dataclass(frozen=True, slots=True)
class Preset:
    iterations: int
    """Iterations per decision (each one determinization, one descent, one playout)."""
    horizon: int
    """Turns played beyond the current one before the position is judged (99: to the end)."""
    seconds: float
    """The time limit a caller with a clock should enforce through a deadline."""
    explore: float = 0.7
    """UCB exploration constant, rewards being in 0..1."""


PRESETS: Final[dict[str, Preset]] = {
    "easy": Preset(iterations=40, horizon=1, seconds=0.08),
    "medium": Preset(iterations=200, horizon=2, seconds=0.4),
    "hard": Preset(iterations=600, horizon=2, seconds=0.8),
}
SCALE: Final = 2.5
"""VP of lead that turns into a reward of about 0.73 (a logistic curve)."""


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
    """Every seat's reward in 0..1: the win share at the end, else its lead through a logistic
    (the active player's Invasion still to come counted at its expected cost)."""
    vals = totals(state)
    if not state.over:
        vals[state.active] -= RECALL_COST * sum(ACTIONS[c].recall for c in state.played)
    out = []
    for s in range(state.players):
        others = [v for i, v in enumerate(vals) if i != s]
        lead = vals[s] - 0.5 * (max(others) + sum(others) / len(others))
        out.append(1.0 / (1.0 + math.exp(-lead / SCALE)))
    if state.over:
        won = winners(state)
        return [0.7 * (1.0 / len(won) if s in won else 0.0) + 0.3 * out[s] for s in range(state.players)]
    return out


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
        root = Node(seat)
        by_key: dict[Key, OptionValue] = {(seat, key(v)): v for v in values}
        runs = 0
        while runs < self.preset.iterations and not (runs and done is not None and done()):
            self._iterate(root, determinize(view, decision, self.rng, unseen), decision)
            runs += 1
        self.last_iterations = runs
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))
        return by_key[best[0]]

    def _iterate(self, root: Node, state: GameState, decision: Decision) -> None:
        policy = self.policy
        stop = min(state.turn + self.preset.horizon, 10**6) if self.preset.horizon < 99 else 10**9
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
        # playout
        while not state.over and state.turn <= stop:
            d = state.open[0]
            apply(state, d.player, d.id, policy.choose(state, d))
        r = rewards(state)
        for n in path:
            n.visits += 1
            n.reward += r[n.player]

    def _select(self, node: Node, keys: list[Key]) -> int:
        c = self.preset.explore
        best, best_v = 0, -1.0
        for i, k in enumerate(keys):
            ch = node.children[k]
            v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best_v:
                best, best_v = i, v
        return best


def time_limit(clock: Callable[[], float], seconds: float) -> DeadlineFactory:
    """Deadlines `seconds` after each decision starts, read from the caller's `clock`."""

    def start() -> Deadline:
        end = clock() + seconds
        return lambda: clock() >= end

    return start
