"""Determinization: a CuBirds state consistent with one seat's view (C6), for bots that search.

The hidden cards (other hands and the draw pile, in any order) are dealt uniformly from the
cards the seat has not seen: the view and the random generator are all it reads.
"""

from __future__ import annotations

import random

from core.cubirds.cards import CARD_IDS
from core.cubirds.rules import ask
from core.cubirds.state import GameState
from core.cubirds.views import PlayerView
from core.decisions import Decision


def unseen(view: PlayerView) -> list[str]:
    """The cards in other hands and in the draw pile, in the deck's order."""
    seen = set(view.hand)
    seen.update(view.discard)
    for cards in view.rows:
        seen.update(cards)
    for cards in view.collections:
        seen.update(cards)
    return [c for c in CARD_IDS if c not in seen]


def determinize(view: PlayerView, decision: Decision, rng: random.Random, hidden: list[str] | None = None) -> GameState:
    """A state consistent with `view`, hidden cards dealt by `rng`, in which `decision` (the
    seat's open decision) is open again under the same id and options.

    Raises ValueError if the view cannot be completed (not a seat's view with this decision
    open, or counts that do not add up).
    """
    seat = view.seat
    if seat is None or view.over or decision not in view.decisions:
        raise ValueError("determinize needs the view of a seat with this decision open")
    pool = list(hidden if hidden is not None else unseen(view))
    need = view.draw_count + sum(k for s, k in enumerate(view.hand_sizes) if s != seat)
    if len(pool) != need:
        raise ValueError(f"{len(pool)} unseen cards for {need} hidden places")
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    at = 0
    for s, k in enumerate(view.hand_sizes):
        if s == seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(pool[at : at + k]))
            at += k
    state = GameState(
        players=view.players,
        seed=0,
        rng=rng.getrandbits(64) | 1,
        draw=pool[at:],
        discard=view.discard,
        rows=list(view.rows),
        hands=hands,
        collections=list(view.collections),
        first=view.first,
        active=view.active,
        turn=view.turn,
        round=view.round,
        step=decision.kind,
        laying=view.laying,
        row=view.row,
        over=False,
        ending=None,
        next_id=decision.id,
        open=(),
    )
    ask(state, [])
    if not state.open or state.open[0] != decision:
        raise ValueError(f"decision {decision.id} ({decision.kind}) did not open again from the view")
    return state
