"""The games this engine plays, each described by the same verbs (design.md: a game is a module).

The host, bots, self-play, records and tests run any game through a `Game`, found by its id in
`GAMES`, without naming its rules. Each game keeps its own modules (Pigeons & Guano at the top
of `core/`, CuBirds in `core/cubirds/`); this module only describes them. docs/engine.md ("Games")
lists the verbs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, Protocol, TypeVar

import core.bots as pigeons_bots
import core.cubirds.bots as cubirds_bots
from core import events as pigeons_events
from core import scoring as pigeons_scoring
from core import views as pigeons_views
from core.cards import (
    ACTIONS,
    CUSTOM_SETTINGS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Edition,
    PigeonDef,
    custom_from_text,
    flock_book,
)
from core.cubirds import STEPS as CUBIRDS_KINDS
from core.decisions import REACTIONS, Decision, DecisionKind, OptionValue
from core.house import HOUSE_RULES, HouseRules
from core.levels import Clock as Clock
from core.structs import Struct

if TYPE_CHECKING:
    import core.cubirds as cubirds
    from core import record as pigeons_record
    from core import state as pigeons_state

S = TypeVar("S")
V = TypeVar("V")
E = TypeVar("E")
V_contra = TypeVar("V_contra", contravariant=True)
S_co = TypeVar("S_co", covariant=True)


class _Later:
    """`module.name`, imported at its first call: the engine's moves (rules, setup, records) are
    not loaded by a process that only reads views and events (a client, issue 9 start-up)."""

    __slots__ = ("found", "module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self.found: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target()(*args, **kwargs)

    def target(self) -> Callable[..., Any]:
        if self.found is None:
            self.found = getattr(import_module(self.module), self.name)
        return self.found


def direct(verb: Callable[..., Any]) -> Callable[..., Any]:
    """The function behind a verb, loaded now: a loop that calls a verb for every decision
    (self-play) skips the lazy lookup's extra call."""
    return verb.target() if isinstance(verb, _Later) else verb


SettingValue = str | int | bool | None


class GameBot(Protocol[V_contra]):
    def choose(self, view: V_contra, decision: Decision) -> OptionValue: ...


class GameRecord(Protocol[S_co]):
    """A record: the settings, the seed and the choices, which replay to the identical state."""

    choices: list[tuple[int, int, OptionValue]]
    """(player, decision id, option), appended as they are applied."""

    @property
    def players(self) -> int: ...

    def start(self) -> S_co: ...

    def replay(self) -> S_co: ...

    def to_dict(self) -> dict[str, Any]: ...


class GameScore(Protocol):
    """A seat's score: a frozen dataclass of ints (dataclasses.asdict gives its wire form)."""

    @property
    def seat(self) -> int: ...

    @property
    def total(self) -> int: ...


class Setting(NamedTuple):
    """A setting a game is started with, besides players and seed. (A NamedTuple: every client
    defines it at start, where a frozen dataclass costs six times as much, issue 9.)"""

    name: str
    default: SettingValue
    choices: tuple[SettingValue, ...] = ()
    """The allowed values; empty when any value of the default's type goes (a seat number...)."""
    help: str = ""


