"""Illegal choices (design.md: `apply` validates, the state is unchanged) and corrupt saves
(`GameState.from_dict` and `core.rules.load` raise ValueError)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from core.decisions import ChoiceErrorCode, IllegalChoice
from core.rules import apply, load
from core.state import GameState
from tests.core.scenario import BLAM, COMMON, FINE, GUANO, STUPID, build, choose, decision


def _refused(state: GameState, player: int, decision_id: Any, option: object, code: ChoiceErrorCode) -> None:
    before = state.to_dict()
    with pytest.raises(IllegalChoice) as err:
        apply(state, player, decision_id, option)
    assert err.value.code is code
    assert state.to_dict() == before


def _state() -> GameState:
    return build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0], FINE[0]], [BLAM[0]], []])


def test_apply_refuses_another_players_decision() -> None:
    """design.md: answering someone else's decision is NOT_YOUR_DECISION; nothing changes."""
    state = _state()
    _refused(state, 1, decision(state, 0).id, "draw", ChoiceErrorCode.NOT_YOUR_DECISION)


def test_apply_refuses_a_stale_decision() -> None:
    """design.md: a decision already answered, or never issued, is STALE_DECISION."""
    state = _state()
    old = decision(state, 0).id
    choose(state, 0, "draw")
    _refused(state, 0, old, "draw", ChoiceErrorCode.STALE_DECISION)
    _refused(state, 0, 9999, "draw", ChoiceErrorCode.STALE_DECISION)
    _refused(state, 0, "1", "draw", ChoiceErrorCode.STALE_DECISION)


@pytest.mark.parametrize(
    "option",
    [("play", FINE[0]), ("play", BLAM[0]), "back", "pass", "nonsense", 0, True, None, 1.5, {"a": 1}, ["play"]],
)
def test_apply_refuses_an_option_not_offered(option: Any) -> None:
    """design.md: a value that is not among the options is OPTION_NOT_OFFERED; nothing changes."""
    state = _state()
    _refused(state, 0, decision(state, 0).id, option, ChoiceErrorCode.OPTION_NOT_OFFERED)


def test_apply_refuses_an_option_of_another_decision() -> None:
    """design.md: a Zone id is an option of a TARGET decision, not of an ACTION decision."""
    state = _state()
    _refused(state, 0, decision(state, 0).id, "road", ChoiceErrorCode.OPTION_NOT_OFFERED)


def test_apply_accepts_a_list_for_a_tuple_option() -> None:
    """design.md: options decoded from msgpack/JSON as lists compare equal to the tuples offered."""
    state = _state()
    apply(state, 0, decision(state, 0).id, ["play", GUANO[0]])
    assert decision(state, 0).values()[0] == "road"


def test_apply_takes_an_offered_value_and_an_equal_copy_of_it_alike() -> None:
    """design.md: a choice names an option by its value. A bot hands back the very object offered
    and a client an equal one decoded from the wire: both are the same choice."""
    for pick in (0, 1):  # "draw" (a text) and ("play", GUANO[0]) (a tuple)
        offered, copied = _state(), _state()
        value = decision(offered, 0).options[pick][0]
        assert isinstance(value, tuple | str)
        copy_ = tuple(list(value)) if isinstance(value, tuple) else "".join(list(value))
        assert copy_ == value and copy_ is not value
        events = apply(offered, 0, decision(offered, 0).id, value)
        assert apply(copied, 0, decision(copied, 0).id, copy_) == events
        assert offered.to_dict() == copied.to_dict()
        assert decision(offered, 0).values() == decision(copied, 0).values()


def test_apply_refuses_everything_once_the_game_is_over() -> None:
    """R6.1: a finished game refuses every choice with GAME_OVER; nothing changes."""
    state = build(2, spare_flock="removed", actions_left=0, flock=[], final_left=1)
    assert state.over
    _refused(state, 0, 1, "draw", ChoiceErrorCode.GAME_OVER)
    _refused(state, 1, state.next_id - 1, "draw", ChoiceErrorCode.GAME_OVER)


