"""The greedy CuBirds bot: one ply, judged by the heuristic (core.cubirds.bots.heuristic).

It lays the species, on the row and at the end, whose result (the birds taken, the best flock
flown at once) brings its collection nearest to winning; always draws two when it may; flies
the flock that gains most. Deterministic: every step of a lay recomputes the same best move
from the view, so the three decisions of one lay agree without the bot remembering anything.
"""

from __future__ import annotations

from core.cubirds.bots.heuristic import INDEX_OF, SIDES, best_fly, best_lay, counts, gains_of
from core.cubirds.cards import ROW_IDS, SPECIES_ORDER
from core.cubirds.rules import DRAW_VALUE
from core.cubirds.views import PlayerView
from core.decisions import PASS, Decision, DecisionKind, OptionValue


class GreedyBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        kind = decision.kind
        hand = counts(view.hand)
        col = counts(view.collections[decision.player])
        if kind is DecisionKind.DRAW_TWO:
            return DRAW_VALUE
        if kind is DecisionKind.FLY:
            s, _ = best_fly(hand, gains_of(tuple(col)))
            return SPECIES_ORDER[s] if s >= 0 else PASS
        species = INDEX_OF[view.laying] if view.laying is not None else None
        s, r, side = best_lay(hand, col, view.rows, species, view.row)
        if kind is DecisionKind.LAY_SPECIES:
            return SPECIES_ORDER[s]
        if kind is DecisionKind.LAY_ROW:
            return ROW_IDS[r]
        return SIDES[side]
