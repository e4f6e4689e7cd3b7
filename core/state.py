"""The game state: plain data, one seeded generator, a fast clone and a validating dict form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from core.cards import (
    ACTION_IDS,
    ALL_IDS,
    CITY,
    DEFAULT_CUSTOM,
    FLOCK_IDS,
    Edition,
    PigeonDef,
    Rule,
    flock_book,
)

# The table's layout and the dict forms that views read too live with the cards (core.frozen):
# a client reads views without loading the state (issue 9). Still importable from here.
from core.cards import MAX_PLAYERS as MAX_PLAYERS
from core.cards import MIN_PLAYERS as MIN_PLAYERS
from core.cards import TrophyView as TrophyView
from core.cards import custom_from_dict as custom_from_dict
from core.cards import custom_to_dict as custom_to_dict
from core.cards import zone_ids as zone_ids
from core.decisions import Decision
from core.frozen import freeze as freeze
from core.frozen import thaw
from core.house import BOOK, HouseRules
from core.reading import read_state
from core.rng import seed_state

FORMAT: Final = 1
"""Version of the dict form written by `to_dict`."""
HAND_LIMIT: Final = 5
"""R3.3: no hand ever holds more cards (drawing stops there; a returned Fine was in it before)."""
REMOVED: Final = {2: 16, 3: 16, 4: 12, 5: 6, 6: 0}
"""R2.1: Flock cards removed unseen at setup, by player count; no card enters or leaves them later."""


@dataclass(frozen=True, slots=True)
class Trophy:
    cards: tuple[str, ...]
    vp: int
    hidden: bool = False
    """Taken face down (R4.6): a pigeon worth 1 VP whose face nobody may see (R8.1)."""
    public: TrophyView = field(init=False, repr=False, compare=False)
    """What every seat sees of it (R8): made once, since a view shows every trophy."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "public", TrophyView(() if self.hidden else self.cards, self.vp))


@lru_cache(maxsize=1024)
def trophy(cards: tuple[str, ...], vp: int, hidden: bool = False) -> Trophy:
    """Trophy(cards, vp, hidden), made once per value and shared (trophies are immutable): a
    frozen dataclass with a derived field costs about 10k machine instructions to build here."""
    return Trophy(cards, vp, hidden)


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`cards` less the first `card` (as list.remove; raises ValueError if it is not there)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def less(cards: list[str], card: str) -> list[str]:
    """A new list: `cards` less the first `card` (raises ValueError if it is not there). Hands
    and trophies are replaced, never changed in place, so that a clone shares them."""
    out = cards.copy()
    out.remove(card)
    return out


