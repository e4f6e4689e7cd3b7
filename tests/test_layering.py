"""Style §5.1: what importing each layer drags in at run time (import-linter checks the static graph)."""

from __future__ import annotations

import subprocess
import sys

import pytest

FORBIDDEN_LOADED = {
    "core": ("asyncio", "socket", "selectors", "ssl", "msgpack", "textual", "rich", "net", "pigeon_tui"),
    "net": ("textual", "rich", "pigeon_tui"),
}


@pytest.mark.parametrize("package", sorted(FORBIDDEN_LOADED))
def test_importing_every_module_loads_nothing_forbidden(package: str) -> None:
    code = (
        f"import importlib, pkgutil, sys, {package}\n"
        f"for m in pkgutil.walk_packages({package}.__path__, '{package}.'):\n"
        "    importlib.import_module(m.name)\n"
        f"print(','.join(m for m in {FORBIDDEN_LOADED[package]!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not out.stdout.strip(), f"{package} loaded {out.stdout.strip()}"


def test_headless_selfplay_never_loads_textual() -> None:
    code = (
        "import sys\n"
        "from pigeon_tui.cli import main\n"
        "main(['selfplay', '--games', '2', '--json'])\n"
        "assert 'textual' not in sys.modules, 'selfplay loaded textual'\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


CLIENT_START: tuple[str, ...] = (
    "pigeon_tui.cli",
    "net.spawn",
    "pigeon_tui.launch",
    "net.client",
    "pigeon_tui.session",
    "pigeon_tui.app",
    "pigeon_tui.screens.table",
)
"""What `pigeon-tui play` imports on its way to a Pigeons & Guano table (pigeon_tui.cli._tui)."""
NOT_AT_CLIENT_START: tuple[str, ...] = (
    "core.cubirds.cards",
    "core.state",
    "core.flow",
    "core.rules",
    "core.setup",
    "core.bots.greedy",
)
"""Modules a client of a Pigeons & Guano game does not run before its table: CuBirds, the
game's state and the engine's moves (it reads views), the bots (the host child imports its own)."""


def test_the_client_start_path_does_not_import_what_it_never_runs() -> None:
    """Issue 9 (start-up within 1.5x a bare Textual app): every module is imported at each client
    start; CuBirds and the engine's moves are not needed until a game of them is played here."""
    code = (
        "import importlib, sys\n"
        f"for m in {CLIENT_START!r}:\n"
        "    importlib.import_module(m)\n"
        f"print(','.join(m for m in {NOT_AT_CLIENT_START!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not out.stdout.strip(), f"the client's start imported {out.stdout.strip()}"
