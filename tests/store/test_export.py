"""Exported games (`pigeon-tui replay --export`, opened with `pigeon-tui replay FILE`): a round
trip keeps the game; a newer, damaged or foreign file is refused with a clear message, and no
file is ever overwritten (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from net.archive import export, from_export, read_export
from net.store import FORMAT, StoreError
from tests.store.games import exported, played, saved


def test_round_trip_keeps_the_game(tmp_path: Path) -> None:
    record = played(5)
    original = saved(record)
    path = tmp_path / "game.json"
    export(original, path)
    back = read_export(path)
    assert back == original
    assert back.record.replay().to_dict() == record.replay().to_dict()
    assert "token" not in path.read_text()


def test_export_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("mine")
    with pytest.raises(StoreError, match="already exists"):
        export(saved(played(5, upto=20)), path)
    assert path.read_text() == "mine"


def test_a_newer_format_names_its_program(tmp_path: Path) -> None:
    d = exported(played(5, upto=20), engine="pigeon-tui 7.1")
    d["format"] = FORMAT + 1
    path = tmp_path / "new.json"
    path.write_text(json.dumps(d))
    with pytest.raises(StoreError, match=r"newer program \(pigeon-tui 7.1, record format 2\)"):
        read_export(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\xff garbage", "not an exported game"),
        (b'{"kind": "something else"}', "not a game exported by pigeon-tui"),
        (b"[1, 2, 3]", "not a game exported by pigeon-tui"),
        (b'{"kind": "pigeon-tui game", "format": "x"}', "no valid format version"),
    ],
)
def test_not_an_export(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=message):
        read_export(path)


def test_a_record_from_other_rules_names_who_made_it() -> None:
    d = exported(played(5, upto=30), engine="pigeon-tui 0.0.1")
    d["record"]["choices"][10][1] += 1000  # a decision this engine never opened
    with pytest.raises(StoreError, match=r"made by pigeon-tui 0\.0\.1 and does not replay on this one"):
        from_export(d)


def test_a_cut_record_that_claims_the_end_is_damaged() -> None:
    d = exported(played(5))
    d["record"]["choices"] = d["record"]["choices"][:-5]
    with pytest.raises(StoreError, match="stops before the end"):
        from_export(d)


def test_damaged_fields_are_reported_not_raised() -> None:
    d = exported(played(5, upto=20))
    d["seats"] = d["seats"][:1]
    with pytest.raises(StoreError, match="damaged: 1 seats for a game of 3 players"):
        from_export(d)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="there is no file"):
        read_export(tmp_path / "nope.json")
