"""The garbage collector, which the CLI turns off while the client starts, is on again once the
first table is painted (issue 9: start-up), and frozen then, so that it never walks what the
start made."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from pigeon_tui.screens.table import TableScreen
from tests.tui.conftest import make_app


@pytest.fixture
def collector_off() -> Iterator[None]:
    """gc off, as `pigeon-tui play` starts the app; the test process gets it back as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


async def test_issue9_the_collector_is_off_until_the_first_table_is_painted(collector_off: None) -> None:
    """Issue 9: off while the table is built and dealt, on (and what was made, frozen) once the
    dealt table has been painted."""
    app = make_app(players=2, seed=3)
    frozen_before = gc.get_freeze_count()
    async with app.run_test(size=(80, 24)) as pilot:
        async with asyncio.timeout(20):
            while not (isinstance(app.screen, TableScreen) and app.screen.view is not None):
                assert not gc.isenabled(), "on before the first table was painted"
                await pilot.pause(0.01)
            await pilot.pause(0.2)
        assert gc.isenabled()
        assert gc.get_freeze_count() > frozen_before


async def test_issue9_an_app_started_with_the_collector_on_leaves_it_alone() -> None:
    """Issue 9: an app not started by the CLI (tests, the SSH and web servers' clients) never
    turns the collector off or freezes what the process holds."""
    assert gc.isenabled()
    frozen_before = gc.get_freeze_count()
    app = make_app(players=2, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        async with asyncio.timeout(20):
            while not (isinstance(app.screen, TableScreen) and app.screen.view is not None):
                await pilot.pause(0.01)
            await pilot.pause(0.2)
        assert gc.isenabled()
        # Not ==: objects frozen before (tests/net/conftest.py freezes the collected heap of the
        # whole session) may be freed by their reference counts meanwhile; a freeze would add
        # every tracked object, tens of thousands.
        assert gc.get_freeze_count() <= frozen_before
