"""Determinization (core.bots.determinize): a full state consistent with one seat's view (R8)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from core import apply, new_game
from core.bots.determinize import Unseen, determinize
from core.bots.random import RandomBot
from core.cards import ACTION_IDS, FLOCK_IDS
from core.decisions import Decision
from core.state import GameState, Trophy, check
from core.views import PlayerView, view


def public(v: PlayerView) -> PlayerView:
    """The view without the engine's list of Birdseed holders in a Birdseed window frame, which
    R5.7 says is not public (the determinization rebuilds it from public facts)."""
    flow = tuple({k: x for k, x in f.items() if k != "seats"} if f.get("w") == "birdseed" else f for f in v.flow)
    return replace(v, flow=flow)


def decision_points(games: int, seed: int = 0) -> Iterator[tuple[GameState, Decision]]:
    """Every decision of seeded random games of 2 to 6 players, the state before it."""
    for g in range(games):
        players = 2 + g % 5
        state = new_game(players, seed + g)
        bots = [RandomBot(seed * 100 + g * 7 + s) for s in range(players)]
        while not state.over:
            for d in list(state.open):
                yield state, d
            d = state.open[0]
            apply(state, d.player, d.id, bots[d.player].choose(view(state, d.player), d))


def shuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game with every card `seat` cannot see dealt anew: other hands, the Action
    deck's order, the Flock deck, the removed cards and the faces of blind trophies (R8.1)."""
    s = state.clone()
    others = [p for p in range(s.players) if p != seat]
    pool = [c for p in others for c in s.hands[p]] + s.deck
    rng.shuffle(pool)
    for p in others:
        k = len(s.hands[p])
        s.hands[p], pool = pool[:k], pool[k:]
    s.deck = pool
    blind = [t.cards[0] for ts in s.trophies for t in ts if t.hidden]
    flock = s.flock + s.removed + blind
    rng.shuffle(flock)
    s.trophies = [[Trophy((flock.pop(),), t.vp, True) if t.hidden else t for t in ts] for ts in s.trophies]
    s.removed, s.flock = flock[: len(s.removed)], flock[len(s.removed) :]
    s.rng = rng.getrandbits(64) | 1
    return s


def test_determinized_state_is_legal_and_shows_the_seat_the_same_view() -> None:
    """R8: every card accounted for once (core.state.check), and the seat's view of the
    determinized state equals its real view in everything, decisions and flow included."""
    rng = random.Random(1)
    points = 0
    for state, d in decision_points(25):
        real = view(state, d.player)
        det = determinize(real, d, rng)
        check(det)
        assert public(view(det, d.player)) == public(real)
        points += 1
    assert points > 1500


def test_determinized_decision_accepts_every_option() -> None:
    """The seat's decision is open again under its id: each of its options applies cleanly."""
    rng = random.Random(2)
    for i, (state, d) in enumerate(decision_points(6, seed=50)):
        if i % 5:
            continue
        det = determinize(view(state, d.player), d, rng)
        for o in d.options:
            apply(det.clone(), d.player, d.id, o.value)


def test_determinized_hidden_cards_are_the_unseen_ones() -> None:
    """Sampled hands and decks hold exactly the cards the seat has not seen, in the real counts."""
    rng = random.Random(3)
    for i, (state, d) in enumerate(decision_points(4, seed=90)):
        if i % 7:
            continue
        v = view(state, d.player)
        det = determinize(v, d, rng)
        unseen = Unseen(v)
        hidden_actions = sorted(c for p in range(det.players) if p != d.player for c in det.hands[p]) + det.deck
        assert sorted(hidden_actions) == sorted(unseen.actions)
        blind = [t.cards[0] for ts in det.trophies for t in ts if t.hidden]
        assert sorted(det.flock + det.removed + blind) == sorted(unseen.flock)
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
        assert (len(det.flock), len(det.removed), len(det.deck)) == (
            len(state.flock),
            len(state.removed),
            len(state.deck),
        )
        assert set(unseen.actions) <= set(ACTION_IDS) and set(unseen.flock) <= set(FLOCK_IDS)


def test_determinization_depends_on_the_view_only() -> None:
    """R8.1: dealing the hidden cards of the real game anew changes nothing in the sample."""
    shuffler = random.Random(4)
    for i, (state, d) in enumerate(decision_points(5, seed=120)):
        if i % 3:
            continue
        other = shuffle_hidden(state, d.player, shuffler)
        a = determinize(view(state, d.player), d, random.Random(i))
        b = determinize(view(other, d.player), d, random.Random(i))
        assert a.to_dict() == b.to_dict()


def test_determinization_is_seeded() -> None:
    """The same generator seed gives the same sample; another seed gives another deal."""
    state = new_game(4, 7)
    d = state.open[0]
    v = view(state, d.player)
    a = determinize(v, d, random.Random(5)).to_dict()
    assert a == determinize(v, d, random.Random(5)).to_dict()
    others: list[Any] = [determinize(v, d, random.Random(k)).to_dict()["hands"] for k in range(6, 10)]
    assert any(h != a["hands"] for h in others)


def test_determinize_needs_a_seat() -> None:
    state = new_game(3, 8)
    d = state.open[0]
    with pytest.raises(ValueError):
        determinize(view(state, None), d, random.Random(0))
