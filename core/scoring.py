"""R7: final scores, their breakdown, and the tie-breaks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.cards import ACTIONS, BALCONY0, ActionKind

if TYPE_CHECKING:  # a client scores views (core.views) without loading the state (issue 9)
    from core.state import GameState


@dataclass(frozen=True, slots=True)
class Score:
    """R7.1: one seat's final score and its parts."""

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

    @property
    def balcony_penalty(self) -> int:
        """R7.1: VP the Balcony costs: 1 per pigeon, 1 per Guano, 2 per Mountain of Guano."""
        return self.balcony_pigeons + self.balcony_guano + 2 * self.balcony_mountains


def trophy_kind(cards: Sequence[str], vp: int) -> str:
    """'pigeon', 'guano', 'mountain', or 'sweep' (3.0 Sweeper: its cards make one 1-VP
    trophy). A trophy taken face down shows no cards and is a pigeon (R4.6)."""
    if not cards or cards[0][0] == "F":
        return "pigeon"
    if len(cards) > 1 or (vp == 1 and ACTIONS[cards[0]].kind is ActionKind.MOUNTAIN):
        return "sweep"
    return "mountain" if vp == 2 else "guano"


def tally(
    seat: int, trophies: Iterable[tuple[Sequence[str], int]], pigeons: int, guano: Iterable[str], hand: int
) -> Score:
    """R7.1: +1 per pigeon trophy, +1 per Guano trophy, +2 per Mountain trophy; -1 per pigeon,
    -1 per Guano and -2 per Mountain still on the Balcony. Trophies are (cards, vp)."""
    kinds: list[str] = []
    vp = 0
    for cards, value in trophies:
        kinds.append(trophy_kind(cards, value))
        vp += value
    on = [ACTIONS[c].kind for c in guano]
    g = on.count(ActionKind.GUANO)
    m = on.count(ActionKind.MOUNTAIN)
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
        hand=hand,
    )


def score(state: GameState, seat: int) -> Score:
    home = BALCONY0 + seat
    trophies = ((() if t.hidden else t.cards, t.vp) for t in state.trophies[seat])
    return tally(seat, trophies, len(state.pigeons[home]), state.guano[home], len(state.hands[seat]))


def scores(state: GameState) -> list[Score]:
    return [score(state, s) for s in range(state.players)]


def ranking_key(s: Score) -> tuple[int, int, int]:
    """R7.2: higher score, then fewer pigeons on the Balcony, then more cards in hand."""
    return (s.total, -s.balcony_pigeons, s.hand)


def winners(state: GameState) -> list[int]:
    """The seats that share the win (R7.2: ties that survive both tie-breaks share it)."""
    return best(scores(state))


def best(all_: Sequence[Score]) -> list[int]:
    top = max(ranking_key(s) for s in all_)
    return [s.seat for s in all_ if ranking_key(s) == top]


def tie_break(all_: Sequence[Score]) -> str:
    """Which rule of R7.2 decided the winner: 'score', 'balcony', 'hand' or 'shared'."""
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
