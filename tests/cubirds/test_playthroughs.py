"""Seeded random CuBirds games checking the invariants after every decision (C1.1, C3.4, C4.2, C5, C6.1).

CI plays GAMES games (about a fifth of a second each on one core, views of every seat checked at
every decision); `python bench/cubirds.py --playthrough 2000` plays the full 2,000 with the same
checks (tests.cubirds.games.invariants) and prints the time."""

from __future__ import annotations

import pytest

from tests.cubirds.games import configs, invariants

GAMES = 400
CHUNK = 50


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_c1_1_c3_4_c4_2_c6_1_invariants_hold_after_every_decision(first: int) -> None:
    """C1.1, C3.4, C4.2, C5, C6.1: over random games of 2-5 players, after every
    decision: all 110 cards in exactly one place (rows, hands, collections, draw pile,
    discard), every row holding two species or more (unless no card is left to draw, C3.5),
    collections never shrinking, one
    decision open until the game is over, and no seat's view (nor a spectator's) holding
    another hand's card or any card of the draw pile. Every game ends (C5)."""
    for seed, players in configs(CHUNK, first):
        invariants(seed, players)
