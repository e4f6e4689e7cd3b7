"""C6: what one seat may know of a game of CuBirds (or a spectator, seat None)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final, NamedTuple

from core.cubirds.cards import LAY_SPECIES, MAX_PLAYERS, MIN_PLAYERS, ROWS, SPECIES
from core.cubirds.scoring import Score, best, tally
from core.cubirds.state import GAME, Ending, GameState
from core.decisions import Decision, DecisionKind

_LAYING: Final = frozenset({DecisionKind.LAY_ROW, DecisionKind.LAY_END})


class PlayerView(NamedTuple):
    """Immutable, and a tuple so that it is built in one call: view() runs once per decision."""

    seat: int | None
    players: int
    round: int
    turn: int
    active: int
    first: int
    over: bool
    ending: Ending | None
    step: DecisionKind | None
    """What the active player is deciding. Others see lay_species until the birds are laid:
    which species and row the player has picked is not announced yet."""
    rows: tuple[tuple[str, ...], ...]
    """The four rows, left to right (public, C6.2)."""
    hand: tuple[str, ...]
    """The seat's own hand; empty for a spectator (C6.1)."""
    hand_sizes: tuple[int, ...]
    collections: tuple[tuple[str, ...], ...]
    draw_count: int
    """The draw pile's size; its order is private (C6.1)."""
    discard: tuple[str, ...]
    """The discard pile, top last (public, C6.2)."""
    decisions: tuple[Decision, ...]
    """This seat's open decisions, never anyone else's."""
    laying: str | None = None
    """The seat's own move in progress: the species it chose to lay (steps lay_row, lay_end)."""
    row: int | None = None
    """...and the row (step lay_end)."""

    @property
    def game(self) -> str:
        return GAME

    def scores(self) -> list[Score]:
        return [tally(s, c, self.hand_sizes[s]) for s, c in enumerate(self.collections)]

    def winners(self) -> list[int]:
        """C5: the seats sharing the win, once the game is over."""
        return best(self.ending, self.collections) if self.over else []

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the wire (msgpack/JSON)."""
        return {
            "game": GAME,
            "seat": self.seat,
            "players": self.players,
            "round": self.round,
            "turn": self.turn,
            "active": self.active,
            "first": self.first,
            "over": self.over,
            "ending": self.ending.value if self.ending else None,
            "step": self.step.value if self.step else None,
            "rows": [list(r) for r in self.rows],
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "collections": [list(c) for c in self.collections],
            "draw_count": self.draw_count,
            "discard": list(self.discard),
            "decisions": [d.to_dict() for d in self.decisions],
            "laying": self.laying,
            "row": self.row,
        }

    @classmethod
    def from_dict(cls, d: Any) -> PlayerView:
        """Raises ValueError on a malformed view."""
        try:
            if d.get("game", GAME) != GAME:
                raise ValueError(f"not a CuBirds view (game {d.get('game')!r})")
            seat = d["seat"]
            laying = d.get("laying")
            row = d.get("row")
            v = cls(
                seat=None if seat is None else int(seat),
                players=int(d["players"]),
                round=int(d["round"]),
                turn=int(d["turn"]),
                active=int(d["active"]),
                first=int(d["first"]),
                over=bool(d["over"]),
                ending=Ending(d["ending"]) if d.get("ending") is not None else None,
                step=DecisionKind(d["step"]) if d.get("step") is not None else None,
                rows=tuple(tuple(map(str, r)) for r in d["rows"]),
                hand=tuple(map(str, d["hand"])),
                hand_sizes=tuple(int(k) for k in d["hand_sizes"]),
                collections=tuple(tuple(map(str, c)) for c in d["collections"]),
                draw_count=int(d["draw_count"]),
                discard=tuple(map(str, d["discard"])),
                decisions=tuple(Decision.from_dict(x) for x in d["decisions"]),
                laying=None if laying is None else str(laying),
                row=None if row is None else int(row),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"malformed CuBirds view: {exc}") from None
        if len(v.rows) != ROWS or len(v.hand_sizes) != v.players or len(v.collections) != v.players:
            raise ValueError("malformed CuBirds view: rows, hand sizes or collections of the wrong length")
        if v.laying is not None and v.laying not in SPECIES:
            raise ValueError(f"malformed CuBirds view: laying {v.laying!r} is not a species")
        return v


def view(state: GameState, player: int | None) -> PlayerView:
    """What `player` may know (C6); None is a spectator, who sees no hand."""
    own = player is not None and player == state.active
    step = state.step
    if not own and step in _LAYING:
        step = LAY_SPECIES
    return _view(
        (
            player,
            state.players,
            state.round,
            state.turn,
            state.active,
            state.first,
            state.over,
            state.ending,
            step,
            tuple(state.rows),
            state.hands[player] if player is not None else (),
            _HAND_SIZES[state.players](state.hands),
            tuple(state.collections),
            len(state.draw),
            state.discard,
            state.open if own else (),
            state.laying if own else None,
            state.row if own else None,
        )
    )


_view: Final = partial(tuple.__new__, PlayerView)
_HAND_SIZES: Final[dict[int, Callable[[list[tuple[str, ...]]], tuple[int, ...]]]] = {
    2: lambda h: (len(h[0]), len(h[1])),
    3: lambda h: (len(h[0]), len(h[1]), len(h[2])),
    4: lambda h: (len(h[0]), len(h[1]), len(h[2]), len(h[3])),
    5: lambda h: (len(h[0]), len(h[1]), len(h[2]), len(h[3]), len(h[4])),
}
"""Players -> the hands' sizes, written out: tuple(map(len, hands)) costs twice as much (a map
object and a tuple of unknown length), and a view is made for every decision."""
assert set(_HAND_SIZES) == set(range(MIN_PLAYERS, MAX_PLAYERS + 1))
