"""Seat tokens kept per host address and table, under the data directory (`$PIGEON_TUI_DATA_DIR`
in tests), mode 0600; a seat a running client holds is not taken by another on this machine."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from net.places import DATA_DIR_ENV
from pigeon_tui.joining import NO_STORE_ENV, SEATS_DIR, SeatKeeper, read_token

TOKEN_A = "a" * 32
TOKEN_B = "b" * 32


def _store() -> Path:
    return Path(os.environ[DATA_DIR_ENV]) / SEATS_DIR


def test_a_token_is_kept_per_host_and_seat_with_mode_0600() -> None:
    keeper = SeatKeeper.for_host("192.168.1.20", 7777)
    assert keeper.find() is None
    keeper.keep(2, TOKEN_A)
    (path,) = _store().iterdir()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(_store().stat().st_mode) == 0o700
    assert keeper.find() == TOKEN_A
    assert SeatKeeper.for_host("192.168.1.20", 7778).find() is None, "another host's port"
    assert SeatKeeper.for_host("192.168.1.2", 7777).find() is None, "another host"
    keeper.forget(TOKEN_A)
    assert keeper.find() is None and not list(_store().iterdir())


def test_two_seats_at_one_table_are_kept_apart() -> None:
    """Two people at one host from this machine: each seat has its own file."""
    keeper = SeatKeeper.for_host("den", 7777)
    keeper.keep(1, TOKEN_A)
    keeper.keep(1, TOKEN_B)
    assert len(list(_store().iterdir())) == 2
    keeper.forget(TOKEN_B)
    assert keeper.find() == TOKEN_A


def test_the_newest_seat_is_taken_back_first() -> None:
    keeper = SeatKeeper.for_host("den", 7777)
    keeper.keep(1, TOKEN_A)
    older = _store() / next(p.name for p in _store().iterdir())
    os.utime(older, (1, 1))
    keeper.keep(2, TOKEN_B)
    assert keeper.find() == TOKEN_B
    keeper.forget(TOKEN_B)
    assert keeper.find() == TOKEN_A


def test_a_seat_held_by_a_running_client_is_left_to_it() -> None:
    """Two players at one host from one machine: the second does not take the first's seat;
    once the first's process is gone (a crash, a closed terminal), the next client takes it."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        keeper = SeatKeeper.for_host("den", 7777)
        keeper.keep(1, TOKEN_A)
        path = next(_store().iterdir())
        path.write_text(f"{TOKEN_A} {other.pid}\n")
        assert keeper.find() is None, "held by a client that still runs"
    finally:
        other.kill()
        other.wait()
    assert keeper.find() == TOKEN_A, "its client is gone: the seat is ours to take back"


def test_a_token_file_is_read_and_written_as_before(tmp_path: Path) -> None:
    """`--token-file` (scripts, serve-ssh) keeps one token in the file given."""
    path = tmp_path / "seat"
    keeper = SeatKeeper.for_host("den", 7777, str(path))
    keeper.keep(1, TOKEN_A)
    assert read_token(str(path)) == TOKEN_A and keeper.find() == TOKEN_A
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not _store().exists(), "nothing in the store"
    keeper.forget(TOKEN_A)
    assert not path.exists()


def test_a_client_told_to_keep_no_store_neither_keeps_nor_takes_a_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """A serve-web tab (NO_STORE_ENV): another person's closed tab left a token for the same host
    in the server account's store; this tab must not take that seat, nor leave its own."""
    closed_tab = SeatKeeper.for_host("den", 7777)
    closed_tab.keep(1, TOKEN_A)
    assert SeatKeeper.for_host("den", 7777).find() == TOKEN_A, "without the variable it would be taken"
    monkeypatch.setenv(NO_STORE_ENV, "1")
    tab = SeatKeeper.for_host("den", 7777)
    assert tab.find() is None
    tab.keep(2, TOKEN_B)
    assert [p.read_text().split()[0] for p in _store().iterdir()] == [TOKEN_A], "nothing of the tab's kept"
    assert SeatKeeper.for_host("den", 7777, token_file=str(_store() / "given")).file is not None
