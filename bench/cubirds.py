"""CuBirds figures: engine speed, bot strength and think times, and the full playthrough.

    python bench/cubirds.py [--runs 5] [--games 300]      engine speed (medians of the runs)
    python bench/cubirds.py --match hard,greedy --games 200 [--players 2]
    python bench/cubirds.py --playthrough 2000             the invariant checks of the tests
    python bench/cubirds.py --fingerprints 300 --out /tmp/before.json   (then --check it after a
                                                           change: an optimisation plays the same games)
    python bench/cubirds.py --instructions 4               instructions a game (valgrind), both ways

Engine speed is measured two ways, 4 players, CPU time of one core:
- "rules": random games played on the rules' functions (core.cubirds.turn), the way the search
  bot's playouts play: every choice uniform among the legal ones, as the random bot makes them,
  but no Decision objects, views or events read;
- "verbs": random games through the public verbs, as self-play runs them: the random bot
  choosing from the open decision, `apply` (core.selfplay.play_game, as bench/engine.py measures
  Pigeons & Guano: the random bot reads no view, `reads_view`, so self-play makes none). A game
  is ~100 turns and ~400 decisions. This is the issue's bar ("random 4-player games a second"):
  a random game played through the engine's verbs, not the rules path's shortcut;
- "verbs+view": the same games with `view` made for the deciding seat at every decision, as a
  host makes it for the seat's client and as a bot that reads views is handed one.

`--instructions N` counts instead of timing, for a loaded machine: valgrind's callgrind runs this
script on N games (seeds 0..N-1, one warm-up game first), dumping its counts at a call of
os.getppid() just before and just after the games, so that start-up and imports are left out;
PYTHONHASHSEED=0 makes the count repeat.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from core.cubirds import GameState, apply, new_game, view, winners
from core.cubirds.bots import make_bot
from core.cubirds.bots.random import RandomBot
from core.cubirds.cards import DRAW, ENDS, ROWS, SPECIES, SPECIES_OF
from core.cubirds.turn import Events, draw_cards, end_turn, fly, lay
from core.selfplay import play_game


def random_turn(state: GameState, rng: random.Random, ev: Events) -> None:
    """One turn of uniformly random legal choices, on the rules' functions."""
    seat = state.active
    rnd = rng.random
    hand = state.hands[seat]
    if hand:
        species = list(set(map(_OF, hand)))
        species.sort()
        kind = species[int(rnd() * len(species))]
        if not lay(state, seat, kind, int(rnd() * ROWS), ENDS[rnd() < 0.5], ev):
            if (state.draw or state.discard) and rnd() < 0.5:
                draw_cards(state, seat, DRAW, ev)
        hand = state.hands[seat]
        if len(hand) >= FEWEST:
            kinds = list(map(_OF, hand))
            flocks = [s for s in set(kinds) if kinds.count(s) >= SMALL[s]]  # (a Counter costs more)
            if flocks:
                flocks.sort()
                pick = int(rnd() * (len(flocks) + 1))
                if pick < len(flocks):
                    fly(state, seat, flocks[pick], ev)
    end_turn(state, ev)


SMALL = {s: d.small for s, d in SPECIES.items()}
FEWEST = min(SMALL.values())
_OF = SPECIES_OF.__getitem__


def rules_run(games: int, players: int, seed: int) -> tuple[float, float]:
    """(games per CPU-second, turns per game) on the rules' functions."""
    turns = 0
    c0 = time.process_time()
    for g in range(games):
        state = new_game(players, seed + g)
        rng = random.Random(seed + g)
        ev: Events = []
        while not state.over:
            ev.clear()
            random_turn(state, rng, ev)
        turns += state.turn
    return games / (time.process_time() - c0), turns / games


class Viewing(RandomBot):
    """The random bot handed its seat's view at every decision (which it does not read)."""

    reads_view = True


def verbs_run(games: int, players: int, seed: int, bot: type[RandomBot] = RandomBot) -> tuple[float, float, float]:
    """(games per CPU-second, decisions per CPU-second, decisions per game) through the verbs."""
    from core.games import CUBIRDS

    decisions = 0
    c0 = time.process_time()
    for g in range(games):
        state = new_game(players, seed + g)
        count, _ = play_game(state, [bot(seed + g * 7 + s) for s in range(players)], game=CUBIRDS)
        decisions += count
    cpu = time.process_time() - c0
    return games / cpu, decisions / cpu, decisions / games


