"""Seeded random games for whole-game tests: one driver, one hidden-card scan."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from core.decisions import Decision, OptionValue
from core.house import BOOK, HouseRules, InfamousEmpty
from core.rng import below, seed_state
from core.rules import apply
from core.setup import new_game
from core.state import GameState
from tests.hidden import hidden_ids_in

CARD_ID = re.compile(r"\b[FA]\d\d\b")
MAX_DECISIONS = 20_000
"""No game of random bots comes near this; reaching it means the game does not end."""


def configs(count: int, first: int = 0) -> Iterator[tuple[int, int, str]]:
    """(seed, players, edition) spread over 2-6 players and both editions."""
    for g in range(first, first + count):
        yield g, 2 + g % 5, ("3.5", "3.0")[(g // 5) % 2]


def house_of(seed: int) -> HouseRules:
    """The house rules a seed of `play` is played under: the seeds split between both settings
    of infamous_empty (R4.6), so whole-game tests cover both at no extra cost."""
    return HouseRules(InfamousEmpty.TROPHY) if (seed // 20) % 2 == 1 else BOOK


def random_choice(rng: int, state: GameState) -> tuple[int, Decision, OptionValue]:
    """Any open decision, any of its options (stepping back included)."""
    rng, i = below(rng, len(state.open))
    decision = state.open[i]
    rng, j = below(rng, len(decision.options))
    return rng, decision, decision.options[j].value


def play(seed: int, players: int, edition: str) -> Iterator[tuple[GameState, list[tuple[int, int, OptionValue]]]]:
    """Yield the state after setup and after every decision, with the choices so far.
    Every other ten seeds play with blind reaction windows (R5.7), as a table of humans does;
    every other twenty under the house rule infamous_empty=trophy (R4.6, `house_of`)."""
    state = new_game(players, seed, edition, blind_windows=(seed // 10) % 2 == 1, house=house_of(seed))
    rng = seed_state(seed + 99)
    choices: list[tuple[int, int, OptionValue]] = []
    yield state, choices
    while not state.over:
        assert len(choices) < MAX_DECISIONS, "the game did not end"
        rng, decision, value = random_choice(rng, state)
        apply(state, decision.player, decision.id, value)
        choices.append((decision.player, decision.id, value))
        yield state, choices


def ids_in(data: Any) -> set[str]:
    """Every card id anywhere in plain data (keys, values, labels and prompts included)."""
    return set(CARD_ID.findall(json.dumps(data)))


def leaks(data: Any, hidden: set[str]) -> set[str]:
    """The hidden card ids that appear anywhere in plain data. Faster than `ids_in(data) & hidden`
    and at least as strict: without word boundaries it may only find more."""
    return hidden_ids_in(data, hidden, _LOOSE_ID)


_LOOSE_ID = re.compile(r"[FA]\d\d")


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """R8.1: what `seat` may not see: other hands, both decks, removed cards, blind trophies."""
    out = set(state.flock) | set(state.deck) | set(state.removed)
    for s, hand in enumerate(state.hands):
        if s != seat:
            out.update(hand)
    for trophies in state.trophies:
        for t in trophies:
            if t.hidden:
                out.update(t.cards)
    return out


def hidden_by_seat(state: GameState) -> list[tuple[int | None, set[str]]]:
    """`hidden_from(state, seat)` for every seat and the spectator (None), the shared part built
    once. Each card is in one place (`core.state.check` first), so a seat's own hand is all that
    the spectator may not see and it may."""
    everyone = hidden_from(state, None)
    return [*((seat, everyone - set(hand)) for seat, hand in enumerate(state.hands)), (None, everyone)]
