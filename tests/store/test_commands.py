"""`pigeon-tui replay` and `pigeon-tui stats` as typed: clear errors (exit 1, the file named),
never a traceback; every card refused for an unfinished game (issue 11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from net.store import connect, default_path
from pigeon_tui.cli import main
from tests.store.games import exported, played


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_with_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats")
    assert code == 0 and "No finished games for you yet." in out
    assert not default_path().exists()  # reading makes no database
    code, out, _ = run(capsys, "stats", "--json")
    assert json.loads(out) == {
        "who": "you",
        "played": 0,
        "won": 0,
        "average": 0.0,
        "by_level": {},
        "by_edition": {},
        "best": None,
    }


def test_a_damaged_database_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"nope" * 300)
    for argv in (
        ["stats", "--db", str(bad)],
        ["replay", "--list", "--db", str(bad)],
        ["replay", "3", "--db", str(bad)],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 1 and str(bad) in err and "damaged" in err and "Traceback" not in err
    assert bad.read_bytes() == b"nope" * 300


def test_replay_list_and_missing_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", "--list")
    assert code == 0 and "no finished games yet" in out
    code, _, err = run(capsys, "replay", "12")
    assert code == 1 and f"there is no games database at {default_path()}" in err
    connect(default_path()).close()
    code, _, err = run(capsys, "replay", "12")
    assert code == 1 and "there is no game 12" in err
    code, _, err = run(capsys, "replay", "--export", "12", "out.json")
    assert code == 1 and "there is no game 12" in err


def test_every_card_is_refused_for_an_unfinished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(exported(played(4, upto=40))))
    code, _, err = run(capsys, "replay", str(path), "--view", "all")
    assert code == 1 and "only for a finished game" in err
    code, _, err = run(capsys, "replay", str(path), "--view", "2")
    assert code == 1 and "hidden" in err


def test_a_bad_file_is_refused_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"kind": "pigeon-tui game", "format": 99, "engine": "pigeon-tui 5"}')
    out = subprocess.run(
        [sys.executable, "-m", "pigeon_tui", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1
    assert "newer program (pigeon-tui 5, record format 99)" in out.stderr and "Traceback" not in out.stderr
