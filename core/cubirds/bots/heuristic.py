"""What the CuBirds bots know of the game: how far a collection is from winning (C5.1), what a
hand is worth toward it, the best lay and flock by one ply of that, and a fast policy that
plays whole turns on a state (for playouts).

Species are indices 0..7 here (the order of SPECIES_ORDER) and hands and collections are
counts per species, so that a playout's thousands of turns stay cheap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from core.cubirds.cards import CARD_IDS, DRAW, ROWS, SPECIES, SPECIES_OF, SPECIES_ORDER, WIN_PAIRS, WIN_SPECIES
from core.cubirds.state import GameState
from core.cubirds.turn import Events, draw_cards, end_turn, fly, lay
from core.decisions import DecisionKind

N: Final = len(SPECIES_ORDER)
INDEX: Final = {card: SPECIES_ORDER.index(SPECIES_OF[card]) for card in CARD_IDS}
"""Card id -> species index."""
INDEX_OF: Final = {s: i for i, s in enumerate(SPECIES_ORDER)}
"""Species id -> species index."""
SMALL: Final = tuple(SPECIES[s].small for s in SPECIES_ORDER)
BIG: Final = tuple(SPECIES[s].big for s in SPECIES_ORDER)
COUNT: Final = tuple(SPECIES[s].count for s in SPECIES_ORDER)
SIDES: Final = ("left", "right")
_PAIRS, _EACH = WIN_PAIRS

READY_WEIGHT: Final = 0.55
"""Share of a flock's gain counted while it is still in hand (it may be discarded, C5.2)."""
CARD_WEIGHT: Final = 0.04
"""Value of any card in hand: more cards, more flocks later and more choice."""
DRAWN_WEIGHT: Final = 1.5 * CARD_WEIGHT
"""Value of a card drawn blind (C3.3): a little more than a card of a known species."""


def counts(cards: Sequence[str]) -> list[int]:
    out = [0] * N
    for c in cards:
        out[INDEX[c]] += 1
    return out


def need(col: Sequence[int]) -> int:
    """C5.1: collection cards still missing for the nearer of the two ways to win."""
    distinct = 0
    a = b = 0
    for k in col:
        if k:
            distinct += 1
            if k > a:
                a, b = k, a
            elif k > b:
                b = k
    pairs = (_EACH - a if a < _EACH else 0) + (_EACH - b if b < _EACH else 0)
    return min(WIN_SPECIES - distinct, pairs)


class Gains:
    """For one collection: what it lacks, and how much nearer 1 or 2 more birds of each
    species bring it (C5.1)."""

    __slots__ = ("need", "one", "two", "worth")

    def __init__(self, col: Sequence[int]) -> None:
        base = need(col)
        work = list(col)
        one = []
        two = []
        for s in range(N):
            work[s] += 1
            one.append(base - need(work))
            work[s] += 1
            two.append(base - need(work))
            work[s] -= 2
        self.need = base
        self.one: list[int] = one
        self.two: list[int] = two
        self.worth: tuple[tuple[float, ...], ...] = tuple(
            tuple(_worth(s, k, one[s], two[s]) for k in range(COUNT[s] + 1)) for s in range(N)
        )
        """Species -> cards of it in hand -> what they promise (hand_value's terms, looked up:
        a playout values thousands of hands against the same few collections)."""

    def of(self, species: int, keep: int) -> int:
        return self.two[species] if keep == 2 else self.one[species] if keep == 1 else 0


@lru_cache(maxsize=8192)
def gains_of(col: tuple[int, ...]) -> Gains:
    """The Gains of a collection, shared: collections change once a turn at most, and the
    same few recur in every playout."""
    return Gains(col)


def keep_of(species: int, k: int) -> int:
    """C4.1: birds a flock of k puts in the collection (0: it cannot fly)."""
    return 2 if k >= BIG[species] else 1 if k >= SMALL[species] else 0


def hand_value(hand: Sequence[int], g: Gains) -> float:
    """The hand's promise toward winning: each species' flock gain, discounted by how far the
    hand is from flying it."""
    return sum(map(_at, g.worth, hand))


_at: Final = tuple.__getitem__


def _worth(s: int, k: int, one: int, two: int) -> float:
    if not k:
        return 0.0
    value = CARD_WEIGHT * k
    small = SMALL[s]
    if k >= small:
        value += READY_WEIGHT * (two if k >= BIG[s] else one)
    elif one:
        frac = k / small
        value += READY_WEIGHT * one * frac * frac
    return value


def evaluate(hand: Sequence[int], col: Sequence[int]) -> float:
    """A seat's standing: minus what it lacks to win, plus what its hand promises."""
    g = gains_of(tuple(col))
    return -g.need + hand_value(hand, g)


def position(state: GameState, seat: int) -> float:
    return evaluate(counts(state.hands[seat]), counts(state.collections[seat]))


def best_fly(hand: Sequence[int], g: Gains) -> tuple[int, int]:
    """(species, gain) of the flock that brings the collection nearest to winning; a bigger
    flock breaks ties, then the more common species. (-1, 0) if no flock gains anything."""
    best, best_gain, best_keep = -1, 0, 0
    one, two = g.one, g.two
    for s in _SPECIES_BY_COUNT:
        k = hand[s]
        if k < SMALL[s]:
            continue
        if k >= BIG[s]:
            keep, gain = 2, two[s]
        else:
            keep, gain = 1, one[s]
        if gain > best_gain or (gain == best_gain and gain > 0 and keep > best_keep):
            best, best_gain, best_keep = s, gain, keep
    return best, best_gain


