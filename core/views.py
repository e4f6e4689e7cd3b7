"""R8: what one seat may know of a game (or a spectator, seat None). Nothing else leaves the host."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple
from weakref import ref

from core.cards import (
    CITY,
    CITY_CAPACITY,
    Edition,
    PigeonDef,
    TrophyView,
    custom_from_dict,
    custom_to_dict,
    flock_book,
    zone_ids,
)
from core.context import Reaction, invasion_progress, invasion_size, reaction
from core.decisions import Decision
from core.frozen import freeze, slot_constructor, slot_filler, thaw
from core.house import BOOK, HouseRules
from core.scoring import Score, best, tally

if TYPE_CHECKING:  # a client reads views without loading the state (issue 9)
    from core.state import GameState

__all__ = ["PlayerView", "TrophyView", "ZoneView", "glance", "public_frame", "read_glances", "view"]


class ZoneView(NamedTuple):
    id: str
    pigeons: tuple[str, ...]
    guano: tuple[str, ...]


@dataclass(frozen=True, slots=True, weakref_slot=True)
class PlayerView:
    """What one seat may know (R8)."""

    seat: int | None
    players: int
    edition: Edition
    custom: tuple[PigeonDef, PigeonDef]
    turn: int
    active: int
    actions_left: int
    final_left: int | None
    over: bool
    hand: tuple[str, ...]
    """The seat's own hand; empty for a spectator."""
    hand_sizes: tuple[int, ...]
    flock_count: int
    deck_count: int
    removed_count: int
    discard: tuple[str, ...]
    played: tuple[str, ...]
    air: tuple[str, ...]
    """Cards in motion: a revealed pigeon before it lands, guano announced but not resolved."""
    zones: tuple[ZoneView, ...]
    trophies: tuple[tuple[TrophyView, ...], ...]
    decisions: tuple[Decision, ...]
    """This seat's open decisions, never anyone else's (R5.7)."""
    flow: tuple[dict[str, Any], ...] = ()
    """The rest of the turn as frames (docs/engine.md, "What flow shows"), for bots that search.
    Blanked: the active player's move before it is announced (a `target`'s card, a `pay`'s card
    and discards) and the reactions others chose in a window that has not resolved. Choices in
    progress that follow a card played face up (Blam! picks, Birdseed moves, a Birdseed
    redirect's Zone and pigeons) are public: they are announced anyway."""
    blind_windows: bool = False
    """The game's setting (R5.7): every seat the rules let react is asked, cards or not."""
    house: HouseRules = BOOK
    """The game's house rules (core.house), which the table and help show."""
    _source: Any = field(default=None, init=False, repr=False, compare=False)
    """Not view data: (state, seat) of a view `glance` made and nobody has read yet; None once built."""

    def scores(self) -> list[Score]:
        """R7.1 for every seat, from what the view shows."""
        out = []
        for seat in range(self.players):
            home = self.zones[4 + seat]
            trophies = ((t.cards, t.vp) for t in self.trophies[seat])
            out.append(tally(seat, trophies, len(home.pigeons), home.guano, self.hand_sizes[seat]))
        return out

    def winners(self) -> list[int]:
        """R7.2: the seats sharing the win, once the game is over."""
        return best(self.scores()) if self.over else []

    def reaction(self) -> Reaction | None:
        """The reaction window this seat is asked in now, and what it answers (R5.7)."""
        return reaction(self)

    def invasion(self) -> tuple[int, int] | None:
        """The Invasion under way as (Flock cards revealed, of how many) (R3.5); None outside one."""
        return invasion_progress(self)

    def invasion_size(self) -> int:
        """R3.5: Flock cards the Invasion at the end of this turn reveals."""
        return invasion_size(self)

    def action(self) -> int | None:
        """R3.1: which of the turn's two actions the active player is on (1 or 2); None during
        the Invasion and once the game is over."""
        return None if self.over or self.actions_left <= 0 else 3 - self.actions_left

    def spaces(self, zone: str) -> int:
        """R1.4: spaces the pigeons of `zone` (a Zone id) take; a Fat Pigeon takes two."""
        book = self.book
        pigeons = next((z.pigeons for z in self.zones if z.id == zone), ())
        return sum(book[p].size for p in pigeons if p in book)

    @staticmethod
    def capacity(zone: str) -> int | None:
        """R1.2: spaces `zone` (a Zone id) holds at most; None: no limit (the Road, the Crowd,
        the Balconies)."""
        return CITY_CAPACITY[CITY.index(zone)] if zone in CITY else None

    @property
    def book(self) -> Mapping[str, PigeonDef]:
        return flock_book(self.edition, self.custom)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the wire (msgpack/JSON)."""
        return {
            "seat": self.seat,
            "players": self.players,
            "edition": self.edition.value,
            "custom": [custom_to_dict(c) for c in self.custom],
            "turn": self.turn,
            "active": self.active,
            "actions_left": self.actions_left,
            "final_left": self.final_left,
            "over": self.over,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "flock_count": self.flock_count,
            "deck_count": self.deck_count,
            "removed_count": self.removed_count,
            "discard": list(self.discard),
            "played": list(self.played),
            "air": list(self.air),
            "zones": [[z.id, list(z.pigeons), list(z.guano)] for z in self.zones],
            "trophies": [[[list(t.cards), t.vp] for t in ts] for ts in self.trophies],
            "decisions": [d.to_dict() for d in self.decisions],
            "flow": [thaw(f) for f in self.flow],
            "blind_windows": self.blind_windows,
            "house": self.house.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Any) -> PlayerView:
        """Raises ValueError on a malformed view."""
        try:
            return cls(
                seat=d["seat"],
                players=int(d["players"]),
                edition=Edition(d["edition"]),
                custom=(custom_from_dict(d["custom"][0]), custom_from_dict(d["custom"][1])),
                turn=int(d["turn"]),
                active=int(d["active"]),
                actions_left=int(d["actions_left"]),
                final_left=d["final_left"],
                over=bool(d["over"]),
                hand=tuple(d["hand"]),
                hand_sizes=tuple(d["hand_sizes"]),
                flock_count=int(d["flock_count"]),
                deck_count=int(d["deck_count"]),
                removed_count=int(d["removed_count"]),
                discard=tuple(d["discard"]),
                played=tuple(d["played"]),
                air=tuple(d["air"]),
                zones=tuple(ZoneView(z[0], tuple(z[1]), tuple(z[2])) for z in d["zones"]),
                trophies=tuple(tuple(TrophyView(tuple(c), int(vp)) for c, vp in ts) for ts in d["trophies"]),
                decisions=tuple(Decision.from_dict(x) for x in d["decisions"]),
                flow=tuple(freeze(f) for f in d.get("flow", ())),
                blind_windows=bool(d.get("blind_windows", False)),
                house=HouseRules.from_dict(d.get("house", {})),
            )
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise ValueError(f"malformed view: {exc}") from None


_new_view: Final = slot_constructor(PlayerView)
"""PlayerView(...), made faster (view() runs once per decision)."""
_fill_view: Final = slot_filler(PlayerView)
_new_tuple: Final = tuple.__new__
"""Builds the ZoneView NamedTuples without their Python-level __new__: view() runs once per decision."""
_public: Final = attrgetter("public")
_NOTHING: Final[dict[str, tuple[str, ...]]] = {}


def view(state: GameState, player: int | None) -> PlayerView:
    """What `player` may know (R8); None is a spectator, who sees no hand."""
    return _new_view(*_fields(state, player))


def glance(state: GameState, player: int | None) -> PlayerView:
    """`view(state, player)`, built when it is first read, or when `core.rules.apply` is about
    to change the state while the view is still held: a caller that drops it unread (a random
    bot reads nothing but the decision) never pays for it. For a loop that views and applies
    on one thread (core.selfplay): a view handed to another thread must come from `view`, as
    that thread could be building it while this one changes the state."""
    v: PlayerView = _new_unread(_Unread)
    _set_source(v, (state, player))
    unread = state.unread
    if unread is None:
        state.unread = ref(v)  # the common case, one glance a decision: no list
    elif type(unread) is list:
        unread.append(ref(v))
    else:
        state.unread = [unread, ref(v)]
    return v


def read_glances(state: GameState) -> None:
    """Build the views `glance` made of `state` that are still held and unread, before the
    state changes (`core.rules.apply` calls it first thing while `state.unread` is not None)."""
    unread = state.unread
    state.unread = None
    for r in unread if type(unread) is list else (unread,):
        v = r()
        if v is not None and v._source is not None:
            _read(v)


class _Unread(PlayerView):
    """A view `glance` made and nobody has read yet: its slots are empty, so reading any field
    lands in `__getattr__`, which builds it and makes it a plain PlayerView (same slots)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        _read(self)
        return getattr(self, name)

    def __eq__(self, other: object) -> bool:  # dataclass __eq__ wants both of the same class
        _read(self)
        return self == other

    __hash__ = PlayerView.__hash__

    def __repr__(self) -> str:
        _read(self)
        return repr(self)

    def __reduce_ex__(self, protocol: Any) -> Any:  # pickled as the PlayerView it is
        _read(self)
        return self.__reduce_ex__(protocol)