@dataclass(slots=True)
class GameState:
    """Everything about one game. Changed only inside `core.rules.apply` (and `new_game`).

    Zones are indexed: 0..3 are CITY, 4 + s is the Balcony of seat s. Decks keep their top
    card at the end of the list. docs/engine.md describes every field.
    """

    edition: Edition
    players: int
    seed: int
    custom: tuple[PigeonDef, PigeonDef]
    rng: int
    flock: list[str]
    deck: list[str]
    discard: list[str]
    played: list[str]
    removed: list[str]
    air: list[str]
    """Cards between two places: a revealed pigeon before it lands, guano before it resolves."""
    hands: list[list[str]]
    """Per seat. Lists replaced whole on a change (`less`), never changed in place once setup
    has dealt them: a clone copies the outer list only."""
    pigeons: list[tuple[str, ...]]
    """Per Zone, in arrival order. Tuples, replaced whole on a change: a view shares them, a
    clone copies the outer list only."""
    guano: list[tuple[str, ...]]
    trophies: list[list[Trophy]]
    """Per seat, replaced whole on a change like `hands`."""
    first: int
    active: int
    turn: int
    actions_left: int
    final_left: int | None
    """Turns left in the final phase (R6.1), None outside it."""
    over: bool
    next_id: int
    stack: list[dict[str, Any]]
    """The rest of the current turn, as frames run top (end) first; frames are never mutated."""
    open: list[Decision]
    book: Mapping[str, PigeonDef]
    """Flock card id -> row for this edition and custom cards (derived, shared, not saved)."""
    blind_windows: bool = False
    """R5.7 on a table with humans: every seat the rules let react is asked, cards or not."""
    house: HouseRules = BOOK
    """The host's house rules (`core.house`): `infamous_empty` (R4.6)."""
    seen: Any = field(default=None, repr=False, compare=False)
    """Not game data: `core.views` keeps here the public parts it built last (the Zones and
    trophies as views), to share them while they stay the same; never saved."""
    unread: Any = field(default=None, repr=False, compare=False)
    """Not game data: a weak reference (or a list of them) to the views `core.views.glance` made
    of this state and nobody has read yet (None: none), which `core.rules.apply` builds before it
    changes the state."""

    def clone(self) -> GameState:
        """An independent copy, fast enough for search (frames and decisions are immutable).

        Its slots are set one by one rather than through __init__, whose call of 29 arguments
        cost a quarter of a clone; tests/core/test_serialization.py checks that every field is set."""
        new = _new_state(GameState)
        new.edition = self.edition
        new.players = self.players
        new.seed = self.seed
        new.custom = self.custom
        new.rng = self.rng
        new.flock = self.flock.copy()
        new.deck = self.deck.copy()
        new.discard = self.discard.copy()
        new.played = self.played.copy()
        new.removed = self.removed.copy()
        new.air = self.air.copy()
        new.hands = self.hands.copy()  # each hand is replaced, never changed: shared
        new.pigeons = self.pigeons.copy()
        new.guano = self.guano.copy()
        new.trophies = self.trophies.copy()  # as hands
        new.first = self.first
        new.active = self.active
        new.turn = self.turn
        new.actions_left = self.actions_left
        new.final_left = self.final_left
        new.over = self.over
        new.next_id = self.next_id
        new.stack = self.stack.copy()
        new.open = self.open.copy()
        new.book = self.book
        new.blind_windows = self.blind_windows
        new.house = self.house
        new.seen = self.seen  # immutable, and checked against the state before each use
        new.unread = None  # the views of this state, not of its copy
        return new

    def zone_ids(self) -> tuple[str, ...]:
        return zone_ids(self.players)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (str, int, bool, None, lists, dicts with str keys): JSON and msgpack safe."""
        ids = self.zone_ids()
        return {
            "format": FORMAT,
            "edition": self.edition.value,
            "players": self.players,
            "seed": self.seed,
            "custom": [custom_to_dict(c) for c in self.custom],
            "rng": self.rng,
            "flock": self.flock[:],
            "deck": self.deck[:],
            "discard": self.discard[:],
            "played": self.played[:],
            "removed": self.removed[:],
            "air": self.air[:],
            "hands": [h[:] for h in self.hands],
            "pigeons": {z: list(self.pigeons[i]) for i, z in enumerate(ids)},
            "guano": {z: list(self.guano[i]) for i, z in enumerate(ids)},
            "trophies": [[[list(t.cards), t.vp, t.hidden] for t in ts] for ts in self.trophies],
            "first": self.first,
            "active": self.active,
            "turn": self.turn,
            "actions_left": self.actions_left,
            "final_left": self.final_left,
            "over": self.over,
            "blind_windows": self.blind_windows,
            "house": self.house.to_dict(),
            "next_id": self.next_id,
            "stack": [thaw(f) for f in self.stack],
            "open": [d.to_dict() for d in self.open],
        }

    @classmethod
    def from_dict(cls, d: Any) -> GameState:
        """The state a `to_dict` produced: waiting on a decision, or over. Raises ValueError, saying
        what is wrong, on corrupt data. A hand-built position that waits on nothing yet is loaded
        by `core.rules.load`, which also checks its frames against the rules and runs it on."""
        state = read(d)
        if not state.over and not state.open:
            raise ValueError("the state waits on no decision: core.rules.load runs a position on to its next decision")
        check(state)
        return state


_new_state: Final = object.__new__


def read(d: Any) -> GameState:
    """The state `d` describes, checked as data but not run (`core.rules.load` runs it on).
    Raises ValueError, saying what is wrong, on corrupt data."""
    return read_state(d, _from_dict)


def _str_list(v: Any, what: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{what} must be a list of card ids")
    return list(v)


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"{what} must be true or false, not {v!r}")
    return v


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"{what} must be an integer in {lo}..{hi}, not {v!r}")
    return v


def _from_dict(d: dict[str, Any]) -> GameState:
    """Fields marked optional in docs/engine.md take their defaults when missing."""
    if d.get("format", FORMAT) != FORMAT:
        raise ValueError(f"unsupported state format {d.get('format')!r} (expected {FORMAT})")
    try:
        edition = Edition(d.get("edition", Edition.V35.value))
    except ValueError:
        raise ValueError(f"unknown edition {d['edition']!r}") from None
    n = _int(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    custom_l = d.get("custom", [custom_to_dict(c) for c in DEFAULT_CUSTOM])
    if not isinstance(custom_l, list) or len(custom_l) != 2:
        raise ValueError("custom must list the two customizable cards")
    custom = (custom_from_dict(custom_l[0]), custom_from_dict(custom_l[1]))
    ids = zone_ids(n)
    hands = d["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise ValueError(f"hands must hold one list per player ({n})")
    trophies_raw = d.get("trophies", [[] for _ in range(n)])
    if not isinstance(trophies_raw, list) or len(trophies_raw) != n:
        raise ValueError(f"trophies must hold one list per player ({n})")
    zones: dict[str, dict[str, Any]] = {}
    for key in ("pigeons", "guano"):
        zones[key] = d.get(key, {})
        if not isinstance(zones[key], dict) or not set(zones[key]) <= set(ids):
            raise ValueError(f"{key} must map Zones among {list(ids)}")
    trophies = [[_trophy(t) for t in ts] for ts in trophies_raw]
    seed = _int(d.get("seed", 0), "seed", -(1 << 63), (1 << 64) - 1)
    rng = _int(d.get("rng", seed_state(seed)), "rng", 1, (1 << 64) - 1)
    final_left = d.get("final_left")
    if final_left is not None:
        _int(final_left, "final_left", 0, n)
    stack = d.get("stack", [{"k": "action"}])
    if not isinstance(stack, list) or not all(isinstance(f, dict) and isinstance(f.get("k"), str) for f in stack):
        raise ValueError("stack must be a list of frames")
    if stack and stack[0]["k"] not in ("action", "end_turn"):
        raise ValueError(
            f"the bottom of the stack is {stack[0]['k']!r}: a turn's stack rests on an 'action' frame (its actions) "
            "or an 'end_turn' frame (under its Invasion), or nothing would be left to do once it resolves"
        )
    big = [s for s, h in enumerate(hands) if isinstance(h, list) and len(h) > HAND_LIMIT]
    if big:
        raise ValueError(
            f"seat {big[0]} holds {len(hands[big[0]])} cards: a hand never holds more than {HAND_LIMIT} (R3.3)"
        )
    removed = _str_list(d.get("removed", []), "removed")
    if len(removed) != REMOVED[n]:
        raise ValueError(
            f"{len(removed)} Flock cards removed: with {n} players setup removes {REMOVED[n]} and no card "
            "enters or leaves them later (R2.1); put the Flock cards a position does not need in the Flock deck"
        )
    active = _int(d.get("active", 0), "active", 0, n - 1)
    state = GameState(
        edition=edition,
        players=n,
        seed=seed,
        custom=custom,
        rng=rng,
        flock=_str_list(d["flock"], "flock"),
        deck=_str_list(d["deck"], "deck"),
        discard=_str_list(d.get("discard", []), "discard"),
        played=_str_list(d.get("played", []), "played"),
        removed=removed,
        air=_str_list(d.get("air", []), "air"),
        hands=[_str_list(h, "hand") for h in hands],
        pigeons=[tuple(_str_list(zones["pigeons"].get(z, []), f"pigeons of {z}")) for z in ids],
        guano=[tuple(_str_list(zones["guano"].get(z, []), f"guano of {z}")) for z in ids],
        trophies=trophies,
        first=_int(d.get("first", active), "first", 0, n - 1),
        active=active,
        turn=_int(d.get("turn", 1), "turn", 1, 1_000_000),
        actions_left=_int(d.get("actions_left", 2), "actions_left", 0, 2),
        final_left=final_left,
        over=_bool(d.get("over", False), "over"),
        blind_windows=_bool(d.get("blind_windows", False), "blind_windows"),
        house=HouseRules.from_dict(d.get("house", {})),
        next_id=_int(d.get("next_id", 1), "next_id", 0, 1 << 62),
        stack=[freeze(f) for f in stack],
        open=[Decision.from_dict(x) for x in d.get("open", [])],
        book=flock_book(edition, custom),
    )
    _check_open(state)
    return state


def _trophy(t: Any) -> Trophy:
    if not isinstance(t, list | tuple) or len(t) not in (2, 3):
        raise ValueError(f"a trophy is [cards, vp] or [cards, vp, hidden], not {t!r}")
    return Trophy(tuple(_str_list(t[0], "trophy cards")), _int(t[1], "trophy vp", 0, 2), len(t) == 3 and bool(t[2]))


def _check_open(state: GameState) -> None:
    """The open decisions against the stack (the frames' kinds are the rules' to check)."""
    ids = [x.id for x in state.open]
    if len(set(ids)) != len(ids) or any(not 0 <= x.player < state.players for x in state.open):
        raise ValueError("open decisions repeat an id or name a seat not at the table")
    if state.open and (state.over or not state.stack):
        raise ValueError("open decisions but no frame to answer them")
    if not state.over and not state.open and not state.stack:
        raise ValueError("the game is neither over nor has anything left to do (empty stack)")


def all_cards(state: GameState) -> list[str]:
    """Every card id in every place, with repeats if the state is corrupt."""
    out = state.flock + state.deck + state.discard + state.played + state.removed + state.air
    for group in (state.hands, state.pigeons, state.guano):
        for cards in group:
            out += cards
    for ts in state.trophies:
        for t in ts:
            out += t.cards
    return out


def check(state: GameState) -> None:
    """Raises ValueError unless the state's invariants hold (R1.1, R1.2, R4.1)."""
    cards = all_cards(state)
    if len(cards) != len(ALL_IDS) or set(cards) != ALL_IDS:
        seen: set[str] = set()
        dup = sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        missing = sorted(ALL_IDS - set(cards))
        unknown = sorted(set(cards) - ALL_IDS)
        raise ValueError(f"cards not accounted for once each: repeated {dup}, missing {missing}, unknown {unknown}")
    flock, actions = set(FLOCK_IDS), set(ACTION_IDS)
    for name, pile, kind in (
        ("flock", state.flock, flock),
        ("removed", state.removed, flock),
        ("deck", state.deck, actions),
        ("discard", state.discard, actions),
        ("played", state.played, actions),
    ):
        if not set(pile) <= kind:
            raise ValueError(f"{name} holds cards of the wrong deck")
    for i, z in enumerate(state.pigeons):
        if not set(z) <= flock:
            raise ValueError(f"{state.zone_ids()[i]} holds Action cards among its pigeons")
    for i, z in enumerate(state.guano):
        if not all(c in actions for c in z):
            raise ValueError(f"{state.zone_ids()[i]} holds Flock cards among its guano")
    for h in state.hands:
        if not set(h) <= actions:
            raise ValueError("a hand holds Flock cards")
    for i in (1, 2):
        spaces = sum(state.book[p].size for p in state.pigeons[i])
        if spaces > 4:
            raise ValueError(f"{CITY[i]} holds {spaces} spaces of pigeons (max 4, R1.2)")
    if any(state.book[p].rule is Rule.LAME for p in state.pigeons[2]):
        raise ValueError("a Lame Pigeon is on the Cables (R1.2)")
    if not state.over and not state.open:
        raise ValueError("the game is neither over nor waiting for a decision")
    if state.over and state.open:
        raise ValueError("the game is over but decisions are open")