def test_apply_checks_the_player_in_a_reaction_window() -> None:
    """R5.7: in a window, each player may answer only their own decision."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0]], [FINE[0]], [FINE[1]]])
    choose(state, 0, ("play", GUANO[0]))
    choose(state, 0, "road")
    d1, d2 = decision(state, 1), decision(state, 2)
    _refused(state, 2, d1.id, FINE[0], ChoiceErrorCode.NOT_YOUR_DECISION)
    _refused(state, 0, d2.id, "pass", ChoiceErrorCode.NOT_YOUR_DECISION)
    _refused(state, 2, d2.id, FINE[0], ChoiceErrorCode.OPTION_NOT_OFFERED)


# ---- from_dict --------------------------------------------------------------------------------


def _valid() -> dict[str, Any]:
    return build(zones={"road": [COMMON[0]], "crowd": [STUPID[0]]}, hands=[[GUANO[0]], [], []]).to_dict()


def test_from_dict_round_trips_a_built_state() -> None:
    """design.md: to_dict / from_dict round-trip exactly."""
    d = _valid()
    assert GameState.from_dict(copy.deepcopy(d)).to_dict() == d


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(d: dict[str, Any]) -> None:
        d[key] = value

    return edit


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def edit(d: dict[str, Any]) -> None:
        del d[key]

    return edit


def _hand_not_list(d: dict[str, Any]) -> None:
    d["hands"][0] = "A11"


def _card_not_str(d: dict[str, Any]) -> None:
    d["hands"][0] = [11]


def _flock_card_in_hand(d: dict[str, Any]) -> None:
    d["pigeons"]["crowd"].remove(STUPID[0])
    d["hands"][1].append(STUPID[0])


def _action_card_in_a_zone(d: dict[str, Any]) -> None:
    d["hands"][0].remove(GUANO[0])
    d["pigeons"]["road"].append(GUANO[0])


def _open_without_options(d: dict[str, Any]) -> None:
    d["open"][0]["options"] = []


def _bad_trophy_vp(d: dict[str, Any]) -> None:
    d["hands"][0].remove(GUANO[0])
    d["trophies"][0].append([[GUANO[0]], 3, False])


def _frame_not_dict(d: dict[str, Any]) -> None:
    d["stack"] = ["action"]


@pytest.mark.parametrize(
    "corrupt",
    [
        _set("format", 99),
        _set("edition", "4.0"),
        _set("players", "3"),
        _set("players", 7),
        _set("players", True),
        _set("rng", 0),
        _set("turn", "1"),
        _set("active", 3),
        _set("actions_left", 3),
        _set("final_left", "2"),
        _set("hands", [[], []]),
        _set("trophies", {}),
        _set("custom", []),
        _drop("deck"),
        _hand_not_list,
        _card_not_str,
        _flock_card_in_hand,
        _action_card_in_a_zone,
        _open_without_options,
        _bad_trophy_vp,
        _frame_not_dict,
    ],
)
@pytest.mark.parametrize("reader", [GameState.from_dict, load], ids=["from_dict", "load"])
def test_from_dict_rejects_corrupt_state(
    corrupt: Callable[[dict[str, Any]], None], reader: Callable[[Any], GameState]
) -> None:
    """design.md, style.md §5.4: a corrupt save fails loudly with ValueError."""
    d = _valid()
    corrupt(d)
    with pytest.raises(ValueError):
        reader(d)


@pytest.mark.parametrize("reader", [GameState.from_dict, load], ids=["from_dict", "load"])
@pytest.mark.parametrize("data", [None, [], "state", 3])
def test_from_dict_rejects_a_non_mapping(data: Any, reader: Callable[[Any], GameState]) -> None:
    """style.md §5.4: only a mapping can be a saved state."""
    with pytest.raises(ValueError):
        reader(data)


def test_load_runs_a_state_without_open_decisions_to_its_next_decision() -> None:
    """docs/engine.md: a scenario may omit `open` (and Zones without cards): the engine asks."""
    d = _valid()
    expected = GameState.from_dict(d).open[0]
    d.pop("open")
    d["pigeons"] = {z: cards for z, cards in d["pigeons"].items() if cards}
    state = load(d)
    assert [(x.player, x.kind, x.values()) for x in state.open] == [(expected.player, expected.kind, expected.values())]


def test_from_dict_refuses_a_state_that_waits_on_nothing_and_names_load() -> None:
    """docs/engine.md: GameState.from_dict reads states at rest; running a position on is the
    rules' (`core.rules.load`), and the state module does not import them."""
    d = _valid()
    d.pop("open")
    with pytest.raises(ValueError, match=r"core\.rules\.load"):
        GameState.from_dict(d)


def test_load_refuses_unknown_frames_and_zones() -> None:
    """A save naming a frame or a Zone the engine does not know is refused, not run; so is a
    FORCED frame, which the engine never leaves on a stack."""
    d = _valid()
    d["stack"] = [{"k": "teleport"}]
    with pytest.raises(ValueError, match="teleport"):
        load(d)
    d = _valid()
    d["stack"] = [{"k": "action"}, {"k": "forced", "player": 0, "value": "draw"}]
    with pytest.raises(ValueError, match="forced"):
        load(d)
    d = _valid()
    d["pigeons"]["moon"] = []
    with pytest.raises(ValueError, match="Zones"):
        load(d)
