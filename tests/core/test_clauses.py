"""Every clause of the rules file named by a test, and the clauses marked [D] in issue 13 each
with a test of its own (R5.3 reaction of the active player, R5.4 no Fine window on Fat-bonus
guano, R6.1 who plays last, the §10 notes)."""

from __future__ import annotations

import re
from pathlib import Path

from core.decisions import DecisionKind
from core.events import Event, EventKind
from core.state import Trophy, TrophyView
from core.views import view
from tests.core.scenario import (
    BIRDSEED,
    COMMON,
    FAT,
    FINE,
    GUANO,
    INFAMOUS,
    LAME,
    MOUNTAIN,
    STUPID,
    asked,
    build,
    choose,
    invasion,
    kind,
    of_kind,
    options,
    play,
    scare,
    zone,
)

CLAUSES = (
    "R1.1 R1.2 R1.3 R1.4 R2.1 R2.2 R2.3 R2.4 R2.5 R3.1 R3.2 R3.3 R3.4 R3.5 R4.1 R4.2 R4.3 R4.4 R4.5 R4.6 "
    "R5.1 R5.2 R5.3 R5.4 R5.5 R5.6 R5.7 R6.1 R6.2 R6.3 R7.1 R7.2 R8.1 R8.2"
).split()
"""The clause ids of ../shared/rules/pigeons-and-guano.md (checked against it where it is found)."""
TESTS = Path(__file__).resolve().parents[1]
RULES_FILE = TESTS.parents[1] / "shared" / "rules" / "pigeons-and-guano.md"


def test_every_clause_of_the_rules_file_is_named_by_a_test() -> None:
    """Each clause id appears in some test (its name, test_r4_2_..., or its docstring, R4.2), so
    `grep -r R4.2 tests/` finds a clause's tests; and CLAUSES lists the rules file's ids."""
    if RULES_FILE.exists():
        assert CLAUSES == re.findall(r"^- (R\d+\.\d+) ", RULES_FILE.read_text(), re.M)
    text = "\n".join(p.read_text() for p in TESTS.rglob("test_*.py") if p.name != Path(__file__).name)
    missing = [c for c in CLAUSES if c not in text and f"test_{c.lower().replace('.', '_')}_" not in text]
    assert not missing, f"clauses no test names: {missing}"


def test_r5_3_the_active_player_may_redirect_during_their_own_invasion() -> None:
    """R5.3 [D]: the Birdseed reaction answers a landing, not another player's card: the active
    player is asked when their own Invasion sends a pigeon to their Balcony."""
    state = build(3, flock=[INFAMOUS[0]], hands=[[BIRDSEED[0]], [], []], stack=invasion())
    assert asked(state) == [0] and kind(state, 0) is DecisionKind.REACT_BIRDSEED
    choose(state, 0, BIRDSEED[0])
    choose(state, 0, "road")
    assert zone(state, "road") == [INFAMOUS[0]] and zone(state, "b0") == []


def test_r5_3_the_active_player_may_redirect_what_their_own_card_sends_home() -> None:
    """R5.3 [D]: a Birdseed played onto your own Balcony may be answered by your own second
    Birdseed, sending the pigeons elsewhere."""
    state = build(3, zones={"road": [COMMON[0]], "crowd": [STUPID[0]]}, hands=[[BIRDSEED[0], BIRDSEED[1]], [], []])
    play(state, 0, BIRDSEED[0], "b0")
    assert asked(state) == [0] and kind(state, 0) is DecisionKind.REACT_BIRDSEED
    choose(state, 0, BIRDSEED[1])
    choose(state, 0, "statue")
    choose(state, 0, COMMON[0])
    choose(state, 0, "done")
    assert zone(state, "statue") == [COMMON[0]] and zone(state, "b0") == [STUPID[0]]


def test_r5_4_fat_bonus_guano_opens_no_new_fine_window() -> None:
    """R5.4 [D]: guano added by the Fat Pigeon bonus is part of the same play: one Fine window
    (for the card played), none for the cards added, though others hold Fines."""
    events: list[Event] = []
    state = build(zones={"road": [FAT[0]]}, hands=[[GUANO[0], GUANO[1], MOUNTAIN[0]], [FINE[0]], [FINE[1]]])
    events += play(state, 0, GUANO[0], "road")
    assert sorted(asked(state)) == [1, 2]
    events += choose(state, 1, "pass") + choose(state, 2, "pass")
    events += choose(state, 0, MOUNTAIN[0])
    events += choose(state, 0, GUANO[1])
    assert [e.window for e in of_kind(events, EventKind.WINDOW)] == ["fine"]
    assert asked(state) == [0] and kind(state, 0) is DecisionKind.ACTION
    assert state.hands[1] == [FINE[0]] and state.hands[2] == [FINE[1]]


def test_r6_1_the_player_whose_invasion_emptied_the_deck_plays_last() -> None:
    """R6.1 [D]: the final phase starts with the next player, and the player whose Invasion
    emptied the Flock deck plays once more, last."""
    state = build(3, spare_flock="removed", actions_left=0, active=1, flock=[FAT[0]], spare_actions="deck")
    assert state.final_left == 3 and state.active == 2
    turns = []
    while not state.over:
        turns.append(state.active)
        choose(state, state.active, "draw")
        choose(state, state.active, "draw")
    assert turns == [2, 0, 1]


def test_r10_scared_means_the_same_in_both_editions() -> None:
    """§10 [D]: the 3.0 text uses "scared" without defining it; R4.2 (3.5) serves both: the
    same pigeons take off, biggest first, and land the same way."""
    outcomes = []
    for edition in ("3.5", "3.0"):
        state = build(
            2,
            edition,
            zones={
                "statue": [COMMON[0], STUPID[0], FAT[0]],
                "road": [LAME[0]],
                "crowd": [LAME[3]],
                "b0": [LAME[1]],
                "b1": [LAME[2]],
            },
            stack=scare(1),
        )
        # the Fat Pigeon first, alone to the emptiest Zone; then a tie for the other one
        assert kind(state, 0) is DecisionKind.LAND and options(state, 0) == ["road", "crowd", "b0", "b1"]
        choose(state, 0, "crowd")
        assert zone(state, "statue") == [STUPID[0]]  # the Stupid Pigeon stays (Blam!)
        assert zone(state, "cables") == [FAT[0]] and zone(state, "crowd") == [LAME[3], COMMON[0]]
        outcomes.append((state.pigeons, [(d.player, d.kind, d.values()) for d in state.open]))
    assert outcomes[0] == outcomes[1]


def test_r10_trophies_and_their_values_are_public() -> None:
    """§10 [D], R8.2: trophies are public (face up, with their values) to every seat and the
    spectator; only a trophy taken blind hides its face (R4.6, R8.1)."""
    state = build(trophies={1: [Trophy((COMMON[0],), 1), Trophy((MOUNTAIN[0],), 2), Trophy((STUPID[1],), 1, True)]})
    for seat in (0, 2, None):
        assert view(state, seat).trophies[1] == (
            TrophyView((COMMON[0],), 1),
            TrophyView((MOUNTAIN[0],), 2),
            TrophyView((), 1),
        )
    assert options(state, 0)[0] == "draw"
