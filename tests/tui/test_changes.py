"""Issue 10: what changed is visible for a moment (a mark that ends by itself, on a timer that
stops). Seeded games on the real host, played with keys. (That being fined is a toast too is
checked on test_context's game, which reaches the same Sweeper prompt.)"""

from __future__ import annotations

from pigeon_tui.changes import FLASH_SECONDS
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.widgets.prompt import BACK_KEY, PASS_KEY
from pigeon_tui.widgets.zone import ZoneBox
from tests.tui.conftest import make_app, wait_for_prompt


async def test_changes_are_marked_then_the_mark_ends_by_itself() -> None:
    """After a move the Zones it changed are marked (and the pigeons that landed), then the
    mark goes on its own and no timer is left running."""
    app = make_app(players=3, seed=12)
    app.flash_seconds = FLASH_SECONDS  # as players have it (pictures keep the marks on)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await wait_for_prompt(pilot)
        assert shown is not None
        screen = app.screen
        assert isinstance(screen, TableScreen)
        marked: set[str] = set()
        for _ in range(12):
            await pilot.press(next(e.key for e in shown.entries if e.key not in (PASS_KEY, BACK_KEY)))
            shown = await wait_for_prompt(pilot)
            assert shown is not None
            marked = {z.zone for z in screen.query(ZoneBox) if z.has_class("-changed")}
            if marked:
                break
        assert marked and marked <= screen.flash.zones
        assert screen._flash_timer is not None
        await pilot.pause(FLASH_SECONDS + 0.3)
        assert not [z for z in screen.query(ZoneBox) if z.has_class("-changed")]
        assert not [z for z in screen.query(ZoneBox) if z._landed], "a pigeon still marked as just landed"
        assert not screen.query_one("#hand").has_class("-changed")
        assert screen._flash_timer is None and not screen.flash