_SPECIES_BY_COUNT: Final = tuple(sorted(range(N), key=lambda s: -COUNT[s]))
"""Species, most common first: the first of equal flocks is the most common (best_fly)."""


class Judge:
    """One ply of lays for one seat's hand and collection, caching what a flock would change."""

    __slots__ = ("_after_fly", "col", "gains", "hand")

    def __init__(self, hand: Sequence[int], col: Sequence[int]) -> None:
        self.hand = hand
        self.col = col
        self.gains = gains_of(tuple(col))
        self._after_fly: dict[tuple[int, int], Gains] = {}

    def lay_value(self, species: int, taken: Sequence[int] | None) -> float:
        """The standing after laying `species` and taking `taken`, with the best flock flown at
        once (C4.1 comes in the same turn) and, if nothing was taken, two cards drawn (C3.3)."""
        after = list(self.hand) if taken is None else [a + t for a, t in zip(self.hand, taken, strict=True)]
        after[species] = 0
        g = self.gains
        fly_s, gain = best_fly(after, g)
        if gain:
            keep = keep_of(fly_s, after[fly_s])
            key = (fly_s, keep)
            g2 = self._after_fly.get(key)
            if g2 is None:
                col = list(self.col)
                col[fly_s] += keep
                g2 = self._after_fly[key] = gains_of(tuple(col))
            after[fly_s] = 0
            g = g2
        value = -g.need + hand_value(after, g)
        if taken is None:
            value += DRAW * DRAWN_WEIGHT
        return value


def captures(row: Sequence[str], side: int) -> dict[int, list[int]]:
    """C3.2 for one end of a row: species index -> counts of what laying it there takes, for the
    species whose nearest bird is not at that end (others take nothing). Shared between
    callers (do not change it): a playout asks again for the rows no turn changed, which are
    most of them."""
    key = tuple(row)
    both = _CAUGHT.get(key)
    if both is None:
        if len(_CAUGHT) >= _CAUGHT_MAX:
            _CAUGHT.clear()
        seq = [INDEX[c] for c in row]
        both = _CAUGHT[key] = (_captures(seq), _captures(seq[::-1]))
    return both[side]


def _captures(seq: list[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    taken = [0] * N
    for i, s in enumerate(seq):
        if s not in out:
            out[s] = taken[:] if i else []
        taken[s] += 1
    return {s: t for s, t in out.items() if t}


_CAUGHT: Final[dict[tuple[str, ...], tuple[dict[int, list[int]], dict[int, list[int]]]]] = {}
"""Row -> captures at its (left, right) end: a function of the row alone, so no seat's secret."""
_CAUGHT_MAX: Final = 1 << 16


def best_lay(
    hand: Sequence[int],
    col: Sequence[int],
    rows: Sequence[Sequence[str]],
    species: int | None = None,
    row: int | None = None,
) -> tuple[int, int, int]:
    """The lay with the best one-ply value as (species, row, side 0 left / 1 right), among
    those with the given species and row if any. The first best in (row, side, species) order
    breaks ties, so the same position always gives the same move."""
    judge = Judge(hand, col)
    plain: dict[int, float] = {}
    best, best_value = (-1, -1, -1), float("-inf")
    held = [s for s in range(N) if hand[s] and (species is None or s == species)]
    for r in range(ROWS):
        if row is not None and r != row:
            continue
        for side in (0, 1):
            caught = captures(rows[r], side)
            for s in held:
                taken = caught.get(s)
                if taken is None:
                    v = plain.get(s)
                    if v is None:
                        v = plain[s] = judge.lay_value(s, None)
                else:
                    v = judge.lay_value(s, taken)
                if v > best_value:
                    best, best_value = (s, r, side), v
    return best


class Policy:
    """Fast whole turns for playouts: the best lay by one ply (now and then a random one),
    always the draw, the best flock. Plays on the state directly, without decisions."""

    def __init__(self, rng: random.Random, explore: float = 0.1) -> None:
        self.rng = rng
        self.explore = explore

    def lay(self, state: GameState) -> tuple[str, int, str]:
        """The lay for the active player, keeping to a species and row already chosen."""
        seat = state.active
        hand = counts(state.hands[seat])
        species = INDEX_OF[state.laying] if state.laying is not None else None
        row = state.row
        if self.explore and self.rng.random() < self.explore:
            s = species if species is not None else self.rng.choice([i for i in range(N) if hand[i]])
            r = row if row is not None else self.rng.randrange(ROWS)
            return SPECIES_ORDER[s], r, SIDES[self.rng.randrange(2)]
        s, r, side = best_lay(hand, counts(state.collections[seat]), state.rows, species, row)
        return SPECIES_ORDER[s], r, SIDES[side]

    def fly(self, state: GameState) -> str | None:
        seat = state.active
        s, _ = best_fly(counts(state.hands[seat]), gains_of(tuple(counts(state.collections[seat]))))
        return SPECIES_ORDER[s] if s >= 0 else None

    def finish_turn(self, state: GameState, ev: Events) -> None:
        """Play the rest of the active player's turn from its current step, to the next turn."""
        seat = state.active
        step = state.step
        if step is DecisionKind.DRAW_TWO:
            draw_cards(state, seat, DRAW, ev)
        elif step is not DecisionKind.FLY:
            species, row, side = self.lay(state)
            if not lay(state, seat, species, row, side, ev):
                draw_cards(state, seat, DRAW, ev)
        flock = self.fly(state)
        if flock is not None:
            fly(state, seat, flock, ev)
        end_turn(state, ev)
