"""The bots: legal choices only, every decision kind answered, seeded, and no peeking (R8)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from core import DecisionKind, apply, new_game
from core.bots import ALIASES, LEVELS, Bot, make_bot
from core.bots.expert import BY_POLICY, ExpertBot, Preset, key
from core.bots.greedy import GreedyBot
from core.bots.random import RandomBot
from core.decisions import BACK, Decision, Option
from core.games import PIGEONS
from core.levels import time_limit
from core.selfplay import play_game, selfplay
from core.state import GameState
from core.views import view
from tests.core.test_bots_determinize import decision_points, public, shuffle_hidden

TINY: Preset = Preset(iterations=6, rounds=0.25, seconds=0.0)
"""A small search budget, enough to exercise the whole search in tests."""
TINY_FLAT: Preset = Preset(iterations=8, rounds=0.25, seconds=0.0, minor=0.5, tree=False)
TINY_PLY: Preset = Preset(iterations=4, rounds=0.25, seconds=0.0, minor=0.5, ply=4, ply_iterations=4, tree=False)
"""The flat search with greedy playouts (one ply of look-ahead for every action), as hard uses it
in 2-player games."""
TINY_LEARNED: Preset = Preset(iterations=8, rounds=0.25, seconds=0.0, minor=0.5, learned=True, tree=False)
"""The flat search judging unfinished playouts by the learned evaluation, as hard does."""
TINY_SHORT: Preset = Preset(iterations=8, rounds=0.25, seconds=0.0, minor=0.5, learned=True, tree=False, shortlist=2)
"""That search playing out only the options easy's look-ahead rates best, as medium and hard do."""

Maker = Callable[[int], Bot]
MAKERS: dict[str, Maker] = {
    "greedy": lambda seed: GreedyBot(seed, samples=2),
    "expert": lambda seed: ExpertBot(seed, TINY),
    "flat": lambda seed: ExpertBot(seed, TINY_FLAT),
    "ply": lambda seed: ExpertBot(seed, TINY_PLY),
    "learned": lambda seed: ExpertBot(seed, TINY_LEARNED),
    "greedy_learned": lambda seed: GreedyBot(seed, samples=2, learned=True),
    "shortlist": lambda seed: ExpertBot(seed, TINY_SHORT),
}


def kind_samples() -> dict[DecisionKind, list[tuple[GameState, Decision]]]:
    """Up to three decision points of each kind, from seeded random games."""
    out: dict[DecisionKind, list[tuple[GameState, Decision]]] = {}
    for state, d in decision_points(120, seed=300):
        got = out.setdefault(d.kind, [])
        if len(got) < 3:
            got.append((state.clone(), d))
        if len(out) == len(PIGEONS.kinds) and all(len(v) == 3 for v in out.values()):
            break
    return out


SAMPLES = kind_samples()


def test_samples_cover_every_decision_kind() -> None:
    assert set(SAMPLES) == PIGEONS.kinds


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("kind", sorted(PIGEONS.kinds))
def test_every_decision_kind_gets_an_offered_option(name: str, kind: DecisionKind) -> None:
    """Reactions included: each bot answers each kind with an option the engine offered."""
    for i, (state, d) in enumerate(SAMPLES[kind]):
        choice = MAKERS[name](i).choose(view(state, d.player), d)
        assert choice in d.values() and choice != BACK
        apply(state.clone(), d.player, d.id, choice)


def test_bots_make_only_legal_choices_over_whole_games() -> None:
    """Whole games of mixed bots: `apply` accepts every choice, and no bot ever steps back."""
    decisions = 0
    for g in range(4):
        players = 2 + g % 3 if g < 3 else 4
        state = new_game(players, 1000 + g)
        bots = [MAKERS["greedy"](g), MAKERS["expert"](g), MAKERS["flat"](g), RandomBot(g)][:players]
        while not state.over:
            d = state.open[0]
            choice = bots[d.player % len(bots)].choose(view(state, d.player), d)
            assert choice != BACK
            apply(state, d.player, d.id, choice)
            decisions += 1
    assert decisions > 200


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_a_seeded_bot_plays_the_same_game_twice(name: str) -> None:
    def game() -> dict[str, object]:
        state = new_game(3, 77)
        play_game(state, [MAKERS[name](s) for s in range(3)])
        return state.to_dict()

    assert game() == game()


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_no_peeking_hidden_cards_do_not_change_the_choice(name: str) -> None:
    """R8: dealing anew every card the seat cannot see (other hands, deck orders, removed
    cards, blind trophies) leaves its view, and so a seeded bot's choice, unchanged."""
    shuffler = random.Random(9)
    checked = 0
    for i, (state, d) in enumerate(decision_points(4, seed=500)):
        if i % 5 or len([o for o in d.options if o.value != BACK]) < 2:
            continue
        other = shuffle_hidden(state, d.player, shuffler)
        mine, theirs = view(state, d.player), view(other, d.player)
        assert public(mine) == public(theirs)
        assert MAKERS[name](i).choose(mine, d) == MAKERS[name](i).choose(theirs, d)
        checked += 1
    assert checked > 15


