"""R8: views hold what their seat may know and nothing else."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from core.bots.random import RandomBot
from core.rules import apply
from core.setup import new_game
from core.views import PlayerView, glance, view
from tests.core.games import configs, hidden_from, ids_in, play
from tests.core.scenario import FAT, STUPID, build, choose


def test_r8_1_view_shows_own_hand_and_counts_of_others() -> None:
    """R8.1, R8.2: a seat sees its own hand, the sizes of the others, deck counts, not orders."""
    state = new_game(4, 5)
    v = view(state, 2)
    assert v.hand == tuple(state.hands[2])
    assert v.hand_sizes == (3, 3, 3, 3)
    assert v.flock_count == len(state.flock) and v.deck_count == len(state.deck)
    assert v.removed_count == 12
    assert not ids_in(v.to_dict()) & hidden_from(state, 2)


def test_r8_1_spectator_sees_no_hand_and_no_decision() -> None:
    """R8.1: the spectator's view holds no hand and no one's decision."""
    state = new_game(3, 8)
    v = view(state, None)
    assert v.hand == () and v.decisions == ()
    assert not ids_in(v.to_dict()) & hidden_from(state, None)


def test_r5_7_view_holds_only_the_seats_own_decisions() -> None:
    """R5.7: a view never shows whom the game waits on: only the seat's own decisions."""
    for seed, players, edition in configs(20, 70):
        for state, _ in play(seed, players, edition):
            for seat in range(players):
                mine = [d.id for d in state.open if d.player == seat]
                assert [d.id for d in view(state, seat).decisions] == mine


def test_r8_2_view_round_trips_through_plain_data() -> None:
    """R8.2: the public parts survive the wire form exactly."""
    for seed, players, edition in configs(10, 120):
        for state, choices in play(seed, players, edition):
            if len(choices) % 17 == 0:
                for seat in (0, None):
                    v = view(state, seat)
                    assert PlayerView.from_dict(v.to_dict()) == v
                    assert [s.total for s in v.scores()] == [s.total for s in __import__("core").scores(state)]


def test_r8_1_view_scores_match_the_state() -> None:
    """R7.1 through R8: the score a view computes is the state's score."""
    state = new_game(2, 1)
    d = state.open[0]
    apply(state, d.player, d.id, "draw")
    from core.scoring import scores

    assert view(state, 0).scores() == scores(state)


def test_r1_4_view_counts_the_spaces_of_a_zone_a_fat_pigeon_two() -> None:
    """R1.4, R1.2: a view says how many spaces a Zone's pigeons take (a Fat Pigeon two) and how
    many the Zone holds (4 on the Statue and the Cables; no limit elsewhere), so a client need
    not know the sizes or the limits."""
    state = build(zones={"statue": [FAT[0], STUPID[0]], "b1": [FAT[1]]})
    v = view(state, 0)
    assert (v.spaces("statue"), v.capacity("statue")) == (3, 4)
    assert (v.spaces("cables"), v.capacity("cables")) == (0, 4)
    assert (v.spaces("b1"), v.capacity("b1")) == (2, None)
    assert v.capacity("road") is None and v.capacity("crowd") is None


def test_r3_1_view_says_which_of_the_two_actions_is_being_taken() -> None:
    """R3.1: two actions a turn; the view numbers the one under way and has none during the
    Invasion (R3.5)."""
    state = build(flock=[STUPID[0]])
    assert view(state, 1).action() == 1
    choose(state, 0, "draw")
    assert view(state, 1).action() == 2
    choose(state, 0, "draw")
    assert state.actions_left == 0 and view(state, 1).action() is None


def test_r8_glance_is_the_view_of_the_state_it_was_taken_of() -> None:
    """R8: a glance (a view built when first read) shows what `view` showed when it was taken,
    whether it is read at once, read after the state moved on (apply builds it first), or
    pickled unread; a glance dropped unread is simply gone."""
    for seed, players, edition in configs(6, 300):
        state = new_game(players, seed, edition)
        bots = [RandomBot(seed + s) for s in range(players)]
        while not state.over:
            d = state.open[0]
            now = view(state, d.player)
            read_now, read_later, spectator = glance(state, d.player), glance(state, d.player), glance(state, None)
            glance(state, d.player)  # dropped unread
            assert read_now.to_dict() == now.to_dict() and read_now == now
            assert pickle.loads(pickle.dumps(spectator)) == view(state, None)
            apply(state, d.player, d.id, bots[d.player].choose(read_now, d))
            assert type(read_later) is PlayerView and read_later == now
            assert state.unread is None


def test_r8_glance_is_frozen_and_compares_unread() -> None:
    """R8: an unread glance is as frozen as a view, and equal to one of the same state."""
    state = new_game(3, 4)
    a, b = glance(state, 1), glance(state, 1)
    assert a == b and a == view(state, 1) and view(state, 1) == glance(state, 1)
    assert hash(glance(state, 2).house) == hash(view(state, 2).house)
    with pytest.raises(FrozenInstanceError):
        glance(state, 0).seat = 2  # type: ignore[misc]
    assert repr(glance(state, 0)) == repr(view(state, 0))
