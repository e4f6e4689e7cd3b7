"""The clauses of a CuBirds turn as small functions on the state (C3, C4, C5).

`core.cubirds.rules` calls them when a decision is answered; the bots' playouts call them
directly, without decisions, so a search plays the very same rules.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from core.cubirds.cards import (
    HAND,
    LAY_SPECIES,
    LEFT,
    MAX_TURNS,
    ROW_IDS,
    SPECIES,
    SPECIES_OF,
    SPECIES_ORDER,
    WIN_PAIRS,
    WIN_SPECIES,
)
from core.cubirds.events import Event, EventKind
from core.cubirds.state import Cards, Ending, GameState
from core.rng import shuffle

Events = list[Event]

_PAIRS, _EACH = WIN_PAIRS
_OF: Final = SPECIES_OF
_FEWEST: Final = min(WIN_SPECIES, _PAIRS * _EACH)
"""C5.1: no collection of fewer cards wins."""
_LAID, _CAPTURED, _REFILLED, _RESHUFFLED, _DREW, _FLEW, _TURN, _DEALT = (
    EventKind.LAID,
    EventKind.CAPTURED,
    EventKind.REFILLED,
    EventKind.RESHUFFLED,
    EventKind.DREW,
    EventKind.FLEW,
    EventKind.TURN,
    EventKind.DEALT,
)
"""The kinds of every turn's events as module constants (core.cubirds.cards.LAY_SPECIES says why)."""
_event: Final = partial(tuple.__new__, Event)
"""Build an Event (all ten fields: kind, player, cards, row, side, secret, turn, card_count, kept,
round) without its Python-level __new__: playouts make many."""


def enclosed(row: Cards, species: str, side: str) -> tuple[int, int]:
    """C3.2: the slice [a, b) of `row` that birds of `species` laid at `side` would enclose
    (between them and the nearest bird of that species); empty (a == b) if none."""
    i, j = enclosures(row, species)
    return (0, i) if side == LEFT else (j, len(row))


def enclosures(row: Cards, species: str) -> tuple[int, int]:
    """C3.2 at both ends: (i, j) such that birds of `species` laid at the left end would enclose
    row[:i], at the right end row[j:]; (0, len(row)) if the row holds none of them."""
    n = len(row)
    mine = _CARDS_OF[species]
    # more than half the time the row holds none (random games: rows of ~9 cards): a set's C
    # loop says so for ~40 machine instructions a card, a Python loop's step costs ~300
    if mine.isdisjoint(row):
        return 0, n
    # Python loops from each end: on this interpreter a specialised step per card costs less
    # than list(map(SPECIES_OF.__getitem__, row)) and list.index, or filter() with the set's
    # __contains__ (callgrind, whole games: C calls through the shared library's table are dear)
    i = 0
    for c in row:
        if c in mine:
            break
        i += 1
    j = n
    while row[j - 1] not in mine:
        j -= 1
    return i, j


_CARDS_OF: Final = {s: frozenset(c for c, k in SPECIES_OF.items() if k == s) for s in SPECIES_ORDER}
"""Species -> the ids of its cards."""


def split(hand: Cards, species: str) -> tuple[Cards, Cards]:
    """The hand's birds of `species` and the others, each in hand order."""
    these = []
    others = []
    mine = _CARDS_OF[species]
    for c in hand:  # one pass: half the cost of two comprehensions, a third of compress(map(...)),
        if c in mine:  # less than filter()/filterfalse() of mine.__contains__ (+1.4% a game)
            these.append(c)
        else:
            others.append(c)
    return tuple(these), tuple(others)


def lay(state: GameState, seat: int, species: str, row: int, side: str, ev: Events, took: int = -1) -> bool:
    """C3.1, C3.2: lay all the seat's birds of `species` at one end of a row and take what they
    enclose into the hand; then C3.4. Returns whether anything was enclosed. `took`, if given,
    is how many cards they enclose, known already (the end's option names them): the row is
    not searched again."""
    laid, kept = split(state.hands[seat], species)
    r = state.rows[row]
    if took < 0:
        a, b = enclosed(r, species, side)
    elif side == LEFT:
        a, b = 0, took
    else:
        a, b = len(r) - took, len(r)
    taken = r[a:b]
    if side == LEFT:
        state.rows[row] = laid + r[b:]
    else:
        state.rows[row] = r[:a] + laid
    state.hands[seat] = kept + taken
    rid = ROW_IDS[row]
    ev.append(_event((_LAID, seat, laid, rid, side, False, 0, 0, 0, 0)))
    if not taken:
        return False
    ev.append(_event((_CAPTURED, seat, taken, rid, None, False, 0, 0, 0, 0)))
    refill(state, row, ev)
    return True


