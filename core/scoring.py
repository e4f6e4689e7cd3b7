"""R7: final scores, their breakdown, and the tie-breaks."""

from __future__ import annotations

from dataclasses import dataclass

from core.cards import ACTIONS, ActionKind
from core.flow import BALCONY0
from core.state import GameState, Trophy


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    pigeon_trophies: int
    guano_trophies: int
    mountain_trophies: int
    trophy_vp: int
    balcony_pigeons: int
    balcony_guano: int
    balcony_mountains: int
    total: int
    hand: int
    """Action cards in hand: the second tie-break (R7.2)."""


def trophy_kind(t: Trophy) -> str:
    """'pigeon', 'guano', 'mountain', or 'sweep' (3.0 Sweeper: several cards, one trophy)."""
    if t.hidden or t.cards[0][0] == "F":
        return "pigeon"
    if len(t.cards) > 1:
        return "sweep"
    return "mountain" if ACTIONS[t.cards[0]].kind is ActionKind.MOUNTAIN else "guano"


def score(state: GameState, seat: int) -> Score:
    """R7.1: +1 per pigeon trophy, +1 per Guano trophy, +2 per Mountain trophy; -1 per pigeon,
    -1 per Guano and -2 per Mountain still on the Balcony."""
    kinds = [trophy_kind(t) for t in state.trophies[seat]]
    guano = [ACTIONS[c].kind for c in state.guano[BALCONY0 + seat]]
    g = guano.count(ActionKind.GUANO)
    m = guano.count(ActionKind.MOUNTAIN)
    pigeons = len(state.pigeons[BALCONY0 + seat])
    vp = sum(t.vp for t in state.trophies[seat])
    return Score(
        seat=seat,
        pigeon_trophies=kinds.count("pigeon"),
        guano_trophies=kinds.count("guano") + kinds.count("sweep"),
        mountain_trophies=kinds.count("mountain"),
        trophy_vp=vp,
        balcony_pigeons=pigeons,
        balcony_guano=g,
        balcony_mountains=m,
        total=vp - pigeons - g - 2 * m,
        hand=len(state.hands[seat]),
    )


def scores(state: GameState) -> list[Score]:
    return [score(state, s) for s in range(state.players)]


def ranking_key(s: Score) -> tuple[int, int, int]:
    """R7.2: higher score, then fewer pigeons on the Balcony, then more cards in hand."""
    return (s.total, -s.balcony_pigeons, s.hand)


def winners(state: GameState) -> list[int]:
    """The seats that share the win (R7.2: ties that survive both tie-breaks share it)."""
    all_ = scores(state)
    best = max(ranking_key(s) for s in all_)
    return [s.seat for s in all_ if ranking_key(s) == best]


def tie_break(state: GameState) -> str:
    """Which rule of R7.2 decided the winner: 'score', 'balcony', 'hand' or 'shared'."""
    all_ = scores(state)
    top = max(s.total for s in all_)
    tied = [s for s in all_ if s.total == top]
    if len(tied) == 1:
        return "score"
    fewest = min(s.balcony_pigeons for s in tied)
    tied = [s for s in tied if s.balcony_pigeons == fewest]
    if len(tied) == 1:
        return "balcony"
    most = max(s.hand for s in tied)
    return "hand" if sum(s.hand == most for s in tied) == 1 else "shared"
