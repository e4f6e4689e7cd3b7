"""Issue 10: the log's sentences, one per event kind, written from the events' typed fields
in the reader's person (pigeon_tui.sentences): built events, rendered, compared."""

from __future__ import annotations

from core.cards import Edition, flock_book
from core.events import Event, EventKind
from pigeon_tui.widgets.log import GameLog, sentences
from tests.core.scenario import BIRDSEED, BLAM, FAT, FINE, GUANO, INFAMOUS, LAME, MOUNTAIN, STUPID, SWEEPER, WROOM

BOOK = flock_book(Edition.V35)
NAMES = ("You", "Ada", "Bo")


def told(*events: Event, me: int | None = 0) -> list[str]:
    return [text for text, _ in sentences(events, BOOK, NAMES, me)]


def test_r3_1_a_turn_says_whose_it_is_in_bold() -> None:
    """R3.1: a turn's line names whose turn it is ("your" for the reader) and starts a turn."""
    assert sentences([Event(EventKind.TURN, 1, turn=7)], BOOK, NAMES, 0) == [("Turn 7: Ada's turn.", True)]
    assert told(Event(EventKind.TURN, 0, turn=8)) == ["Turn 8: your turn."]


def test_r3_3_a_draw_shows_your_cards_and_only_a_count_of_others() -> None:
    """R3.3, R8.1: your draw names its cards (alike ones counted); another's says how many; a
    draw that brings nothing says so."""
    mine = Event(EventKind.DREW, 0, (GUANO[0], GUANO[1], BLAM[0]), card_count=3, secret=True)
    assert told(mine) == ["You draw 2 Guano and Blam!"]
    assert told(Event(EventKind.DREW, 1, card_count=2, secret=True)) == ["Ada draws 2 cards."]
    assert told(Event(EventKind.DREW, 2, card_count=0, secret=True)) == ["Bo draws no card."]


def test_r3_3_the_reshuffle_says_how_big_the_new_deck_is() -> None:
    """R3.3: the discard pile becomes the Action deck."""
    assert told(Event(EventKind.RESHUFFLED, card_count=31)) == [
        "The discard pile is shuffled into a new Action deck (31 cards)."
    ]


def test_r5_a_card_played_names_its_player_and_zone() -> None:
    """R5: an action names the card and its Zone ("in the Crowd"); a reaction says so."""
    assert told(Event(EventKind.PLAYED, 0, (BLAM[0],), "statue")) == ["You play Blam! on the Statue."]
    assert told(Event(EventKind.PLAYED, 1, (GUANO[0],), "crowd")) == ["Ada plays Guano in the Crowd."]
    assert told(Event(EventKind.PLAYED, 2, (WROOM[0],), "road", reaction=True)) == [
        "Bo reacts with Wroom! on the Road."
    ]
    assert told(Event(EventKind.PLAYED, 1, (BIRDSEED[0],), reaction=True)) == ["Ada reacts with Birdseed."]
    assert told(Event(EventKind.PLAYED, 2, (BLAM[0],), "b2")) == ["Bo plays Blam! on their Balcony."]
    assert told(Event(EventKind.PLAYED, 0, (BLAM[0],), "b0")) == ["You play Blam! on your Balcony."]


def test_r5_5_a_second_fine_goes_back_to_its_players_hand() -> None:
    """R5.5: only the first Fine counts; the others go back."""
    assert told(Event(EventKind.RETURNED, 0, (FINE[1],))) == [
        "Your Fine comes second: it does not count and goes back to your hand."
    ]
    assert told(Event(EventKind.RETURNED, 2, (FINE[1],))) == [
        "Bo's Fine comes second: it does not count and goes back to their hand."
    ]


def test_r5_7_a_reaction_window_and_a_batch_heading_somewhere_are_not_logged() -> None:
    """R5.7: a window tells nothing (its prompt, if any, does); a batch about to land is told by
    its landing."""
    assert told(Event(EventKind.WINDOW, window="fine"), Event(EventKind.HEADING, 0, (FAT[0],), to="b0")) == []


def test_r5_5_a_fine_says_who_fined_whom() -> None:
    """R5.5: the fining seat is the event's `by`."""
    assert told(Event(EventKind.FINED, 0, by=1)) == ["Ada fines you."]
    assert told(Event(EventKind.FINED, 2, by=0)) == ["You fine Bo."]


def test_r5_6_a_sweeper_cancels_the_fine() -> None:
    """R5.6: the Diligent Street Sweeper's reaction cancels a Fine."""
    assert told(Event(EventKind.FINE_CANCELLED, 0)) == ["Your Diligent Street Sweeper cancels the Fine."]
    assert told(Event(EventKind.FINE_CANCELLED, 1)) == ["Ada's Diligent Street Sweeper cancels the Fine."]


def test_r5_5_a_fined_player_discards_their_whole_hand() -> None:
    """R5.5: "You discard your whole hand", never "You discard their"."""
    hand = (GUANO[0], SWEEPER[0], BLAM[1], WROOM[0])
    assert told(Event(EventKind.HAND_DISCARDED, 0, hand)) == ["You discard your whole hand (4 cards)."]
    assert told(Event(EventKind.HAND_DISCARDED, 1, hand[:1])) == ["Ada discards their whole hand (1 card)."]


def test_r3_2_a_conversion_names_the_cards_discarded() -> None:
    """R3.2: the cards paid to convert."""
    assert told(Event(EventKind.DISCARDED, 0, (FINE[0], BLAM[0]))) == ["You discard Fine and Blam! to convert."]


