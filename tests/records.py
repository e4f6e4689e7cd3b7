"""A recorded game of any game module, for tests that need one: seeded random bots play it
through the game's own verbs (core.games.Game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.games import Game, SettingValue


def played(
    game: Game[Any, Any, Any],
    seed: int,
    players: int = 3,
    upto: int | None = None,
    settings: Mapping[str, SettingValue] | None = None,
) -> Any:
    """The record of random bots playing `game`'s deal `seed` to the end (or for `upto` choices)."""
    record = game.new_record(players, seed, settings or {})
    state = record.start()
    bots = [game.make_bot("random", seed * 10 + i, None) for i in range(players)]
    while not state.over and (upto is None or len(record.choices) < upto):
        d = state.open[0]
        option = bots[d.player].choose(game.view(state, d.player), d)
        game.apply(state, d.player, d.id, option)
        record.choices.append((d.player, d.id, option))
    return record
