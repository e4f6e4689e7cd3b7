"""LAN discovery messages, sans I/O: the probe a client broadcasts and the announcement a host
answers with (one small msgpack map each). `net/discovery_udp.py` moves them over UDP.

    probe(nonce) -> bytes                       read_probe(bytes) -> nonce | None
    announcement(Game) -> bytes                 read_announcement(bytes) -> Game | None

Anything malformed reads as None: a datagram is never trusted and never raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import msgpack

from net.sanitize import clean_name

DISCOVERY_PORT: Final = 7778
"""UDP port hosts listen on for probes (the TCP game port is 7777)."""
DISCOVERY_VERSION: Final = 1
"""Version of these two messages (the game protocol's own version travels inside)."""
PROBE_TYPE: Final = "pigeon?"
ANNOUNCE_TYPE: Final = "pigeon!"
PROBE_SIZE: Final = 256
"""Bytes every probe is padded to. A host answers only probes this big, and its answer is at
most `ANNOUNCE_MAX` bytes, so a spoofed probe can never make it send much more than it got."""
ANNOUNCE_MAX: Final = 3 * PROBE_SIZE
"""Largest announcement in bytes (tables are left out, then names cut, to fit)."""
DATAGRAM_MAX: Final = 1024
"""Datagrams bigger than this are dropped unread."""
NONCE_MAX: Final = 2**63 - 1
TABLES_LISTED: Final = 8
"""Most tables one announcement lists (their totals always count every table)."""
TABLE_NAME_MAX: Final = 24
"""Characters of a table's name in an announcement."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    id: int
    name: str
    phase: str
    """"waiting", "playing" or "over"."""
    seats: int
    free: int


@dataclass(frozen=True, slots=True)
class Game:
    """One host as it announces itself. The address is the datagram's source, not a field."""

    host: str
    """The host's name (as the lobby shows it)."""
    port: int
    """Its TCP game port."""
    protocol: int
    """The game protocol's version (a client of another version cannot join)."""
    password: bool
    """A password is needed to join."""
    tables: int
    """Tables open on the host."""
    free: int
    """Free seats over all tables that have not started."""
    listed: tuple[TableSummary, ...] = ()
    """The first `TABLES_LISTED` tables."""


def _pack(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message, use_bin_type=True)  # type: ignore[no-any-return]


def _unpack(data: bytes) -> dict[str, Any] | None:
    if len(data) > DATAGRAM_MAX:
        return None
    try:
        msg = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            max_str_len=DATAGRAM_MAX,
            max_bin_len=DATAGRAM_MAX,
            max_array_len=64,
            max_map_len=32,
            max_ext_len=0,
        )
    except Exception:  # msgpack's docs: any error may come out of unpacking untrusted bytes
        return None
    return msg if isinstance(msg, dict) else None


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def probe(nonce: int) -> bytes:
    """A probe, padded to `PROBE_SIZE` bytes; `nonce` comes back in each answer."""
    if _int(nonce, 0, NONCE_MAX) is None:
        raise ValueError("nonce must be an int in 0..2**63-1")
    pad = 0
    while True:
        data = _pack({"t": PROBE_TYPE, "v": DISCOVERY_VERSION, "n": nonce, "pad": b"\0" * pad})
        if len(data) >= PROBE_SIZE:
            return data
        pad += PROBE_SIZE - len(data)


def read_probe(data: bytes) -> int | None:
    """The probe's nonce, or None if `data` is not a probe a host should answer."""
    if len(data) < PROBE_SIZE:
        return None
    msg = _unpack(data)
    if msg is None or msg.get("t") != PROBE_TYPE or msg.get("v") != DISCOVERY_VERSION:
        return None
    return _int(msg.get("n"), 0, NONCE_MAX)


def announcement(game: Game, nonce: int) -> bytes:
    """The answer to probe `nonce`, at most `ANNOUNCE_MAX` bytes."""
    listed = list(game.listed[:TABLES_LISTED])
    name_max = 64
    while True:
        body = {
            "t": ANNOUNCE_TYPE,
            "v": DISCOVERY_VERSION,
            "n": nonce,
            "host": game.host[:name_max],
            "port": game.port,
            "proto": game.protocol,
            "pw": game.password,
            "tables": game.tables,
            "free": game.free,
            "list": [[t.id, t.name[:TABLE_NAME_MAX], t.phase, t.seats, t.free] for t in listed],
        }
        data = _pack(body)
        if len(data) <= ANNOUNCE_MAX:
            return data
        if listed:
            listed.pop()
        elif name_max > 8:
            name_max //= 2
        else:
            raise ValueError("an announcement cannot be that big")  # not reachable with sane fields


def read_announcement(data: bytes, nonce: int | None = None) -> Game | None:
    """The game in an announcement, or None if `data` is not one (or answers another nonce)."""
    msg = _unpack(data)
    if msg is None or msg.get("t") != ANNOUNCE_TYPE or msg.get("v") != DISCOVERY_VERSION:
        return None
    if nonce is not None and msg.get("n") != nonce:
        return None
    port = _int(msg.get("port"), 1, 65535)
    proto = _int(msg.get("proto"), 0, 2**31)
    tables = _int(msg.get("tables"), 0, 2**31)
    free = _int(msg.get("free"), 0, 2**31)
    host, pw, raw_list = msg.get("host"), msg.get("pw"), msg.get("list", [])
    if None in (port, proto, tables, free) or not isinstance(host, str) or not isinstance(pw, bool):
        return None
    if not isinstance(raw_list, list):
        return None
    listed = []
    for row in raw_list[:TABLES_LISTED]:
        if not isinstance(row, list) or len(row) != 5:
            return None
        tid, name, phase = _int(row[0], 0, 2**31), row[1], row[2]
        seats, tfree = _int(row[3], 0, 64), _int(row[4], 0, 64)
        if tid is None or seats is None or tfree is None or not isinstance(name, str) or not isinstance(phase, str):
            return None
        listed.append(
            TableSummary(tid, clean_name(name, "table")[:TABLE_NAME_MAX], clean_name(phase, "?"), seats, tfree)
        )
    assert port is not None and proto is not None and tables is not None and free is not None
    return Game(clean_name(host, "pigeon_tui"), port, proto, pw, tables, free, tuple(listed))
