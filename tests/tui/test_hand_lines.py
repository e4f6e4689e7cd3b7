"""The hand's lines: the most detail that fits its column (issue 9: found without drawing the
details that cannot fit, and drawn once per layout and paint)."""

from __future__ import annotations

from core.cards import ACTIONS
from pigeon_tui.themes import UNICODE
from pigeon_tui.widgets.hand import ONE_LINE_WIDTH, Hand
from pigeon_tui.widgets.zone import NO_HIGHLIGHT

CARDS = tuple(sorted(ACTIONS))[:5]


def _most_detail_that_fits(hand: Hand, width: int) -> list[str]:
    """What the hand showed before issue 9's change: each detail drawn in turn, the first that fits."""
    details = ("wrapped", "one-line", "none") if width >= ONE_LINE_WIDTH else ("wrapped", "none")
    for detail in details:
        lines = hand._draw(width, detail)
        if len(lines) <= hand.budget() or detail == "none":
            break
    return [line.plain for line in lines]


def test_the_hand_shows_the_most_detail_that_fits_its_column() -> None:
    """Issue 9: for narrow and wide columns, short and tall, the lines are those of the most
    detailed drawing that fits (the details that cannot fit are skipped undrawn), and a layout's
    second look at the same size gets the same lines without drawing them again."""
    hand = Hand(UNICODE)
    hand.show(CARDS, NO_HIGHLIGHT)
    seen = set()
    for width in (28, 38, 40, 58):
        for column in (0, 8, 13, 17, 20, 30, 40):
            hand._column = column
            lines = hand._lines(width)
            assert [line.plain for line in lines] == _most_detail_that_fits(hand, width)
            assert hand._lines(width) is lines
            seen.add(len(lines) // len(CARDS))
    assert seen >= {1, 2}  # names only and one line of text, and more: every detail was chosen somewhere
    assert any(n > 2 for n in seen)


def test_a_new_hand_or_highlight_is_drawn_anew() -> None:
    hand = Hand(UNICODE)
    hand.show(CARDS, NO_HIGHLIGHT)
    before = hand._lines(28)
    hand.show(CARDS[:2], NO_HIGHLIGHT)
    after = hand._lines(28)
    assert len(after) < len(before) and [line.plain for line in after] == _most_detail_that_fits(hand, 28)