class Game(Struct, Generic[S, V, E]):
    """One game's verbs. S is its state, V a seat's view, E an event; each has `to_dict()` and
    comes back through the matching `*_from_dict` (which raises ValueError on bad data). A Struct
    (core.structs), not a frozen dataclass: every client defines it at start, and a dataclass of
    27 fields cost ~12 M instructions to define (issue 9)."""

    id: str
    """The game id of records, settings and the wire: "pigeons", "cubirds"."""
    title: str
    min_players: int
    max_players: int
    settings: tuple[Setting, ...]
    new_game: Callable[[int, int, Mapping[str, SettingValue]], S]
    """(players, seed, settings) -> the state at its first decision. Raises ValueError on a bad
    player count or an unknown or bad setting."""
    pending: Callable[[S], list[Decision]]
    apply: Callable[[S, int, int, object], list[E]]
    """(state, player, decision id, option) -> events; raises IllegalChoice, state unchanged."""
    apply_watching: Callable[[S, int, int, object, Callable[[S], None]], list[E]]
    """`apply`, also calling `at_window(state)` (the last argument) as each event that may open
    a reaction window (see `window_of`) is emitted, with the state as of that event (a host
    shows the board of a reaction window)."""
    window_of: Callable[[E], str | None]
    """The kind of reaction window an event announces, or None (every event of a game without
    reaction windows)."""
    view: Callable[[S, int | None], V]
    """What a seat may know (None: a spectator). Nothing else about a game leaves the host."""
    state_from_dict: Callable[[Any], S]
    view_from_dict: Callable[[Any], V]
    event_from_dict: Callable[[Any], E]
    redact: Callable[[E, int | None], E]
    """An event as a seat may see it (None: a spectator)."""
    describe: Callable[[E, V, Sequence[str] | None], str]
    """One sentence for the log: (event, the reader's view, player names)."""
    scores: Callable[[S], Sequence[GameScore]]
    winners: Callable[[S], list[int]]
    """The seats sharing the win once the game is over; [] before."""
    new_record: Callable[[int, int, Mapping[str, SettingValue]], GameRecord[S]]
    """An empty record of a game started with new_game(players, seed, settings)."""
    record_from_dict: Callable[[Any], GameRecord[S]]
    bot_levels: tuple[str, ...]
    search_levels: frozenset[str]
    """The levels whose bots search for a while: worth worker processes, and thinking long
    enough that a reaction window must keep its minimum time (net.table)."""
    make_bot: Callable[[str, int, Clock | None], GameBot[V]]
    """(level, seed, clock) -> a bot; with a clock, search levels also keep to a time limit.
    Raises ValueError on an unknown level."""
    kinds: frozenset[DecisionKind]
    """The decision kinds this game asks."""
    reactions: frozenset[DecisionKind]
    """Kinds asked of several seats at once (reaction windows), which "pass" declines."""
    view_type: Callable[[], type[V]]
    """The class of its views (to tell which game a view belongs to), looked up when asked: a
    process that plays one game does not load the other's views."""
    card_data: Callable[[], str]
    """Its card data and state format as text: host and client must agree on it (the rules hash)."""
    glance: Callable[[S, int | None], V] | None = None
    """`view`, built when first read (or before the state next changes), for a loop that views
    and applies on one thread (self-play); None: `view` is as cheap."""

    def check_settings(self, settings: Mapping[str, SettingValue]) -> dict[str, SettingValue]:
        """The settings with defaults filled in. Raises ValueError naming an unknown setting or a
        value not among its choices."""
        known = {s.name: s for s in self.settings}
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise ValueError(f"{self.title} has no setting {', '.join(unknown)} (known: {', '.join(known)})")
        out: dict[str, SettingValue] = {}
        for name, s in known.items():
            value = settings.get(name, s.default)
            if s.choices and value not in s.choices:
                raise ValueError(f"{name} must be one of {list(s.choices)}, not {value!r}")
            out[name] = value
        return out


AnyGame = Game[Any, Any, Any]
"""A game whose state, view and event types the caller does not name (the host's view of it)."""


# ---- Pigeons & Guano ----------------------------------------------------------------------

_PIGEONS_SETTINGS: Final = (
    Setting("edition", Edition.V35.value, tuple(e.value for e in Edition), "rules edition (R10)"),
    Setting("first_player", None, (), "the first seat; none: drawn from the seed (R2.4)"),
    Setting("blind_windows", False, (False, True), "ask every seat the rules let react (R5.7)"),
    *(
        Setting(
            r.name,
            r.values[0],
            r.values,
            f"house rule ({r.clause}): " + "; ".join(f"{k}: {v}" for k, v in r.help.items()),
        )
        for r in HOUSE_RULES.values()
    ),
    *(
        Setting(
            name,
            "",
            (),
            "a customizable Flock card (§9), 'name=NAME,size=1..4,places=road+statue+cables+crowd+balcony,"
            "rule=none|fat|infamous|lady|stupid|lame'; empty: a plain Common pigeon",
        )
        for name in CUSTOM_SETTINGS
    ),
)
"""The house rules (core.house) are settings of their own, by their names (`infamous_empty`);
so are the two customizable cards (`custom_1`, `custom_2`: `core.cards.custom_from_text`)."""