@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv not in ALIASES])
def test_r8_no_peeking_at_every_level_with_its_real_preset(level: str) -> None:
    """R8: the re-deal check above on each level as players meet it (full budgets, no clock), on
    a 2-player action (hard looks ahead in its playouts there) and a 4-player one."""
    shuffler = random.Random(11)
    for players in (2, 4):
        state = new_game(players, 40 + players)
        steps = 0
        while steps < 7 * players or state.open[0].kind is not DecisionKind.ACTION:  # cards played, trophies taken
            d = state.open[0]
            apply(state, d.player, d.id, MAKERS["greedy"](players).choose(view(state, d.player), d))
            steps += 1
        d = state.open[0]
        assert len(d.values()) >= 3
        other = shuffle_hidden(state, d.player, shuffler)
        mine, theirs = view(state, d.player), view(other, d.player)
        assert public(mine) == public(theirs) and other.to_dict() != state.to_dict()
        assert make_bot(level, 5).choose(mine, d) == make_bot(level, 5).choose(theirs, d)


def test_no_peeking_against_a_peeking_bot() -> None:
    """The check above can fail: a bot that reads another hand through the state changes its mind."""

    class Cheat:
        def __init__(self, state: GameState) -> None:
            self.state = state

        def choose(self, v: object, d: Decision) -> object:
            rival = (d.player + 1) % self.state.players
            hand = self.state.hands[rival]
            return d.values()[int(hand[0][1:]) % len(d.values()) if hand else 0]

    shuffler = random.Random(10)
    changed = 0
    for i, (state, d) in enumerate(decision_points(3, seed=600)):
        if len(d.options) < 2:
            continue
        other = shuffle_hidden(state, d.player, shuffler)
        changed += Cheat(state).choose(None, d) != Cheat(other).choose(None, d)
        if i > 200:
            break
    assert changed > 0


def test_flat_search_stops_once_one_option_is_left() -> None:
    """Sequential halving ends when a single option survives: playouts of a lone option pair with
    no rival's and change no choice, so every sample is played on two options or more. (In the
    final phase they go on: they may find that the option calls it off, R4.6.)"""
    raced = 0
    for samples in SAMPLES.values():
        for state, d in samples:
            if len([o for o in d.options if o.value != BACK]) < 3 or state.final_left is not None:
                continue
            if d.kind in BY_POLICY:  # answered by its policy, not searched: tally says None
                continue
            part = ExpertBot(5, TINY_FLAT).tally(view(state, d.player), d, 0, 1)
            assert part is not None
            options_per_sample = Counter((a, b) for got in part["got"] for a, b, _ in got)
            assert min(options_per_sample.values()) >= 2
            raced += 1
    assert raced >= 3


def test_a_step_budget_buys_more_playouts_where_playouts_are_short() -> None:
    """Preset.steps: the flat search spends a budget of playout steps (decisions played), so the
    shorter playouts of a 2-player game get more samples than a 4-player game's at the same
    budget, twice the steps buy more playouts, and `iterations` caps them. It spends the budget
    and at most one more sample (a playout of each option still in the race)."""

    def playouts(players: int, steps: int, cap: int = 1000) -> int:
        state = new_game(players, 8)
        d = state.open[0]
        bot = ExpertBot(2, Preset(iterations=cap, rounds=1, seconds=0.0, steps=steps, tree=False))
        bot.choose(view(state, d.player), d)
        if cap == 1000:
            assert steps <= bot.last_steps < steps + len(d.options) * 80
        return bot.last_iterations

    two, four = playouts(2, 600), playouts(4, 600)
    assert two > four >= 2
    assert playouts(4, 1200) > 1.5 * four
    options = len(new_game(4, 8).open[0].options)
    assert playouts(4, 1200, cap=4) <= 4 + options


