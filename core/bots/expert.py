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
from typing import Any, Final

from core.bots import flat
from core.bots.determinize import Unseen, determinize
from core.bots.greedy import POLICY_NOISE, SAMPLES, judge_share, look_ahead
from core.bots.heuristic import Policy, kind
from core.bots.playout import horizon, playout
from core.cards import ACTIONS
from core.decisions import BACK, Decision, DecisionKind, OptionValue
from core.levels import Deadline, DeadlineFactory
from core.rules import apply
from core.state import GameState
from core.views import PlayerView


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
    ply: int = 0
    """Flat search in games of at most this many players: playouts choose every action by one
    ply of look-ahead (core.bots.rollout), on `ply_iterations` playouts. Such a playout costs
    about three fast ones in a 2-player game and far more with more seats, whose rounds are
    longer and whose look-aheads wait for more reactions."""
    ply_iterations: int = 0
    """Iterations per decision in place of `iterations` when the playouts look ahead (`ply`)."""
    steps: int = 0
    """Flat search without look-ahead: a budget of playout steps (decisions played) per decision,
    with `iterations` the most playouts it runs. Time goes with the steps, not the playouts (a
    4-player playout plays about 37 decisions, a 2-player one 16), so a decision takes about as
    long whatever the seats and options, and short playouts get more samples."""
    duel_steps: int = 0
    """`steps` in 2-player games, 0 for `steps`: a 2-player playout is short, so the same steps buy
    about twice the playouts, and past about 28 playouts a fast-playout search gains little."""
    duel_end: int = 0
    """In 2-player games, playouts from a sample whose Flock deck holds fewer than this many cards
    go to the end of the game: the player who empties the deck plays the last turn (R6.1), which
    decides many duels and which the learned evaluation cannot foresee (0: never)."""
    learned: bool = False
    """Judge a playout that stops before the game ends by each seat's chance to win from a fitted
    model (core.bots.learned) instead of the hand-made guess of win shares."""
    shortlist: int = 0
    """In games of more than two players, the flat search plays out only the `shortlist` options (of an action or
    its target) that the easy bot's look-ahead rates best (0: every option). One ply judged by
    the learned evaluation is steadier than a few playouts of a whole round by a noisy policy,
    so the playouts are spent telling apart the options worth it."""
    tree: bool = True
    """True: IS-MCTS over one shared tree. False: flat search of the seat's options with common
    random numbers (every option played out on the same samples) and sequential halving."""


