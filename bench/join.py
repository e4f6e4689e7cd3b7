"""From joining a private host to the first view of its game (a benchmark, not a test).

`pigeon-tui play` starts its private host (`pigeon-tui host`, one seat for the player, the rest
bots) while the app loads, then joins it: the table can be drawn only once the host has sent the
first view of the game, which it deals when the seat is taken. This bench starts such a host as
the CLI does, in a new process of its own for each run: it imports what the CLI has imported when
it starts the host, forks it (`net.spawn` with `run_here`, `net.forked`: the host begins with
those modules and no others), leaves it alone for `--settle` seconds (the app reaches its join
some hundreds of milliseconds after the host is ready), joins with `net.client.Client` and
measures, for each of `--runs` hosts:

- wall ms from opening the connection to holding the first view of the game;
- the host's CPU ms over the same span (/proc/PID/stat, in clock ticks of 10 ms: a median
  over runs), which the load of a shared machine does not inflate.

Each host has data and log directories of its own (bench/tui.py's `Homes`): never the user's.

    python bench/join.py [--runs 11] [--settle 0.5] [--json]

Linux only (/proc).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import net.client  # noqa: E402, F401  (what the CLI imports before it forks its host)
from net.client import Client  # noqa: E402
from net.spawn import HostSpec, spawn  # noqa: E402
from pigeon_tui.cli import main as cli_main  # noqa: E402
from pigeon_tui.launch import DEFAULT_BOTS  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from tui import Homes  # noqa: E402  (bench/tui.py: data and log directories of the bench's own)

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid: int) -> float:
    """utime + stime of a process so far (fields 14 and 15 of /proc/PID/stat), in ms."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / CLK_TCK


async def once(settle: float, seed: int) -> tuple[float, float]:
    """(wall ms, host CPU ms) from connecting to the first view, for one new private host."""
    homes = Homes()  # a games database with no game: nothing to bring back, as after a finished game
    spec = HostSpec.private_game(4, DEFAULT_BOTS, "3.5", seed, 0.0)
    host = await spawn(spec, run_here=cli_main).ready()
    client = Client("127.0.0.1", host.port, "Bench", table=1)
    try:
        await asyncio.sleep(settle)
        pid = host.process.pid
        c0, t0 = cpu_ms(pid), time.perf_counter()
        await client.connect()
        async with asyncio.timeout(30):
            while client.view is None:
                await asyncio.sleep(0.001)
        t1, c1 = time.perf_counter(), cpu_ms(pid)
        return (t1 - t0) * 1000, c1 - c0
    finally:
        await client.close()
        await host.stop()
        homes.close()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--runs", type=int, default=11, help="private hosts joined (medians)")
    p.add_argument("--settle", type=float, default=0.5, help="seconds between the host's ready line and the join")
    p.add_argument("--json", action="store_true", help="print only a JSON summary")
    p.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)  # a run, in its own process
    args = p.parse_args(argv)
    if args.one is not None:
        print(json.dumps(asyncio.run(once(args.settle, args.one))))
        return 0
    load_before = os.getloadavg()
    got = []
    for seed in range(1, args.runs + 1):
        one = [sys.executable, __file__, "--one", str(seed), "--settle", str(args.settle)]
        got.append(tuple(json.loads(subprocess.run(one, check=True, capture_output=True, text=True).stdout)))
    load = {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]}
    out = {
        "runs": args.runs,
        "wall_ms": round(statistics.median(w for w, _ in got), 1),
        "host_cpu_ms": round(statistics.median(c for _, c in got), 1),
        "wall_all_ms": [round(w, 1) for w, _ in got],
        "host_cpu_all_ms": [round(c) for _, c in got],
        "load": load,
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"load averages (1, 5, 15 min): before {load['before']}, after {load['after']}")
    print(f"join to the first view of a private game (4 players, greedy bots), medians of {args.runs} hosts:")
    print(f"  wall {out['wall_ms']} ms, host CPU {out['host_cpu_ms']} ms")
    print(f"  every run: wall {out['wall_all_ms']}  host CPU {out['host_cpu_all_ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
