"""A record of a game of CuBirds: the seed and the choices, which replay to the identical state.

The shape of Pigeons & Guano's records (core.record) plus a game id."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.cubirds.rules import apply
from core.cubirds.setup import new_game
from core.cubirds.state import GAME, GameState
from core.decisions import OptionValue, normalize, plain

RULES = "cubirds"
"""The `rules` field of a record, as in Pigeons & Guano's."""


@dataclass(slots=True)
class Record:
    players: int
    seed: int
    first_player: int | None = None
    choices: list[tuple[int, int, OptionValue]] = field(default_factory=list)
    """(player, decision id, option) in the order they were applied."""

    def start(self) -> GameState:
        return new_game(self.players, self.seed, self.first_player)

    def replay(self) -> GameState:
        """The state after every recorded choice. Raises IllegalChoice if a choice does not fit."""
        state = self.start()
        for player, decision_id, option in self.choices:
            apply(state, player, decision_id, option)
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "rules": RULES,
            "seed": self.seed,
            "players": self.players,
            "first_player": self.first_player,
            "choices": [[p, i, plain(o)] for p, i, o in self.choices],
        }

    @classmethod
    def from_dict(cls, d: Any) -> Record:
        """Raises ValueError on anything but a well-formed record of this game."""
        if not isinstance(d, dict) or d.get("game") != GAME:
            raise ValueError(f"not a {GAME} record")
        try:
            first = d.get("first_player")
            return cls(
                players=int(d["players"]),
                seed=int(d["seed"]),
                first_player=None if first is None else int(first),
                choices=[(int(p), int(i), normalize(o)) for p, i, o in d["choices"]],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt record: {exc}") from None
