"""Issue 10: every reaction prompt says who did what, where, and what answering would do, from
the view's data; the Invasion as it happens; identical options once; being fined is a toast.
Whole games on the real host (on the test's event loop), seeded, answered with keys, played
once for the module and read by each test."""

from __future__ import annotations

import random
import re

import pytest

from core.decisions import REACTIONS, Decision, DecisionKind, Option
from pigeon_tui.widgets.prompt import BACK_KEY, PASS_KEY, entries_for
from tests.tui.conftest import make_app, screen_text, wait_for_prompt

pytestmark = pytest.mark.xdist_group("tui-context")
"""One worker plays the module's games (`make test` runs `--dist loadgroup`): split between
workers, each would play both games for its share of the tests."""

NAMES = ("Rocky", "Dove", "Percy", "Gus")
ZONES = r"(the Road|the Statue|the Cables|the Crowd|your Balcony|\w+'s Balcony)"

Seen = dict[DecisionKind, list[tuple[str, str, list[str]]]]
"""Each reaction prompt's context line, the screen and the toasts showing then, by kind."""


async def _contexts(players: int, seed: int) -> Seen:
    """Each reaction prompt's context line, the screen and the toasts then, by kind, over a
    whole game."""
    app = make_app(players=players, seed=seed)
    rng = random.Random(seed)
    seen: Seen = {}
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(600):
            shown = await wait_for_prompt(pilot)
            if shown is None:
                break
            d = shown.decision
            assert d is not None
            if d.kind in REACTIONS:
                toasts = [str(n.message) for n in app._notifications]
                seen.setdefault(d.kind, []).append((shown.context, screen_text(app), toasts))
            numbered = [e.key for e in shown.entries if e.key not in (PASS_KEY, BACK_KEY, "")]
            if numbered and rng.random() < 0.7:
                key = rng.choice(numbered)
            else:
                key = PASS_KEY if d.kind in REACTIONS or not numbered else numbered[0]
            await pilot.press(key)
    return seen


@pytest.fixture(scope="module")
def contexts() -> Seen:
    import asyncio

    out: Seen = {}
    for players, seed in ((4, 11), (5, 6)):  # (5, 6) has a prompt of every reaction kind
        for kind, lines in asyncio.run(_contexts(players, seed)).items():
            out.setdefault(kind, []).extend(lines)
    return out


def _check(lines: list[tuple[str, str, list[str]]], pattern: str) -> None:
    assert lines, "no such prompt in the games played"
    for context, screen, _ in lines:
        assert re.search(pattern, context), context
        assert context.split(":")[0][:30] in screen.replace("\n", " ") or context[:20] in screen, screen


def test_share_prompt_names_card_player_zone_and_the_take(contexts: Seen) -> None:
    """R5.1: "Dove played Zot! on the Cables (3 pigeons): share? You would take 1 of 3 ..." """
    _check(
        contexts[DecisionKind.REACT_SHARE],
        r"^\w+ played (Wroom!|Zot!) on the (Road|Cables) (\(\d+ pigeons?\): share\? You would take \d+ of \d+|"
        r"\(no pigeons there\))",
    )


def test_fine_prompt_names_card_player_zone_and_the_hand_lost(
    contexts: Seen,
) -> None:
    """R5.5: who played which card onto which Zone, and how many cards they would discard."""
    _check(
        contexts[DecisionKind.REACT_FINE],
        rf"^\w+ played (Birdseed|Guano|Mountain of Guano) onto {ZONES}: Fine them\? They (would discard their "
        r"whole hand \(\d+ cards?\)|have no cards to lose)\.$",
    )


def test_sweeper_prompt_names_who_fined_you(contexts: Seen) -> None:
    """R5.6: who fined you, and what not answering costs (your whole hand)."""
    _check(
        contexts[DecisionKind.REACT_SWEEPER],
        r"^\w+ fined you: cancel it with your Street Sweeper\? If not, you discard your whole hand \(\d+ cards?\)\.$",
    )