class _PigeonsSettings(NamedTuple):
    edition: Edition
    first: int | None
    blind: bool
    house: HouseRules
    custom: tuple[PigeonDef, PigeonDef]


def _pigeons_settings(settings: Mapping[str, SettingValue]) -> _PigeonsSettings:
    s = PIGEONS.check_settings(settings)
    first = s["first_player"]
    if first is not None and not isinstance(first, int):
        raise ValueError(f"first_player must be a seat number, not {first!r}")
    house = HouseRules.from_dict({name: s[name] for name in HOUSE_RULES})
    a, b = (custom_from_text(s[name]) for name in CUSTOM_SETTINGS)  # type: ignore[arg-type]
    return _PigeonsSettings(Edition(str(s["edition"])), first, bool(s["blind_windows"]), house, (a, b))


def _pigeons_new_game(players: int, seed: int, settings: Mapping[str, SettingValue]) -> pigeons_state.GameState:
    from core.setup import new_game

    p = _pigeons_settings(settings)
    return new_game(players, seed, p.edition, p.custom, p.first, p.blind, p.house)


def _pigeons_record(players: int, seed: int, settings: Mapping[str, SettingValue]) -> pigeons_record.Record:
    from core.record import Record

    p = _pigeons_settings(settings)
    return Record(players, seed, p.edition, p.custom, p.first, p.blind, p.house)


def _row(x: Any) -> str:
    """A card table's row as text, field by field (for the rules hash)."""
    if is_dataclass(x) and not isinstance(x, type):
        return repr(tuple(_row(getattr(x, f.name)) for f in fields(x)))
    return repr(x)


def _pigeons_card_data() -> str:
    from core.state import FORMAT

    parts = [f"state-format={FORMAT}"]
    parts += [f"{cid}={_row(r)}" for cid, r in sorted(ACTIONS.items())]
    for edition in Edition:
        parts += [f"{edition.value}:{cid}={_row(r)}" for cid, r in sorted(flock_book(edition).items())]
    return "\n".join(parts)


def _pigeons_describe(event: pigeons_events.Event, seen: pigeons_views.PlayerView, names: Sequence[str] | None) -> str:
    return pigeons_events.describe(event, seen.book, names)


PIGEONS: Final[Game[pigeons_state.GameState, pigeons_views.PlayerView, pigeons_events.Event]] = Game(
    id="pigeons",
    title="Pigeons & Guano",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    settings=_PIGEONS_SETTINGS,
    new_game=_pigeons_new_game,
    pending=_Later("core.rules", "pending"),
    apply=_Later("core.rules", "apply"),
    apply_watching=lambda state, player, did, option, at_window: import_module("core.rules").apply(
        state, player, did, option, at_window=at_window
    ),
    window_of=lambda e: e.window if e.kind is pigeons_events.EventKind.WINDOW else None,
    view=pigeons_views.view,
    state_from_dict=_Later("core.rules", "load"),
    view_from_dict=pigeons_views.PlayerView.from_dict,
    event_from_dict=pigeons_events.Event.from_dict,
    redact=pigeons_events.redact,
    describe=_pigeons_describe,
    scores=pigeons_scoring.scores,
    winners=pigeons_scoring.winners,
    new_record=_pigeons_record,
    record_from_dict=lambda d: import_module("core.record").Record.from_dict(d),
    bot_levels=pigeons_bots.LEVELS,
    search_levels=pigeons_bots.SEARCH,
    make_bot=pigeons_bots.make_bot,
    kinds=frozenset(DecisionKind) - CUBIRDS_KINDS,
    reactions=REACTIONS,
    view_type=lambda: pigeons_views.PlayerView,
    card_data=_pigeons_card_data,
    glance=pigeons_views.glance,
)


# ---- CuBirds ------------------------------------------------------------------------------

_CUBIRDS_SETTINGS: Final = (Setting("first_player", None, (), "the first seat; none: drawn from the seed (C2.4)"),)


def _cubirds_first(settings: Mapping[str, SettingValue]) -> int | None:
    first = CUBIRDS.check_settings(settings)["first_player"]
    if first is not None and not isinstance(first, int):
        raise ValueError(f"first_player must be a seat number, not {first!r}")
    return first


