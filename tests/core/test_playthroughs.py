"""Seeded random games checking the invariants after every decision (R1.1, R1.2, R8, R6)."""

from __future__ import annotations

import pytest

from core.house import InfamousEmpty
from core.state import check
from core.views import view
from tests.core.games import configs, hidden_by_seat, house_of, leaks, play

GAMES = 2000
CHUNK = 100


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_r1_1_r1_2_r8_1_invariants_hold_after_every_decision(first: int) -> None:
    """R1.1, R1.2, R8.1, R6, R4.6: over 2,000 random games across 2-6 players, both editions
    and both settings of the house rule infamous_empty (the seeds split between them), after
    every decision: all 95 cards in exactly one place, Statue and Cables within 4 spaces, no
    Lame on the Cables (core.state.check), a decision open until the game is over, no seat's
    view (nor a spectator's) holding a card id it may not see, and under infamous_empty=trophy
    a final phase never called off (R6.2) nor a card back in an emptied Flock deck."""
    for seed, players, edition in configs(CHUNK, first):
        decisions = 0
        trophy = house_of(seed).infamous_empty is InfamousEmpty.TROPHY
        final = False
        for state, choices in play(seed, players, edition):
            check(state)
            assert bool(state.open) != state.over
            assert state.house == house_of(seed)
            if trophy and final:
                assert state.final_left is not None and not state.flock, f"seed {seed}: the final phase resumed"
            final = final or state.final_left is not None
            for seat, hidden in hidden_by_seat(state):
                leaked = leaks(view(state, seat).to_dict(), hidden)
                assert not leaked, f"seat {seat} sees {sorted(leaked)} (seed {seed}, decision {len(choices)})"
            decisions = len(choices)
        assert state.over and decisions > 0


def test_r6_every_game_ends_with_winners() -> None:
    """R6.1, R7.2: every game ends, and someone wins (a tie shares the win)."""
    from core.scoring import winners

    for seed, players, edition in configs(50, 5000):
        *_, (state, _) = play(seed, players, edition)
        assert state.over and state.turn < 1000
        assert winners(state)