def test_r5_4_guano_lands_on_its_zone() -> None:
    """R5.4: "lands on the Statue", "lands on your Balcony"."""
    assert told(Event(EventKind.GUANO, 1, (GUANO[0],), "statue")) == ["Guano lands on the Statue."]
    assert told(Event(EventKind.GUANO, 1, (MOUNTAIN[0],), "b0")) == ["Mountain of Guano lands on your Balcony."]


def test_r5_6_a_sweep_names_what_leaves_the_zone() -> None:
    """R5.6: the guano swept off a City Location."""
    assert told(Event(EventKind.SWEPT, 2, (GUANO[0], GUANO[1], MOUNTAIN[0]), "road")) == [
        "Bo sweeps 2 Guano and Mountain of Guano off the Road."
    ]


def test_r3_5_a_reveal_says_how_many_are_still_to_come() -> None:
    """R3.5: each Flock card revealed, and how many more."""
    assert told(Event(EventKind.REVEALED, cards=(INFAMOUS[0],), left=2)) == [
        "The Flock reveals an Infamous Pigeon (2 more to come)."
    ]
    assert told(Event(EventKind.REVEALED, cards=(FAT[0],), left=0)) == ["The Flock reveals a Fat Pigeon."]


def test_r3_5_the_invasion_says_whose_and_how_big() -> None:
    """R3.5: the Invasion's size as it begins."""
    assert told(Event(EventKind.INVASION, 0, left=3)) == ["Your Invasion: 3 Flock cards to reveal."]
    assert told(Event(EventKind.INVASION, 1, left=1)) == ["Ada's Invasion: 1 Flock card to reveal."]


def test_r4_1_a_pigeon_lands_from_the_deck_or_flies_from_a_zone() -> None:
    """R4.1, R4.2: a pigeon from the Flock lands; a moved one flies from one Zone to another."""
    assert told(Event(EventKind.LANDED, cards=(LAME[0],), to="statue")) == ["The Lame Pigeon lands on the Statue."]
    assert told(Event(EventKind.LANDED, cards=(FAT[0],), to="crowd")) == ["The Fat Pigeon lands in the Crowd."]
    assert told(Event(EventKind.LANDED, cards=(FAT[0],), zone="road", to="b0")) == [
        "The Fat Pigeon flies from the Road to your Balcony."
    ]


def test_r4_2_a_scare_names_the_pigeons_that_take_off_and_nothing_when_none_does() -> None:
    """R4.2: no "are scared and take off" when no pigeon is left to."""
    assert told(Event(EventKind.SCARED, 0, (FAT[0], LAME[0], LAME[1]), "statue")) == [
        "Scared off the Statue: the Fat Pigeon and 2 Lame Pigeons."
    ]
    assert told(Event(EventKind.SCARED, 0, (), "crowd"), Event(EventKind.SCARED, 0, (STUPID[0],), "b1")) == [
        "Scared off Ada's Balcony: the Stupid Pigeon."
    ]


def test_r7_1_a_trophy_says_its_worth_and_what_it_is() -> None:
    """R7.1, R4.6: a trophy's VP and cards; a face-down one says so."""
    assert told(Event(EventKind.TROPHY, 0, (MOUNTAIN[0],), vp=2)) == [
        "You gain a trophy worth 2 VP (Mountain of Guano)."
    ]
    assert told(Event(EventKind.TROPHY, 1, vp=1)) == ["Ada gains a trophy worth 1 VP (a Flock card taken face down)."]


def test_r4_6_the_infamous_goes_back_into_the_flock_deck() -> None:
    """R4.6: the converted Infamous is shuffled back."""
    assert told(Event(EventKind.RETURNED_TO_DECK, 0, (INFAMOUS[0],))) == [
        "The Infamous Pigeon is shuffled back into the Flock deck."
    ]


def test_r6_1_r6_2_the_last_round_begins_and_is_called_off() -> None:
    """R6.1, R6.2: the final phase and its cancellation; then the end."""
    assert told(Event(EventKind.FINAL_PHASE), Event(EventKind.FINAL_CANCELLED), Event(EventKind.GAME_OVER)) == [
        "The Flock deck is empty: everyone takes one last turn.",
        "A pigeon went back into the Flock deck: the last round is called off.",
        "The game is over.",
    ]


def test_a_replay_of_your_own_game_speaks_to_you_without_a_seat() -> None:
    """A replay passes no seat: the seat named "You" is the reader, so never "You discards"."""
    assert told(Event(EventKind.HAND_DISCARDED, 0, (GUANO[0],)), me=None) == ["You discard your whole hand (1 card)."]


async def test_the_log_shows_whole_sentences_only() -> None:
    """Issue 10: no orphan wrapped fragments at the top of the log: a sentence that does not
    fit whole is left out (the log screen, l, has it)."""
    from textual.app import App, ComposeResult

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield GameLog(id="log")

    app = One()
    async with app.run_test(size=(20, 3)) as pilot:
        log = app.query_one(GameLog)
        log.add([("Bo draws 2 cards.", False), ("The Lame Pigeon flies from the Statue to the Road.", False)])
        log.add([("You play Blam! on the Statue.", False)])
        await pilot.pause()
        assert [str(line) for line in log.render().split()] == ["", "You play Blam! on", "the Statue."]
        log.add([("Bo draws 2 cards.", False)])
        await pilot.pause()
        assert [str(line) for line in log.render().split()] == ["You play Blam! on", "the Statue.", "Bo draws 2 cards."]
