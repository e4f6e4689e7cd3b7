"""CuBirds bots: legal choices for every kind of decision, and fair by construction (C6)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from core.cubirds import GameState, apply, new_game, view
from core.cubirds.bots import LEVELS, Bot, make_bot
from core.cubirds.bots.determinize import determinize, unseen
from core.cubirds.bots.greedy import GreedyBot
from core.cubirds.bots.random import RandomBot
from core.cubirds.bots.search import Preset, SearchBot
from core.cubirds.cards import STEPS
from core.cubirds.state import check
from core.decisions import BACK, Decision, DecisionKind

TINY = Preset(iterations=12, horizon=2, seconds=0.0, width=4)
"""A small search budget, enough to exercise the whole search in tests."""
MAKERS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": lambda seed: SearchBot(seed, TINY),
}


def decision_points(games: int, seed: int = 0) -> Iterator[tuple[GameState, Decision]]:
    """Every decision of seeded games of random bots over 2 to 5 players, the state before it."""
    for g in range(games):
        players = 2 + g % 4
        state = new_game(players, seed + g)
        bots = [RandomBot(seed * 100 + g * 7 + s) for s in range(players)]
        while not state.over:
            d = state.open[0]
            yield state, d
            apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))


def kind_samples() -> dict[DecisionKind, list[tuple[GameState, Decision]]]:
    """Three decision points of each kind."""
    out: dict[DecisionKind, list[tuple[GameState, Decision]]] = {}
    for state, d in decision_points(20, seed=300):
        got = out.setdefault(d.kind, [])
        if len(got) < 3:
            got.append((state.clone(), d))
        if len(out) == len(STEPS) and all(len(v) == 3 for v in out.values()):
            break
    return out


SAMPLES = kind_samples()


def test_samples_cover_every_decision_kind() -> None:
    assert set(SAMPLES) == STEPS


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("kind", sorted(STEPS))
def test_every_decision_kind_gets_an_offered_option(name: str, kind: DecisionKind) -> None:
    """Each bot answers each kind with an option the engine offered, never stepping back."""
    for i, (state, d) in enumerate(SAMPLES[kind]):
        choice = MAKERS[name](i).choose(view(state, d.player), d)
        assert choice in d.values() and choice != BACK
        apply(state.clone(), d.player, d.id, choice)


def test_bots_make_only_legal_choices_over_whole_games() -> None:
    """Whole games of mixed bots: `apply` accepts every choice."""
    for g in range(4):
        players = 2 + g
        state = new_game(players, 1000 + g)
        bots = [MAKERS[n](g) for n in ("greedy", "search", "random", "greedy", "search")][:players]
        while not state.over:
            d = state.open[0]
            apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))
        assert state.over


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_made_and_answers(level: str) -> None:
    state = new_game(2, 4)
    d = state.open[0]
    assert make_bot(level, 1).choose(view(state, d.player), d) in d.values()
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", 1)


def test_a_search_out_of_time_still_answers() -> None:
    """A deadline already past: the search answers at once with an offered option."""
    bot = SearchBot(1, Preset(iterations=10_000, horizon=0, seconds=0.0), lambda: lambda: True)
    for state, d in next(iter(SAMPLES.values())):
        assert bot.choose(view(state, d.player), d) in d.values()


def test_determinized_states_are_legal_and_show_the_seat_the_same_view() -> None:
    """C6: every card accounted for once, and the seat's view of the sample equals its real view
    (its decision open again under the same id); every option applies to it."""
    rng = random.Random(1)
    points = 0
    for i, (state, d) in enumerate(decision_points(12)):
        real = view(state, d.player)
        det = determinize(real, d, rng)
        check(det)
        assert view(det, d.player) == real
        if i % 9 == 0:
            for o in d.options:
                apply(det.clone(), d.player, d.id, o.value)
        points += 1
    assert points > 1000


def test_determinized_hidden_cards_are_the_unseen_ones() -> None:
    """The sampled hands and draw pile hold exactly the cards the seat has not seen, in the
    real counts."""
    rng = random.Random(3)
    for i, (state, d) in enumerate(decision_points(4, seed=90)):
        if i % 7:
            continue
        v = view(state, d.player)
        det = determinize(v, d, rng)
        hidden = [c for s in range(det.players) if s != d.player for c in det.hands[s]] + det.draw
        assert sorted(hidden) == sorted(unseen(v))
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands] and len(det.draw) == len(state.draw)


def redeal(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game with every card `seat` cannot see dealt anew: the other hands and the draw
    pile's order and content (C6.1)."""
    s = state.clone()
    others = [p for p in range(s.players) if p != seat]
    pool = [c for p in others for c in s.hands[p]] + s.draw
    rng.shuffle(pool)
    for p in others:
        k = len(s.hands[p])
        s.hands[p], pool = tuple(pool[:k]), pool[k:]
    s.draw = pool
    s.rng = rng.getrandbits(64) | 1
    return s


def test_determinization_depends_on_the_view_only() -> None:
    """C6.1: dealing the hidden cards of the real game anew changes nothing in the sample."""
    shuffler = random.Random(4)
    for i, (state, d) in enumerate(decision_points(5, seed=120)):
        if i % 3:
            continue
        other = redeal(state, d.player, shuffler)
        a = determinize(view(state, d.player), d, random.Random(i))
        b = determinize(view(other, d.player), d, random.Random(i))
        assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_bots_do_not_peek(name: str) -> None:
    """C6.1, fair by construction: a bot's choice is the same whatever the hidden cards are
    (the other hands and the draw pile dealt anew), since it sees only the view."""
    shuffler = random.Random(5)
    for i, (state, d) in enumerate(decision_points(3, seed=140)):
        if i % 11:
            continue
        other = redeal(state, d.player, shuffler)
        assert MAKERS[name](i).choose(view(state, d.player), d) == MAKERS[name](i).choose(view(other, d.player), d)


def test_determinize_refuses_what_it_cannot_complete() -> None:
    state = new_game(3, 2)
    d = state.open[0]
    with pytest.raises(ValueError, match="view of a seat"):
        determinize(view(state, None), d, random.Random(0))
    v = view(state, d.player)
    with pytest.raises(ValueError, match="unseen cards"):
        determinize(v, d, random.Random(0), hidden=unseen(v)[1:])
