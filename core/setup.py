"""R2: a new game, dealt from one seed."""

from __future__ import annotations

from core.cards import ACTION_IDS, CITY, DEFAULT_CUSTOM, FLOCK_IDS, Edition, PigeonDef, flock_book
from core.events import Event
from core.flow import fits
from core.house import BOOK, HouseRules
from core.rng import below, seed_state, shuffle
from core.rules import advance
from core.state import MAX_PLAYERS, MIN_PLAYERS, REMOVED, GameState, Trophy
from core.turn import start_turn

START_HAND = 3
"""R2.4: cards each player draws at setup."""


def new_game(
    players: int,
    seed: int,
    edition: Edition | str = Edition.V35,
    custom: tuple[PigeonDef, PigeonDef] = DEFAULT_CUSTOM,
    first_player: int | None = None,
    blind_windows: bool = False,
    house: HouseRules = BOOK,
) -> GameState:
    """Deal a new game (R2) and run it to the first player's first decision.

    `first_player` is the host's choice; None draws it from the seed (R2.4). A host with
    humans at the table sets `blind_windows` (see GameState) so reaction windows look alike
    whoever holds what (R5.7). `house`: the host's house rules (core.house).
    Raises ValueError on a player count outside 2..6 or an unknown edition or seat.
    """
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {players!r}")
    try:
        edition = Edition(edition)
    except ValueError:
        raise ValueError(f"edition must be one of {[e.value for e in Edition]}, not {edition!r}") from None
    if first_player is not None and not (isinstance(first_player, int) and 0 <= first_player < players):
        raise ValueError(f"first player must be a seat 0..{players - 1}")
    rng = seed_state(seed)
    flock, deck = list(FLOCK_IDS), list(ACTION_IDS)
    rng = shuffle(rng, flock)
    rng = shuffle(rng, deck)
    # loops and slices, not comprehensions (a function made and called each), here and below
    removed = flock[len(flock) - REMOVED[players] :]  # popped from the top, one at a time
    removed.reverse()
    del flock[len(flock) - REMOVED[players] :]
    if first_player is None:
        rng, first_player = below(rng, players)
    hands: list[list[str]] = []
    trophies: list[list[Trophy]] = []
    for _ in range(players):
        hands.append([])
        trophies.append([])
    empty: list[tuple[str, ...]] = [()]  # () is one object: a list of them shares nothing
    state = GameState(
        edition=edition,
        players=players,
        seed=seed,
        custom=custom,
        rng=rng,
        flock=flock,
        deck=deck,
        discard=[],
        played=[],
        removed=removed,
        air=[],
        hands=hands,
        pigeons=empty * (len(CITY) + players),
        guano=empty * (len(CITY) + players),
        trophies=trophies,
        first=first_player,
        active=first_player,
        turn=0,
        actions_left=2,
        final_left=None,
        over=False,
        blind_windows=blind_windows,
        house=house,
        next_id=1,
        stack=[],
        open=[],
        book=flock_book(edition, custom),
    )
    _place_city(state)
    events: list[Event] = []
    for _ in range(START_HAND):
        for seat in range(players):
            state.hands[seat].append(state.deck.pop())
    start_turn(state, first_player, events)
    advance(state, events)
    return state


def _place_city(state: GameState) -> None:
    """R2.3: one Flock card face up at each City Location, ignoring entry rules. [D] A card
    that may never be at its place (a Lame Pigeon drawn for the Cables) goes to the bottom of
    the Flock deck and the next card is drawn instead; see docs/engine.md."""
    for z in range(len(CITY)):
        for _ in range(len(state.flock)):
            card = state.flock.pop()
            if fits(state, z, card):
                state.pigeons[z] += (card,)
                break
            state.flock.insert(0, card)
