"""How long tests/net takes, serially (issue 17's bar: >= 3x faster than at 5fc171a, the commit
before the table split). Prints each run's wall time and CPU time (pytest and every child process
it waited for: TUIs, hosts, the zygote and its forks), then the medians, with the load average.

    python bench/tests_net.py --runs 3
    python bench/tests_net.py --runs 3 --against /tmp/old --python /tmp/old-venv/bin/python
    python bench/tests_net.py --tree /tmp/new --tree-python /tmp/new-venv/bin/python --against ...

With `--against DIR` (a checkout of another commit, e.g. `git archive 5fc171a | tar -x -C DIR`,
with a Python that imports its packages first), the runs alternate between that tree and this
one, and both run only the tests that tree has (by node id), so the figures compare like with
like on a shared machine. A checkout's Python must import that checkout's packages first, child
processes included (serve-ssh's children get no PYTHONPATH): a venv whose site-packages holds a
.pth naming the checkout, then the dependencies' site-packages; measure a copy (`--tree`) rather
than a worktree you edit meanwhile. Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def node_ids(tree: Path, python: str) -> list[str]:
    """The test ids of tree's tests/net, as its pytest collects them."""
    out = subprocess.run(
        [python, "-m", "pytest", "tests/net", "--collect-only", "-q", "-o", "addopts=", "-p", "no:cacheprovider"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in out.stdout.splitlines() if "::" in line]


def run(tree: Path, python: str, ids: list[str] | None) -> tuple[float, float, bool]:
    """One serial run: (wall seconds, CPU seconds of it and its children, passed)."""
    args = ids if ids is not None else ["tests/net"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=tree, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        print(done.stdout[-3000:], file=sys.stderr)
    return wall, cpu, done.returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--against", type=Path, default=None, help="another checkout, run alternately")
    ap.add_argument("--python", default=sys.executable, help="the other checkout's Python")
    ap.add_argument("--tree", type=Path, default=HERE, help="the checkout measured (default: this one)")
    ap.add_argument("--tree-python", default=sys.executable, help="its Python")
    args = ap.parse_args()
    trees = [("this", args.tree.resolve(), args.tree_python)]
    ids = None
    if args.against is not None:
        ids = node_ids(args.against, args.python)
        trees.insert(0, ("against", args.against.resolve(), args.python))
        print(f"{len(ids)} tests (those of {args.against})")
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in trees}
    for n in range(args.runs):
        for name, tree, python in trees:
            load = os.getloadavg()[0]
            wall, cpu, ok = run(tree, python, ids)
            figures[name].append((wall, cpu))
            said = "ok" if ok else "FAILED"
            print(f"run {n + 1} {name:8} wall {wall:6.1f} s  cpu {cpu:6.1f} s  load {load:4.1f}  {said}")
    for name, rows in figures.items():
        wall = statistics.median(w for w, _ in rows)
        cpu = statistics.median(c for _, c in rows)
        print(f"median {name:8} wall {wall:6.1f} s  cpu {cpu:6.1f} s  ({len(rows)} runs)")
    if args.against is not None:
        (w0, c0), (w1, c1) = (
            (statistics.median(r[0] for r in f), statistics.median(r[1] for r in f)) for f in figures.values()
        )
        print(f"this tree is {w0 / w1:.2f}x faster by wall time, {c0 / c1:.2f}x by CPU time")
    print(f"load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