def test_birdseed_prompt_names_the_pigeons_and_who_sends_them(
    contexts: Seen,
) -> None:
    """R5.3: which pigeons are coming to your Balcony, and whose move (or Invasion) sends them."""
    _check(
        contexts[DecisionKind.REACT_BIRDSEED],
        r"^(You send|\w+ sends|\w+'s Invasion brings|Your Invasion brings|Coming:) the .+ to your Balcony "
        r"\(-1 VP( each)?\): redirect (them|it) with Birdseed\?$",
    )


def test_guano_prompt_names_the_zone_and_who_moved_the_infamous(
    contexts: Seen,
) -> None:
    """R4.5: where the Infamous Pigeon landed, who moved it, and what guano there would cost."""
    _check(
        contexts[DecisionKind.REACT_GUANO],
        rf"^The Infamous Pigeon landed on {ZONES}(, moved by \w+| in (your|\w+'s) Invasion): play guano there\?",
    )
    balconies = [c for c, _, _ in contexts[DecisionKind.REACT_GUANO] if "Balcony" in c.split(":")[0]]
    assert balconies and all(re.search(r"It would cost \w+ 1 VP \(a Mountain 2\)\.$", c) for c in balconies)


def test_r5_5_being_fined_is_a_toast(contexts: Seen) -> None:
    """R5.5: "Rocky fined you!" shows as a toast (at the Sweeper's prompt), not only in the log.
    (The game of five, seed 6, played with these keys, is the one this test played on its own
    in test_changes up to its Sweeper prompt.)"""
    prompts = contexts[DecisionKind.REACT_SWEEPER]
    assert prompts, "no one fined you in the games played"
    for _, _, toasts in prompts:
        assert any(re.match(r"\w+ fined you!", m) for m in toasts), toasts


def test_identical_options_appear_once_with_their_count() -> None:
    """Issue 10: two options the engine labels alike are one entry, "Fat Pigeon ×2"."""
    d = Decision(
        1,
        0,
        DecisionKind.PICK,
        "Which pigeon?",
        (Option("F01", "Fat Pigeon", ("F01",)), Option("F02", "Fat Pigeon", ("F02",)), Option("F03", "Lady Pigeon")),
    )
    entries = entries_for(d)
    assert [e.label for e in entries] == ["Fat Pigeon ×2", "Lady Pigeon"]
    assert entries[0].value == "F01"
    assert next(e.label for e in entries_for(d, times="x")) == "Fat Pigeon x2"


def test_r4_6_converting_the_infamous_with_an_empty_flock_says_it_gains_nothing() -> None:
    """R4.6: with the Flock deck empty, "Convert the Infamous Pigeon" says it gains nothing and
    calls the last round off; under the house rule infamous_empty=trophy, that the Infamous
    itself is the trophy."""
    from dataclasses import replace

    from core.cards import Rule
    from core.house import HouseRules, InfamousEmpty
    from core.setup import new_game
    from core.views import view
    from pigeon_tui.explain import option_note

    v = view(new_game(3, seed=2), 0)
    infamous = next(c for c, row in v.book.items() if row.rule is Rule.INFAMOUS)
    convert = Option(("convert", infamous), "Convert the Infamous Pigeon", (infamous, "b0"))
    assert option_note(v, convert) == ""  # the Flock deck is not empty
    empty = replace(v, flock_count=0)
    assert "gains nothing" in option_note(empty, convert) and "last round is called off" in option_note(empty, convert)
    other = next(c for c, row in v.book.items() if row.rule is Rule.FAT)
    assert option_note(empty, Option(("convert", other), "Convert the Fat Pigeon")) == ""
    trophy = replace(empty, house=HouseRules(InfamousEmpty.TROPHY))
    assert "face-down trophy" in option_note(trophy, convert)
