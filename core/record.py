"""A game record: the seed and the choices, which replay to the identical state (R2.5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.cards import DEFAULT_CUSTOM, Edition, PigeonDef
from core.decisions import OptionValue, normalize, plain
from core.house import BOOK, HouseRules
from core.rules import apply
from core.setup import new_game
from core.state import GameState, custom_from_dict, custom_to_dict

RULES = "pigeons-and-guano"
"""The `rules` field of a record: which game it is."""


@dataclass(slots=True)
class Record:
    players: int
    seed: int
    edition: Edition = Edition.V35
    custom: tuple[PigeonDef, PigeonDef] = DEFAULT_CUSTOM
    first_player: int | None = None
    blind_windows: bool = False
    house: HouseRules = BOOK
    """The game's house rules (core.house); records made before them have none: the book's."""
    choices: list[tuple[int, int, OptionValue]] = field(default_factory=list)
    """(player, decision id, option) in the order they were applied."""

    def __post_init__(self) -> None:
        self.edition = Edition(self.edition)

    def start(self) -> GameState:
        return new_game(
            self.players, self.seed, self.edition, self.custom, self.first_player, self.blind_windows, self.house
        )

    def replay(self) -> GameState:
        """The state after every recorded choice. Raises IllegalChoice if a choice does not fit."""
        state = self.start()
        for player, decision_id, option in self.choices:
            apply(state, player, decision_id, option)
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": RULES,
            "edition": self.edition.value,
            "seed": self.seed,
            "players": self.players,
            "custom": [custom_to_dict(c) for c in self.custom],
            "first_player": self.first_player,
            "blind_windows": self.blind_windows,
            "house": self.house.to_dict(),
            "choices": [[p, i, plain(o)] for p, i, o in self.choices],
        }

    @classmethod
    def from_dict(cls, d: Any) -> Record:
        """Raises ValueError on anything but a well-formed record of this game."""
        if not isinstance(d, dict) or d.get("rules") != RULES:
            raise ValueError(f"not a {RULES} record")
        try:
            custom = d.get("custom") or [custom_to_dict(c) for c in DEFAULT_CUSTOM]
            return cls(
                players=int(d["players"]),
                seed=int(d["seed"]),
                edition=Edition(d["edition"]),
                custom=(custom_from_dict(custom[0]), custom_from_dict(custom[1])),
                first_player=d.get("first_player"),
                blind_windows=bool(d.get("blind_windows", False)),
                house=HouseRules.from_dict(d.get("house", {})),
                choices=[(int(p), int(i), normalize(o)) for p, i, o in d["choices"]],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt record: {exc}") from None
