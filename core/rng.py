"""The game's one seeded random generator (R2.5): a 64-bit state that clones for free."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

_MASK: Final = (1 << 64) - 1
_T = TypeVar("_T")


def seed_state(seed: int) -> int:
    """A generator state from any integer seed (splitmix64 of the seed, never 0)."""
    return _mix((seed * 0x9E3779B97F4A7C15) & _MASK) or 1


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def next_state(s: int) -> tuple[int, int]:
    """One step of xorshift64*: returns (new state, 64-bit output)."""
    s ^= s >> 12
    s ^= (s << 25) & _MASK
    s ^= s >> 27
    return s, (s * 0x2545F4914F6CDD1D) & _MASK


def below(s: int, n: int) -> tuple[int, int]:
    """Returns (new state, a uniform integer in [0, n)) by rejection, so no modulo bias."""
    limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - ((1 << 64) % n)
    while True:
        # next_state, inlined: this runs for every card shuffled and every random bot choice
        s ^= s >> 12
        s ^= (s << 25) & _MASK
        s ^= s >> 27
        out = (s * 0x2545F4914F6CDD1D) & _MASK
        if out < limit:
            return s, out % n


_LIMITS: Final = (0, *((1 << 64) - (1 << 64) % n for n in range(1, 128)))
"""The rejection bound of `below` for small n."""


def shuffle(s: int, items: MutableSequence[_T]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new state. The same draws as
    `below(s, i + 1)` for each i from the end, written out: games shuffle often (the decks at
    every setup), and each draw is a dozen operations on 64-bit ints."""
    n = len(items)
    if n >= len(_LIMITS):
        return _shuffle_long(s, items)
    mask = _MASK
    # Each i with its rejection bound, from one zip; (s << 25) & mask as (s & low) << 25, which
    # shifts a 39-bit number rather than masking an 89-bit one
    low = _MASK >> 25
    for i, limit in zip(range(n - 1, 0, -1), _LIMITS[n:1:-1], strict=True):
        s ^= s >> 12
        s ^= (s & low) << 25
        s ^= s >> 27
        out = (s * 0x2545F4914F6CDD1D) & mask
        while out >= limit:  # rejected: almost never (limit is within i + 1 of 2**64)
            s ^= s >> 12
            s ^= (s & low) << 25
            s ^= s >> 27
            out = (s * 0x2545F4914F6CDD1D) & mask
        j = out % (i + 1)
        items[i], items[j] = items[j], items[i]
    return s


def _shuffle_long(s: int, items: MutableSequence[_T]) -> int:
    """`shuffle` of a list longer than `_LIMITS` reaches (no deck of the games is)."""
    for i in range(len(items) - 1, 0, -1):
        s, j = below(s, i + 1)
        items[i], items[j] = items[j], items[i]
    return s
