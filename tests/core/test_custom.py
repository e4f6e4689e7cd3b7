"""§9: the two customizable Flock cards as a host defines them (issue 13): their text form, a
game setting of each (`custom_1`, `custom_2`), clear errors for cards the engine cannot play."""

from __future__ import annotations

import re

import pytest

from core.cards import CUSTOM_IDS, DEFAULT_CUSTOM, FlockKind, Rule, custom_from_text, custom_pigeon, custom_to_text
from core.games import PIGEONS
from core.selfplay import selfplay
from core.views import view


def test_r9_a_custom_card_reads_back_from_its_text_form() -> None:
    """§9: name, size, where it may land and the special rule it carries; only the name is
    needed; "" is the plain Common pigeon."""
    card = custom_from_text(" name = Racing Pigeon , places = road+statue , rule = lady ")
    assert card == custom_pigeon("Racing Pigeon", 1, ("road", "statue"), "lady")
    assert custom_from_text(custom_to_text(card)) == card
    assert custom_from_text("name=Plain") == custom_pigeon("Plain")
    assert custom_from_text("") == DEFAULT_CUSTOM[0] and custom_to_text(DEFAULT_CUSTOM[0]) == ""


@pytest.mark.parametrize(
    "text, says",
    [
        ("size=2", "name=... is needed"),
        ("name=X,size=9", "size must be 1..4"),
        ("name=X,size=big", "size must be a number"),
        ("name=X,places=statue+cables", "Road, the Crowd or the Balcony"),
        ("name=X,places=moon", "places must be among"),
        ("name=X,rule=boss", "rule must be one of"),
        ("name=X,colour=red", "'colour=red' is not one of name=..., size=..., places=..., rule=..."),
        ("name=X,name=Y", "name is given twice"),
        ("name=", "name must be 1 to 24 characters"),
    ],
)
def test_r9_an_impossible_custom_card_is_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"custom card {text!r}: ") + ".*" + re.escape(says)):
        custom_from_text(text)


def test_r9_the_custom_cards_are_settings_of_the_game() -> None:
    """§9: `custom_1` and `custom_2` define F39 and F40 for the game, its record and every view."""
    settings = {"custom_1": "name=Racing Pigeon,rule=lady", "custom_2": "name=Big Bird,size=3,places=crowd"}
    state = PIGEONS.new_game(4, 2, settings)
    assert [state.book[c].name for c in CUSTOM_IDS] == ["Racing Pigeon", "Big Bird"]
    assert state.book[CUSTOM_IDS[0]].rule is Rule.LADY and state.book[CUSTOM_IDS[1]].size == 3
    assert state.book[CUSTOM_IDS[1]].kind is FlockKind.COMMON
    assert view(state, None).custom == state.custom
    record = PIGEONS.new_record(4, 2, settings)
    assert record.start().to_dict() == state.to_dict()
    assert PIGEONS.new_game(4, 2, {}).custom == DEFAULT_CUSTOM
    with pytest.raises(ValueError, match="custom card 'name=X,size=0'"):
        PIGEONS.new_game(4, 2, {"custom_1": "name=X,size=0"})


def test_r9_games_with_custom_cards_play_to_the_end() -> None:
    """§9: random games with two odd custom cards (a big Infamous one on Balconies, a Lame Lady
    of the Statue and Crowd) end without errors."""
    settings = {
        "custom_1": "name=Giant,size=4,places=balcony,rule=infamous",
        "custom_2": "name=Hobbler,places=statue+crowd,rule=lame",
    }
    summary = selfplay(40, 4, ["random", "greedy"], seed=5, settings=settings)
    assert summary.errors == 0 and summary.games == 40
