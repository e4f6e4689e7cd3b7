"""Determinization: a full game state consistent with one seat's view (R8), for bots that search.

The hidden cards (other hands, the Action deck's order, the Flock deck's content and order, the
removed Flock cards and the faces of trophies taken blind) are sampled uniformly from the cards
the seat has not seen. The rest of the turn comes from the view's public `flow`; the decision
the seat faces is opened again, and a reaction window is asked again of everyone eligible under
the sampled hands (their answers are hidden from the seat, R5.7).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from core.cards import ACTION_IDS, FLOCK_IDS, flock_book
from core.decisions import Decision
from core.flow import BALCONY0
from core.rules import advance
from core.state import GameState, Trophy
from core.views import PlayerView


class Unseen:
    """The cards a seat has not seen, computed once per view (sorted, so no hash order leaks in)."""

    __slots__ = ("actions", "flock")

    def __init__(self, view: PlayerView) -> None:
        seen: set[str] = set(view.hand) | set(view.discard) | set(view.played) | set(view.air)
        for z in view.zones:
            seen.update(z.pigeons)
            seen.update(z.guano)
        for ts in view.trophies:
            for t in ts:
                seen.update(t.cards)
        self.actions: tuple[str, ...] = tuple(c for c in ACTION_IDS if c not in seen)
        """Action cards in other hands or in the Action deck."""
        self.flock: tuple[str, ...] = tuple(c for c in FLOCK_IDS if c not in seen)
        """Flock cards in the Flock deck, removed, or taken blind as trophies (R4.6)."""


def determinize(view: PlayerView, decision: Decision, rng: random.Random, unseen: Unseen | None = None) -> GameState:
    """A game state consistent with `view`, hidden cards drawn from `rng`, in which `decision`
    (one of the view's open decisions) is open again under the same id and options.

    Raises ValueError if the view cannot be completed (it is not a seat's view with an open
    decision, or the counts do not add up).
    """
    seat = view.seat
    if seat is None or view.over:
        raise ValueError("determinize needs the view of a seat in a running game")
    unseen = unseen or Unseen(view)
    n = view.players
    others = [s for s in range(n) if s != seat]
    actions = list(unseen.actions)
    need = sum(view.hand_sizes[s] for s in others) + view.deck_count
    if len(actions) != need:
        raise ValueError(f"{len(actions)} unseen Action cards for {need} hidden places")
    blind = sum(1 for ts in view.trophies for t in ts if not t.cards)
    flock = list(unseen.flock)
    if len(flock) != view.flock_count + view.removed_count + blind:
        raise ValueError(f"{len(flock)} unseen Flock cards for {view.flock_count + view.removed_count + blind} places")
    rng.shuffle(actions)
    rng.shuffle(flock)

    hands: list[list[str]] = []
    for s in range(n):
        if s == seat:
            hands.append(list(view.hand))
        else:
            k = view.hand_sizes[s]
            hands.append(actions[:k])
            del actions[:k]
    trophies: list[list[Trophy]] = []
    for ts in view.trophies:
        row: list[Trophy] = []
        for t in ts:
            if t.cards:
                row.append(Trophy(t.cards, t.vp))
            else:
                row.append(Trophy((flock.pop(),), t.vp, hidden=True))
        trophies.append(row)
    removed = flock[: view.removed_count]
    deck_flock = flock[view.removed_count :]

    state = GameState(
        edition=view.edition,
        players=n,
        seed=0,
        custom=view.custom,
        rng=rng.getrandbits(64) | 1,
        flock=deck_flock,
        deck=actions,
        discard=list(view.discard),
        played=list(view.played),
        removed=removed,
        air=list(view.air),
        hands=hands,
        pigeons=[z.pigeons for z in view.zones],
        guano=[z.guano for z in view.zones],
        trophies=trophies,
        first=0,
        active=view.active,
        turn=view.turn,
        actions_left=view.actions_left,
        final_left=view.final_left,
        over=False,
        next_id=decision.id + 1,
        stack=_stack(view),
        open=[],
        book=flock_book(view.edition, view.custom),
        house=view.house,
    )
    advance(state, [])
    _reopen(state, seat, decision)
    return state


def _stack(view: PlayerView) -> list[dict[str, Any]]:
    """The public flow as a stack whose top frame asks its question again when stepped."""
    stack = list(view.flow)
    if not stack:
        raise ValueError("the view has no flow to resume")
    for f in stack:
        if any(v is None for k, v in f.items() if k in ("card", "paid")) and f["k"] in ("target", "pay"):
            raise ValueError("the flow holds another player's unannounced move")
    top = stack[-1]
    if top["k"] == "window":
        top = {k: v for k, v in top.items() if k != "plays"}
        if top["w"] == "birdseed" and "seats" in top:
            top = {**top, "seats": _birdseed_seats(view, stack)}
        stack[-1] = top
    if any("plays" in f for f in stack[:-1]):
        raise ValueError("a reaction window below the top of the flow is still open")
    return stack


def _birdseed_seats(view: PlayerView, stack: list[dict[str, Any]]) -> tuple[int, ...]:
    """Seats that may redirect pigeons heading to their Balcony (R5.3), from public facts only:
    the owners of the Balconies the batch below is sending pigeons to, clockwise. (An engine
    whose frame lists only the owners holding a Birdseed, which the seat may not know, under
    `seats`; a frame that lists the rules' `owners` is public as it is.)"""
    for f in reversed(stack[:-1]):
        if f["k"] == "batch":
            owners = {m[2] - BALCONY0 for m in f["moves"] if m[2] >= BALCONY0}
            n, a = view.players, view.active
            return tuple(sorted(owners, key=lambda s: (s - a) % n))
    raise ValueError("a Birdseed window with no batch below it")


def _reopen(state: GameState, seat: int, decision: Decision) -> None:
    """Give the seat's re-asked decision the id of the real one (ids are otherwise fresh)."""
    want = decision.values()
    for i, d in enumerate(state.open):
        if d.player == seat and d.kind is decision.kind and d.values() == want:
            state.open[i] = replace(d, id=decision.id)
            return
    raise ValueError(f"decision {decision.id} ({decision.kind}) did not open again from the view")
