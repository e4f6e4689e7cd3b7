"""core.replay: a recorded game laid out point by point (issue 11)."""

from __future__ import annotations

from core.replay import Replay
from tests.store.games import played


def test_the_last_point_is_the_end_of_the_game() -> None:
    record = played(11)
    r = Replay(record)
    assert r.points[0].events == ()
    assert r.points[-1].state.to_dict() == record.replay().to_dict()
    assert r.over
    assert len(r.events_to(len(r) - 1)) == sum(len(p.events) for p in r.points)


def test_points_keep_their_own_state() -> None:
    r = Replay(played(11, upto=60))
    turns = [p.state.turn for p in r.points]
    assert turns == sorted(turns) and turns[0] < turns[-1]
    assert r.points[0].state.to_dict() != r.points[-1].state.to_dict()


def test_turns_step_forward_and_back() -> None:
    r = Replay(played(11))
    at = 0
    seen = [r.points[at].turn]
    while (nxt := r.next_turn(at)) != at and r.points[nxt].turn != r.points[at].turn:
        at = nxt
        seen.append(r.points[at].turn)
    assert seen == list(r.turns)
    assert r.previous_turn(at) == r.turn_start(r.turns[-2])
    assert r.turn_start(r.turns[-1] + 5) == len(r) - 1