_new_unread: Final = object.__new__
_set_source: Final = PlayerView.__dict__["_source"].__set__
"""Sets `_source` past the frozen __setattr__ (a slot's own descriptor)."""


def _read(v: PlayerView) -> None:
    """Build an `_Unread` view from its source."""
    state, player = v._source
    _fill_view(v, *_fields(state, player))


def _fields(state: GameState, player: int | None) -> tuple[Any, ...]:
    """PlayerView's fields, in order, for `player` (R8)."""
    seen = state.seen  # _public_parts' common case, inlined
    if seen is not None and seen[0] == state.pigeons and seen[1] == state.guano and seen[2] == state.trophies:
        zones, trophies = seen[3], seen[4]
    else:
        zones, trophies = _public_parts(state)
    active = state.active
    private = _PRIVATE_TO_ACTIVE if player != active else _NOTHING
    flow = tuple(state.stack)
    for f in flow:  # loops, not comprehensions (each costs a function call): view() runs once per decision
        if "plays" in f or f["k"] in private:
            flow = tuple([public_frame(f, player, active) for f in flow])
            break
    sizes = []
    for hand in state.hands:  # not tuple(map(len, ...)): a map object costs more than this loop
        sizes.append(len(hand))
    mine = state.open
    if len(mine) != 1 or mine[0].player != player:  # one decision, the viewer's: the common case
        mine = [d for d in mine if d.player == player]
    return (
        player,
        state.players,
        state.edition,
        state.custom,
        state.turn,
        active,
        state.actions_left,
        state.final_left,
        state.over,
        tuple(state.hands[player]) if player is not None else (),
        tuple(sizes),
        len(state.flock),
        len(state.deck),
        len(state.removed),
        tuple(state.discard),
        tuple(state.played),
        tuple(state.air),
        zones,
        trophies,
        tuple(mine),
        flow,
        state.blind_windows,
        state.house,
        None,
    )


