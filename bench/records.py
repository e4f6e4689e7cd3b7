"""Fingerprints of seeded games, to prove an engine change plays the same game as before.

Plays seeded games (random bots, whose choices depend on nothing but the options; 2-6
players; both editions; blind windows on and off; every fourth block of ten with the house
rule infamous_empty=trophy and two custom Flock cards) and hashes, per game, everything a player
could notice: every choice, every event, the deciding seat's view and the open decisions at
each step, and the final state. Write the fingerprints before a change, check them after it:

    python bench/records.py --games 300 --out /tmp/before.json
    python bench/records.py --games 300 --check /tmp/before.json

A rules change (one that is meant to change games) changes fingerprints; an optimisation must not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from typing import Any, Final

from core.bots.random import RandomBot
from core.cards import DEFAULT_CUSTOM, Edition, PigeonDef, custom_pigeon
from core.house import BOOK, HouseRules, InfamousEmpty
from core.rules import apply
from core.setup import new_game
from core.views import view

VARIANT_CUSTOM: Final = (
    custom_pigeon("Racing Pigeon", 2, ("statue", "cables", "road"), "lady"),
    custom_pigeon("Sly Pigeon", 1, ("balcony", "crowd"), "stupid"),
)
"""Custom cards unlike the Common ones (a size, a rule, a Balcony entry): a cache keyed by card
id alone, that forgot the book, would show in these games."""
VARIANT_HOUSE: Final = HouseRules(InfamousEmpty.TROPHY)


def config(g: int) -> tuple[int, Edition, bool, HouseRules, tuple[PigeonDef, PigeonDef]]:
    """(players, edition, blind windows, house rules, custom cards) of game g."""
    players = 2 + g % 5
    edition = Edition.V30 if (g // 5) % 2 else Edition.V35
    blind = (g // 10) % 2 == 1
    variant = (g // 10) % 4 == 3
    return players, edition, blind, VARIANT_HOUSE if variant else BOOK, VARIANT_CUSTOM if variant else DEFAULT_CUSTOM


def fingerprint(g: int, seed: int) -> str:
    players, edition, blind, house, custom = config(g)
    state = new_game(players, seed + g, edition, custom, blind_windows=blind, house=house)
    bots = [RandomBot(seed * 31 + g * 7 + s) for s in range(players)]
    h = hashlib.sha256()

    def put(x: Any) -> None:
        h.update(json.dumps(x, sort_keys=True, separators=(",", ":")).encode())

    put(state.to_dict())
    while not state.over:
        put([d.to_dict() for d in state.open])
        d = state.open[-1] if g % 2 else state.open[0]  # reaction windows answered in both orders
        seen = view(state, d.player)
        put(seen.to_dict())
        option = bots[d.player].choose(seen, d)
        put([d.player, d.id, option])
        put([e.to_dict() for e in apply(state, d.player, d.id, option)])
    put(view(state, None).to_dict())
    put(state.to_dict())
    return h.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=20250)
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", help="write the fingerprints to this JSON file")
    out.add_argument("--check", help="compare with the fingerprints in this JSON file")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    prints = [fingerprint(g, args.seed) for g in range(args.games)]
    took = time.perf_counter() - t0
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"seed": args.seed, "games": prints}, f)
        print(f"{len(prints)} fingerprints written to {args.out} ({took:.1f} s)")
        return 0
    with open(args.check) as f:
        want = json.load(f)
    if want["seed"] != args.seed or len(want["games"]) < len(prints):
        print(f"{args.check} holds {len(want['games'])} games of seed {want['seed']}", file=sys.stderr)
        return 2
    bad = [g for g, (a, b) in enumerate(zip(prints, want["games"], strict=False)) if a != b]
    for g in bad[:20]:
        players, edition, blind, house, _custom = config(g)
        variant = "" if house is BOOK else ", house rule and custom cards"
        print(f"game {g} differs ({players} players, {edition.value}, blind={blind}{variant})")
    print(f"{len(prints) - len(bad)} of {len(prints)} games identical ({took:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
