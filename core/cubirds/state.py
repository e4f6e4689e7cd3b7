"""The CuBirds game state: plain data, one seeded generator, a fast clone and a validating dict form."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from core.cubirds.cards import ALL_IDS, FORMAT, MAX_PLAYERS, MIN_PLAYERS, ROWS, SPECIES, SPECIES_OF, STEPS
from core.decisions import Decision, DecisionKind
from core.reading import read_state
from core.rng import seed_state

GAME: Final = "cubirds"
"""The game id, in the dict form, records and the game registry (core.games)."""


class Ending(StrEnum):
    """Why the game ended."""

    COLLECTION = "collection"  # C5.1: a collection of 7 species, or 3 birds of each of 2 species
    DEAL = "deal"  # C5.3: 8 cards could not be dealt to every player
    TURNS = "turns"  # C5.4: the safety stop


Cards = tuple[str, ...]


@dataclass(slots=True)
class GameState:
    """Everything about one game of CuBirds. Changed only by `core.cubirds.rules.apply` (and
    `new_game`). Piles keep their top card at the end of the list; rows run left to right.
    docs/engine.md ("CuBirds") describes every field."""

    players: int
    seed: int
    rng: int
    draw: list[str]
    """The face-down draw pile (C6.1: its order is private to the engine)."""
    discard: Cards
    rows: list[Cards]
    hands: list[Cards]
    collections: list[Cards]
    """The public piles and the hands are tuples, replaced rather than changed: a view and a
    clone share them instead of copying them at every decision."""
    first: int
    """The first player of the game (C2.4)."""
    active: int
    turn: int
    """Turns begun so far, this one included (C5.4)."""
    round: int
    step: DecisionKind | None
    """The decision the active player faces; None once the game is over."""
    laying: str | None
    """The species chosen to lay this turn (steps lay_row and lay_end)."""
    row: int | None
    """The row chosen to lay on (step lay_end)."""
    over: bool
    ending: Ending | None
    next_id: int
    open: tuple[Decision, ...]
    """The open decision (one while the game runs): a function of the fields above, asked again
    when a state is loaded."""

    def clone(self) -> GameState:
        """An independent copy, fast enough for search (decisions are immutable)."""
        return GameState(
            self.players,
            self.seed,
            self.rng,
            self.draw[:],
            self.discard,
            self.rows[:],
            self.hands[:],
            self.collections[:],
            self.first,
            self.active,
            self.turn,
            self.round,
            self.step,
            self.laying,
            self.row,
            self.over,
            self.ending,
            self.next_id,
            self.open,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data (str, int, bool, None, lists, dicts with str keys): JSON and msgpack safe.
        `next_id` is the id of the open decision, which `core.cubirds.rules.load` asks again."""
        return {
            "format": FORMAT,
            "game": GAME,
            "players": self.players,
            "seed": self.seed,
            "rng": self.rng,
            "draw": self.draw[:],
            "discard": list(self.discard),
            "rows": [list(r) for r in self.rows],
            "hands": [list(h) for h in self.hands],
            "collections": [list(c) for c in self.collections],
            "first": self.first,
            "active": self.active,
            "turn": self.turn,
            "round": self.round,
            "step": self.step.value if self.step else None,
            "laying": self.laying,
            "row": self.row,
            "over": self.over,
            "ending": self.ending.value if self.ending else None,
            "next_id": self.open[0].id if self.open else self.next_id,
        }


def read(d: Any) -> GameState:
    """The state a `to_dict` produced, or a hand-built one (docs/engine.md says which fields
    may be left out), with no decision open yet: `core.cubirds.rules.load` asks it. Raises
    ValueError, saying what is wrong, on corrupt data."""
    return read_state(d, _from_dict)


def all_cards(state: GameState) -> list[str]:
    """Every card id in every place, with repeats if the state is corrupt."""
    out = state.draw + list(state.discard)
    for group in (state.rows, state.hands, state.collections):
        for cards in group:
            out += cards
    return out


def check(state: GameState) -> None:
    """Raises ValueError unless the state's invariants hold (C1.1, C2, C5), one decision open
    while the game runs included."""
    validate(state)
    if not state.over and (len(state.open) != 1 or state.open[0].kind is not state.step):
        raise ValueError(f"the game runs but its open decisions are {state.open} (step {state.step})")


