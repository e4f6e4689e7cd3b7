"""Issue 10, §10: with edition 3.0 every card text the player reads is the 3.0 wording (Fine on
City Locations only, the 3.0 Sweeper): the card data (core.cards.action_def), the help page,
the hand's tooltip and the prompt's line on the card under the cursor."""

from __future__ import annotations

from rich.console import Console
from textual.app import App, ComposeResult

from core.cards import ActionKind, Edition, action_def
from core.decisions import Decision, DecisionKind, Option
from core.setup import new_game
from core.views import view
from pigeon_tui.cardtext import action_help
from pigeon_tui.screens.help import help_text
from pigeon_tui.themes import UNICODE
from pigeon_tui.widgets.hand import Hand
from pigeon_tui.widgets.prompt import Prompt
from tests.core.scenario import FINE, SWEEPER

SWEEPER_30 = "Remove all guano from a City Location or a Balcony; together they make one trophy worth 1 VP."
SWEEPER_35 = "Remove all guano from a City Location; keep one as a trophy."
FINE_30 = "When another player plays Birdseed or guano onto a City Location, they discard their hand."
FINE_35 = "When another player plays Birdseed or guano onto a Zone, they discard their hand."


def test_r5_5_r5_6_card_texts_live_with_the_card_data_per_edition() -> None:
    """§10: the Fine's scope and the Sweeper are worded per edition in core.cards."""
    assert action_def(ActionKind.FINE, Edition.V30).reaction == FINE_30
    assert action_def(ActionKind.FINE, Edition.V35).reaction == FINE_35
    assert action_def(ActionKind.SWEEPER, Edition.V30).text == SWEEPER_30
    assert action_def(ActionKind.SWEEPER, Edition.V35).text == SWEEPER_35
    assert action_def(ActionKind.BLAM, Edition.V30) == action_def(ActionKind.BLAM, Edition.V35)


def _help(edition: Edition) -> str:
    console = Console(width=400, record=True)
    console.print(help_text(UNICODE, edition, new_game(3, seed=1).custom))
    return console.export_text()


def test_r5_5_r5_6_the_help_page_reads_in_the_games_edition() -> None:
    """§10: help's rules and card list in 3.0 wording for a 3.0 game, 3.5 otherwise."""
    v30, v35 = _help(Edition.V30), _help(Edition.V35)
    assert SWEEPER_30 in v30 and FINE_30 in v30 and "guano or Birdseed onto a City Location" in v30
    assert SWEEPER_35 not in v30 and FINE_35 not in v30 and "onto any Zone" not in v30
    assert SWEEPER_35 in v35 and FINE_35 in v35 and "guano or Birdseed onto any Zone" in v35
    assert SWEEPER_30 not in v35 and "Statue or the Road" in v30 and "Statue or the Crowd" in v35


async def test_r5_6_the_hand_and_the_prompt_explain_the_sweeper_in_3_0_words() -> None:
    """§10: the hand's tooltip and the prompt's detail line follow the view's edition."""

    class Both(App[None]):
        def compose(self) -> ComposeResult:
            yield Hand(UNICODE, id="hand")
            yield Prompt(UNICODE, id="prompt")

    app = Both()
    async with app.run_test(size=(80, 24)):
        hand = app.query_one(Hand)
        hand.show((SWEEPER[0], FINE[0]), hand._highlight, edition=Edition.V30)
        assert str(hand.tooltip) == "\n".join(action_help(c, Edition.V30) for c in (SWEEPER[0], FINE[0]))
        assert SWEEPER_30 in str(hand.tooltip) and FINE_30 in str(hand.tooltip)
        prompt = app.query_one(Prompt)
        prompt.view = view(new_game(3, seed=1, edition="3.0"), 0)
        play = Option(("play", SWEEPER[0], "road"), "Play Diligent Street Sweeper onto the Road", (SWEEPER[0],))
        prompt.decision = Decision(1, 0, DecisionKind.ACTION, "Action 1 of 2", (play,))
        assert SWEEPER_30 in prompt._detail()
