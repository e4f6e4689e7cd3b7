"""The bots' game sense: a static evaluation of a state and a fast rule-based policy.

Both read a full `GameState`, so they only ever run on a determinized copy (core.bots.determinize),
never on the real game. The policy answers every decision kind in a few microseconds: it drives
the greedy bot's look-ahead and the expert's playouts.
"""

from __future__ import annotations

import random
from typing import Any, Final, Protocol

from core.cards import ACTIONS, CITY_CAPACITY, ActionKind, Rule
from core.decisions import BACK, DONE, PASS, Decision, DecisionKind, OptionValue
from core.effects import targets
from core.flow import BALCONY0, CABLES_I, CROWD_I, STATUE_I, spaces, zindex
from core.house import InfamousEmpty
from core.state import GameState
from core.turn import DRAW, HAND_LIMIT, PLAY

CARD_VALUE: Final = 0.45
"""What one card in hand is worth, in VP, to the evaluation."""
RECALL_COST: Final = 0.22
"""Expected VP the active player loses per extra Flock card in their Invasion (R3.5)."""
KIND_VALUE: Final[dict[ActionKind, float]] = {
    ActionKind.BIRDSEED: 1.0,
    ActionKind.BLAM: 0.85,
    ActionKind.MOUNTAIN: 0.9,
    ActionKind.GUANO: 0.6,
    ActionKind.FINE: 0.55,
    ActionKind.WROOM: 0.5,
    ActionKind.ZOT: 0.5,
    ActionKind.SWEEPER: 0.45,
}
"""How much a bot wants to keep a card of each kind (lowest is discarded first)."""
_KIND: Final[dict[str, ActionKind]] = {cid: row.kind for cid, row in ACTIONS.items()}
_RECALL: Final[dict[str, int]] = {cid: row.recall for cid, row in ACTIONS.items()}


# Enum members read in the policy's hot paths, as module constants: `ActionKind.BLAM` goes
# through EnumType's attribute lookup (~340 ns a read on this interpreter), a global ~20 ns.
_BIRDSEED: Final = ActionKind.BIRDSEED
_BLAM: Final = ActionKind.BLAM
_MOUNTAIN: Final = ActionKind.MOUNTAIN
_GUANO: Final = ActionKind.GUANO
_FINE: Final = ActionKind.FINE
_WROOM: Final = ActionKind.WROOM
_ZOT: Final = ActionKind.ZOT
_SWEEPER: Final = ActionKind.SWEEPER
_INFAMOUS: Final = Rule.INFAMOUS
_STUPID: Final = Rule.STUPID
_LADY_RULE: Final = Rule.LADY
_LAME: Final = Rule.LAME
_ASK_ACTION: Final = DecisionKind.ACTION
_ASK_TARGET: Final = DecisionKind.TARGET
_ASK_DISCARD: Final = DecisionKind.DISCARD
_ASK_PICK: Final = DecisionKind.PICK
_ASK_LAND: Final = DecisionKind.LAND
_ASK_LADY: Final = DecisionKind.LADY
_ASK_BONUS: Final = DecisionKind.BONUS
_ASK_KEEP: Final = DecisionKind.KEEP
_ASK_REACT_SHARE: Final = DecisionKind.REACT_SHARE
_ASK_REACT_FINE: Final = DecisionKind.REACT_FINE
_ASK_REACT_SWEEPER: Final = DecisionKind.REACT_SWEEPER
_ASK_REACT_BIRDSEED: Final = DecisionKind.REACT_BIRDSEED
_ASK_REACT_GUANO: Final = DecisionKind.REACT_GUANO
_RESUME: Final = InfamousEmpty.RESUME


def kind(card: str) -> ActionKind:
    return _KIND[card]


# ---- Evaluation ----------------------------------------------------------------------------


_GUANO_VP: Final[dict[str, int]] = {cid: (2 if row.kind is _MOUNTAIN else 1) for cid, row in ACTIONS.items()}


def points(state: GameState) -> list[int]:
    """R7.1: every seat's score, computed the fast way (core.scoring has the breakdown)."""
    trophies, guano, pigeons = state.trophies, state.guano, state.pigeons
    out = []
    for s in range(state.players):
        home = BALCONY0 + s
        vp = 0
        for t in trophies[s]:
            vp += t.vp
        for c in guano[home]:
            vp -= _GUANO_VP[c]
        out.append(vp - len(pigeons[home]))
    return out


def totals(state: GameState) -> list[float]:
    """Each seat's worth: its score (R7.1) plus what its hand may still bring."""
    hands = state.hands
    return [v + CARD_VALUE * len(hands[s]) for s, v in enumerate(points(state))]