def refill(state: GameState, row: int, ev: Events) -> None:
    """C3.4: a row left with one species only gets cards at its right end until it holds two
    (C3.5: as long as there are cards to draw)."""
    r = state.rows[row]
    species = _OF[r[0]]
    if _OF[r[-1]] != species:
        return
    for c in r:
        if _OF[c] != species:
            return
    added = []
    while True:
        card = draw_card(state, ev)
        if card is None:
            break
        added.append(card)
        if _OF[card] != species:
            break
    if added:
        more = tuple(added)
        state.rows[row] = r + more
        ev.append(_event((_REFILLED, None, more, ROW_IDS[row], None, False, 0, 0, 0, 0)))


def draw_card(state: GameState, ev: Events) -> str | None:
    """C3.5: the top card of the draw pile, the discard pile shuffled into a new one first if
    it is empty; None if both are empty."""
    if not state.draw:
        if not state.discard:
            return None
        reshuffle(state, ev)
    return state.draw.pop()


def reshuffle(state: GameState, ev: Events) -> None:
    """C3.5, C5.2: the discard pile, shuffled with the game's generator, becomes the draw pile
    (under whatever is left of it)."""
    pile = list(state.discard)
    state.discard = ()
    state.rng = shuffle(state.rng, pile)
    state.draw[:0] = pile
    ev.append(_event((_RESHUFFLED, None, (), None, None, False, 0, len(pile), 0, 0)))


def draw_cards(state: GameState, seat: int, count: int, ev: Events) -> None:
    """C3.3: draw `count` cards into the seat's hand (fewer if there are none left, C3.5)."""
    drawn = tuple(take(state, count, ev))
    state.hands[seat] += drawn
    ev.append(_event((_DREW, seat, drawn, None, None, True, 0, len(drawn), 0, 0)))


def take(state: GameState, count: int, ev: Events) -> list[str]:
    """Up to `count` cards from the top of the draw pile, top first, as `draw_card` would give
    them one at a time (C3.5: the discard pile shuffled in when the pile runs out)."""
    draw = state.draw
    if len(draw) >= count:
        out = draw[-count:]
        del draw[-count:]
        out.reverse()
        return out
    out = []
    for _ in range(count):
        card = draw_card(state, ev)
        if card is None:
            break
        out.append(card)
    return out


def flock_size(species: str, count: int) -> int:
    """C4.1: birds a flock of `count` puts in the collection: 0 below the small flock size."""
    d = SPECIES[species]
    return 2 if count >= d.big else 1 if count >= d.small else 0


def fly(state: GameState, seat: int, species: str, ev: Events) -> None:
    """C4.1: reveal all the seat's birds of `species`; 1 (small flock) or 2 (big flock) go to
    the collection, the rest to the discard pile. The caller checks the small flock size."""
    flock, state.hands[seat] = split(state.hands[seat], species)
    keep = flock_size(species, len(flock))
    state.collections[seat] += flock[:keep]
    state.discard += flock[keep:]
    ev.append(_event((_FLEW, seat, flock, None, None, False, 0, 0, keep, 0)))


def wins(collection: Cards) -> bool:
    """C5.1: 7 different species, or at least 3 birds of each of 2 species. Counted all at once
    as rules.has_flock counts a hand: each card adds a 1 to its species' 6-bit field; adding 31
    (or 32 - 3) to every field carries into its top bit where the count is >= 1 (or >= 3)."""
    if len(collection) < _FEWEST:
        return False
    packed = sum(map(FIELD_ONE, collection))
    return ((packed + _ANY) & _TOPS).bit_count() >= WIN_SPECIES or ((packed + _THREE) & _TOPS).bit_count() >= _PAIRS


