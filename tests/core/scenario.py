"""Hand-built game states for the rule-clause tests (style.md §5.7): `build`, `choose`, `options`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from core.cards import ACTION_IDS, ACTIONS, DEFAULT_CUSTOM, FLOCK_IDS, ActionKind, Edition, FlockKind, flock_book
from core.decisions import Decision, DecisionKind, OptionValue, normalize
from core.events import Event, EventKind
from core.house import BOOK, HouseRules
from core.rng import seed_state
from core.rules import advance, apply
from core.state import REMOVED, GameState, Trophy, check, freeze, zone_ids


def _flock_ids(kind: FlockKind) -> tuple[str, ...]:
    book = flock_book(Edition.V35)
    return tuple(c for c in FLOCK_IDS if book[c].kind is kind)


def _action_ids(kind: ActionKind) -> tuple[str, ...]:
    return tuple(c for c in ACTION_IDS if ACTIONS[c].kind is kind)


FAT = _flock_ids(FlockKind.FAT)
INFAMOUS = _flock_ids(FlockKind.INFAMOUS)
LADY = _flock_ids(FlockKind.LADY)
STUPID = _flock_ids(FlockKind.STUPID)
LAME = _flock_ids(FlockKind.LAME)
COMMON = _flock_ids(FlockKind.COMMON)

BLAM = _action_ids(ActionKind.BLAM)
GUANO = _action_ids(ActionKind.GUANO)
MOUNTAIN = _action_ids(ActionKind.MOUNTAIN)
WROOM = _action_ids(ActionKind.WROOM)
ZOT = _action_ids(ActionKind.ZOT)
BIRDSEED = _action_ids(ActionKind.BIRDSEED)
FINE = _action_ids(ActionKind.FINE)
SWEEPER = _action_ids(ActionKind.SWEEPER)

ACTION: Mapping[str, Any] = {"k": "action"}
"""The default frame: the active player's next action (R3.1)."""


def invasion(left: int = 1) -> list[dict[str, Any]]:
    """A stack that reveals `left` Flock cards, then goes back to the active player's action."""
    return [{"k": "action"}, {"k": "invasion", "left": left}]


def scare(zone: int, by: int = 0, cause: str = "blam") -> list[dict[str, Any]]:
    """A stack that scares Zone `zone` (index), then goes back to the active player's action."""
    return [{"k": "action"}, {"k": "scare", "zone": zone, "by": by, "cause": cause}]