def invasion_cost(state: GameState, seat: int) -> float:
    """Expected VP `seat` loses to its own Invasion if it is still to come this turn: each recall
    reveals one more Flock card (R3.5), and an Infamous Pigeon in the Flock deck, revealed, lands
    on the active Balcony (R4.1): sent back into a near-empty deck (R4.6) it comes straight home."""
    if state.over or state.active != seat:
        return 0.0
    recall = 0
    for c in state.played:
        recall += _RECALL[c]
    cost = RECALL_COST * recall
    flock = state.flock
    if flock and len(flock) <= INFAMOUS_WATCH:
        book = state.book
        if any(book[c].rule is _INFAMOUS for c in flock):
            cost += min(1.0, (1 + recall) / len(flock))
    return cost


INFAMOUS_WATCH: Final = 6
"""Flock deck sizes at which the Infamous Pigeon's return is worth counting (a bigger deck
rarely reveals it this turn, and the policy never sends it back there)."""


def relative(values: list[float], seat: int) -> float:
    """A seat's standing: its worth against the best and the average of its rivals."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - 0.5 * (max(others) + sum(others) / len(others))


def evaluate(state: GameState, seat: int) -> float:
    return relative(totals(state), seat)


def weights(state: GameState, seat: int) -> list[float]:
    """How much hurting each seat helps `seat`: the leading rival most; `seat` itself -1."""
    vals = points(state)
    vals[seat] = -(1 << 30)
    best = max(vals)
    out = [1.0 if v == best else 0.55 for v in vals]
    out[seat] = -1.0
    return out


def zone_worth(z: int, w: list[float]) -> float:
    """What a pigeon sitting in Zone z is worth to the seat whose weights are `w`."""
    return w[z - BALCONY0] if z >= BALCONY0 else 0.0


# ---- The policy ----------------------------------------------------------------------------


class Chooser(Protocol):
    """Anything that answers a decision on a full state: the fast policy, or a playout policy."""

    def choose(self, state: GameState, d: Decision) -> OptionValue: ...


class Policy:
    """Fast rule-based choices for any decision on a full state, with a little seeded noise."""

    def __init__(self, rng: random.Random, noise: float = 0.15) -> None:
        self.rng = rng
        self.noise = noise

    def choose(self, state: GameState, d: Decision) -> OptionValue:
        values = [o.value for o in d.options if o.value != BACK]
        if len(values) == 1:
            return values[0]
        scored = self.rank(state, d, values)
        noise, rnd = self.noise, self.rng.random
        best, best_v = values[0], float("-inf")
        for v, s in zip(values, scored, strict=True):
            s += noise * rnd()
            if s > best_v:
                best, best_v = v, s
        return best

    def rank(self, state: GameState, d: Decision, values: list[OptionValue]) -> list[float]:
        """A score per option value (higher is better) for the decision's player."""
        p = d.player
        k = d.kind
        if k is _ASK_ACTION:
            w = weights(state, p)
            return [action_value(state, p, v, w) for v in values]
        if k is _ASK_DISCARD:
            return [-KIND_VALUE[_KIND[str(v)]] for v in values]
        if k is _ASK_KEEP:
            return [2.0 if _KIND[str(v)] is _MOUNTAIN else 1.0 for v in values]
        frame = state.stack[-1]
        if k is _ASK_LAND and frame["k"] == "enter":
            return [_entry_value(state, p, _z(state, v)) for v in values]
        w = weights(state, p)  # the kinds below weigh the seats
        if k is _ASK_TARGET:
            if frame["k"] == "redirect":
                return [_zone_pref(state, p, _z(state, v), w) for v in values]
            card = frame["card"]
            return [target_value(state, p, card, _z(state, v), w) for v in values]
        if k is _ASK_PICK:
            return [_pick_value(state, frame, p, v, w) for v in values]
        if k is _ASK_LAND:
            return [_zone_pref(state, p, _z(state, v), w) for v in values]
        if k is _ASK_LADY:
            z = frame["zone"]
            return [0.1 if v == DONE else _lady_value(state, str(v), z, w) for v in values]
        if k is _ASK_BONUS:
            z = frame["zone"]
            return [0.0 if v == DONE else _guano_here(state, p, str(v), z, w, bonus=True) for v in values]
        return [0.0 if v == PASS else react_value(state, p, k, frame, str(v), w) for v in values]


def _z(state: GameState, zone: OptionValue) -> int:
    return zindex(state, str(zone))


def fine_risk(state: GameState, p: int, spent: int = 1) -> float:
    """Expected loss from being fined after playing Birdseed or guano (R5.5), on the hand
    left after spending `spent` cards."""
    return min(0.45, 0.13 * (state.players - 1)) * CARD_VALUE * max(0, len(state.hands[p]) - spent)


