"""Issue 10: names never vanish at 80 columns with 6 players (cut sensibly; the whole name in
the Balcony's tooltip), and a Balcony too full to list shows its pigeons by kind."""

from __future__ import annotations

import re

from net.client import Client
from net.spawn import HostSpec, start_host
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.table import TableScreen
from pigeon_tui.session import GameOptions, Session
from pigeon_tui.widgets.zone import ZoneBox, grouped, pigeon_layout
from tests.tui.conftest import screen_text
from tests.tui.test_net import _until

LONG = ("Wilhelmina", "Bartholomew", "Constantine", "Maximiliana", "Evangeline")


async def test_six_long_names_at_80x24_keep_a_readable_part_and_the_whole_in_the_tooltip() -> None:
    from pigeon_tui.remote import connect

    host = await start_host(HostSpec(seats=6, bots=0, seed=4, reaction_limit=0, turn_limit=0))
    others = [Client("127.0.0.1", host.port, name, table=1) for name in LONG]

    async def seat_at_the_host(options: GameOptions) -> Session:
        for c in others:
            await c.connect()
            await c.join(1)
        session = await connect("127.0.0.1", host.port, "Anastasiya", table=1)
        await session.first_view()
        return session

    app = PigeonApp(GameOptions(players=6), play_now=True, session_factory=seat_at_the_host)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None)
            await pilot.pause(0.3)
            text = screen_text(app)
            balconies = [z for z in app.screen.query(ZoneBox) if z.seat is not None]
            assert len(balconies) == 6
            assert isinstance(app.screen, TableScreen)
            names = app.screen.names
            assert sorted(names) == sorted(["Anastasiya", *LONG])
            for z in balconies:
                title = str(z.border_title)
                name = names[z.seat or 0]
                shown = re.sub(r"^(◆ )?(▶ )?", "", title).rsplit(" ", 1)[0].rstrip("…")
                assert len(shown) >= 4 and name.startswith(shown.removesuffix(" (you)")), (title, text)
                assert shown[:4] in text
                assert name in str(z.tooltip)
            await app.action_quit()
    finally:
        for c in others:
            await c.close()
        await host.stop()


def test_a_balcony_too_full_to_list_groups_its_pigeons_by_kind() -> None:
    assert grouped(list("IFIFIFLIS"), "×") == "I×4 F×3 L S"
    assert grouped(list("IFIFIFLIS"), "x") == "Ix4 Fx3 L S"


def test_a_balcony_lists_names_then_letters_then_kinds_then_a_run_of_letters() -> None:
    """Ten pigeons in a 16-cell Balcony are counted by kind ("I×2 S×3 L×3 F C"), not run
    together as "ISFSILLLSC" (seen at 80x24); a run of letters only where kinds do not fit."""
    letters = list("ISFSILLLSC")
    words = ["Infamous"] * len(letters)
    assert pigeon_layout(words[:1], letters[:1], 16, 1, "×") == (["Infamous"], " ")
    assert pigeon_layout(words[:3], letters[:3], 16, 1, "×") == (letters[:3], " ")
    assert pigeon_layout(words, letters, 16, 1, "×") is None  # by kind: 15 cells
    assert pigeon_layout(words[:9], letters[:9], 9, 1, "×") == (letters[:9], "")  # kinds need 15
    assert pigeon_layout(words, letters, 9, 1, "×") is None  # neither fits: by kind, cut


def test_the_results_show_names_whole_when_they_fit() -> None:
    """The game-over table shows a 10-letter name whole (it was cut to "Maximili…" beside the
    winner's mark) and cuts only what would push the table past 80 cells."""
    from core.scoring import Score
    from pigeon_tui.themes import UNICODE
    from pigeon_tui.widgets.scores import score_table

    scores = [Score(i, 1, 0, 0, 1, 0, 0, 0, 1 - i, 3) for i in range(3)]
    for names in (("Maximilian", "Bo", "Al"), ("Bo", "Maximilian", "An extraordinarily long name")):
        lines = score_table(scores, names, [0, 1], UNICODE).plain.splitlines()
        assert any("Maximilian" in line for line in lines), lines
        assert max(len(line) for line in lines) <= 78  # the results' margins leave 78 of 80
    assert any("An extraordi…" in line for line in lines)
