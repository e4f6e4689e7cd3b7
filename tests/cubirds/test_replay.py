"""core.cubirds.replay: a recorded game of CuBirds laid out point by point, as
`pigeon-tui replay` walks it."""

from __future__ import annotations

from core.cubirds import Record
from core.cubirds.replay import Replay
from core.games import CUBIRDS
from tests import records


def played(seed: int, players: int = 3, upto: int | None = None) -> Record:
    """A record of random bots playing game `seed` to the end (or for `upto` choices)."""
    record: Record = records.played(CUBIRDS, seed, players, upto)
    return record


def test_a_replay_has_the_deal_then_a_point_per_choice_and_ends_as_the_game_did() -> None:
    record = played(4)
    replay = Replay(record)
    assert len(replay) == len(record.choices) + 1
    assert replay.points[0].events == () and replay.points[0].state.to_dict() == record.start().to_dict()
    assert replay.points[-1].state.to_dict() == record.replay().to_dict() and replay.over
    assert list(replay.turns) == list(range(1, replay.points[-1].turn + 1))
    assert [p.turn for p in replay.points] == sorted(p.turn for p in replay.points)
    assert replay.turn_start(2) == next(i for i, p in enumerate(replay.points) if p.turn == 2)


def test_each_point_keeps_its_own_board() -> None:
    replay = Replay(played(5, players=2, upto=30))
    boards = [p.state.to_dict() for p in replay.points]
    assert len({repr(b) for b in boards}) == len(boards)
    assert not replay.over


def test_a_game_list_names_a_cubirds_game_where_pigeons_names_its_edition() -> None:
    from core.cards import Edition
    from core.record import Record as PigeonsRecord
    from net.archive import edition_of

    assert edition_of(played(4, upto=3).to_dict()) == "CuBirds"
    assert edition_of(PigeonsRecord(3, 1, Edition("3.0")).to_dict()) == "3.0"
    assert edition_of({"game": "chess"}) == "?"
