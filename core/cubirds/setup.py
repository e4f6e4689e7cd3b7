"""C2: a new game of CuBirds, dealt from one seed."""

from __future__ import annotations

from core.cubirds.cards import CARD_IDS, HAND, MAX_PLAYERS, MIN_PLAYERS, ROW_START, ROWS, SPECIES_OF
from core.cubirds.rules import ask
from core.cubirds.state import Cards, GameState
from core.decisions import DecisionKind
from core.rng import below, seed_state, shuffle


def new_game(players: int, seed: int, first_player: int | None = None) -> GameState:
    """Deal a new game (C2) and run it to the first player's first decision.

    `first_player` is the host's choice; None draws it from the seed (C2.4).
    Raises ValueError on a player count outside 2..5 or a seat not at the table.
    """
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"CuBirds is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    if first_player is not None and not (
        isinstance(first_player, int) and not isinstance(first_player, bool) and 0 <= first_player < players
    ):
        raise ValueError(f"first player must be a seat 0..{players - 1}, not {first_player!r}")
    rng = seed_state(seed)
    draw = list(CARD_IDS)
    rng = shuffle(rng, draw)
    rows: list[Cards] = []
    for _ in range(ROWS):
        rng, row = _lay_row(rng, draw)
        rows.append(tuple(row))
    dealt: list[list[str]] = [[] for _ in range(players)]
    for _ in range(HAND):
        for hand in dealt:
            hand.append(draw.pop())
    hands = [tuple(h) for h in dealt]
    collections: list[Cards] = [(draw.pop(),) for _ in range(players)]
    if first_player is None:
        rng, first_player = below(rng, players)
    state = GameState(
        players=players,
        seed=seed,
        rng=rng,
        draw=draw,
        discard=(),
        rows=rows,
        hands=hands,
        collections=collections,
        first=first_player,
        active=first_player,
        turn=1,
        round=1,
        step=DecisionKind.LAY_SPECIES,
        laying=None,
        row=None,
        over=False,
        ending=None,
        next_id=1,
        open=(),
    )
    ask(state, [])
    return state


def _lay_row(rng: int, draw: list[str]) -> tuple[int, list[str]]:
    """C2.2: three face-up cards of three species from the top of the draw pile. A card whose
    species is already in the row is set aside and shuffled back into the pile once the row is
    laid (each goes to a uniformly drawn place: the pile is already in random order)."""
    row: list[str] = []
    seen: set[str] = set()
    aside: list[str] = []
    while len(row) < ROW_START:
        card = draw.pop()
        species = SPECIES_OF[card]
        if species in seen:
            aside.append(card)
        else:
            seen.add(species)
            row.append(card)
    for card in aside:
        rng, i = below(rng, len(draw) + 1)
        draw.insert(i, card)
    return rng, row
