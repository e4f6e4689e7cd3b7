"""R6 End of the game: the final phase, its cancellation, and the 1,000-turn safety stop."""

from __future__ import annotations

import pytest

from core.decisions import ChoiceErrorCode, IllegalChoice
from core.events import Event, EventKind
from core.rules import apply, pending
from core.scoring import winners
from core.state import GameState
from tests.core.scenario import (
    BLAM,
    FAT,
    INFAMOUS,
    STUPID,
    WROOM,
    ZOT,
    build,
    choose,
    of_kind,
    zone,
)


def _two_draws(state: GameState, events: list[Event]) -> None:
    seat = state.active
    events += choose(state, seat, "draw")
    events += choose(state, seat, "draw")


def test_r6_1_final_phase_gives_everyone_one_last_turn() -> None:
    """R6.1: when the Flock deck is empty at the end of a turn, every player, starting with the
    next one, takes one last turn; then the game ends."""
    events: list[Event] = []
    state = build(3, spare_flock="removed", active=0, actions_left=0, flock=[], spare_actions="deck", events=events)
    assert EventKind.FINAL_PHASE in [e.kind for e in events]
    assert state.final_left == 3
    turns = []
    for _ in range(3):
        assert not state.over
        turns.append(state.active)
        _two_draws(state, events)
    assert turns == [1, 2, 0]
    assert state.over
    assert pending(state) == []
    assert [e.kind for e in events][-1] is EventKind.GAME_OVER
    assert len(of_kind(events, EventKind.FINAL_PHASE)) == 1


def test_r6_1_no_final_phase_while_the_flock_deck_holds_cards() -> None:
    """R6.1: with Flock cards left at the end of the turn, play goes on normally."""
    events: list[Event] = []
    state = build(3, actions_left=0, flock=[FAT[0], FAT[1]], events=events)
    assert state.final_left is None
    assert EventKind.FINAL_PHASE not in [e.kind for e in events]


def test_r6_1_deck_emptied_by_the_invasion_starts_the_final_phase() -> None:
    """R6.1: the Invasion that reveals the last Flock card ends a turn with the deck empty."""
    events: list[Event] = []
    state = build(3, spare_flock="removed", actions_left=0, active=2, flock=[FAT[0]], events=events)
    assert state.flock == []
    assert state.final_left == 3
    assert state.active == 0


def test_r6_1_over_game_refuses_choices() -> None:
    """R6.1: once the last turn is over, no decision is open and any choice is refused."""
    state = build(2, spare_flock="removed", actions_left=0, flock=[], final_left=1, spare_actions="deck")
    assert state.over
    with pytest.raises(IllegalChoice) as err:
        apply(state, 0, 1, "draw")
    assert err.value.code is ChoiceErrorCode.GAME_OVER


def test_r6_2_infamous_back_into_the_deck_cancels_the_final_phase() -> None:
    """R6.2: a pigeon going back into the Flock deck during the final phase cancels it; play
    goes on normally until the deck is empty again."""
    events: list[Event] = []
    state = build(
        3,
        spare_flock="removed",
        active=1,
        final_left=2,
        flock=[],
        zones={"b1": [INFAMOUS[0]]},
        hands=[[], [BLAM[0], WROOM[0], ZOT[0]], []],
        spare_actions="deck",
    )
    events += choose(state, 1, ("convert", INFAMOUS[0]))
    events += choose(state, 1, BLAM[0])
    events += choose(state, 1, WROOM[0])
    assert state.final_left is None
    assert state.flock == [INFAMOUS[0]]
    assert len(of_kind(events, EventKind.FINAL_CANCELLED)) == 1
    events += choose(state, 1, "draw")
    # the Invasion reveals the Infamous again, so the deck is empty at the end of this turn
    assert zone(state, "b1") == [INFAMOUS[0]]
    assert state.final_left == 3
    assert state.active == 2
    assert len(of_kind(events, EventKind.FINAL_PHASE)) == 1
    assert not state.over


def test_r6_2_blam_on_the_infamous_during_the_final_phase_cancels_it() -> None:
    """R6.2: by any card: Blam! converting the Infamous in the final phase cancels it."""
    state = build(
        3,
        spare_flock="removed",
        final_left=3,
        flock=[],
        zones={"statue": [INFAMOUS[0], STUPID[0]]},
        hands=[[BLAM[0]], [], []],
    )
    events = choose(state, 0, ("play", BLAM[0]))
    events += choose(state, 0, "statue")
    assert state.final_left is None
    assert state.flock == [INFAMOUS[0]]
    assert EventKind.FINAL_CANCELLED in [e.kind for e in events]


def test_r6_3_game_stops_after_1000_turns() -> None:
    """R6.3 [D]: a game that reaches 1,000 turns ends and is scored as it stands."""
    events: list[Event] = []
    state = build(2, turn=1000, actions_left=0, flock=[FAT[0], FAT[1], FAT[2]], events=events)
    assert state.over
    assert state.final_left is None
    assert pending(state) == []
    assert [e.kind for e in events][-1] is EventKind.GAME_OVER
    assert winners(state) == [0, 1]


def test_r6_3_turn_999_goes_on() -> None:
    """R6.3 [D]: turn 999 ends normally and turn 1,000 is played."""
    state = build(2, turn=999, actions_left=0, flock=[FAT[0], FAT[1], FAT[2]])
    assert not state.over
    assert state.turn == 1000
    assert state.active == 1
