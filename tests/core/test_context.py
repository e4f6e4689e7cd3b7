"""The view's account of the moment (core.context): the Invasion under way and the reaction
window a seat is asked in, checked against the events of seeded random games."""

from __future__ import annotations

import random

from core.events import EventKind
from core.rules import apply, pending
from core.setup import new_game
from core.views import view


def test_r3_5_invasion_progress_counts_flock_reveals_only() -> None:
    """R3.5: "reveal k of n": n is the size the Invasion began with (cards played during it,
    such as reactions, do not change it) and k counts the Flock cards revealed so far."""
    checked = grown = 0
    for seed in range(12):
        state = new_game(4, seed=seed)
        rng = random.Random(seed)
        size = revealed = 0
        while pending(state):
            d = pending(state)[0]
            for e in apply(state, d.player, d.id, rng.choice(d.values())):
                if e.kind is EventKind.INVASION:
                    size, revealed = e.left, 0
                elif e.kind is EventKind.REVEALED:
                    revealed += 1
            v = view(state, 0)
            progress = v.invasion()
            if progress is not None:
                assert progress == (revealed, size)
                checked += 1
                grown += v.invasion_size() > size
    assert checked > 50 and grown > 0  # some Invasions saw cards played during them


def test_r5_7_the_reaction_asked_is_the_window_open_last() -> None:
    """R5.7: a seat asked to react finds the window's kind (and who played, where) in its view."""
    kinds = set()
    for seed in range(8):
        state = new_game(4, seed=seed)
        rng = random.Random(seed)
        while pending(state):
            for d in pending(state):
                if d.kind.value.startswith("react_"):
                    r = view(state, d.player).reaction()
                    assert r is not None and d.kind.value == f"react_{r.window}"
                    if r.window in ("share", "fine"):
                        assert r.by is not None and r.by != d.player and r.zone is not None and r.card
                    if r.window == "sweeper":
                        assert r.by == d.player and r.fined_by not in (None, d.player)
                    if r.window == "birdseed":
                        assert r.incoming and r.zone == f"b{d.player}"
                    kinds.add(r.window)
            d = pending(state)[0]
            apply(state, d.player, d.id, rng.choice(d.values()))
    assert kinds >= {"share", "fine", "birdseed", "guano"}
