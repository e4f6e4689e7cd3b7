"""Play whole games through the real CLI in pseudo-terminals and print how many boards were
wrong: `python -m tests.e2e.run --games 20 --lan 1` (the issue 9 Bars).

Games alternate editions 3.0 and 3.5; each is `pigeon-tui play` (you and three bots) unless
--lan, which adds LAN games (a host and two people joining it, with two bots).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import signal
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.e2e.game import GameRun, lan_game, private_game

EDITIONS = ("3.0", "3.5")


def summary(runs: Sequence[GameRun], examples: int) -> dict[str, Any]:
    reports = [s.report for r in runs for s in r.seats if s.report is not None]
    episodes = [e for rep in reports for e in rep.episodes]
    verdicts = [v for rep in reports for v in rep.verdicts]
    out: dict[str, Any] = {
        "games": len(runs),
        "finished": sum(1 for r in runs if r.record is not None and r.error is None),
        "table_frames": sum(rep.frames for rep in reports),
        "covered_frames": sum(rep.covered for rep in reports),
        "log_cut_frames": sum(rep.log_cut for rep in reports),
        "wrong_frames": len(verdicts),
        "wrong_by_kind": {k: sum(1 for v in verdicts if v.kind == k) for k in ("stale", "ahead", "wrong", "unaligned")},
        "wrong_boards": len(episodes),
        "at_a_prompt": sum(1 for e in episodes if e.prompt),
        "answered_on_a_wrong_board": sum(1 for e in episodes if e.answered),
        "wrong_board_seconds_median": round(statistics.median([e.seconds for e in episodes]), 3) if episodes else 0.0,
        "keys": sum(s.keys for r in runs for s in r.seats),
        "seconds_per_game_median": round(statistics.median([r.seconds for r in runs]), 1) if runs else 0.0,
        "errors": [f"{r.label}: {r.error}" for r in runs if r.error],
        "problems": [f"{r.label} ({s.name}): {n}" for r in runs for s in r.seats for n in s.problems],
        "notes": sorted({f"({s.name}) {n}" for r in runs for s in r.seats for n in s.notes}),
        "games_played": [
            {
                "game": r.label,
                "seconds": round(r.seconds, 1),
                "frames": r.frames,
                "wrong_frames": r.stale,
                "error": r.error,
            }
            for r in runs
        ],
    }
    lines: list[str] = []
    for r in runs:
        for s in r.seats:
            for e in s.report.episodes if s.report is not None else ():
                if len(lines) >= examples:
                    break
                v = e.verdicts[0]
                where = "at a prompt" if e.prompt else "between prompts"
                lines.append(f"{r.label} ({s.name}), frame {v.frame}, {where}, {e.seconds:.2f} s: {_said(v)}")
    out["examples"] = lines
    return out


def _said(v: Any) -> str:
    diffs = "; ".join(f"{k} shows {a!r}, truth {b!r}" for k, (a, b) in list(v.diffs.items())[:6])
    return f"{v.kind} {v.lag:+d} sentences: {diffs}"


def dump(runs: Sequence[GameRun], folder: Path) -> None:
    """Each seat's frames with the game's record, to look at a wrong board again (`tests.e2e.show`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, r in enumerate(runs):
        for s in r.seats:
            data = {
                "label": r.label,
                "frames": s.terminal.frames,
                "keys": s.terminal.keys,
                "record": r.record,
                "names": s.names,
                "me": s.me,
                "private": s.private,
            }
            (folder / f"game{i:02d}-{s.name}.pickle").write_bytes(pickle.dumps(data))


async def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.e2e.run", description=__doc__)
    p.add_argument("--games", type=int, default=2, help="private games (pigeon-tui play)")
    p.add_argument("--lan", type=int, default=0, help="LAN games (host + two people joining)")
    p.add_argument(
        "--bots", default="easy,greedy,random", help="bot levels, one per bot seat (a searching level paces windows)"
    )
    p.add_argument("--lan-bots", default="greedy,random", help="bot levels of the LAN games' two bot seats")
    p.add_argument("--seed", type=int, default=1, help="first deal; game i plays seed + i")
    p.add_argument("--think", type=float, default=0.05, help="seconds the screen stays still before a key")
    p.add_argument("--examples", type=int, default=10, help="wrong boards to show")
    p.add_argument("--json", action="store_true", help="print only the JSON summary")
    p.add_argument("--dump", metavar="DIR", help="keep each screen's frames and the record here (pickle)")
    args = p.parse_args(argv)
    bots = [b for b in args.bots.split(",") if b]
    runs: list[GameRun] = []
    for i in range(args.games):
        edition = EDITIONS[i % 2]
        run = await private_game(edition, bots, args.seed + i, args.seed + i, think=args.think)
        runs.append(run)
        if not args.json:
            print(
                f"{run.label}: {run.seconds:.1f} s, {run.frames} frames, {run.stale} wrong, {run.error or 'ok'}",
                flush=True,
            )
    lan_bots = [b for b in args.lan_bots.split(",") if b]
    for i in range(args.lan):
        edition = EDITIONS[i % 2]
        run = await lan_game(edition, lan_bots, args.seed + 1000 + i, args.seed + i, think=args.think)
        runs.append(run)
        if not args.json:
            print(
                f"{run.label}: {run.seconds:.1f} s, {run.frames} frames, {run.stale} wrong, {run.error or 'ok'}",
                flush=True,
            )
    if args.dump:
        dump(runs, Path(args.dump))
    out = summary(runs, args.examples)
    if not args.json:
        for line in out["examples"]:
            print(line)
        for line in out["errors"] + out["problems"] + out["notes"]:
            print(line)
    print(json.dumps({k: v for k, v in out.items() if k != "examples"}))
    return 0 if out["wrong_frames"] == 0 and not out["errors"] and not out["problems"] else 1


async def _main() -> int:
    """`main`, cancelled (so every terminal and host it started is closed) on SIGTERM."""
    task = asyncio.current_task()
    assert task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    return await main()


if __name__ == "__main__":
    sys.exit(asyncio.run(_main()))