def action_value(state: GameState, p: int, v: OptionValue, w: list[float]) -> float:
    hand = state.hands[p]
    if v == DRAW:
        missing = HAND_LIMIT - len(hand)
        return CARD_VALUE * missing + (0.6 if len(hand) <= 1 else 0.0) - 0.05
    assert isinstance(v, tuple)
    verb, card = v[0], str(v[1])
    if verb == PLAY:
        best = float("-inf")
        for z in targets(state, p, card):
            t = target_value(state, p, card, z, w)
            if t > best:
                best = t
        return best - KIND_VALUE[_KIND[card]] * 0.35
    # R3.2: convert a card of the Balcony
    if card[0] == "F":
        if state.book[card].rule is _INFAMOUS and infamous_lost(state):
            return -1.0  # R4.6: it goes back alone, no trophy, and my own Invasion reveals it again
        return 2.0 - 2 * CARD_VALUE
    if _KIND[card] is _MOUNTAIN:
        return 4.0 - 2 * CARD_VALUE
    return 2.0 - CARD_VALUE


def infamous_lost(state: GameState) -> bool:
    """R4.6: an Infamous Pigeon converted now goes back alone for nothing (the Flock deck is
    empty and the house rule infamous_empty is the book's `resume`)."""
    return not state.flock and state.house.infamous_empty is _RESUME


def target_value(state: GameState, p: int, card: str, z: int, w: list[float]) -> float:
    """The gain of playing `card` onto Zone z, in VP for `p`, net of its recall cost."""
    k = _KIND[card]
    recall = _RECALL[card] * RECALL_COST if state.active == p else 0.0
    pig = state.pigeons
    book = state.book
    if k is _WROOM or k is _ZOT:
        escape = 1.2 if infamous_lost(state) else 0.3  # R4.6: the Infamous escapes into the Flock deck
        infamous = 0
        for q in pig[z]:
            if book[q].rule is _INFAMOUS:
                infamous += 1
        n = len(pig[z]) - infamous * escape
        return n * 1.0 - recall - 0.3 * (state.players - 2) * 0.3
    if k is _BLAM:
        if not pig[z]:
            return -recall  # R5: it takes nothing; only its recall counts
        if z == STATUE_I:
            conv = min(2, len(pig[z]))
            gain = float(conv)
        else:
            conv = 1
            mine = [book[q].rule for q in pig[z]]
            # R4.6: an Infamous Pigeon alone, with the Flock deck empty, comes back at my Invasion
            gain = -0.5 if all(r is _INFAMOUS for r in mine) and infamous_lost(state) else 2.0
        rest = [q for q in pig[z] if book[q].rule is not _STUPID]
        rest = rest[conv:] if len(rest) > conv else []
        return gain + _scare_gain(state, p, z, len(rest), w) - recall
    if k in (_GUANO, _MOUNTAIN):
        return _guano_here(state, p, card, z, w) - fine_risk(state, p)
    if k is _BIRDSEED:
        return _birdseed_gain(state, p, z, w) - recall - fine_risk(state, p)
    if k is _SWEEPER:
        best = max((2.0 if _KIND[c] is _MOUNTAIN else 1.0) for c in state.guano[z])
        return best - recall
    return -1.0


def _scare_gain(state: GameState, p: int, z: int, n: int, w: list[float]) -> float:
    """Rough worth of `n` pigeons taking off from Zone z, `p` breaking the ties (R4.2)."""
    if n == 0:
        return 0.0
    here = zone_worth(z, w)
    opp = sorted((w[s] for s in range(state.players) if s != p), reverse=True)
    # they land on the least crowded Zones, Balconies often among them: the chooser spreads them
    empty = [s for s in range(state.players) if s != p and not state.pigeons[BALCONY0 + s]]
    landing = 0.0
    for i in range(n):
        landing += 0.6 * (opp[i % len(opp)] if i < len(empty) + 1 else 0.2)
    return landing - n * here


def _guano_here(state: GameState, p: int, card: str, z: int, w: list[float], bonus: bool = False) -> float:
    vp = 2.0 if _KIND[card] is _MOUNTAIN else 1.0
    if z >= BALCONY0:
        return vp * w[z - BALCONY0]
    if z == CROWD_I:
        book = state.book
        n = sum(1 for q in state.pigeons[z] if book[q].rule is not _STUPID)
        return _scare_gain(state, p, z, n, w) - 0.35 * vp
    return -0.35 * vp - 0.2


