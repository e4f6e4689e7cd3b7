"""How `pigeon-tui join` was asked to join: as a guest of a front door (serve-ssh), with a seat
token kept in a file, and where LAN discovery probes go. Small on purpose: the app imports it
at start."""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from typing import Final

_TOKEN: Final = re.compile(r"[0-9A-Za-z_-]{1,64}")


@dataclass(frozen=True, slots=True)
class Joining:
    guest: bool = False
    """Playing through a front door (serve-ssh): stay on the host joined at start. The start
    screen offers no hosting and no other address, and a game against bots is a new table on
    that host (no process of its own)."""
    token_file: str | None = None
    """Where the seat token is kept: read to take the same seat back, written when seated."""
    find: bool = False
    """Open the join screen at start (`pigeon-tui join` with no address)."""
    name: str = "Player"
    """The name the join screen suggests."""
    discover_at: tuple[tuple[str, int], ...] | None = None
    """Where discovery probes go; None: this machine's LAN broadcast addresses."""


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
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, token.encode("ascii") + b"\n")
        finally:
            os.close(fd)
