"""House rules (core.house): a game setting kept in the state, the record and every view (R4.6
`infamous_empty`), offered by `core.games` and reported by self-play."""

from __future__ import annotations

import json

import pytest

from core.games import PIGEONS
from core.house import BOOK, HOUSE_RULES, HouseRules, InfamousEmpty, house_rules, parse_house_rule
from core.record import Record
from core.rules import apply
from core.selfplay import selfplay
from core.setup import new_game
from core.state import GameState
from core.views import PlayerView, view
from tests.core.games import random_choice

TROPHY = HouseRules(InfamousEmpty.TROPHY)


def test_r4_6_house_rule_is_kept_in_the_state_and_its_dict_form() -> None:
    """R4.6: infamous_empty is a game setting of the state; to_dict/from_dict keep it; a state
    written before house rules existed reads as the book's."""
    state = new_game(4, 3, house=TROPHY)
    data = json.loads(json.dumps(state.to_dict()))
    assert data["house"] == {"infamous_empty": "trophy"}
    assert GameState.from_dict(data).house == TROPHY
    assert state.clone().house == TROPHY
    del data["house"]
    assert GameState.from_dict(data).house == BOOK


@pytest.mark.parametrize(
    "house, message",
    [({"infamous_empty": "maybe"}, "infamous_empty must be one of resume, trophy"), ({"dice": "on"}, "no house rule")],
)
def test_r4_6_from_dict_refuses_an_unknown_house_rule(house: dict[str, str], message: str) -> None:
    data = new_game(3, 1).to_dict()
    data["house"] = house
    with pytest.raises(ValueError, match=message):
        GameState.from_dict(data)


def test_r4_6_house_rule_is_kept_in_the_record_and_replays() -> None:
    """R2.5, R4.6: a record keeps the house rules it was played with and replays under them; a
    record made before house rules existed replays as the book's game."""
    record = Record(4, 11, house=TROPHY)
    state = record.start()
    rng = 5
    while not state.over:
        rng, decision, value = random_choice(rng, state)
        record.choices.append((decision.player, decision.id, value))
        apply(state, decision.player, decision.id, value)
    data = json.loads(json.dumps(record.to_dict()))
    assert data["house"] == {"infamous_empty": "trophy"}
    again = Record.from_dict(data)
    assert again.house == TROPHY
    assert again.replay().to_dict() == state.to_dict()
    del data["house"]
    assert Record.from_dict(data).house == BOOK


def test_r4_6_every_view_carries_the_game_settings() -> None:
    """PlayerView carries the game's settings (blind_windows, house rules) for every seat and the
    spectator, through its dict form."""
    state = new_game(3, 2, blind_windows=True, house=TROPHY)
    for seat in (0, 1, 2, None):
        v = view(state, seat)
        assert v.blind_windows is True and v.house == TROPHY
        back = PlayerView.from_dict(json.loads(json.dumps(v.to_dict())))
        assert back == v
    assert view(new_game(3, 2), 0).house == BOOK


def test_r4_6_the_house_rule_is_a_setting_of_the_game() -> None:
    """core.games offers infamous_empty (resume, the book's, first) and refuses other values."""
    setting = next(s for s in PIGEONS.settings if s.name == "infamous_empty")
    assert (setting.default, setting.choices) == ("resume", ("resume", "trophy"))
    assert PIGEONS.new_game(4, 1, {"infamous_empty": "trophy"}).house == TROPHY
    assert PIGEONS.new_record(4, 1, {"infamous_empty": "trophy"}).start().house == TROPHY
    assert PIGEONS.new_game(4, 1, {}).house == BOOK
    with pytest.raises(ValueError, match="infamous_empty"):
        PIGEONS.new_game(4, 1, {"infamous_empty": "never"})


def test_house_rules_from_the_command_line_form() -> None:
    assert parse_house_rule(" infamous_empty = trophy ") == ("infamous_empty", "trophy")
    assert house_rules(["infamous_empty=trophy", "infamous_empty=resume"]) == BOOK  # later ones win
    assert house_rules([("infamous_empty", "trophy")]).changed() == {"infamous_empty": "trophy"}
    for bad, message in (
        ("infamous_empty", "NAME=VALUE"),
        ("luck=on", "no house rule"),
        ("infamous_empty=x", "one of"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_house_rule(bad)
    assert all(r.values[0] == str(getattr(BOOK, r.name)) for r in HOUSE_RULES.values())  # the book's first


def test_r6_2_selfplay_counts_final_phase_restarts_by_house_rule() -> None:
    """R4.6, R6.2: self-play reports final phases called off; under infamous_empty=trophy none is."""
    book = selfplay(30, 4, ["random"], seed=3)
    trophy = selfplay(30, 4, ["random"], seed=3, settings={"infamous_empty": "trophy"})
    assert book.errors == trophy.errors == 0
    assert book.restarts > 0 and book.restarts_max >= 1
    assert trophy.restarts == 0 and trophy.turns_max >= trophy.turns // trophy.games
    with pytest.raises(ValueError, match="infamous_empty"):
        selfplay(1, 4, ["random"], seed=3, settings={"infamous_empty": "x"})
