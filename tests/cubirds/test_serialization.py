"""The dict forms: states and views round-trip exactly; a corrupt state is a clear ValueError."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.cubirds import Event, EventKind, PlayerView, apply, describe, load, new_game, view
from tests.cubirds.games import play
from tests.cubirds.scenario import build


def test_states_round_trip_at_every_decision() -> None:
    """to_dict is plain JSON data; load gives back the same state, open decision included,
    and the game goes on from it exactly as from the original."""
    for seed, players in [(11, 2), (12, 5)]:
        for state, _ in play(seed, players):
            d = state.to_dict()
            back = load(json.loads(json.dumps(d)))
            assert back.to_dict() == d and back.open == state.open
    state = new_game(3, 5)
    for _ in range(40):
        copy = load(state.to_dict())
        asked = state.open[0]
        option = asked.options[-1].value
        assert apply(copy, asked.player, asked.id, option) == apply(state, asked.player, asked.id, option)
        assert copy.to_dict() == state.to_dict()


def test_views_round_trip() -> None:
    """A view crosses the wire as plain data and comes back equal, for seats and spectators."""
    for state, _ in play(13, 4):
        for seat in (0, 3, None):
            v = view(state, seat)
            assert PlayerView.from_dict(json.loads(json.dumps(v.to_dict()))) == v


def test_events_round_trip_in_the_wire_form_of_before() -> None:
    """An event crosses the wire as plain data and comes back equal. Each kind's number has a
    field of its own (turn, card_count, kept, round); the wire form still carries it as the one
    `n` it was before, so hosts, clients and records made before read and are read alike."""
    numbered = set()
    for seed, players in [(14, 5), (15, 3)]:
        state = new_game(players, seed)
        while not state.over:
            d = state.open[0]
            for e in apply(state, d.player, d.id, d.options[0].value):
                wire = json.loads(json.dumps(e.to_dict()))
                assert Event.from_dict(wire) == e
                n = e.turn or e.card_count or e.kept or e.round
                assert wire["n"] == n and set(wire) == {"kind", "player", "cards", "row", "side", "n", "secret"}
                if n:
                    numbered.add(e.kind)
    assert numbered >= {EventKind.TURN, EventKind.DREW, EventKind.DEALT, EventKind.FLEW, EventKind.ROUND_OVER}
    old = {"kind": "flew", "player": 1, "cards": ["OW01", "OW02", "OW03"], "row": None, "side": None, "n": 1}
    assert Event.from_dict(old).kept == 1 and describe(Event.from_dict(old)).endswith(
        "1 to their collection, 2 discarded."
    )


def _good() -> dict[str, Any]:
    return build(3, hands=[["robin", "duck"], ["owl"], ["magpie"]]).to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].pop(), "missing"),
        (lambda d: d["hands"][1].append(d["hands"][0][0]), "repeated"),
        (lambda d: d["draw"].append("ZZ99"), "unknown"),
        (lambda d: d.update(players=6), "players"),
        (lambda d: d.update(hands=d["hands"][:2]), "hands must hold 3"),
        (lambda d: d.update(step="action"), "not a step"),
        (lambda d: d.update(step="sideways"), "unknown step"),
        (lambda d: d.update(step="lay_row", laying="owl"), "holds no owl"),
        (lambda d: d.update(step="lay_end", laying="robin", row=7), "row"),
        (lambda d: d.update(over=True), "ending"),
        (lambda d: d.update(over="yes"), "true or false"),
        (lambda d: d.update(game="pigeons"), "not a CuBirds state"),
        (lambda d: d.update(format=9), "format"),
        (lambda d: d.update(active=3), "active"),
        (lambda d: d.update(rows=d["rows"][:3]), "rows must hold 4"),
        (lambda d: d.update(discard=d["rows"][0], rows=[[], *d["rows"][1:]]), "none of them empty"),
        (lambda d: d["hands"][0].append(7), "list of card ids"),
        (lambda d: d.pop("draw"), "draw"),
        (lambda d: d.update(rng=0), "rng"),
    ],
)
def test_load_rejects_corrupt_states(change: Any, message: str) -> None:
    """A corrupt state fails loudly, saying what is wrong."""
    d = _good()
    change(d)
    with pytest.raises(ValueError, match=message):
        load(d)


def test_load_rejects_what_is_not_a_mapping() -> None:
    with pytest.raises(ValueError, match="mapping"):
        load([1, 2])


def test_from_dict_rejects_malformed_views() -> None:
    d = view(new_game(2, 1), 0).to_dict()
    for bad in ({**d, "rows": d["rows"][:2]}, {**d, "laying": "dodo"}, {**d, "game": "pigeons"}, {"seat": 0}):
        with pytest.raises(ValueError, match="view"):
            PlayerView.from_dict(bad)
