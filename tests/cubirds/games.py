"""Seeded random CuBirds games for whole-game tests: one driver, one hidden-card scan."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from core.cubirds import GameState, apply, new_game
from core.decisions import OptionValue
from core.rng import below, seed_state
from tests.hidden import hidden_ids_in

CARD_ID = re.compile(r"[A-Z][A-Z]\d\d")
"""A CuBirds card id ("FL01".."RO20"), wherever it appears in plain data."""
MAX_DECISIONS = 20_000
"""Far beyond the 1,000-turn stop (C5.4) at 5 decisions a turn at most... with back-steps;
reaching it means the game does not end."""

Choice = tuple[int, int, OptionValue]


def configs(count: int, first: int = 0) -> Iterator[tuple[int, int]]:
    """(seed, players) spread over 2-5 players."""
    for g in range(first, first + count):
        yield g, 2 + g % 4


def play(seed: int, players: int) -> Iterator[tuple[GameState, list[Choice]]]:
    """Yield the state after setup and after every decision, with the choices so far. Choices
    are uniform over the offered options, stepping back included."""
    state = new_game(players, seed)
    rng = seed_state(seed + 99)
    choices: list[Choice] = []
    yield state, choices
    while not state.over:
        assert len(choices) < MAX_DECISIONS, "the game did not end"
        decision = state.open[0]
        rng, j = below(rng, len(decision.options))
        value = decision.options[j].value
        apply(state, decision.player, decision.id, value)
        choices.append((decision.player, decision.id, value))
        yield state, choices


def leaks(data: Any, hidden: set[str]) -> set[str]:
    """The hidden card ids that appear anywhere in plain data (keys, labels and prompts too)."""
    return hidden_ids_in(data, hidden, CARD_ID)


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """C6.1: what `seat` may not see: the other hands and the draw pile."""
    out = set(state.draw)
    for s, hand in enumerate(state.hands):
        if s != seat:
            out.update(hand)
    return out


def invariants(seed: int, players: int) -> int:
    """Play one random game, checking after every decision what test_playthroughs promises.
    Returns the number of decisions. Raises AssertionError (or ValueError from check) on a
    broken invariant."""
    from core.cubirds import view
    from core.cubirds.cards import SPECIES_OF
    from core.cubirds.state import check

    sizes = [0] * players
    decisions = 0
    state: GameState | None = None
    for state, choices in play(seed, players):
        check(state)
        for r in state.rows:
            assert state.over or len({SPECIES_OF[c] for c in r}) >= 2 or not (state.draw or state.discard), (
                f"a row of one species with cards left to draw (seed {seed}, decision {len(choices)})"
            )
        now = [len(c) for c in state.collections]
        assert all(a >= b for a, b in zip(now, sizes, strict=True)), "a collection lost a card (C4.2)"
        sizes = now
        for seat in [*range(players), None]:
            leaked = leaks(view(state, seat).to_dict(), hidden_from(state, seat))
            assert not leaked, f"seat {seat} sees {sorted(leaked)} (seed {seed}, decision {len(choices)})"
        decisions = len(choices)
    assert state is not None and state.over and state.turn <= 1000 and decisions > 0
    return decisions
