"""Test-wide safety: LAN discovery never leaves this machine during tests. Whatever opens a
join screen or probes with the default targets sends to 127.0.0.1 only (no broadcast)."""

from __future__ import annotations

import pytest

import net.discovery_udp
from net.discovery import DISCOVERY_PORT


@pytest.fixture(autouse=True)
def _discovery_on_loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.discovery_udp, "default_targets", lambda port=DISCOVERY_PORT: [("127.0.0.1", port)])
    monkeypatch.setattr(net.discovery_udp, "broadcast_addresses", lambda: ["127.0.0.1"])
