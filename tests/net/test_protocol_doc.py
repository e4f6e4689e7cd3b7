"""docs/protocol.md is the contract: its field tables, examples, limits, codes and rules hash
are checked against the code that implements them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import net.discovery
import net.discovery_udp
import net.limits
from net.errors import ErrorCode, NetError
from net.messages import CLIENT_FRAMES, HOST_FRAMES, RULES_HASH, parse_client, parse_host, rules_digest, with_reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
TEXT = DOC.read_text()


def section(title: str) -> str:
    start = TEXT.index(f"\n## {title}\n")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end > 0 else None]


def test_the_field_tables_are_the_frame_definitions() -> None:
    """Frame reference, Fields: generated from net/messages.py, never edited by hand."""
    assert TEXT == with_reference(TEXT), "run `python -m net.messages docs/protocol.md` to regenerate the tables"


def _examples(text: str) -> list[tuple[str, Any]]:
    """(its text, the value) of every JSON value in the ```json blocks, one or several a block."""
    out = []
    decoder = json.JSONDecoder()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        pos = 0
        while block[pos:].strip():
            pos += len(block[pos:]) - len(block[pos:].lstrip())
            value, end = decoder.raw_decode(block, pos)
            out.append((block[pos:end], value))
            pos = end
    return out


def test_every_example_is_a_valid_frame() -> None:
    """Frame reference: every example (but those eliding parts with "...") passes the checks the
    host or the client makes, and every frame type has one."""
    shown: set[str] = set()
    for text, frame in _examples(section("Frame reference")):
        if "..." in text:
            continue
        t = frame["t"]
        for frames, parse in ((CLIENT_FRAMES, parse_client), (HOST_FRAMES, parse_host)):
            if t in frames:
                try:
                    parse(frame)
                except NetError as exc:
                    pytest.fail(f"example {text.strip()[:60]}...: {exc.text}")
        shown.add(t)
    assert shown == set(CLIENT_FRAMES) | set(HOST_FRAMES)


_UNITS = {"KiB": 1024, "MiB": 1024 * 1024, "s": 1, "bytes": 1}


def _values(cell: str) -> list[float]:
    cell = cell.strip()
    unit = next((u for u in _UNITS if cell.endswith(f" {u}")), None)
    scale = _UNITS[unit] if unit else 1
    if unit:
        cell = cell[: -len(unit) - 1]
    return [float(v) * scale for v in re.split(r"\s*[/,]\s*", cell)]


def _limit_rows(text: str) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = {}
    for line in text.splitlines():
        m = re.match(r"\| ((?:`[A-Z_]+`(?: / )?)+) \| ([^|]+) \|", line)
        if m:
            names = re.findall(r"`([A-Z_]+)`", m.group(1))
            values = _values(m.group(2))
            if len(values) == len(names):
                rows.update(zip(names, ([v] for v in values), strict=True))
            else:  # one constant holding several values (RECONNECT_DELAYS)
                (name,) = names
                rows[name] = values
    return rows


def _constants(module: Any) -> dict[str, list[float]]:
    out = {}
    for name, value in vars(module).items():
        if name.isupper() and not name.startswith("_") and isinstance(value, int | float | tuple):
            out[name] = [float(v) for v in value] if isinstance(value, tuple) else [float(value)]
    return out


def test_the_limits_table_is_net_limits() -> None:
    """Limits: every constant of net/limits.py is in the table, with its value."""
    assert _limit_rows(section("Limits")) == _constants(net.limits)


def test_the_discovery_table_is_net_discovery() -> None:
    """Discovery: the table of constants matches net/discovery.py and net/discovery_udp.py."""
    documented = _limit_rows(section("Discovery"))
    code = {**_constants(net.discovery), **_constants(net.discovery_udp)}
    assert documented and all(code.get(name) == value for name, value in documented.items()), documented


def test_the_rules_hash_is_the_digest_of_the_card_data() -> None:
    """A session, Handshake: RULES_HASH, written out in net/messages.py so that no client
    computes it at start, is the digest of every game's card data as it is now."""
    assert rules_digest() == RULES_HASH, f"the card data changed: RULES_HASH is now {rules_digest()!r}"


def test_the_rules_hash_is_stated_as_the_host_computes_it() -> None:
    """A session, Handshake: the value a client sends."""
    assert f"**`{RULES_HASH}`**" in section("A session")
    assert all(f["rules"] == RULES_HASH for _, f in _examples(TEXT) if isinstance(f, dict) and "rules" in f)


def test_every_error_code_is_listed() -> None:
    """Error codes: the table lists exactly net.errors.ErrorCode."""
    listed = set(re.findall(r"^\| ((?:`[a-z_]+`(?:, )?)+) \|", section("Error codes"), re.M))
    codes = {c for row in listed for c in re.findall(r"`([a-z_]+)`", row)}
    assert codes == {c.value for c in ErrorCode}