def _public_parts(state: GameState) -> tuple[tuple[ZoneView, ...], tuple[tuple[TrophyView, ...], ...]]:
    """The Zones and trophies as every seat sees them. They change at a few decisions only, and
    a host views each state once per seat: the ones built last are kept on the state (`seen`)
    with copies of the lists they were built from, and shared while the lists still hold the
    same tuples and trophies (list equality checks identity first, so the check is quick)."""
    seen = state.seen or _NOT_SEEN
    pigeons, guano, trophies = state.pigeons, state.guano, state.trophies
    same_zones = seen[0] == pigeons and seen[1] == guano
    if seen[2] == trophies:
        if same_zones:
            return seen[3], seen[4]
        public, kept = seen[4], seen[2]  # trophies change far less often than Zones: kept apart
    else:
        public = tuple([tuple(map(_public, ts)) if ts else () for ts in trophies])
        kept = trophies.copy()  # each seat's list is replaced, never changed (GameState.trophies)
    if same_zones:
        zones, pigeons, guano = seen[3], seen[0], seen[1]
    else:
        ids = zone_ids(state.players)
        zones = tuple(map(_new_tuple, repeat(ZoneView, len(ids)), zip(ids, pigeons, guano, strict=True)))
        pigeons, guano = pigeons.copy(), guano.copy()
    state.seen = (pigeons, guano, kept, zones, public)
    return zones, public


_NOT_SEEN: Final[tuple[Any, ...]] = ([], [], [None], (), ())
"""A `seen` no state matches (a state has Zones, and no seat's trophies are None)."""


_PRIVATE_TO_ACTIVE: Final = {"target": ("card",), "pay": ("card", "paid")}
"""Frames of a move the active player has not announced yet: which card, which discards."""


def public_frame(f: dict[str, Any], viewer: int | None, active: int) -> dict[str, Any]:
    """A frame as `viewer` may see it (R8): others' unresolved reactions and the active
    player's unannounced choices are blanked."""
    if "plays" in f:
        return {**f, "plays": tuple(p for p in f["plays"] if p[0] == viewer)}
    hidden = _PRIVATE_TO_ACTIVE.get(f["k"])
    if hidden and viewer != active:
        return {**f, **{key: None for key in hidden}}
    return f
