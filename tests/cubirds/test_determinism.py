"""C2.1: one seed and the choices rebuild a game exactly; records replay."""

from __future__ import annotations

import json

import pytest

from core.cubirds import GameState, Record
from core.decisions import IllegalChoice
from core.games import record_from_dict
from tests.cubirds.games import play


@pytest.mark.parametrize(("seed", "players"), [(21, 2), (22, 3), (23, 4), (24, 5)])
def test_c2_1_same_seed_same_choices_same_game(seed: int, players: int) -> None:
    """C2.1: two runs of the same seed and choices agree at every decision."""
    a = [s.to_dict() for s, _ in play(seed, players)]
    b = [s.to_dict() for s, _ in play(seed, players)]
    assert a == b and len(a) > 50


def test_c2_1_a_record_replays_to_the_identical_state() -> None:
    """C2.1: a record (seed and choices) replays to the same final state, through its plain form
    and the game registry (core.games) too."""
    *_, (state, choices) = play(31, 4)
    record = Record(4, 31, choices=list(choices))
    assert record.replay().to_dict() == state.to_dict()
    d = json.loads(json.dumps(record.to_dict()))
    assert d["game"] == "cubirds" and set(d) == {"game", "rules", "seed", "players", "first_player", "choices"}
    again = record_from_dict(d)
    assert isinstance(again, Record) and again.replay().to_dict() == state.to_dict()


def test_a_record_that_does_not_fit_is_an_error() -> None:
    """A choice the replayed game does not offer stops the replay with IllegalChoice; a corrupt
    record dict is a ValueError."""
    *_, (_, choices) = play(32, 2)
    bad = list(choices)
    bad[5] = (bad[5][0], bad[5][1], "dodo")
    with pytest.raises(IllegalChoice):
        Record(2, 32, choices=bad).replay()
    with pytest.raises(ValueError, match="corrupt record"):
        Record.from_dict({"game": "cubirds", "players": 2})
    with pytest.raises(ValueError, match="not a cubirds record"):
        Record.from_dict({"rules": "pigeons-and-guano"})


def test_first_player_chosen_by_the_host_replays() -> None:
    record = Record(3, 8, first_player=2)
    state = record.start()
    assert state.active == 2 and isinstance(state, GameState)
    assert Record.from_dict(record.to_dict()) == record
