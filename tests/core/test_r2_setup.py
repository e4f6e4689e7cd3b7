"""R2 Setup: removing Flock cards, shuffling, the City's first pigeons, hands, first player, the seed."""

from __future__ import annotations

import pytest

from core.bots.random import RandomBot
from core.cards import ACTION_IDS, CITY, FLOCK_IDS
from core.decisions import DecisionKind
from core.events import Event, EventKind
from core.rules import apply
from core.setup import new_game
from core.state import GameState
from core.views import view
from tests.core.scenario import FAT, all_strings, build, of_kind


@pytest.mark.parametrize(("players", "removed"), [(2, 16), (3, 16), (4, 12), (5, 6), (6, 0)])
def test_r2_1_flock_cards_removed_by_player_count(players: int, removed: int) -> None:
    """R2.1: 2-3 players remove 16 Flock cards, 4 remove 12, 5 remove 6, 6 remove none."""
    state = new_game(players, seed=5)
    assert len(state.removed) == removed
    assert set(state.removed) <= set(FLOCK_IDS)
    assert len(state.flock) == 40 - removed - 4


def test_r2_1_removed_cards_depend_on_the_seed_and_stay_hidden() -> None:
    """R2.1: the removed cards are taken from the shuffled deck, unseen by everyone."""
    a, b = new_game(3, seed=1), new_game(3, seed=2)
    assert set(a.removed) != set(b.removed)
    for seat in (None, 0, 1, 2):
        seen = all_strings(view(a, seat).to_dict())
        assert not seen & set(a.removed)
        assert view(a, seat).removed_count == 16


@pytest.mark.parametrize("players", [2, 4, 6])
def test_r2_1_a_saved_game_with_another_number_of_removed_cards_is_refused(players: int) -> None:
    """R2.1: no card enters or leaves the removed cards after setup, so `from_dict` refuses a
    state with one more or one fewer than setup removes for its player count, saying so."""
    saved = new_game(players, seed=3).to_dict()
    assert GameState.from_dict(saved).removed == saved["removed"]
    for delta in (1, -1):
        d = new_game(players, seed=3).to_dict()
        if delta > 0:
            d["removed"].append(d["flock"].pop())
        elif d["removed"]:
            d["flock"].insert(0, d["removed"].pop())
        else:
            continue  # 6 players remove none: nothing to take back
        with pytest.raises(ValueError, match=r"Flock cards removed: with \d players setup removes \d+"):
            GameState.from_dict(d)


def test_r2_2_action_deck_is_shuffled() -> None:
    """R2.2: the Action deck is shuffled: it is not in id order, and two seeds differ."""
    a, b = new_game(4, seed=1), new_game(4, seed=2)
    for state in (a, b):
        dealt = state.deck + [c for h in state.hands for c in h]
        assert sorted(dealt) == list(ACTION_IDS)
        assert state.deck != sorted(state.deck)
    assert a.deck != b.deck


def test_r2_3_one_flock_card_at_each_city_location() -> None:
    """R2.3: one Flock card face up at each City Location; the Balconies start empty."""
    for players in range(2, 7):
        state = new_game(players, seed=players)
        assert [len(state.pigeons[z]) for z in range(4)] == [1, 1, 1, 1]
        assert all(not ps for ps in state.pigeons[4:])
        assert all(not gs for gs in state.guano)
        assert not state.air


def test_r2_3_city_pigeons_ignore_entry_rules_and_trigger_nothing() -> None:
    """R2.3: setup ignores entry rules (e.g. an Infamous Pigeon on a City Location) and triggers
    nothing: the first open decision is the first player's action."""
    ignored = triggers = 0
    for seed in range(200):
        state = new_game(3, seed=seed)
        assert [(d.player, d.kind) for d in state.open] == [(state.first, DecisionKind.ACTION)]
        for z in range(4):
            card = state.pigeons[z][0]
            row = state.book[card]
            if not any(CITY[z] in tier for tier in row.entry):
                ignored += 1
            if row.rule in ("lady", "infamous"):
                triggers += 1
        assert state.book[state.pigeons[2][0]].rule != "lame"
    assert ignored > 0
    assert triggers > 0


def test_r2_4_each_player_draws_three_action_cards() -> None:
    """R2.4: each player starts with 3 Action cards."""
    for players in range(2, 7):
        state = new_game(players, seed=9)
        assert [len(h) for h in state.hands] == [3] * players
        assert len(state.deck) == 55 - 3 * players


def test_r2_4_host_chooses_the_first_player() -> None:
    """R2.4: the host may choose the first player."""
    state = new_game(4, seed=3, first_player=2)
    assert state.first == 2
    assert state.active == 2
    assert [d.player for d in state.open] == [2]
    with pytest.raises(ValueError):
        new_game(4, seed=3, first_player=4)


def test_r2_4_first_player_is_random_by_default_and_seeded() -> None:
    """R2.4: by default the first player is drawn from the seed."""
    firsts = {new_game(4, seed=s).first for s in range(40)}
    assert len(firsts) > 1
    assert all(new_game(4, seed=s).first == new_game(4, seed=s).first for s in range(10))


def test_r2_4_play_goes_clockwise_in_seat_order() -> None:
    """R2.4: after seat 2 of 3, seat 0 plays."""
    events: list[Event] = []
    state = build(3, active=2, actions_left=0, flock=[FAT[0], FAT[1]], turn=7, events=events)
    assert state.active == 0
    assert state.turn == 8
    assert [(e.player, e.turn) for e in of_kind(events, EventKind.TURN)] == [(0, 8)]
    assert [d.player for d in state.open] == [0]


def _play_out(state: GameState, steps: int) -> list[dict[str, object]]:
    bots = [RandomBot(7 + s) for s in range(state.players)]
    out = []
    for _ in range(steps):
        if state.over:
            break
        d = state.open[0]
        apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))
        out.append(state.to_dict())
    return out


def test_r2_5_same_seed_and_choices_give_the_same_game() -> None:
    """R2.5: the same seed and the same choices give the same game, bit for bit."""
    a, b = new_game(4, seed=42), new_game(4, seed=42)
    assert a.to_dict() == b.to_dict()
    assert _play_out(a, 150) == _play_out(b, 150)


def test_r2_5_randomness_lives_in_the_state() -> None:
    """R2.5: the generator is part of the state: a copy replays a reshuffle identically."""
    state = build(deck=[], hands=[[], [], []])
    twin = GameState.from_dict(state.to_dict())
    for s in (state, twin):
        apply(s, 0, s.open[0].id, "draw")
    assert state.to_dict() == twin.to_dict()
    assert state.rng != build(deck=[], hands=[[], [], []]).rng


def test_r2_5_different_seeds_give_different_games() -> None:
    """R2.5: the seed matters."""
    assert new_game(4, seed=1).to_dict() != new_game(4, seed=2).to_dict()
