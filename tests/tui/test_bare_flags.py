"""The flags the README shows on the bare command work there: `pigeon-tui --ascii --edition 3.0`
opens the start screen drawn in ASCII with edition 3.0 chosen, and the game it starts is a 3.0
game. Run as a user runs it: the installed CLI in a pseudo-terminal."""

from __future__ import annotations

import re
import sys

from tests.e2e.terminal import Terminal

CLI = (sys.executable, "-m", "pigeon_tui")
WAIT = 60.0
BOX = re.compile("[\u2500-\u257f]")


async def test_bare_command_takes_ascii_and_edition() -> None:
    term = Terminal([*CLI, "--ascii", "--edition", "3.0"], name="bare")
    try:
        start = await term.wait_for(
            lambda lines: any(re.search(r"Edition\W+3\.0", x) for x in lines), WAIT, "edition 3.0 on the start screen"
        )
        assert not BOX.search("\n".join(start)), "--ascii: no box-drawing glyphs on the start screen"
        await term.settled(0.3, WAIT)
        term.press("enter")
        await term.shows("Your hand", WAIT)
        await term.settled(0.3, WAIT)
        term.press("?")
        await term.shows("edition 3.0", WAIT)
    finally:
        await term.close()


async def test_a_flag_after_the_command_still_works() -> None:
    term = Terminal([*CLI, "play", "--edition", "3.0", "--ascii"], name="play")
    try:
        await term.shows("Your hand", WAIT)
        table = await term.settled(0.3, WAIT)
        assert not BOX.search("\n".join(table)), "--ascii after `play`: no box-drawing glyphs at the table"
        term.press("?")
        await term.shows("edition 3.0", WAIT)
    finally:
        await term.close()