def build(
    players: int = 3,
    edition: str = "3.5",
    *,
    zones: Mapping[str, Sequence[str]] | None = None,
    guano: Mapping[str, Sequence[str]] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    flock: Sequence[str] = (),
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    played: Sequence[str] = (),
    air: Sequence[str] = (),
    trophies: Mapping[int, Sequence[Trophy]] | None = None,
    active: int = 0,
    first: int = 0,
    actions_left: int = 2,
    turn: int = 1,
    final_left: int | None = None,
    stack: Sequence[Mapping[str, Any]] | None = None,
    spare_flock: Literal["removed", "flock"] = "flock",
    spare_actions: Literal["discard", "deck", "played"] = "discard",
    seed: int = 1,
    events: list[Event] | None = None,
    house: HouseRules = BOOK,
    blind_windows: bool = False,
) -> GameState:
    """A game state put together by hand, run on (`core.rules.advance`) to its first open decision.

    Zones are keyed by id ("road", "statue", "cables", "crowd", "b0", ...); decks list their top
    card last. Flock cards placed nowhere go to `removed` as at setup (R2.1), the rest under the Flock
    deck; `spare_flock="removed"` puts them all in `removed` for a Flock deck of exactly `flock` (a
    position no game reaches, which `from_dict` refuses; for the clauses of an empty Flock deck). Action
    cards placed nowhere to the discard pile (or the bottom of the deck, or the played pile).
    `house`: the game's house rules (core.house). The events of the run go into `events` when
    given. Raises ValueError when `core.state.check`
    fails (a card placed twice, a Lame Pigeon on the Cables, ...).
    """
    ids = zone_ids(players)
    zones = dict(zones or {})
    guano = dict(guano or {})
    unknown = (set(zones) | set(guano)) - set(ids)
    if unknown:
        raise ValueError(f"unknown Zones {sorted(unknown)}")
    hands_l = [list(h) for h in (hands or [[] for _ in range(players)])]
    if len(hands_l) != players:
        raise ValueError("one hand per player")
    trophies_l: list[list[Trophy]] = [list((trophies or {}).get(s, ())) for s in range(players)]
    pigeons_l = [tuple(zones.get(z, ())) for z in ids]
    guano_l = [tuple(guano.get(z, ())) for z in ids]

    used: set[str] = set(flock) | set(deck) | set(discard) | set(played) | set(air)
    for group in (hands_l, pigeons_l, guano_l):
        for cards in group:
            used |= set(cards)
    for ts in trophies_l:
        for t in ts:
            used |= set(t.cards)
    spare_f = [c for c in FLOCK_IDS if c not in used]
    spare_a = [c for c in ACTION_IDS if c not in used]

    if spare_flock == "removed":
        flock_l, removed_l = list(flock), spare_f
    else:  # R2.1: as many removed as setup removes (what from_dict accepts), the rest under the Flock
        removed_l, flock_l = spare_f[: REMOVED[players]], spare_f[REMOVED[players] :] + list(flock)
    deck_l, discard_l, played_l = list(deck), list(discard), list(played)
    if spare_actions == "deck":
        deck_l = spare_a + deck_l
    elif spare_actions == "played":
        played_l = played_l + spare_a
    else:
        discard_l = discard_l + spare_a

    ed = Edition(edition)
    state = GameState(
        edition=ed,
        players=players,
        seed=seed,
        custom=DEFAULT_CUSTOM,
        rng=seed_state(seed),
        flock=flock_l,
        deck=deck_l,
        discard=discard_l,
        played=played_l,
        removed=removed_l,
        air=list(air),
        hands=hands_l,
        pigeons=pigeons_l,
        guano=guano_l,
        trophies=trophies_l,
        first=first,
        active=active,
        turn=turn,
        actions_left=actions_left,
        final_left=final_left,
        over=False,
        next_id=1,
        stack=[freeze(dict(f)) for f in (stack if stack is not None else [ACTION])],
        open=[],
        book=flock_book(ed, DEFAULT_CUSTOM),
        blind_windows=blind_windows,
        house=house,
    )
    ev: list[Event] = [] if events is None else events
    advance(state, ev)
    check(state)
    return state


# ---- Reading a state ------------------------------------------------------------------------


def zone(state: GameState, zone_id: str) -> list[str]:
    """The pigeons in a Zone, in arrival order."""
    return list(state.pigeons[state.zone_ids().index(zone_id)])


def guano_on(state: GameState, zone_id: str) -> list[str]:
    """The guano cards in a Zone."""
    return list(state.guano[state.zone_ids().index(zone_id)])


def decisions(state: GameState, player: int) -> list[Decision]:
    return [d for d in state.open if d.player == player]


def decision(state: GameState, player: int) -> Decision:
    """The one open decision of `player` (fails the test if there is not exactly one)."""
    mine = decisions(state, player)
    assert len(mine) == 1, f"player {player} has {len(mine)} open decisions: {state.open}"
    return mine[0]


def asked(state: GameState) -> list[int]:
    """The players with an open decision, in seat order."""
    return sorted({d.player for d in state.open})


def options(state: GameState, player: int) -> list[OptionValue]:
    """The option values offered to `player` by their open decisions."""
    return [v for d in decisions(state, player) for v in d.values()]


def kind(state: GameState, player: int) -> DecisionKind:
    return decision(state, player).kind


def all_strings(data: Any) -> set[str]:
    """Every string anywhere in nested plain data (a view's `to_dict()`, an event)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(all_strings(k) | all_strings(v) for k, v in data.items())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(all_strings(x) for x in data)) if data else set()
    return set()


def kinds(events: Sequence[Event]) -> list[EventKind]:
    return [e.kind for e in events]


def of_kind(events: Sequence[Event], k: EventKind) -> list[Event]:
    return [e for e in events if e.kind is k]


# ---- Choosing --------------------------------------------------------------------------------


def choose(state: GameState, player: int, value: Any) -> list[Event]:
    """Apply `player`'s open decision that offers `value`; returns the events."""
    want = normalize(value)
    for d in decisions(state, player):
        if want in d.values():
            return apply(state, player, d.id, want)
    raise AssertionError(
        f"player {player} is not offered {want!r}; open: {[(d.player, d.values()) for d in state.open]}"
    )


def play(state: GameState, player: int, card: str, target: str | None = None) -> list[Event]:
    """Play `card` as an action, then pick its target Zone if asked."""
    ev = choose(state, player, ("play", card))
    if target is not None:
        ev += choose(state, player, target)
    return ev