def per_call_us(fn: object, reps: int) -> float:
    assert callable(fn)
    t0 = time.process_time()
    for _ in range(reps):
        fn()
    return (time.process_time() - t0) / reps * 1e6


def speed(runs: int, games: int) -> None:
    rules = [rules_run(games, 4, 1000 * r) for r in range(runs)]
    verbs = [verbs_run(games // 3 or 1, 4, 1000 * r) for r in range(runs)]
    # other seeds than the verbs runs': replaying the same games would find the end labels'
    # cache (rules._left_label) full of them and flatter this figure
    viewed = [verbs_run(games // 3 or 1, 4, 1000 * r + 500, Viewing) for r in range(runs)]
    mid = new_game(4, 5)
    bots = [RandomBot(s) for s in range(4)]
    for _ in range(150):
        d = mid.open[0]
        apply(mid, d.player, d.id, bots[d.player].choose(view(mid, d.player), d))
    view_us = statistics.median(per_call_us(lambda: view(mid, mid.active), 20000) for _ in range(runs))
    clone_us = statistics.median(per_call_us(mid.clone, 20000) for _ in range(runs))
    print(f"medians of {runs} runs; CPU time of one core; load {_load()}; command: {_command()}")
    print(f"4-player random games/s, rules   {statistics.median(r[0] for r in rules):9.1f}  ({games} games a run)")
    print("  (random_turn on core.cubirds.turn's lay/draw_cards/fly/end_turn: no decisions, views or bots)")
    print(f"4-player random games/s, verbs   {statistics.median(v[0] for v in verbs):9.1f}  ({games // 3} games a run)")
    print("  (core.selfplay.play_game(game=CUBIRDS): per decision RandomBot.choose, apply(); the bar's figure)")
    seen = statistics.median(v[0] for v in viewed)
    print(f"4-player random games/s, verbs+view {seen:6.1f}  ({games // 3} games a run)")
    print("  (the same, and view() for the deciding seat at every decision)")
    print(f"turns per game (rules)           {statistics.median(r[1] for r in rules):9.1f}")
    print(f"decisions per game (verbs)       {statistics.median(v[2] for v in verbs):9.1f}")
    print(f"decisions/s (verbs)              {statistics.median(v[1] for v in verbs):9.0f}")
    print(f"view() 4-player mid-game µs      {view_us:9.2f}")
    print(f"clone() 4-player mid-game µs     {clone_us:9.2f}")


def match(levels: list[str], games: int, players: int, seed: int, clock: str) -> None:
    """Seats alternate between the levels (the first level's seats rotate too); the first
    level's win rate with a 95% interval and its think times (p50, p95, max)."""
    now = {"wall": time.perf_counter, "cpu": time.process_time}[clock]
    a = levels[0]
    wins = 0.0
    seats = 0
    times: list[float] = []
    turns = 0
    for g in range(games):
        specs = [levels[(g + s) % len(levels)] for s in range(players)]
        bots = [make_bot(spec, seed * 7919 + g * 31 + s, now) for s, spec in enumerate(specs)]
        state = new_game(players, seed * 1_000_003 + g)
        while not state.over:
            d = state.open[0]
            t0 = now()
            option = bots[d.player].choose(view(state, d.player), d)
            if specs[d.player] == a:
                times.append(now() - t0)
            apply(state, d.player, d.id, option)
        won = winners(state)
        turns += state.turn
        mine = [s for s in range(players) if specs[s] == a]
        seats += len(mine)
        wins += sum(1 / len(won) for s in mine if s in won)
    rate = wins / seats
    half = 1.96 * math.sqrt(rate * (1 - rate) / seats)
    times.sort()
    p = [times[int(q * (len(times) - 1))] * 1000 for q in (0.5, 0.95)]
    print(f"{players} players, {games} games, seats alternate {' / '.join(levels)}; {clock} clock; load {_load()}")
    print(
        f"{a} win rate {rate:.3f}  (95% interval {max(0, rate - half):.3f}..{min(1, rate + half):.3f}, {seats} seats)"
    )
    print(f"{a} think ms: p50 {p[0]:.1f}, p95 {p[1]:.1f}, max {times[-1] * 1000:.1f}  ({len(times)} decisions)")
    print(f"turns per game {turns / games:.1f}")


def playthrough(games: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' checks, not a copy
    from tests.cubirds.games import configs, invariants

    t0, c0 = time.perf_counter(), time.process_time()
    decisions = 0
    for seed, players in configs(games):
        decisions += invariants(seed, players)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{games} random games, invariants after each of {decisions} decisions: clean")
    print(f"{cpu:.1f} s CPU, {wall:.1f} s wall; load {_load()}")


def fingerprint(g: int, seed: int) -> str:
    """Everything a player of seeded game g could notice, hashed: the start, every open decision,
    the deciding seat's view, every choice and event, a spectator's last view, the final state."""
    players = 2 + g % 4
    state = new_game(players, seed + g)
    bots = [RandomBot(seed * 31 + g * 7 + s) for s in range(players)]
    h = hashlib.sha256()

    def put(x: object) -> None:
        h.update(json.dumps(x, sort_keys=True, separators=(",", ":")).encode())

    put(state.to_dict())
    while not state.over:
        d = state.open[0]
        put(d.to_dict())
        seen = view(state, d.player)
        put(seen.to_dict())
        option = bots[d.player].choose(seen, d)
        put([d.player, d.id, option])
        put([e.to_dict() for e in apply(state, d.player, d.id, option)])
    put(view(state, None).to_dict())
    put(state.to_dict())
    return h.hexdigest()


def fingerprints(games: int, seed: int, out: str | None, check: str | None) -> int:
    prints = [fingerprint(g, seed) for g in range(games)]
    if out:
        Path(out).write_text(json.dumps({"seed": seed, "games": prints}))
        print(f"{games} fingerprints written to {out}")
        return 0
    if not check:
        raise SystemExit("--fingerprints needs --out or --check")
    want = json.loads(Path(check).read_text())
    if want["seed"] != seed or len(want["games"]) < games:
        raise SystemExit(f"{check} holds {len(want['games'])} games of seed {want['seed']}")
    bad = [g for g in range(games) if prints[g] != want["games"][g]]
    for g in bad[:20]:
        print(f"game {g} differs ({2 + g % 4} players)")
    print(f"{games - len(bad)} of {games} games identical")
    return 1 if bad else 0


def instructions(games: int) -> None:
    for way in ("verbs", "verbs+view", "rules"):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "cg"
            tool = ["valgrind", "--tool=callgrind", "--dump-before=os_getppid", f"--callgrind-out-file={out}"]
            subprocess.run(
                [*tool, sys.executable, __file__, "--marked", way, str(games)],
                env={**os.environ, "PYTHONHASHSEED": "0"},
                capture_output=True,
                check=True,
            )
            summary = re.search(r"^summary: (\d+)", (Path(tmp) / "cg.2").read_text(), re.M)
            assert summary, "callgrind wrote no count for the games"
        per_game = int(summary[1]) / games / 1e6
        print(f"4-player random games, {way:10}  {per_game:7.2f} M instructions a game ({games} games)")
    print(f"load {_load()}; command: {_command()}")


def marked(way: str, games: int) -> None:
    """The games of --instructions, between the two os.getppid() calls callgrind dumps at."""
    runs: dict[str, Callable[[int, int, int], object]] = {
        "verbs": verbs_run,
        "verbs+view": lambda games, players, seed: verbs_run(games, players, seed, Viewing),
        "rules": rules_run,
    }
    run = runs[way]
    run(1, 4, 999)  # every module loaded, every cache warm
    os.getppid()
    run(games, 4, 0)
    os.getppid()


def _command() -> str:
    return " ".join(["python", "bench/cubirds.py", *sys.argv[1:]])


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--match", help="levels whose bots take turns in the seats, e.g. hard,greedy")
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall", help="the search bots' deadline clock")
    p.add_argument("--playthrough", type=int, metavar="GAMES", help="run the tests' invariant checks")
    p.add_argument("--fingerprints", type=int, metavar="GAMES", help="hash seeded games (--out or --check)")
    p.add_argument("--out", help="with --fingerprints: write them to this JSON file")
    p.add_argument("--check", help="with --fingerprints: compare with this JSON file")
    p.add_argument("--instructions", type=int, metavar="GAMES", help="count instructions a game (valgrind)")
    p.add_argument("--marked", nargs=2, metavar=("WAY", "GAMES"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.marked:
        marked(args.marked[0], int(args.marked[1]))
    elif args.instructions:
        instructions(args.instructions)
    elif args.fingerprints:
        sys.exit(fingerprints(args.fingerprints, 20250 + args.seed, args.out, args.check))
    elif args.playthrough:
        playthrough(args.playthrough)
    elif args.match:
        match(args.match.split(","), args.games, args.players, args.seed, args.clock)
    else:
        speed(args.runs, args.games)


if __name__ == "__main__":
    main()