FIELD_ONE: Final = {c: 1 << (6 * SPECIES_ORDER.index(s)) for c, s in SPECIES_OF.items()}.__getitem__
"""Card id -> a 1 in its species' 6-bit field: summed over cards, every species' count at once
(a species has fewer than 32 cards: no field carries into the next)."""
_ANY: Final = sum(31 << (6 * i) for i in range(len(SPECIES_ORDER)))
_THREE: Final = sum((32 - _EACH) << (6 * i) for i in range(len(SPECIES_ORDER)))
_TOPS: Final = sum(32 << (6 * i) for i in range(len(SPECIES_ORDER)))


def end_turn(state: GameState, ev: Events) -> None:
    """The end of the active player's turn: C5.1, C5.4, then C5.2 (and C5.3), then the next turn.

    [D] A row the refill could not complete (C3.4 with both piles empty, C3.5) is refilled at
    the end of each turn as soon as there are cards to draw (the seed's "at the end of your
    turn"), so a running game's rows hold two species unless no card is left to draw.

    The rows are looked at only when the draw pile is empty or a round was dealt: such a row
    is left by a refill that found both piles empty, and the draw pile fills again only by a
    shuffle of the discard pile when a card is drawn; the discard pile gets cards only from a
    flock (the turn's last step, just before this) or a round's end (then the deal draws). So
    no draw of two or refill between can shuffle cards in while such a row waits, and the draw
    pile is still empty at the end of the turn that brings cards back. (A hand-built state with
    such a row and cards to draw breaks that invariant; it is refilled once its pile runs out.)"""
    seat = state.active
    n = state.players
    collection = state.collections[seat]
    if len(collection) >= _FEWEST and wins(collection):
        ev.append(Event(EventKind.WON, seat, collection))
        _game_over(state, Ending.COLLECTION, ev)
        return
    if state.turn >= MAX_TURNS:
        ev.append(Event(EventKind.TURN_LIMIT, turn=state.turn))
        _game_over(state, Ending.TURNS, ev)
        return
    nxt = (seat + 1) % n
    if not state.hands[seat]:
        ev.append(Event(EventKind.ROUND_OVER, seat, round=state.round))
        for k in range(1, n):
            s = (seat + k) % n
            hand = state.hands[s]
            if hand:
                state.discard += hand
                state.hands[s] = ()
                ev.append(Event(EventKind.HAND_DISCARDED, s, hand))
        if len(state.draw) + len(state.discard) < HAND * n:
            ev.append(Event(EventKind.DECK_OUT))
            _game_over(state, Ending.DEAL, ev)
            return
        deal(state, seat, ev)
        state.round += 1
        nxt = seat
        _refill_rows(state, ev)
    elif not state.draw:
        _refill_rows(state, ev)
    state.turn += 1
    state.active = nxt
    state.step = LAY_SPECIES
    state.laying = state.row = None
    ev.append(_event((_TURN, nxt, (), None, None, False, state.turn, 0, 0, 0)))


def _refill_rows(state: GameState, ev: Events) -> None:
    """C3.4 [D]: every row of one species, refilled (end_turn says when)."""
    for row, r in enumerate(state.rows):
        if _OF[r[0]] == _OF[r[-1]]:
            refill(state, row, ev)


def deal(state: GameState, dealer: int, ev: Events) -> None:
    """C5.2: the dealer deals 8 cards to each player, one at a time clockwise from their left,
    shuffling the discard pile into a new draw pile when the pile runs out (the caller has
    checked there are enough, C5.3)."""
    n = state.players
    order = [(dealer + k) % n for k in range(1, n + 1)]
    cards = take(state, HAND * n, ev)
    assert len(cards) == HAND * n, "deal() needs 8 cards per player (C5.3 is checked first)"
    for i, s in enumerate(order):
        state.hands[s] += tuple(cards[i::n])
    for s in order:
        ev.append(_event((_DEALT, s, state.hands[s], None, None, True, 0, HAND, 0, 0)))


def _game_over(state: GameState, ending: Ending, ev: Events) -> None:
    state.over = True
    state.ending = ending
    state.step = None
    state.laying = state.row = None
    ev.append(Event(EventKind.GAME_OVER))