PRESETS: Final[dict[str, Preset]] = {
    "medium": Preset(
        iterations=200,
        rounds=1,
        seconds=0.18,
        minor=0.3,
        steps=3200,
        duel_steps=1500,
        learned=True,
        shortlist=3,
        tree=False,
    ),
    "hard": Preset(iterations=400, rounds=1, seconds=0.45, minor=0.3, steps=8000, duel_end=7, learned=True, tree=False),
}
"""Level presets (easy is no search: core.bots.greedy's look-ahead, judged by the learned
evaluation). Both search flat with common random numbers and judge unfinished playouts by the
learned evaluation; `tree=True` gives the IS-MCTS, and `ply` playouts that look ahead (hard's in
2-player games until 3 Dec; with the learned evaluation its 8,000 steps of fast playouts won
more: docs/bots.md). With 3+ players medium plays out only easy's three best options, on 3,200
steps: with four players easy's one ply judged by the learned evaluation is about as strong as
2,500 steps of playouts of all the options (docs/bots.md, "easy judged by the learned
evaluation")."""
MAJOR: Final = frozenset({DecisionKind.ACTION, DecisionKind.TARGET})
"""Decisions that get the whole budget (see Preset.minor)."""
BY_POLICY: Final = frozenset({DecisionKind.DISCARD, DecisionKind.KEEP})
"""Decisions the policy answers alone: which card to discard, which guano to keep."""


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
    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.reward = 0.0
        """Sum of the rewards of `player`, who chose the edge into this node."""
        self.avail = 0
        """Visits of the parent in which this choice was offered (ISMCTS availability)."""
        self.player = player


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
        self.last_steps = 0
        """Playout steps the last flat search spent (for benchmarks: its cost, whatever the load)."""

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        values = [o.value for o in decision.options if o.value != BACK]
        if len(values) == 1:
            return values[0]
        done = self.deadline() if self.deadline else None
        seat = decision.player
        if decision.kind in BY_POLICY:
            self.last_iterations = self.last_steps = 0
            state = determinize(view, decision, self.rng)
            return self.policy.choose(state, next(d for d in state.open if d.id == decision.id))
        budget = self._budget(view, decision)
        if not self.preset.tree:
            keep = shortlist(view, decision, values, self.preset.shortlist)
            return keep[flat.best(self._flat(view, decision, keep, budget, done))]
        unseen = Unseen(view)
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

    def _budget(self, view: PlayerView, decision: Decision) -> int:
        size = float(self.preset.ply_iterations if self._ply(view) else self.preset.iterations)
        return max(1, round(size * self._share(view, decision)))

    def _steps(self, view: PlayerView, decision: Decision) -> int:
        """The decision's budget of playout steps (Preset.steps), 0 for none."""
        if not self.preset.steps or self._ply(view):
            return 0
        steps = self.preset.duel_steps if view.players == 2 and self.preset.duel_steps else self.preset.steps
        return max(1, round(steps * self._share(view, decision)))

    def _share(self, view: PlayerView, decision: Decision) -> float:
        """The part of the preset's budget this decision gets (Preset.minor, Preset.late)."""
        share = 1.0
        if decision.kind not in MAJOR:
            share *= self.preset.minor
        late = self.preset.late * view.players
        if view.turn > late:
            share *= late / view.turn
        return share

    def _end(self, players: int) -> int:
        """Preset.duel_end in a 2-player game, else 0."""
        return self.preset.duel_end if players == 2 else 0

    def _ply(self, view: PlayerView) -> bool:
        """Whether this game's playouts look ahead (Preset.ply)."""
        return view.players <= self.preset.ply

    def tally(self, view: PlayerView, decision: Decision, shard: int, shards: int) -> dict[str, Any] | None:
        """Part `shard` of `shards` of this decision's flat search (plain data, for a worker
        process), or None if the decision is not searched that way (then `choose` it).
        The parts' samples add up in `merged`: the same search, spread over processes."""
        values = [o.value for o in decision.options if o.value != BACK]
        if len(values) == 1 or decision.kind in BY_POLICY or self.preset.tree:
            return None
        done = self.deadline() if self.deadline else None
        budget = max(1, math.ceil(self._budget(view, decision) / shards))
        steps = math.ceil(self._steps(view, decision) / shards)
        keep = shortlist(view, decision, values, self.preset.shortlist)
        part = self._flat(view, decision, keep, budget, done, shard, steps).to_plain()
        part["options"] = [values.index(v) for v in keep]
        return part

    def _flat(
        self,
        view: PlayerView,
        decision: Decision,
        values: list[OptionValue],
        budget: int,
        done: Deadline | None,
        shard: int = 0,
        steps: int | None = None,
    ) -> flat.Tally:
        """This bot's flat search (part `shard` of it), with its preset's settings."""
        p = self.preset
        ply = self._ply(view)
        if steps is None:
            steps = self._steps(view, decision)
        noise = self.policy.noise
        end = self._end(view.players)
        t = flat.search(
            view, decision, values, self.rng, noise, p.rounds, budget, done, shard, ply, steps, p.learned, end
        )
        self.last_iterations = flat.used(t)
        self.last_steps = t.steps
        return t

    @staticmethod
    def merged(decision: Decision, parts: list[dict[str, Any]]) -> OptionValue:
        """The option the `tally` parts of one decision settle on together."""
        values = [o.value for o in decision.options if o.value != BACK]
        keep: list[int] = [int(i) for i in parts[0].get("options", range(len(values)))]
        return values[keep[flat.best(flat.merge([flat.Tally.from_plain(p) for p in parts]))]]

    def _iterate(self, root: Node, state: GameState, decision: Decision) -> None:
        policy = self.policy
        stop = horizon(state, self.preset.rounds, self._end(state.players))
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
        r = playout(state, policy, stop, self.preset.learned)
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


def shortlist(view: PlayerView, decision: Decision, values: list[OptionValue], size: int) -> list[OptionValue]:
    """The `size` options (Preset.shortlist) that one ply of look-ahead judged by the learned
    evaluation rates best, in their order; all of them in a 2-player game, for a minor decision,
    or for `size` 0. Seeded by the decision alone, so every part of a search spread over
    processes (`ExpertBot.tally`) plays out the same options."""
    if not size or view.players <= 2 or decision.kind not in MAJOR or len(values) <= size:
        return values
    rng = random.Random(decision.id)
    totals, _ = look_ahead(view, decision, values, rng, Policy(rng, POLICY_NOISE), SAMPLES, judgement=judge_share)
    best = sorted(range(len(values)), key=lambda i: -totals[i])[:size]
    return [values[i] for i in sorted(best)]


def decided(root: Node, left: int) -> bool:
    """Whether the most visited option stays ahead whatever the `left` iterations do."""
    visits = sorted((c.visits for c in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left
