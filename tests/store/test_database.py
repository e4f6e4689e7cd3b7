"""The games database file: made where it belongs, checked when opened; a damaged, foreign or
newer file is reported with its path and left exactly as it was (issue 11)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from net.places import DATA_DIR_ENV
from net.store import FORMAT, StoreError, connect, default_path


def test_default_path_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "d"))
    assert default_path() == tmp_path / "d" / "games.sqlite"


def test_a_new_database_is_made_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.sqlite"
    db = connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == FORMAT
    db.close()
    connect(path).close()  # and opens again


def test_garbage_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    junk = b"this is not a database at all\n" * 200
    path.write_bytes(junk)
    with pytest.raises(StoreError, match="damaged or is not a database") as exc:
        connect(path)
    assert str(path) in str(exc.value) and "--db-reset" in str(exc.value)
    assert path.read_bytes() == junk


def test_a_truncated_database_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    db = connect(path)
    db.executemany("INSERT INTO chat VALUES ('t', ?, 'n', 0, ?, 0)", [(i, "x" * 500) for i in range(400)])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    cut = path.read_bytes()
    with pytest.raises(StoreError, match=str(path)):
        connect(path)
    assert path.read_bytes() == cut


def test_another_programs_database_is_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE accounts (id INTEGER, balance INTEGER)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        connect(path)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_newer_database_names_the_program_that_wrote_it(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    connect(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value='pigeon-tui 9.0' WHERE key='engine'")
        db.execute(f"PRAGMA user_version = {FORMAT + 1}")
    with pytest.raises(StoreError, match=r"newer program \(pigeon-tui 9.0, database format 2\)"):
        connect(path)


def test_reset_sets_the_damaged_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"junk" * 1000)
    connect(path, reset=True).close()
    aside = [p for p in tmp_path.iterdir() if ".broken-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == b"junk" * 1000
    connect(path).close()
