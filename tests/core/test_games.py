"""The game seam (core.games): every game through the same verbs; Pigeons & Guano unchanged."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from core.decisions import DecisionKind, IllegalChoice
from core.games import CUBIRDS, DEFAULT, GAMES, PIGEONS, AnyGame, game, record_from_dict, record_game
from core.record import Record
from core.rules import apply
from core.selfplay import selfplay
from core.setup import new_game


def play_through(g: AnyGame, players: int, seed: int, levels: tuple[str, ...]) -> tuple[Any, Any]:
    """A whole game through the seam only, with a record kept as a host keeps one."""
    state = g.new_game(players, seed, {})
    record = g.new_record(players, seed, {})
    bots = [g.make_bot(levels[s % len(levels)], seed + s, None) for s in range(players)]
    names = [f"P{s}" for s in range(players)]
    while g.pending(state):
        d = g.pending(state)[0]
        seen = g.view(state, d.player)
        assert g.view_from_dict(json.loads(json.dumps(seen.to_dict()))) == seen
        option = bots[d.player].choose(seen, d)
        events = g.apply(state, d.player, d.id, option)
        record.choices.append((d.player, d.id, option))
        for e in events:
            for viewer in [*range(players), None]:
                shown = g.redact(e, viewer)
                assert g.event_from_dict(shown.to_dict()) == shown
                assert g.describe(shown, g.view(state, viewer), names)
    return state, record


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_plays_through_the_same_verbs(game_id: str) -> None:
    """A whole game of each: views and events cross as plain data, every event has a sentence,
    scores and winners at the end, the state round-trips and the record replays it."""
    g = game(game_id)
    state, record = play_through(g, 3, 5, ("greedy", "random"))
    assert state.over and g.pending(state) == []
    won = g.winners(state)
    assert won and set(won) <= {0, 1, 2}
    assert [s.seat for s in g.scores(state)] == [0, 1, 2]
    assert all(isinstance(v, int) for s in g.scores(state) for v in asdict(s).values())  # type: ignore[call-overload]
    assert g.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
    again = record_from_dict(json.loads(json.dumps(record.to_dict())))
    assert again.replay().to_dict() == state.to_dict()
    assert record_game(record.to_dict()) is g


def test_games_and_their_decision_kinds() -> None:
    """Each decision kind belongs to one game; Pigeons & Guano is the default."""
    assert DEFAULT == "pigeons" and set(GAMES) == {"pigeons", "cubirds"}
    assert PIGEONS.kinds | CUBIRDS.kinds == set(DecisionKind) and not PIGEONS.kinds & CUBIRDS.kinds
    assert (CUBIRDS.min_players, CUBIRDS.max_players, PIGEONS.min_players, PIGEONS.max_players) == (2, 5, 2, 6)
    assert CUBIRDS.reactions == frozenset()
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game("chess")


def test_settings_are_checked() -> None:
    """Unknown settings and values off the list are clear errors; the defaults fill the rest."""
    assert PIGEONS.check_settings({}) == {
        "edition": "3.5",
        "first_player": None,
        "blind_windows": False,
        "infamous_empty": "resume",
        "custom_1": "",
        "custom_2": "",
    }
    with pytest.raises(ValueError, match="no setting edition"):
        CUBIRDS.new_game(2, 1, {"edition": "3.5"})
    with pytest.raises(ValueError, match="edition must be one of"):
        PIGEONS.new_game(2, 1, {"edition": "4.0"})
    with pytest.raises(ValueError, match="first_player must be a seat"):
        CUBIRDS.new_game(2, 1, {"first_player": "me"})
    assert CUBIRDS.new_game(3, 1, {"first_player": 2}).active == 2


def test_pigeons_through_the_seam_is_pigeons_bit_for_bit() -> None:
    """The seam adds nothing to Pigeons & Guano: the same deal, the same self-play."""
    for seed, edition in [(1, "3.5"), (2, "3.0")]:
        direct = new_game(4, seed, edition, first_player=1, blind_windows=True)
        seam = PIGEONS.new_game(4, seed, {"edition": edition, "first_player": 1, "blind_windows": True})
        assert seam.to_dict() == direct.to_dict()
    a = selfplay(3, 3, ["greedy", "random"], seed=4)
    b = selfplay(3, 3, ["greedy", "random"], seed=4, game="pigeons")
    assert (a.games, a.turns, a.decisions) == (b.games, b.turns, b.decisions)
    assert {k: (v.wins, v.score_sum) for k, v in a.stats.items()} == {
        k: (v.wins, v.score_sum) for k, v in b.stats.items()
    }


def test_records_made_before_games_had_ids_still_replay() -> None:
    """A Pigeons & Guano record in its old form (no game id) is found and replays."""
    state = new_game(2, 9)
    record = Record(2, 9)
    for _ in range(30):
        d = state.open[0]
        option = d.options[0].value
        apply(state, d.player, d.id, option)
        record.choices.append((d.player, d.id, option))
    old = record.to_dict()
    assert "game" not in old and old["rules"] == "pigeons-and-guano"
    assert record_game(old) is PIGEONS
    assert record_from_dict(old).replay().to_dict() == state.to_dict()
    with pytest.raises(ValueError, match="not a record"):
        record_from_dict({"rules": "chess"})


def test_selfplay_runs_cubirds() -> None:
    """`selfplay --game cubirds`: bots play whole games of CuBirds with no errors."""
    summary = selfplay(4, 3, ["greedy", "random"], seed=2, game="cubirds")
    assert summary.games == 4 and summary.errors == 0
    assert summary.stats["greedy"].seats + summary.stats["random"].seats == 12
    with pytest.raises(ValueError, match="unknown game"):
        selfplay(1, 2, ["random"], seed=1, game="chess")


def test_illegal_choices_are_refused_the_same_way_in_every_game() -> None:
    for g in GAMES.values():
        state = g.new_game(2, 1, {})
        d = g.pending(state)[0]
        with pytest.raises(IllegalChoice) as err:
            g.apply(state, d.player, d.id, "not an option")
        assert err.value.code.value == "option_not_offered"


def test_selfplay_hands_no_view_to_a_bot_that_reads_none() -> None:
    """R8: self-play hands each bot its own seat's view, or None to a bot whose `reads_view` is
    False (the random bot); the game is the same either way."""
    from core.bots.random import RandomBot
    from core.selfplay import play_game
    from core.views import view

    class Watching(RandomBot):
        reads_view = True

        def choose(self, seen: Any, decision: Any) -> Any:
            assert seen == view(state, decision.player) and seen.seat == decision.player
            return super().choose(seen, decision)

    class Blind(RandomBot):
        def choose(self, seen: Any, decision: Any) -> Any:
            assert seen is None
            return super().choose(seen, decision)

    ends = []
    for kind in (Watching, Blind):
        state = new_game(4, 11)
        count, _ = play_game(state, [kind(11 + s) for s in range(4)])
        ends.append((count, state.to_dict()))
    assert ends[0] == ends[1] and ends[0][0] > 50
