"""The test process's collector walks only what the tests make (issue 17: tests/net's speed).

Once every test is collected, what the process holds (pytest and its plugins, Textual imported
by the snapshot plugin, asyncssh, the engine, every test module) is frozen out of the garbage
collector's reach: it is never garbage, and each full collection walked all of it again, the
five pytest runs at the session's end (to report unraisable exceptions) among them. For the
baseline's 178 tests of tests/net: ~1 s less CPU in ~14 s. The hosts, TUIs and other child
processes the tests start are not touched; tests/tui/test_collector.py's fixture unfreezes as it
ends, which only gives this up for the rest of that session.
"""

from __future__ import annotations

import gc

import pytest


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()  # what collection left as garbage is freed, not kept for good
    gc.freeze()
