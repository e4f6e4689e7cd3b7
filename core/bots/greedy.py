"""The greedy bot: one ply of look-ahead on a few determinizations, judged by a static evaluation.

For each option it samples the hidden cards (core.bots.determinize), plays the option, lets the
fast policy finish the move and everyone's reactions until the next action (an Invasion the move
ends with included), and scores the result: score swing, pigeons pushed onto rivals, guano, cards
in hand, the recall cost of the Invasion still to come. Small seeded noise breaks ties.

The `easy` level is the same look-ahead judged by the learned evaluation (core.bots.learned):
each seat's chance to win from the position, not a hand-made sum of VP.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from core.bots.determinize import Unseen, determinize
from core.bots.heuristic import CARD_VALUE, Chooser, Policy, evaluate, invasion_cost
from core.bots.learned import win_chances
from core.decisions import BACK, Decision, DecisionKind, OptionValue
from core.events import Event, EventKind
from core.rules import apply
from core.scoring import winners
from core.state import GameState
from core.turn import DRAW, HAND_LIMIT
from core.views import PlayerView

SETTLE_LIMIT: Final = 300
"""Decisions the look-ahead plays at most before judging a position."""
REFILL: Final = 0.6
"""Share of a card's worth that a play from a full hand gets back: drawing now would draw
nothing (R3.3), and the next draw refills what the play spent. Without it the evaluation, which
counts every card in hand, rates a wasted action above any play worth less than a card."""
RESTART_MARGIN: Final = 1.0
"""VP an option that calls the final phase off (R4.6, R6.2) must gain over the best other one."""
SAMPLES: Final = 4
"""Determinizations each option is tried on."""
POLICY_NOISE: Final = 0.1
"""VP of noise in the fast policy that finishes each tried move."""
SHARE_VP: Final = 10.0
"""VP a whole win is worth to the learned judgement (`judge_share`), so that its chances sit on
the scale of the noise, the refill and the restart margin above (in a 4-player game a tenth of
a win is about a VP of lead)."""
# Enum members read at every step of a look-ahead, as module constants (a read through EnumType
# costs ~340 ns on this interpreter, a global ~20 ns).
_ACTION: Final = DecisionKind.ACTION
_FINAL_CANCELLED: Final = EventKind.FINAL_CANCELLED


def settle(state: GameState, policy: Chooser, limit: int = SETTLE_LIMIT) -> bool:
    """Play on with `policy` until an action is next (or the game ends). True if the final phase
    was called off on the way (R4.6, R6.2)."""
    return settle_count(state, policy, limit)[0]


def settle_count(state: GameState, policy: Chooser, limit: int = SETTLE_LIMIT) -> tuple[bool, int]:
    """`settle`, and the decisions it played (what it cost a search that counts its steps)."""
    cancelled = False
    steps = 0
    while steps < limit and not state.over:
        d = state.open[0]
        if d.kind is _ACTION:
            break
        cancelled = cancels(apply(state, d.player, d.id, policy.choose(state, d))) or cancelled
        steps += 1
    return cancelled, steps


def cancels(events: list[Event]) -> bool:
    """Whether these events call the final phase off (R4.6, R6.2)."""
    for e in events:
        if e.kind is _FINAL_CANCELLED:
            return True
    return False


Judgement = Callable[[GameState, int], float]
"""How good a position is for a seat, in VP."""


def judge(state: GameState, seat: int) -> float:
    """The evaluation, less the cost of the seat's Invasion if it is still to come."""
    return evaluate(state, seat) - invasion_cost(state, seat)


def judge_share(state: GameState, seat: int) -> float:
    """The seat's chance to win by the learned evaluation (its share of the win once the game is
    over), times SHARE_VP. The model sees the Invasion still to come among its features."""
    if state.over:
        won = winners(state)
        return SHARE_VP / len(won) if seat in won else 0.0
    return SHARE_VP * win_chances(state)[seat]


class GreedyBot:
    def __init__(self, seed: int, samples: int = SAMPLES, noise: float = 0.08, learned: bool = False) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.noise = noise
        self.policy = Policy(self.rng, noise=POLICY_NOISE)
        self.judge: Judgement = judge_share if learned else judge

    def choose(self, view: PlayerView, decision: Decision) -> OptionValue:
        values = [o.value for o in decision.options if o.value != BACK]
        if len(values) == 1:
            return values[0]
        totals, restart = look_ahead(view, decision, values, self.rng, self.policy, self.samples, judgement=self.judge)
        score = [t / self.samples + self.noise * self.rng.random() for t in totals]
        return values[pick(score, restart, RESTART_MARGIN)]


def look_ahead(
    view: PlayerView,
    decision: Decision,
    values: list[OptionValue],
    rng: random.Random,
    policy: Policy,
    samples: int,
    unseen: Unseen | None = None,
    judgement: Judgement = judge,
) -> tuple[list[float], list[bool]]:
    """One ply on `samples` determinizations shared by every option: each option played, the
    move and everyone's reactions finished by `policy` (`settle`), the result judged
    (`judgement`, the hand-made `judge` unless told). Returns
    each option's summed judgement and whether it may call the final phase off (R4.6)."""
    seat = decision.player
    unseen = unseen or Unseen(view)
    full = decision.kind is DecisionKind.ACTION and len(view.hand) >= HAND_LIMIT
    totals = [0.0] * len(values)
    restart = [False] * len(values)
    for _ in range(samples):
        base = determinize(view, decision, rng, unseen)
        for i, v in enumerate(values):
            s = base.clone()
            cancelled = cancels(apply(s, seat, decision.id, v))
            cancelled = settle(s, policy) or cancelled
            totals[i] += judgement(s, seat)
            if full and v != DRAW:
                totals[i] += REFILL * CARD_VALUE * max(0, HAND_LIMIT - len(s.hands[seat]))
            restart[i] = restart[i] or cancelled
    return totals, restart


def pick(score: list[float], restart: list[bool], margin: float) -> int:
    """The best option; one that restarts the final phase only if it beats every other by
    `margin`. It is legal and may win a game, but a bot that does it on a small edge makes games
    drag on (R4.6)."""
    best = max(range(len(score)), key=score.__getitem__)
    calm = [i for i in range(len(score)) if not restart[i]]
    if not restart[best] or not calm:
        return best
    other = max(calm, key=score.__getitem__)
    return best if score[best] >= score[other] + margin else other