def test_a_duel_step_budget_replaces_the_steps_in_2_player_games_only() -> None:
    """Preset.duel_steps: a 2-player decision spends the duel budget, a 4-player one `steps`."""

    def spent(players: int) -> int:
        state = new_game(players, 8)
        d = state.open[0]
        bot = ExpertBot(2, Preset(iterations=1000, rounds=1, seconds=0.0, steps=1200, duel_steps=300, tree=False))
        bot.choose(view(state, d.player), d)
        return bot.last_steps

    assert 300 <= spent(2) < 600
    assert spent(4) >= 1200


def test_expert_stops_at_its_deadline() -> None:
    """The caller's deadline cuts the search short (core reads no clock: here, a counter)."""
    state = new_game(2, 3)
    d = state.open[0]
    calls = [0]

    def deadline() -> Callable[[], bool]:
        calls[0] = 0

        def done() -> bool:
            calls[0] += 1
            return calls[0] > 4

        return done

    bot = ExpertBot(1, Preset(iterations=500, rounds=0.5, seconds=0.0), deadline)
    assert bot.choose(view(state, d.player), d) in d.values()
    assert bot.last_iterations == 5


def test_time_limit_stops_before_a_step_that_would_end_past_it() -> None:
    """A deadline from the caller's clock (core.levels.time_limit) says stop once one more step
    as long as the last would end past the limit, so the answer comes within it."""
    now = [0.0]
    done = time_limit(lambda: now[0], 0.35)()
    answers = []
    for step in (0.1, 0.1, 0.1):
        now[0] += step
        answers.append(done())
    assert answers == [False, False, True]  # at 0.3 s: a step of 0.1 would end at 0.4
    done = time_limit(lambda: now[0], 0.35)()  # each decision starts its own
    now[0] += 0.05
    assert not done()


def test_search_keys_name_copies_of_a_card_as_one_choice() -> None:
    assert key(("play", "A01")) == key(("play", "A02")) == ("play", "blam")
    assert key("F03") == "F03" and key("road") == "road"


def test_levels_are_stable_and_all_make_bots() -> None:
    assert LEVELS == ("random", "greedy", "easy", "medium", "hard", "expert")
    for level in LEVELS:
        assert hasattr(make_bot(level, 1), "choose")
    with pytest.raises(ValueError):
        make_bot("grandmaster", 1)


def test_make_bot_with_a_clock_bounds_search_levels() -> None:
    ticks = iter(range(10**6))
    bot = make_bot("hard", 1, clock=lambda: float(next(ticks)))
    state = new_game(2, 4)
    d = state.open[0]
    assert bot.choose(view(state, d.player), d) in d.values()
    # one sample, played out once for each option, then the clock says stop
    options = len([o for o in d.options if o.value != BACK])
    assert isinstance(bot, ExpertBot) and bot.last_iterations == options < bot.preset.iterations


def test_selfplay_mixes_levels_without_errors() -> None:
    summary = selfplay(2, 2, ["greedy", "random"], seed=3)
    assert summary.games == 2 and summary.errors == 0
    assert summary.stats["greedy"].seats == 2 and summary.stats["random"].seats == 2


def test_the_random_bot_picks_each_option_but_back_alike_and_the_same_for_a_seed() -> None:
    """docs/bots.md `random`: any offered option, never "back"; seeded, so a seed replays its
    choices. 3,000 draws among three options and Back: each option near a third (each bound is
    nearly eight standard deviations from 1,000; an index off by one misses an option or picks
    Back)."""
    options = (Option("a", "A"), Option(("play", "A11"), "B"), Option("c", "C"), Option(BACK, "Back"))
    d = Decision(1, 0, DecisionKind.TARGET, "?", options)
    bot, again, other = RandomBot(5), RandomBot(5), RandomBot(6)
    picks = [bot.choose(None, d) for _ in range(3000)]
    assert Counter(picks).keys() == {"a", ("play", "A11"), "c"}
    assert all(800 < n < 1200 for n in Counter(picks).values())
    assert [again.choose(None, d) for _ in range(3000)] == picks
    assert [other.choose(None, d) for _ in range(3000)] != picks
    one = Decision(2, 0, DecisionKind.TARGET, "?", options[:1] + options[3:])
    assert {RandomBot(s).choose(None, one) for s in range(20)} == {"a"}