def _birdseed_gain(state: GameState, p: int, z: int, w: list[float]) -> float:
    """R5.3: one pigeon from every other Zone that may land on z moves there (the City first,
    then the Balconies clockwise from `p`): the first pigeon of each that fits (R1.2)."""
    extra = 0
    gain = 0.0
    dest = w[z - BALCONY0] if z >= BALCONY0 else 0.0
    n = state.players
    pigeons, book = state.pigeons, state.book
    cap = CITY_CAPACITY[z] if z < BALCONY0 else None
    limited = z < BALCONY0 and (z == CABLES_I or cap is not None)  # else every pigeon fits
    used = spaces(state, z) if limited else 0
    for k in range(BALCONY0 + n):
        src = k if k < BALCONY0 else BALCONY0 + (p + k - BALCONY0) % n
        if src == z:
            continue
        for q in pigeons[src]:
            row = book[q]
            if limited and (
                (z == CABLES_I and row.rule is _LAME) or (cap is not None and used + extra + row.size > cap)
            ):
                continue
            gain += dest - (w[src - BALCONY0] if src >= BALCONY0 else 0.0)
            extra += row.size
            break
    # setting up a trophy: pigeons pulled to the Road, Statue or Cables while holding the card
    if z < CROWD_I:
        want = _HOLD_FOR[z]
        for c in state.hands[p]:
            if _KIND[c] is want:
                return gain + 0.5 * min(2, extra)
    return gain


_HOLD_FOR: Final = (_WROOM, _BLAM, _ZOT)
"""The card that takes a trophy from the Road, the Statue and the Cables (Zones 0, 1, 2)."""


def _zone_pref(state: GameState, p: int, z: int, w: list[float]) -> float:
    """Where `p` would like a pigeon to go (scare ties, redirects)."""
    return zone_worth(z, w) + _city_hold(state, p, z) * 0.3


def _city_hold(state: GameState, p: int, z: int) -> float:
    if z >= BALCONY0 or z == CROWD_I:
        return 0.0
    want = _HOLD_FOR[z]
    for c in state.hands[p]:
        if _KIND[c] is want:
            return 1.0
    return 0.0


def _entry_value(state: GameState, p: int, z: int) -> float:
    return _city_hold(state, p, z) - 0.01 * spaces(state, z)


def _lady_value(state: GameState, pigeon: str, z: int, w: list[float]) -> float:
    src = next(i for i, ps in enumerate(state.pigeons) if pigeon in ps)
    return zone_worth(z, w) - zone_worth(src, w)


def _pick_value(state: GameState, frame: dict[str, object], p: int, v: OptionValue, w: list[float]) -> float:
    if v == DONE:
        return -0.5
    rule = state.book[str(v)].rule
    if frame["k"] == "blam":
        # the trophy: a Stupid Pigeon would stay (not scared by Blam!); the Infamous escapes (R4.6)
        lost = (1.5 if infamous_lost(state) else 0.5) if rule is _INFAMOUS else 0.0
        return (1.0 if rule is _STUPID else 0.0) - lost
    if frame["k"] == "redirect":
        return 1.0
    # Birdseed: a Lady pulls one more for the mover; an Infamous invites guano where it lands
    z = frame["zone"]
    assert isinstance(z, int)
    if rule is _LADY_RULE:
        return 0.5
    if rule is _INFAMOUS:
        return 0.3 * zone_worth(z, w)
    return 0.0


def react_value(
    state: GameState, p: int, k: DecisionKind, frame: dict[str, object], card: str, w: list[float]
) -> float:
    """The gain of playing reaction `card` (0 is passing)."""
    cost = KIND_VALUE[_KIND[card]] * 0.5
    recall = _RECALL[card] * RECALL_COST
    # a reaction's recall feeds the active player's Invasion: good unless that is `p`
    recall_gain = -recall if state.active == p else recall * 0.6 * w[state.active]
    if k is _ASK_REACT_SHARE:
        z = frame["zone"]
        assert isinstance(z, int)
        n = len(state.pigeons[z])
        return n / 2 - 0.5 - cost + recall_gain
    if k is _ASK_REACT_FINE:
        by = frame["by"]
        assert isinstance(by, int)
        lost = len(state.hands[by]) * CARD_VALUE
        return lost * w[by] - cost - 0.4 + recall_gain
    if k is _ASK_REACT_SWEEPER:
        return (len(state.hands[p]) - 1) * CARD_VALUE - cost
    if k is _ASK_REACT_BIRDSEED:
        b = _batch(state)
        home = BALCONY0 + p
        incoming = sum(1 for m in b["moves"] if m[2] == home)
        return incoming * 1.0 - cost - 0.2 + recall_gain
    if k is _ASK_REACT_GUANO:
        z = frame["zone"]
        assert isinstance(z, int)
        return _guano_here(state, p, card, z, w) - fine_risk(state, p) - cost * 0.5
    return -1.0


def _batch(state: GameState) -> dict[str, Any]:
    for f in reversed(state.stack):
        if f["k"] == "batch":
            found: dict[str, Any] = f
            return found
    return {"moves": ()}