def _cubirds_describe(event: cubirds.Event, seen: cubirds.PlayerView, names: Sequence[str] | None) -> str:
    from core.cubirds.events import describe

    return describe(event, names)


def _cubirds_card_data() -> str:
    from core.cubirds.cards import FORMAT, SPECIES_DEFS

    return "\n".join([f"cubirds-format={FORMAT}", *map(_row, SPECIES_DEFS)])


_cubirds_new_game: Final = _Later("core.cubirds.setup", "new_game")
_cubirds_record: Final = _Later("core.cubirds.record", "Record")

# Every verb is looked up at its first call: a Pigeons & Guano process never loads CuBirds.
CUBIRDS: Final[Game[cubirds.GameState, cubirds.PlayerView, cubirds.Event]] = Game(
    id="cubirds",
    title="CuBirds",
    min_players=2,
    max_players=5,
    settings=_CUBIRDS_SETTINGS,
    new_game=lambda players, seed, settings: _cubirds_new_game(players, seed, _cubirds_first(settings)),
    pending=_Later("core.cubirds.rules", "pending"),
    apply=_Later("core.cubirds.rules", "apply"),
    apply_watching=lambda state, player, did, option, at_window: import_module("core.cubirds.rules").apply(
        state, player, did, option
    ),
    window_of=lambda e: None,
    view=_Later("core.cubirds.views", "view"),
    state_from_dict=_Later("core.cubirds.rules", "load"),
    view_from_dict=lambda d: import_module("core.cubirds.views").PlayerView.from_dict(d),
    event_from_dict=lambda d: import_module("core.cubirds.events").Event.from_dict(d),
    redact=_Later("core.cubirds.events", "redact"),
    describe=_cubirds_describe,
    scores=_Later("core.cubirds.scoring", "scores"),
    winners=_Later("core.cubirds.scoring", "winners"),
    new_record=lambda players, seed, settings: _cubirds_record(players, seed, _cubirds_first(settings)),
    record_from_dict=lambda d: import_module("core.cubirds.record").Record.from_dict(d),
    bot_levels=cubirds_bots.LEVELS,
    search_levels=cubirds_bots.SEARCH,
    make_bot=cubirds_bots.make_bot,
    kinds=CUBIRDS_KINDS,
    reactions=frozenset(),
    view_type=lambda: import_module("core.cubirds.views").PlayerView,
    card_data=_cubirds_card_data,
)


# ---- The registry -------------------------------------------------------------------------

GAMES: Final[Mapping[str, AnyGame]] = {g.id: g for g in (PIGEONS, CUBIRDS)}
"""Game id -> its description, the default first."""
DEFAULT: Final = PIGEONS.id
"""The game played when none is named."""


def game(game_id: str) -> AnyGame:
    """The game of an id. Raises ValueError naming the known ids."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game_id!r} (known: {', '.join(GAMES)})") from None


def record_game(d: Any) -> AnyGame:
    """The game a record's dict form belongs to: its `game` field, or (records made before games
    had ids) Pigeons & Guano's `rules` name. Raises ValueError."""
    if not isinstance(d, dict):
        raise ValueError("a record must be a mapping")
    if "game" in d:
        return game(d["game"])
    from core.record import RULES

    if d.get("rules") == RULES:
        return PIGEONS
    raise ValueError("not a record of any game this engine plays")


def record_from_dict(d: Any) -> GameRecord[Any]:
    """Any game's record from its dict form. Raises ValueError."""
    return record_game(d).record_from_dict(d)


def game_of_view(view: object) -> AnyGame:
    """The game a view (as `view_from_dict` made it) belongs to. Raises ValueError."""
    for g in GAMES.values():  # Pigeons & Guano first: its views never load CuBirds'
        if isinstance(view, g.view_type()):
            return g
    raise ValueError(f"not a view of any game this engine plays: {type(view).__name__}")


def rules_text() -> str:
    """Every game's card data: what the protocol's rules hash digests (net.messages.RULES_HASH).
    Pigeons & Guano's part first, as it was before games had ids."""
    return "\n".join(g.card_data() if g is PIGEONS else f"[{g.id}]\n{g.card_data()}" for g in GAMES.values())