def validate(state: GameState) -> None:
    """Raises ValueError unless the state's invariants hold, whatever is open."""
    cards = all_cards(state)
    if len(cards) != len(ALL_IDS) or set(cards) != ALL_IDS:
        seen: set[str] = set()
        dup = sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        missing = sorted(ALL_IDS - set(cards))
        unknown = sorted(set(cards) - ALL_IDS)
        raise ValueError(f"cards not accounted for once each: repeated {dup}, missing {missing}, unknown {unknown}")
    if len(state.rows) != ROWS or not all(state.rows):
        raise ValueError(f"there must be {ROWS} rows, none of them empty")
    if state.over != (state.step is None) or state.over != (state.ending is not None):
        raise ValueError("a game is over exactly when it has an ending and no step")
    if state.over and state.open:
        raise ValueError("the game is over but a decision is open")
    if state.step in (DecisionKind.LAY_ROW, DecisionKind.LAY_END):
        if state.laying not in SPECIES:
            raise ValueError(f"step {state.step} needs the species being laid, not {state.laying!r}")
        if all(SPECIES_OF[c] != state.laying for c in state.hands[state.active]):
            raise ValueError(f"the active player holds no {state.laying} to lay")
    if state.step is DecisionKind.LAY_END and not (isinstance(state.row, int) and 0 <= state.row < ROWS):
        raise ValueError(f"step lay_end needs the row being laid on, not {state.row!r}")


def _str_list(v: Any, what: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{what} must be a list of card ids")
    return list(v)


def _lists(v: Any, n: int, what: str) -> list[Cards]:
    if not isinstance(v, list) or len(v) != n:
        raise ValueError(f"{what} must hold {n} lists")
    return [tuple(_str_list(x, what)) for x in v]


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"{what} must be an integer in {lo}..{hi}, not {v!r}")
    return v


def _from_dict(d: dict[str, Any]) -> GameState:
    if d.get("format", FORMAT) != FORMAT:
        raise ValueError(f"unsupported state format {d.get('format')!r} (expected {FORMAT})")
    if d.get("game", GAME) != GAME:
        raise ValueError(f"not a CuBirds state (game {d.get('game')!r})")
    n = _int(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    seed = _int(d.get("seed", 0), "seed", -(1 << 63), (1 << 64) - 1)
    over = d.get("over", False)
    if not isinstance(over, bool):
        raise ValueError(f"over must be true or false, not {over!r}")
    try:
        step = None if over else DecisionKind(d.get("step") or DecisionKind.LAY_SPECIES)
        ending = Ending(d["ending"]) if d.get("ending") is not None else None
    except ValueError as exc:
        raise ValueError(f"unknown step or ending: {exc}") from None
    if step is not None and step not in STEPS:
        raise ValueError(f"{step.value!r} is not a step of a CuBirds turn")
    laying = d.get("laying")
    if laying is not None and laying not in SPECIES:
        raise ValueError(f"laying must be a species, not {laying!r}")
    row = d.get("row")
    if row is not None:
        _int(row, "row", 0, ROWS - 1)
    active = _int(d.get("active", 0), "active", 0, n - 1)
    state = GameState(
        players=n,
        seed=seed,
        rng=_int(d.get("rng", seed_state(seed)), "rng", 1, (1 << 64) - 1),
        draw=_str_list(d["draw"], "draw"),
        discard=tuple(_str_list(d.get("discard", []), "discard")),
        rows=_lists(d["rows"], ROWS, "rows"),
        hands=_lists(d["hands"], n, "hands"),
        collections=_lists(d["collections"], n, "collections"),
        first=_int(d.get("first", active), "first", 0, n - 1),
        active=active,
        turn=_int(d.get("turn", 1), "turn", 1, 1_000_000),
        round=_int(d.get("round", 1), "round", 1, 1_000_000),
        step=step,
        laying=laying,
        row=row,
        over=over,
        ending=ending,
        next_id=_int(d.get("next_id", 1), "next_id", 1, 1 << 62),
        open=(),
    )
    validate(state)
    return state
