"""Crash and resume, 50 games (a benchmark of the store's promise, not a test: tests/net/test_resume.py
runs a few): each seeded game is played once whole, then again with the host process killed
(SIGKILL) at a random decision and started again with `pigeon-tui host --resume` on the same
port and database, its two clients reconnecting by themselves. Bar: every crashed game ends in
the same final state as its whole twin (0 lost, 0 changed).

    python bench/resume.py [--games 50] [--seed 1] [--game pigeons] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.net.crash import game


async def one(seed: int, work: Path, game_id: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    whole = await game(seed, work, None, game_id)
    total = len(whole.record["choices"])
    kill_at = random.Random(seed).randrange(1, total + 1)
    out: dict[str, Any] = {"seed": seed, "choices": total, "kill_at": kill_at}
    try:
        crashed = await game(seed, work, kill_at, game_id)
    except Exception as exc:  # a lost game: say how, go on with the others
        out.update(lost=True, error=f"{type(exc).__name__}: {exc}"[:300])
        return out
    out.update(
        lost=False,
        killed_at=crashed.killed_at,
        changed=crashed.final != whole.final,
        same_record=crashed.record == whole.record,
        seconds=round(time.perf_counter() - t0, 2),
    )
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="pigeons", help="pigeons or cubirds")
    ap.add_argument("--json", action="store_true", help="print only the JSON summary")
    args = ap.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.games):
            r = await one(args.seed + i, Path(tmp), args.game)
            runs.append(r)
            if not args.json:
                state = "LOST " + r["error"] if r["lost"] else ("CHANGED" if r["changed"] else "same")
                print(f"game {r['seed']}: killed at choice {r.get('killed_at')} of {r['choices']}: {state}", flush=True)
    lost = [r["seed"] for r in runs if r["lost"]]
    changed = [r["seed"] for r in runs if not r["lost"] and r["changed"]]
    summary = {
        "games": len(runs),
        "game": args.game,
        "lost": lost,
        "changed": changed,
        "same_record": sum(1 for r in runs if r.get("same_record")),
        "median_s_per_pair": statistics.median(r["seconds"] for r in runs if "seconds" in r) if runs else None,
        "bar_none_lost_or_changed": not lost and not changed,
        "runs": runs,
    }
    if not args.json:
        print(f"{len(runs)} games: {len(lost)} lost, {len(changed)} changed (bar: 0 and 0)")
    print(json.dumps(summary))


if __name__ == "__main__":
    asyncio.run(main())
