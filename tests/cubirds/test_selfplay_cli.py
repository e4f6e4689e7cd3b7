"""`pigeon-tui selfplay --game cubirds`: the headless CLI runs CuBirds games and prints JSON."""

from __future__ import annotations

import json

import pytest

from pigeon_tui.cli import main


def test_selfplay_game_cubirds_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["selfplay", "--game", "cubirds", "--games", "3", "--players", "3", "--bots", "greedy,random", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (out["game"], out["games"], out["players"], out["errors"], out["edition"]) == ("cubirds", 3, 3, 0, None)
    assert set(out["bots"]) == {"greedy", "random"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "cubirds", "--players", "6"], "CuBirds is for 2 to 5 players"),
        (["--game", "cubirds", "--bots", "wizard"], "unknown bot level"),
    ],
)
def test_selfplay_bad_game_settings_are_clear_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", "--games", "1", *argv]) == 2
    assert message in capsys.readouterr().err
