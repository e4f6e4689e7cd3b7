"""The CuBirds table drawn from views of the engine (issue 15): rows, hand by species,
collections, the prompt's keys, letters without colour, game over."""

from __future__ import annotations

import random
from typing import Any

from textual.message import Message

from core.cubirds import GameState
from core.cubirds.cards import SPECIES_OF
from core.decisions import DecisionKind
from core.games import CUBIRDS
from net.client import GameChanged
from pigeon_tui.app import PigeonApp
from pigeon_tui.screens.cubirds import BirdsOverScreen, CubirdsTableScreen, log_lines
from pigeon_tui.widgets.prompt import Prompt
from tests.tui.conftest import screen_text


def _game(players: int, seed: int, steps: int, me: int = 0) -> tuple[GameState, list[object]]:
    """A seeded random game, played on until `me` decides (or it is over)."""
    state = CUBIRDS.new_game(players, seed, {})
    rng = random.Random(seed)
    events: list[Any] = []
    for i in range(10_000):
        if state.over or (i >= steps and CUBIRDS.pending(state)[0].player == me):
            break
        d = CUBIRDS.pending(state)[0]
        events = CUBIRDS.apply(state, d.player, d.id, rng.choice(d.options).value)
    return state, events


async def _shown(app: PigeonApp, state: GameState, seat: int = 0, letters: bool = False) -> CubirdsTableScreen:
    screen = CubirdsTableScreen(None, app.glyphs, letters=letters)
    await app.push_screen(screen)
    view = CUBIRDS.view(state, seat)
    screen.post_message(CubirdsTableScreen.ViewUpdated(GameChanged(view, (), view.decisions, None, None)))
    return screen


async def test_table_shows_rows_hand_by_species_and_collections() -> None:
    state, _ = _game(5, 3, 30)
    app = PigeonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await _shown(app, state)
        await pilot.pause(0.2)
        text = screen_text(app)
    lines = text.splitlines()
    assert f"Turn {state.turn}" in lines[0] and f"draw {len(state.draw)}" in lines[0]
    for i, row in enumerate(state.rows):  # each row in order, by name
        names = " ".join({"reed_warbler": "Warbler"}.get(SPECIES_OF[c], SPECIES_OF[c].title()) for c in row)
        assert f"{i + 1} {names}" in text
    mine = [SPECIES_OF[c] for c in state.hands[0]]
    assert f"Your hand ({len(mine)})" in text
    for sp in set(mine):  # grouped: one line per species with its count
        word = "Warbler" if sp == "reed_warbler" else sp.title()
        assert any(line.count(word) == 1 and f" {mine.count(sp)} " in line for line in lines if word in line)
    for seat in range(5):
        assert f"{state.hands[seat].__len__():>2} in hand" in text
    assert "Player 5" in text and "You" in text


async def test_lay_species_then_row_keys_choose_the_offered_options() -> None:
    """The prompt lists lay_species' options with keys; key 1 chooses the first, as offered."""
    state, _ = _game(3, 5, 0)
    chosen: list[tuple[int, object]] = []

    def hook(message: Message) -> None:
        if isinstance(message, Prompt.OptionChosen):
            chosen.append((message.decision.id, message.value))

    app = PigeonApp()
    async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
        await _shown(app, state)
        await pilot.pause(0.2)
        decision = CUBIRDS.pending(state)[0]
        assert decision.kind is DecisionKind.LAY_SPECIES
        assert decision.options[0].label in screen_text(app)
        await pilot.press("1")
        await pilot.pause(0.1)
    assert chosen == [(decision.id, decision.options[0].value)]


async def test_letters_without_colour() -> None:
    """--ascii / NO_COLOR: a letter per species in the rows and collections."""
    state, _ = _game(4, 8, 40)
    app = PigeonApp(ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _shown(app, state, letters=True)
        await pilot.pause(0.2)
        text = screen_text(app)
    letters = {"flamingo": "F", "owl": "O", "toucan": "T", "duck": "D", "parrot": "P", "magpie": "M"}
    letters |= {"reed_warbler": "W", "robin": "R"}
    for i, row in enumerate(state.rows):
        assert f"{i + 1} " + " ".join(letters[SPECIES_OF[c]] for c in row) in text
    assert text.isascii()


async def test_spectator_sees_no_hand() -> None:
    state, _ = _game(2, 4, 10)
    app = PigeonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await _shown(app, state, seat=None)  # type: ignore[arg-type]
        await pilot.pause(0.2)
        text = screen_text(app)
    assert "a spectator sees no hand" in text


async def test_game_over_names_the_winner() -> None:
    state, _ = _game(2, 11, 10**6)
    assert state.over
    app = PigeonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        view = CUBIRDS.view(state, 0)
        await app.push_screen(BirdsOverScreen(view, (), app.glyphs))
        await pilot.pause(0.1)
        text = screen_text(app)
    winners = CUBIRDS.winners(state)
    assert ("You win!" in text) == (winners == [0])
    assert f"{len(state.collections[1])}" in text


async def test_game_over_offers_the_whole_log_and_the_replay_of_a_game_this_machine_kept() -> None:
    from pathlib import Path

    from pigeon_tui.screens.help import LogScreen

    state, _ = _game(2, 11, 10**6)
    app = PigeonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = [("Turn 1: You to play.", True), ("You lay 2 Owls at the left end of row 1.", False)]
        over = BirdsOverScreen(CUBIRDS.view(state, 0), (), app.glyphs, True, log, (Path("games.sqlite"), "t"))
        await app.push_screen(over)
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "Watch the replay (w)" in text and "Read the whole log (l)" in text
        assert "board" not in {b.binding.action for b in app.active_bindings.values()}  # no board lies under them
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen) and "You lay 2 Owls" in screen_text(app)


def test_log_speaks_to_the_reader() -> None:
    from core.cubirds import Event, EventKind

    lines = log_lines(
        [Event(EventKind.LAID, 0, ("OW01", "OW02"), "r1", "left"), Event(EventKind.LAID, 1, ("RO01",), "r0", "right")],
        ("You", "Ada"),
        0,
    )
    assert lines[0][0] == "You lay 2 Owls at the left end of row 2."
    assert lines[1][0] == "Ada lays a Robin at the right end of row 1."


def test_c1_1_every_species_has_a_look_and_a_theme_colour() -> None:
    """C1.1: every species of the cards has a letter, a short name and a colour (pigeon_tui.birds,
    which no longer imports the cards at start: issue 9)."""
    from core.cubirds.cards import SPECIES_ORDER
    from pigeon_tui.birds import BIRD_COLOURS, LOOKS

    assert set(LOOKS) == set(SPECIES_ORDER)
    assert len(BIRD_COLOURS) == len(SPECIES_ORDER)
    assert len({look.letter for look in LOOKS.values()}) == len(LOOKS)
