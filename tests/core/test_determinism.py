"""R2.5: the same seed and the same choices give the same game, bit for bit."""

from __future__ import annotations

from core.cards import Edition
from core.record import Record
from core.setup import new_game
from tests.core.games import configs, house_of, play


def test_r2_5_same_seed_same_deal() -> None:
    """R2.5: two games dealt from one seed are identical; another seed deals another game."""
    assert new_game(4, 11).to_dict() == new_game(4, 11).to_dict()
    assert new_game(4, 11).to_dict()["flock"] != new_game(4, 12).to_dict()["flock"]


def test_r2_5_replaying_the_record_rebuilds_the_identical_state() -> None:
    """R2.5: replaying {seed, choices} gives the identical to_dict(), mid-game and at the end
    (house rules included, R4.6)."""
    for seed, players, edition in configs(40, 300):
        snapshots = {}
        for state, choices in play(seed, players, edition):
            if len(choices) % 37 == 0:
                snapshots[len(choices)] = (state.to_dict(), list(choices))
        snapshots[len(choices)] = (state.to_dict(), list(choices))
        for expected, made in snapshots.values():
            blind = (seed // 10) % 2 == 1
            record = Record(players, seed, Edition(edition), blind_windows=blind, house=house_of(seed), choices=made)
            assert record.replay().to_dict() == expected


def test_r2_5_record_round_trips_through_plain_data() -> None:
    """R2.5: a record's dict form (what a save file holds) replays to the same game."""
    import json

    *_, (state, choices) = play(7, 3, "3.0")
    record = Record(3, 7, Edition.V30, choices=list(choices))
    again = Record.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again.replay().to_dict() == state.to_dict()
