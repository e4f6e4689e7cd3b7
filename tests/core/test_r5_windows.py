"""R5.7: reaction windows never show who is being waited on or who holds a card that could react."""

from __future__ import annotations

from core.cards import ALL_IDS
from core.events import EventKind
from core.rng import seed_state
from core.rules import apply
from core.setup import new_game
from core.state import GameState, all_cards
from core.views import view
from tests.core.games import configs, random_choice
from tests.core.scenario import (
    BIRDSEED,
    BLAM,
    COMMON,
    FAT,
    FINE,
    GUANO,
    LAME,
    asked,
    build,
    choose,
    guano_on,
    kinds,
    play,
    scare,
)


def _two_balconies_receiving(hand1: list[str], hand2: list[str]) -> GameState:
    """A Blam!-style scare of the Statue sends one pigeon to b1 and one to b2 (same batch)."""
    state = build(
        3,
        zones={"statue": [LAME[0], COMMON[0]], "road": [FAT[0]], "cables": [FAT[1]], "crowd": [FAT[2]], "b0": [FAT[3]]},
        hands=[[], hand1, hand2],
        stack=scare(1),
    )
    choose(state, 0, "b1")  # the Lame Pigeon's tie between b1 and b2; the Common then takes b2
    return state


def test_r5_7_view_does_not_show_which_balcony_owner_may_redirect() -> None:
    """R5.7, R8.1: pigeons head for b1 and b2; only one owner holds Birdseed. The other seats'
    views must not tell which one is being waited on.

    The window frame names the owners pigeons are heading for (public), not the holders."""
    a = _two_balconies_receiving([BIRDSEED[0]], [BLAM[0]])
    b = _two_balconies_receiving([BLAM[0]], [BIRDSEED[0]])
    assert asked(a) == [1] and asked(b) == [2]
    for seat in (0, None):
        assert view(a, seat).to_dict() == view(b, seat).to_dict()


def _guano_play(hand1: list[str], answer: str | None, blind: bool = False) -> GameState:
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0], BLAM[0]], hand1, []], spare_actions="deck")
    state.blind_windows = blind
    play(state, 0, GUANO[0], "road")
    if answer is not None:
        choose(state, 1, answer)
    return state


def test_r5_7_decision_ids_do_not_reveal_a_passed_reaction() -> None:
    """R5.7: after a Guano play, whether seat 1 held a Fine (and passed) or held nothing that
    could react must not show in the other seats' views.

    Decision ids come in a block of one per seat for every window, asked or not."""
    passed = _guano_play([FINE[0]], "pass")
    nothing = _guano_play([BLAM[1]], None)
    assert passed.active == nothing.active == 0
    for seat in (0, 2, None):
        assert view(passed, seat).to_dict() == view(nothing, seat).to_dict()


def test_r5_7_blind_window_does_not_reveal_that_someone_may_react() -> None:
    """R5.7: "The public view never shows who is being waited on or whether anyone holds a card
    that could react." With blind windows (a table with humans), right after a Guano play the
    other seats' and the spectator's views are the same whether or not seat 1 holds a Fine:
    every seat that could react is asked, a seat without the card with "pass" only."""
    holder = _guano_play([FINE[0]], None, blind=True)
    none = _guano_play([BLAM[1]], None, blind=True)
    for seat in (2, None):
        assert view(holder, seat).to_dict() == view(none, seat).to_dict()
    no_card = [d for d in none.open if d.player == 1]
    assert [o.value for o in no_card[0].options] == ["pass"]
    assert sorted(d.player for d in none.open) == [1, 2]


def test_r5_7_without_blind_windows_only_holders_are_asked() -> None:
    """R5.7: "Every player who may react is asked": a machines-only table asks holders only."""
    holder = _guano_play([FINE[0]], None)
    none = _guano_play([BLAM[1]], None)
    assert [d.player for d in holder.open] == [1]
    assert [d.player for d in none.open] == [0]  # the Guano landed; the active player goes on


def test_r5_7_at_window_shows_the_board_as_the_window_opens() -> None:
    """R5.7: a Guano play nobody may Fine opens its window and resolves within one `apply`;
    `at_window` sees the state at the WINDOW event: the card announced (in the air, out of the
    hand), not yet landed."""
    state = build(zones={"road": [COMMON[0]]}, hands=[[GUANO[0], BLAM[0]], [BLAM[1]], []], spare_actions="deck")
    seen: list[GameState] = []
    choose(state, 0, ("play", GUANO[0]))
    d = next(d for d in state.open if d.player == 0)
    events = apply(state, 0, d.id, "road", at_window=lambda s: seen.append(s.clone()))
    assert kinds(events)[:3] == [EventKind.PLAYED, EventKind.WINDOW, EventKind.GUANO]
    assert len(seen) == 1
    at = seen[0]
    assert GUANO[0] not in at.hands[0] and at.air == [GUANO[0]] and guano_on(at, "road") == []
    assert at.open == [] and guano_on(state, "road") == [GUANO[0]] and state.air == []


def test_r5_7_at_window_is_called_once_per_window_and_changes_nothing() -> None:
    """R5.7: over seeded random games (both editions, blind windows or not), `at_window` is
    called once for each WINDOW event, in order, with every card where it was at that event
    (all 95 placed once), and a game applied with it ends exactly as one applied without."""
    for seed, players, edition in configs(20, first=300):
        plain = new_game(players, seed, edition, blind_windows=seed % 2 == 1)
        watched = plain.clone()
        rng = seed_state(seed)
        calls = windows = 0

        def at(s: GameState) -> None:
            nonlocal calls
            calls += 1
            assert sorted(all_cards(s)) == sorted(ALL_IDS), "every card in one place"
            assert not s.open, "called before anyone is asked"

        while not plain.over:
            rng, decision, value = random_choice(rng, plain)
            events = apply(plain, decision.player, decision.id, value)
            again = apply(watched, decision.player, decision.id, value, at_window=at)
            assert again == events
            windows += sum(1 for e in events if e.kind is EventKind.WINDOW)
            assert calls == windows
        assert watched.to_dict() == plain.to_dict()
        assert windows > 0


def test_r5_7_each_window_asks_the_seats_and_options_its_window_kind_lists() -> None:
    """R5.7 (and R4.5, R5.1, R5.3, R5.5, R5.6 for who may react with what): every window opened
    in 60 random games, blind and not, asks exactly the seats `core.effects.WINDOWS` lets react
    (those holding a card, or all of them with blind windows), in its decline-first options and
    prompt, whatever shortcut the engine takes to ask them."""
    from core.effects import WINDOWS

    windows = 0
    for seed, players, edition in configs(60):
        for blind in (False, True):
            state = new_game(players, seed, edition, blind_windows=blind)
            rng = seed_state(seed)
            seen: set[int] = set()
            while not state.over:
                fresh = [d for d in state.open if d.id not in seen]
                frame = state.stack[-1] if state.stack else None
                if fresh and frame is not None and frame["k"] == "window":
                    assert len(fresh) == len(state.open), "a window's decisions open together"
                    w = WINDOWS[frame["w"]]
                    want = []
                    for s in w.seats(state, frame):
                        cards = w.cards(state, frame, s)
                        if cards or blind:
                            want.append((s, w.kind, w.prompt(state, frame), (w.pass_option, *cards)))
                    assert sorted(want) == sorted((d.player, d.kind, d.prompt, d.options) for d in state.open)
                    windows += 1
                seen.update(d.id for d in state.open)
                rng, decision, value = random_choice(rng, state)
                apply(state, decision.player, decision.id, value)
    assert windows > 300
