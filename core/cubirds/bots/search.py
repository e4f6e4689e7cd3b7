"""The searching CuBirds bot: flat Monte Carlo over determinizations of the seat's view.

Every sample deals the hidden cards anew from what the seat has not seen
(core.cubirds.bots.determinize). Each candidate move is played on the same samples (common
random numbers), the rest of its turn and a few more turns by the fast policy
(core.cubirds.bots.heuristic), and judged: a finished game by who won, an unfinished one by the
seat's standing against the best rival's. Sequential halving keeps the better half of the
candidates at each stage. At the species step the candidates are whole lays (species, row, end),
the best by one ply first; at the row and end steps, the lays of the chosen species.

The budget is a number of playouts, cut short by an optional deadline the caller builds (core
reads no clock). Nothing is remembered between decisions.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from core.cubirds.bots.determinize import determinize, unseen
from core.cubirds.bots.heuristic import (
    INDEX_OF,
    SIDES,
    Judge,
    N,
    Policy,
    captures,
    counts,
    evaluate,
    keep_of,
)
from core.cubirds.cards import DRAW, ROW_IDS, ROWS, SPECIES_ORDER
from core.cubirds.rules import DRAW_VALUE
from core.cubirds.scoring import winners
from core.cubirds.state import GameState
from core.cubirds.turn import Events, draw_cards, end_turn, fly, lay
from core.cubirds.views import PlayerView
from core.decisions import PASS, Decision, DecisionKind, OptionValue
from core.levels import Deadline, DeadlineFactory


@dataclass(frozen=True, slots=True)
class Preset:
    iterations: int
    """Playouts per decision, over all candidates."""
    horizon: int
    """Turns the policy plays after the candidate's turn before the position is judged
    (0: to the end of the game)."""
    seconds: float
    """The time limit a caller with a clock should enforce through a deadline."""
    width: int = 10
    """Whole lays searched at the species step: the best by one ply."""
    explore: float = 0.1
    """Share of the policy's lays made at random in playouts."""


PRESETS: Final[dict[str, Preset]] = {
    "easy": Preset(iterations=60, horizon=2, seconds=0.08, width=6),
    "medium": Preset(iterations=250, horizon=4, seconds=0.25, width=8),
    "hard": Preset(iterations=600, horizon=6, seconds=0.45, width=10),
}
SCALE: Final = 1.5
"""Lead in heuristic points (about collection cards) that turns into a reward of about 0.73."""

Move = tuple[int, int, int]
"""A candidate: a lay (species, row, side); for draw_two (1 draws, 0 not, -, -); for fly
(species or -1, -, -)."""


class SearchBot:
    def __init__(self, seed: int, preset: Preset, deadline: DeadlineFactory | None = None) -> None:
        self.rng = random.Random(seed)
        self.preset = preset
        self.deadline = deadline

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        kind = decision.kind
        moves = self._candidates(view, decision)
        if len(moves) == 1:
            return _value(kind, moves[0])
        done = self.deadline() if self.deadline else None
        best = self._halving(view, decision, moves, done)
        return _value(kind, best)

    def _candidates(self, view: PlayerView, decision: Decision) -> list[Move]:
        kind = decision.kind
        seat = decision.player
        hand = counts(view.hand)
        if kind is DecisionKind.DRAW_TWO:
            return [(1, 0, 0), (0, 0, 0)]
        if kind is DecisionKind.FLY:
            return [(s, 0, 0) for s in range(N) if keep_of(s, hand[s])] + [(-1, 0, 0)]
        species = INDEX_OF[view.laying] if view.laying is not None else None
        judge = Judge(hand, counts(view.collections[seat]))
        scored: list[tuple[float, Move]] = []
        for r in range(ROWS):
            if view.row is not None and r != view.row:
                continue
            for side in (0, 1):
                caught = captures(view.rows[r], side)
                for s in range(N):
                    if hand[s] and (species is None or s == species):
                        scored.append((judge.lay_value(s, caught.get(s)), (s, r, side)))
        scored.sort(key=lambda x: -x[0])
        width = self.preset.width if kind is DecisionKind.LAY_SPECIES else len(scored)
        return [m for _, m in scored[:width]]

    def _halving(self, view: PlayerView, decision: Decision, moves: list[Move], done: Deadline | None) -> Move:
        """Sequential halving with common random numbers; the best mean reward wins."""
        seat = decision.player
        hidden = unseen(view)
        stages = max(1, math.ceil(math.log2(len(moves))))
        budget = self.preset.iterations
        totals = {m: 0.0 for m in moves}
        played = {m: 0 for m in moves}
        alive = list(moves)
        for _ in range(stages):
            per = max(1, budget // (stages * len(alive)))
            for _ in range(per):
                if done is not None and done():
                    break
                base = determinize(view, decision, self.rng, hidden)
                seed = self.rng.getrandbits(32)
                for m in alive:
                    totals[m] += playout(base, decision.kind, m, seat, seed, self.preset)
                    played[m] += 1
            if (done is not None and done()) or len(alive) == 1:
                break
            alive.sort(key=lambda m: -totals[m] / max(1, played[m]))
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return max(alive, key=lambda m: totals[m] / max(1, played[m]))


def _value(kind: DecisionKind, move: Move) -> OptionValue:
    if kind is DecisionKind.DRAW_TWO:
        return DRAW_VALUE if move[0] else PASS
    if kind is DecisionKind.FLY:
        return SPECIES_ORDER[move[0]] if move[0] >= 0 else PASS
    if kind is DecisionKind.LAY_SPECIES:
        return SPECIES_ORDER[move[0]]
    if kind is DecisionKind.LAY_ROW:
        return ROW_IDS[move[1]]
    return SIDES[move[2]]


def playout(base: GameState, kind: DecisionKind, move: Move, seat: int, seed: int, preset: Preset) -> float:
    """Play `move` on a copy of `base`, the rest of the turn and `preset.horizon` more turns by
    the policy, and judge the result for `seat` (0..1)."""
    state = base.clone()
    state.open = ()
    policy = Policy(random.Random(seed), preset.explore)
    ev: Events = []
    if kind is DecisionKind.DRAW_TWO:
        if move[0]:
            draw_cards(state, seat, DRAW, ev)
    elif kind is not DecisionKind.FLY:
        s, r, side = move
        if not lay(state, seat, SPECIES_ORDER[s], r, SIDES[side], ev):
            draw_cards(state, seat, DRAW, ev)
    if kind is DecisionKind.FLY:
        if move[0] >= 0:
            fly(state, seat, SPECIES_ORDER[move[0]], ev)
    else:
        flock = policy.fly(state)
        if flock is not None:
            fly(state, seat, flock, ev)
    end_turn(state, ev)
    turns = 0
    limit = preset.horizon or 10_000
    while not state.over and turns < limit:
        ev.clear()
        policy.finish_turn(state, ev)
        turns += 1
    return judge(state, seat)


def judge(state: GameState, seat: int) -> float:
    """1 for a win (shared: 1/k), 0 for a loss; before the end, a logistic of the seat's
    standing against the best rival's."""
    if state.over:
        won = winners(state)
        return 1 / len(won) if seat in won else 0.0
    mine = evaluate(counts(state.hands[seat]), counts(state.collections[seat]))
    rival = max(
        evaluate(counts(state.hands[s]), counts(state.collections[s])) for s in range(state.players) if s != seat
    )
    return 1 / (1 + math.exp((rival - mine) / SCALE))
