"""Issue 9: `pigeon-tui host -v` logs connections and disconnections, with the reason the host
gave when it closed one (a disconnect is never told as "ran out of time")."""

from __future__ import annotations

import asyncio
import logging

import pytest

from net.client import Client, Refused

from .helpers import running_host, table_config


async def test_connections_and_disconnections_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="net.host")
    async with running_host(table_config(), password="pw") as host:
        ada = Client("127.0.0.1", host.port, "Ada", password="pw")
        await ada.connect()
        with pytest.raises(Refused):
            await Client("127.0.0.1", host.port, "Eve", password="no").connect()
        await ada.close()
        for _ in range(100):
            if "Ada disconnected" in caplog.text:
                break
            await asyncio.sleep(0.05)
    text = caplog.text
    assert ": connected" in text
    assert "Ada says hello" in text
    assert "a connection not yet greeted disconnected (bad_password)" in text
    assert "Ada disconnected (closed by the client or the network)" in text
    assert "ran out of time" not in text
