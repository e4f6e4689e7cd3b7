"""to_dict/from_dict round trips exactly; clone is independent; corrupt dicts are refused."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from core.events import Event, EventKind
from core.rng import seed_state
from core.rules import apply, load
from core.setup import new_game
from core.state import GameState
from tests.core.games import configs, play, random_choice


def test_round_trip_at_many_points_of_many_games() -> None:
    """Round trip through JSON at every 13th decision of 60 games; the copy plays on identically."""
    for seed, players, edition in configs(60, 900):
        for state, choices in play(seed, players, edition):
            if len(choices) % 13:
                continue
            data = json.loads(json.dumps(state.to_dict()))
            copy = GameState.from_dict(data)
            assert copy.to_dict() == state.to_dict()
            if not state.over:
                _, decision, value = random_choice(seed + 1, state)
                a, b = state.clone(), copy
                assert apply(a, decision.player, decision.id, value) == apply(b, decision.player, decision.id, value)
                assert a.to_dict() == b.to_dict()


def test_clone_is_independent() -> None:
    """Playing on a clone leaves the original untouched, and playing on the original leaves the
    clone untouched (they share hands, trophies and Zones, which the rules replace, never change)."""
    for seed, players, edition in configs(10, 40):
        for state, choices in play(seed, players, edition):
            if len(choices) == 30 and not state.over:
                before = state.to_dict()
                copy = state.clone()
                rng = seed + 1
                while not copy.over:
                    rng, decision, value = random_choice(rng, copy)
                    apply(copy, decision.player, decision.id, value)
                assert state.to_dict() == before
                kept = state.clone()
                while not state.over:
                    rng, decision, value = random_choice(rng, state)
                    apply(state, decision.player, decision.id, value)
                assert kept.to_dict() == before
                break


def test_clone_sets_every_field() -> None:
    """clone() sets its copy's slots one by one: none is missed, and each equals the original's."""
    state = new_game(5, 8)
    state.unread = None
    copy = state.clone()
    for f in fields(GameState):
        assert getattr(copy, f.name) == getattr(state, f.name), f.name


def _corrupt(mutate: Any) -> dict[str, Any]:
    data = new_game(4, 3).to_dict()
    mutate(data)
    return data


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["hands"][0].pop(), "missing"),
        (lambda d: d["hands"][0].append(d["hands"][1][0]), "repeated"),
        (lambda d: d["deck"].append("Z99"), "unknown"),
        (lambda d: d.update(edition="4.0"), "edition"),
        (lambda d: d.update(players=9), "players"),
        (lambda d: d.update(format=99), "format"),
        (lambda d: d.pop("flock"), "flock"),
        (lambda d: d.update(rng="seven"), "rng"),
        (lambda d: d.update(hands="nope"), "hands"),
        (lambda d: d.update(stack=[], open=[]), "anything left"),
        (lambda d: d.update(stack=[]), "no frame"),
        (lambda d: d["open"][0].update(kind="dance"), "decision"),
        (lambda d: d.update(stack=[{"no": "kind"}]), "stack"),
        (lambda d: d["custom"][0].update(size=9), "size"),
        (
            lambda d: d["hands"][0].extend(d["deck"][:3]) or d["deck"].__delitem__(slice(0, 3)),
            "never holds more than 5",
        ),
        (lambda d: d.update(stack=[{"k": "scare", "zone": 0, "by": 0, "cause": "blam"}]), "rests on an 'action' frame"),
        (lambda d: d.update(house={"infamous_empty": "sometimes"}), "infamous_empty must be one of"),
    ],
)
@pytest.mark.parametrize("reader", [GameState.from_dict, load], ids=["from_dict", "load"])
def test_from_dict_refuses_corrupt_data_with_a_clear_error(mutate: Any, message: str, reader: Any) -> None:
    """A corrupt save fails loudly with ValueError naming what is wrong (read as a state at rest,
    or loaded as a position)."""
    with pytest.raises(ValueError, match=message):
        reader(_corrupt(mutate))


def test_from_dict_refuses_non_mappings() -> None:
    bad: object
    for bad in (None, [], "state", 3):
        with pytest.raises(ValueError):
            GameState.from_dict(bad)


def test_events_keep_their_wire_form_and_read_back_typed() -> None:
    """Each kind's number travels as the wire form's `n` and a window's kind as its `zone`
    (docs/protocol.md), as before events had a field per meaning: hosts and clients of either
    shape read each other. Every event of 30 games round-trips through JSON."""
    old_wire = {"kind": "fined", "player": 1, "cards": [], "zone": None, "to": None, "n": 2, "secret": False}
    assert Event.from_dict(old_wire) == Event(EventKind.FINED, 1, by=2)
    assert Event(EventKind.FINED, 1, by=2).to_dict() == old_wire
    window: dict[str, object] = {"kind": "window", "player": None, "cards": [], "zone": "fine", "to": None}
    window |= {"n": 0, "secret": False}
    assert Event.from_dict(window) == Event(EventKind.WINDOW, window="fine")
    assert Event(EventKind.WINDOW, window="fine").to_dict() == window
    assert Event(EventKind.PLAYED, 0, ("A22",), "road", reaction=True).to_dict()["n"] == 1
    seen: set[EventKind] = set()
    for seed, players, edition in configs(30, 300):
        state, rng = new_game(players, seed, edition), seed_state(seed)
        while not state.over:
            rng, decision, value = random_choice(rng, state)
            for e in apply(state, decision.player, decision.id, value):
                seen.add(e.kind)
                assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
    assert len(seen) >= 18
