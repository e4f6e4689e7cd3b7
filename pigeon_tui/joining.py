"""How `pigeon-tui join` was asked to join (as a guest of a front door, with a token file, where
LAN discovery probes go), and where seat tokens are kept so that a player whose terminal
closed or whose client crashed takes their seat back with a plain `pigeon-tui join ADDRESS`.
Small on purpose: the app imports it at start."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path
from typing import Final

from core.structs import Struct

_TOKEN: Final = re.compile(r"[0-9A-Za-z_-]{1,64}")
_UNSAFE: Final = re.compile(r"[^0-9A-Za-z.-]")
SEATS_DIR: Final = "seats"
"""Under the user data directory: one file per seat (host address, table, token), holding the
token and the process id of the client holding the seat."""
NO_STORE_ENV: Final = "PIGEON_TUI_NO_SEAT_STORE"
"""Set (to anything) for a client that shares its OS account with people it does not speak for
(a serve-web tab): no token store, so a closed tab's seat is never taken by another person's tab
joining the same host. `--token-file` still works."""


# Joining and SeatKeeper are Structs (core.structs, NamedTuples cheap to define): the app defines
# them at start, where a frozen dataclass costs far more (issue 9).


class Joining(Struct):
    guest: bool = False
    """Playing through a front door (serve-ssh): stay on the host joined at start. The start
    screen offers no hosting and no other address, and a game against bots is a new table on
    that host (no process of its own)."""
    token_file: str | None = None
    """Where the seat token is kept (`--token-file`): read to take the same seat back, written
    when seated. None: the token store under the user data directory."""
    find: bool = False
    """Open the join screen at start (`pigeon-tui join` with no address)."""
    name: str = "Player"
    """The name the join screen suggests."""
    discover_at: tuple[tuple[str, int], ...] | None = None
    """Where discovery probes go; None: this machine's LAN broadcast addresses."""


class SeatKeeper(Struct):
    """Where the seat tokens a host gives us are kept: one file given (`--token-file`, for
    scripts and serve-ssh), or the store, one file per seat at this host under
    `<data dir>/seats/` (mode 0600, in a directory of mode 0700).

    A stored token names the process holding its seat; while that process runs, another client
    on this machine (a second player at the same host) does not take it: only a client whose
    process is gone (a closed terminal, a crash) is replaced by the next one."""

    file: Path | None = None
    store: Path | None = None
    address: str = ""
    """"host:port" as joined (the store's key)."""

    @classmethod
    def for_host(cls, host: str, port: int, token_file: str | None = None) -> SeatKeeper:
        """The keeper of `host:port`'s tokens: `token_file` if given, else the store."""
        if token_file is not None:
            return cls(file=Path(token_file))
        if os.environ.get(NO_STORE_ENV):
            return cls()  # keeps nothing, finds nothing
        from net.places import data_dir

        return cls(store=data_dir() / SEATS_DIR, address=f"{host}:{port}")

    def _prefix(self) -> str:
        return _UNSAFE.sub("_", self.address) + "-table"

    def _files(self) -> list[Path]:
        if self.file is not None:
            return [self.file]
        if self.store is None:
            return []
        try:
            found = [p for p in self.store.iterdir() if p.name.startswith(self._prefix())]
        except OSError:
            return []
        return sorted(found, key=_mtime, reverse=True)

    def find(self) -> str | None:
        """The newest token kept for this host whose seat no running client holds (None: none)."""
        if self.file is not None:
            return read_token(str(self.file))
        for path in self._files():
            token, holder = _read_held(path)
            if token is not None and not _running(holder):
                return token
        return None

    def keep(self, table: int, token: str) -> None:
        """Keep `token` (a seat at `table` of this host), held by this process. Best effort (a
        disk we cannot write loses nothing but the way back)."""
        if self.file is not None:
            save_token(str(self.file), token)
            return
        if self.store is None:
            return
        from net.places import private_dir

        with contextlib.suppress(OSError):
            private_dir(self.store)
            import hashlib  # here: the app imports this module at start, and only this needs it

            # One file per seat: two people at one host from this machine keep one each.
            seat = hashlib.sha256(token.encode()).hexdigest()[:12]
            path = self.store / f"{self._prefix()}{int(table)}-{seat}"
            _write_private(path, f"{token} {os.getpid()}\n")

    def forget(self, token: str | None) -> None:
        """Forget `token` (refused by the host, or its seat left)."""
        if token is None:
            return
        if self.file is not None:
            if read_token(str(self.file)) == token:
                save_token(str(self.file), None)
            return
        for path in self._files():
            if _read_held(path)[0] == token:
                with contextlib.suppress(OSError):
                    path.unlink()


def _read_held(path: Path) -> tuple[str | None, int | None]:
    """(token, pid of the process holding its seat) kept in a store file."""
    try:
        words = path.read_text(encoding="ascii")[:128].split()
    except (OSError, UnicodeDecodeError):
        return None, None
    token = words[0] if words and _TOKEN.fullmatch(words[0]) else None
    pid = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
    return token, pid


def _running(pid: int | None) -> bool:
    """Whether another process `pid` runs on this machine (not this one: our own seat is ours)."""
    if pid is None or pid == os.getpid() or sys.platform == "win32":
        return False
    from net.places import process_running

    return process_running(pid)


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an older file may have had another mode
        os.write(fd, text.encode("ascii"))
    finally:
        os.close(fd)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_token(path: str | None) -> str | None:
    """The token kept at `path`, or None (no file, unreadable, or not a token)."""
    if path is None:
        return None
    try:
        with open(path, encoding="ascii") as f:
            text = f.read(128).strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if _TOKEN.fullmatch(text) else None


def save_token(path: str | None, token: str | None) -> None:
    """Keep `token` at `path` (mode 0600), or remove the file when there is none. Best effort."""
    if path is None:
        return
    with contextlib.suppress(OSError):
        if token is None:
            os.unlink(path)
            return
        _write_private(Path(path), token + "\n")
