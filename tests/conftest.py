"""Test-wide safety: LAN discovery never leaves this machine during tests (whatever opens a join
screen or probes with the default targets sends to 127.0.0.1 only, no broadcast), and nothing
is written to the user's own data or log directories."""

from __future__ import annotations

import os

import pytest

import net.discovery_udp
from net.discovery import DISCOVERY_PORT

WAIT_CAP = float(os.environ.get("WAIT_CAP", "0.25"))


@pytest.fixture(autouse=True)
def _discovery_on_loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.discovery_udp, "default_targets", lambda port=DISCOVERY_PORT: [("127.0.0.1", port)])
    monkeypatch.setattr(net.discovery_udp, "broadcast_addresses", lambda: ["127.0.0.1"])


@pytest.fixture(autouse=True)
def _own_data_and_log_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat tokens, host keys and logs go to this test's own directories (inherited by every
    child process), never to the user's, nor to another test's."""
    from net.places import DATA_DIR_ENV, LOG_DIR_ENV

    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv(DATA_DIR_ENV, str(base / "data"))
    monkeypatch.setenv(LOG_DIR_ENV, str(base / "log"))


@pytest.fixture(autouse=True)
def _pilot_waits_do_not_depend_on_machine_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot waits after each key until the process looks idle (under 1 ms of CPU in
    20 ms), for up to a second. A game on the host in this process, on a loaded machine, seldom
    looks idle: keys then wait a whole second each (a whole game took 260 s on CI). Tests wait
    for what they need (`settled`, `prompt`); a pilot's wait for idleness ends within WAIT_CAP."""
    import textual.app
    import textual.pilot
    from textual._wait import wait_for_idle

    async def capped(min_sleep: float = 0.02, max_sleep: float = 1) -> None:
        await wait_for_idle(min_sleep, min(max_sleep, WAIT_CAP))

    monkeypatch.setattr(textual.pilot, "wait_for_idle", capped)
    monkeypatch.setattr(textual.app, "wait_for_idle", capped)
