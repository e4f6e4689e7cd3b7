"""A Pigeons & Guano process does not load CuBirds (issue 9's start-up, issue 15): core.games
describes CuBirds with verbs looked up at their first call."""

from __future__ import annotations

import subprocess
import sys

GAME_MODULES = (
    "core.cubirds.events",
    "core.cubirds.record",
    "core.cubirds.rules",
    "core.cubirds.scoring",
    "core.cubirds.setup",
    "core.cubirds.state",
    "core.cubirds.turn",
    "core.cubirds.views",
)


def test_a_pigeons_client_and_game_load_no_cubirds_module() -> None:
    code = (
        "import sys\n"
        "import pigeon_tui.app\n"
        "from core.games import GAMES, PIGEONS, game_of_view, rules_text\n"
        "state = PIGEONS.new_game(2, 1, {})\n"
        "assert game_of_view(PIGEONS.view(state, 0)) is PIGEONS\n"
        "assert GAMES['cubirds'].bot_levels and rules_text()\n"
        f"print(','.join(m for m in {GAME_MODULES!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not out.stdout.strip(), f"a Pigeons & Guano process loaded {out.stdout.strip()}"


def test_a_cubirds_view_is_told_from_a_pigeons_one() -> None:
    from core.games import CUBIRDS, PIGEONS, game_of_view

    cubirds = CUBIRDS.new_game(3, 2, {})
    pigeons = PIGEONS.new_game(3, 2, {})
    assert game_of_view(CUBIRDS.view(cubirds, 1)) is CUBIRDS
    assert game_of_view(CUBIRDS.view(cubirds, None)) is CUBIRDS
    assert game_of_view(PIGEONS.view(pigeons, 1)) is PIGEONS
