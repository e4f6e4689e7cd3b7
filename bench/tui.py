"""Client figures, in one run (a benchmark, not a test: nothing depends on a machine's speed).

Every program runs as a user would run it: a child process in its own pseudo-terminal of
80x24, with no hook in the app. The bench reads what the child writes to its terminal and
notes the moment a marker text first appears on screen (escape sequences removed).

1. Start-up: (a) a bare Textual app (one Static) from process start to its text on screen;
   (b) `pigeon-tui play --seed 1` (the real path: the CLI starts a private `pigeon-tui host`
   child on 127.0.0.1, the app joins it over TCP) from process start to the table of the new
   game on screen (its "Your hand" title, drawn only once the first view arrived); (c) the
   ratio of the medians. The two are run turn about so that both see the same machine, after
   one warm-up each. Besides wall time, the CPU seconds the client process had used when the
   marker appeared (from /proc/PID/stat): less sensitive to a busy machine. The load averages
   before and after are printed: the machine is shared. Bar (issue 9): (b) <= 1.5 x (a).
2. Idle: a LAN table of two people (`pigeon-tui host --seats 2 --bots 0`); the client
   (`pigeon-tui join`) sits at it, the bench takes the other seat with `net.client.Client` and
   never moves. Once it is the bench's turn (the client waits for another player), the CPU
   seconds the client process uses over ~10 s of wall time, from one move of the bench (so the
   client marks what changed, issue 10), median of 5 runs. Bar: < 1 % of one core.

3. With `--instructions N` instead: the instructions each client executed from process start to
   its marker on screen, under valgrind's callgrind (deterministic where wall time is noise:
   a shared machine), median of N runs of each, and their ratio. The client is ended by SIGTERM
   as soon as its marker shows (callgrind writes its counts then); the forked private host is
   counted apart (its own file), not in the client's figure. PYTHONHASHSEED=0.

    python bench/tui.py [--runs 7] [--idle 10] [--before DIR] [--json]
    python bench/tui.py --instructions 3

`--before DIR` times `play` from another source tree too (`git archive COMMIT | tar -x -C DIR`),
in the same turns, both then run as `python -m pigeon_tui` from their tree (`--after DIR`: another
tree than this one as (b), so that both are unpacked alike).

Linux only (pty, /proc). `ctrl+q` ends each client, as a user would.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import pty
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from net.client import Client  # noqa: E402
from net.places import DATA_DIR_ENV, LOG_DIR_ENV  # noqa: E402
from net.spawn import HostProcess, HostSpec, start_host  # noqa: E402
from net.store import DB_FILE, connect  # noqa: E402

BARE_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Static

class Bare(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("bare textual app painted")

Bare().run()
"""
BARE_MARKER = b"bare textual app painted"
TABLE_MARKER = b"Your hand"
"""The hand's border title: set only when the table draws a game's view."""
SIZE = (80, 24)
TIMEOUT = 60.0
"""Seconds a child has to show its marker."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
_ESCAPE = re.compile(
    rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[P_^][^\x1b]*\x1b\\|[()][0-9A-B]|[=>78cDEHM])"
)


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process so far (fields 14 and 15 of /proc/PID/stat)."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def compiled(tree: Path) -> None:
    """Byte-compile the project's packages in `tree`, as an install does. Without it, a
    process started with PYTHONDONTWRITEBYTECODE (set on some machines) compiles every module
    changed since the last .pyc was written, on every start, and the bare app (whose textual
    is compiled) would be measured against that."""
    packages = [str(tree / name) for name in ("core", "net", "pigeon_tui") if (tree / name).is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], check=True, stdout=subprocess.DEVNULL)


class Homes:
    """The data and log directories of every program the bench starts, in a temporary directory
    of its own: a bench never reads or writes the user's games. `fresh()` points the programs at
    a new copy of directories made at first, whose games database exists and holds no game, so
    that each private host starts as after a finished game. (A game left unfinished is brought
    back by the next private host before it listens; each run quits its game in the middle.)"""

    def __init__(self) -> None:
        self._root = tempfile.TemporaryDirectory(prefix="bench-tui-")
        self._template = Path(self._root.name) / "template"
        (self._template / "log").mkdir(parents=True)
        connect(self._template / "data" / DB_FILE).close()
        self._made = 0
        self.fresh()

    def fresh(self) -> None:
        self._made += 1
        home = Path(self._root.name) / str(self._made)
        shutil.copytree(self._template, home)
        os.environ[DATA_DIR_ENV] = str(home / "data")
        os.environ[LOG_DIR_ENV] = str(home / "log")

    def close(self) -> None:
        self._root.cleanup()


def pigeon_tui() -> list[str]:
    """The installed `pigeon-tui` script, else `python -m pigeon_tui`."""
    script = shutil.which("pigeon-tui")
    return [script] if script else [sys.executable, "-m", "pigeon_tui"]


class Terminal:
    """A child process in a pseudo-terminal; notes when texts first appear on its screen."""

    def __init__(self, argv: Sequence[str], size: tuple[int, int] = SIZE, cwd: str | None = None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "PYTEST"))}
        env.update(TERM="xterm-256color", COLORTERM="truecolor", COLUMNS=str(size[0]), LINES=str(size[1]))
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            close_fds=True,
            cwd=cwd,
        )
        os.close(slave)
        self.master = master
        self.text = bytearray()
        """Everything shown so far, escape sequences removed."""
        self._raw = b""
        self._waiters: list[tuple[bytes, asyncio.Future[tuple[float, float]]]] = []
        self.closed = asyncio.Event()
        asyncio.get_running_loop().add_reader(master, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.closed.set()
            for _, fut in self._waiters:
                if not fut.done():
                    tail = bytes(self.text[-1500:]).decode(errors="replace")
                    fut.set_exception(EOFError(f"the program ended before showing its marker; it showed:\n{tail}"))
            return
        now = time.monotonic()
        raw = self._raw + data
        cut = raw.rfind(b"\x1b")
        if cut >= 0 and len(raw) - cut < 64 and not _ESCAPE.match(raw, cut):
            raw, self._raw = raw[:cut], raw[cut:]  # an escape sequence split across reads
        else:
            self._raw = b""
        self.text += _ESCAPE.sub(b"", raw)
        for marker, fut in self._waiters:
            if not fut.done() and marker in self.text:
                fut.set_result((now - self.started, cpu_seconds(self.process.pid)))

    async def shown(self, marker: bytes, timeout: float = TIMEOUT) -> tuple[float, float]:
        """(seconds since start, client CPU seconds) when `marker` first appeared on screen."""
        fut: asyncio.Future[tuple[float, float]] = asyncio.get_running_loop().create_future()
        self._waiters.append((marker, fut))
        if marker in self.text:
            fut.set_result((time.monotonic() - self.started, cpu_seconds(self.process.pid)))
        async with asyncio.timeout(timeout):
            return await fut

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def descendants(self) -> list[int]:
        """The child's own children and theirs (the private host, its bot workers)."""
        found: list[int] = []
        todo = [self.process.pid]
        while todo:
            pid = todo.pop()
            for task in Path(f"/proc/{pid}/task").glob("*/children"):
                try:
                    kids = [int(x) for x in task.read_text().split()]
                except OSError:
                    continue
                found += kids
                todo += kids
        return found

    async def quit(self) -> int:
        """ctrl+q, as a user would, twice if it asks first (a game under way); killed if it
        lingers. Returns once its children are gone too, so that the next run does not share
        the machine with them."""
        children = self.descendants()
        for press, wait in ((1, 10), (2, 100)):
            if self.process.poll() is not None:
                break
            try:
                self.press(b"\x11")  # the second answers "Quit in the middle of the game?"
            except OSError:
                pass
            for _ in range(wait):
                if self.process.poll() is not None:
                    break
                await asyncio.sleep(0.05)
            else:
                if press == 2:
                    self.process.kill()
        code = await asyncio.to_thread(self.process.wait)
        try:
            async with asyncio.timeout(2):
                await self.closed.wait()
        except TimeoutError:
            pass
        asyncio.get_running_loop().remove_reader(self.master)
        os.close(self.master)
        for _ in range(100):
            if not any(Path(f"/proc/{pid}").exists() for pid in children):
                break
            await asyncio.sleep(0.05)
        return code


async def run_once(
    argv: Sequence[str], marker: bytes, cwd: str | None = None, homes: Homes | None = None
) -> tuple[float, float]:
    if homes is not None:
        homes.fresh()
    term = Terminal(argv, cwd=cwd)
    try:
        return await term.shown(marker)
    finally:
        await term.quit()


CALLGRIND_TIMEOUT: Final = 600.0
"""Seconds a client under callgrind (some 50 times slower) has to show its marker."""


async def instructions_once(argv: Sequence[str], marker: bytes, homes: Homes) -> float:
    """Millions of instructions the client `argv` executed until `marker` showed (callgrind)."""
    homes.fresh()
    with tempfile.TemporaryDirectory(prefix="bench-tui-cg-") as tmp:
        term = Terminal(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.%p", *argv])
        try:
            await term.shown(marker, timeout=CALLGRIND_TIMEOUT)
        finally:
            if term.process.poll() is None:
                term.process.send_signal(signal.SIGTERM)  # callgrind writes the counts so far
            await term.quit()
        text = (Path(tmp) / f"cg.{term.process.pid}").read_text()
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    if found is None:
        raise RuntimeError("callgrind wrote no count for the client")
    return int(found[1]) / 1e6


async def instructions(runs: int, homes: Homes) -> dict[str, object]:
    """Medians of `runs` callgrind counts of the bare app and of `pigeon-tui play`, turn about."""
    os.environ["PYTHONHASHSEED"] = "0"
    compiled(ROOT)
    series = {
        "bare": ([sys.executable, "-c", BARE_APP], BARE_MARKER),
        "play": ([*pigeon_tui(), "play", "--seed", "1"], TABLE_MARKER),
    }
    got: dict[str, list[float]] = {name: [] for name in series}
    for _ in range(runs):
        for name, (argv, marker) in series.items():
            got[name].append(await instructions_once(argv, marker, homes))
    out: dict[str, object] = {"runs": runs}
    for name, values in got.items():
        out[f"{name}_minstr"] = round(statistics.median(values), 1)
        out[f"{name}_all_minstr"] = [round(v, 1) for v in values]
    out["ratio"] = round(statistics.median(got["play"]) / statistics.median(got["bare"]), 3)
    return out


def _ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 1)


async def startup(runs: int, homes: Homes, before: str | None = None, after: str = str(ROOT)) -> dict[str, object]:
    """Medians of `runs` start-ups of the bare app and of `pigeon-tui play`, turn about; with
    `before` (another source tree of the project), its `play` too, in the same turns."""
    bare = [sys.executable, "-c", BARE_APP]
    module = [sys.executable, "-m", "pigeon_tui", "play", "--seed", "1"]
    play = module if before else [*pigeon_tui(), "play", "--seed", "1"]
    series: dict[str, tuple[list[str], bytes, str | None]] = {
        "bare": (bare, BARE_MARKER, None),
        "play": (play, TABLE_MARKER, after),
    }
    if before:
        series["before"] = (module, TABLE_MARKER, before)
    for tree in {after, *([before] if before else [])}:
        compiled(Path(tree))
    for argv, marker, cwd in series.values():
        await run_once(argv, marker, cwd, homes)  # warm-up: the file cache
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in series}
    names = list(series)
    for turn in range(runs):
        for name in names[turn % len(names) :] + names[: turn % len(names)]:  # each goes first in turn
            argv, marker, cwd = series[name]
            got[name].append(await run_once(argv, marker, cwd, homes))
    out: dict[str, object] = {"runs": runs}
    for name, values in got.items():
        out[f"{name}_ms"] = _ms([w for w, _ in values])
        out[f"{name}_cpu_ms"] = _ms([c for _, c in values])
        out[f"{name}_all_ms"] = [round(w * 1000) for w, _ in values]
    for name in got:
        if name != "bare":
            out[f"{name}_ratio"] = round(float(out[f"{name}_ms"]) / float(out["bare_ms"]), 2)  # type: ignore[arg-type]
            out[f"{name}_cpu_ratio"] = round(
                float(out[f"{name}_cpu_ms"]) / float(out["bare_cpu_ms"]),  # type: ignore[arg-type]
                2,
            )
    return out


async def idle(seconds: float, runs: int = 5, tries: int = 8) -> dict[str, object]:
    """The client's CPU while it waits for the other player (the bench), median of `runs`.
    Each run begins with one move of the bench (a draw), so the client marks what changed
    (its highlight on a one-shot timer) inside the measured time: idle "with highlights on"."""
    samples: list[dict[str, object]] = []
    for _ in range(runs):
        samples.append(await _idle_once(seconds, tries, len(samples)))
    cpu = [float(str(x["cpu_percent"])) for x in samples]
    return {**samples[0], "runs": runs, "cpu_percent": round(statistics.median(cpu), 2), "cpu_percent_all": cpu}


async def _idle_once(seconds: float, tries: int, run: int) -> dict[str, object]:
    for attempt in range(tries):
        deal = 100 + 10 * run + attempt
        host: HostProcess = await start_host(HostSpec(seats=2, bots=0, seed=deal))
        other = Client("127.0.0.1", host.port, "Bench", table=1)
        term = Terminal([*pigeon_tui(), "join", f"127.0.0.1:{host.port}", "--name", "Ada"])
        try:
            await term.shown(b"Tables")
            await asyncio.sleep(0.5)
            term.press(b"\x1b[B")  # down to the first table (if none is highlighted yet)
            await asyncio.sleep(0.3)
            term.press(b"\r")  # sit there
            await term.shown(b"You sit at")
            await other.connect()
            await other.join(1)
            await term.shown(TABLE_MARKER)
            for _ in range(100):
                if other.view is not None:
                    break
                await asyncio.sleep(0.05)
            view = other.view
            if view is None or view.active != other.seat or not view.decisions:
                continue  # the client's own turn: deal again
            await asyncio.sleep(1.0)  # let the first drawing settle
            pid = term.process.pid
            c0, t0 = cpu_seconds(pid), time.monotonic()
            await other.choose(view.decisions[0].id, "draw")  # the client marks what changed
            await asyncio.sleep(seconds)
            c1, t1 = cpu_seconds(pid), time.monotonic()
            waiting = other.view is not None and other.view.active == other.seat and not other.view.over
            return {
                "seconds": round(t1 - t0, 2),
                "cpu_s": round(c1 - c0, 3),
                "cpu_percent": round(100 * (c1 - c0) / (t1 - t0), 2),
                "waiting_for_other_player": waiting,
                "deal": deal,
            }
        finally:
            await term.quit()
            await other.close()
            await host.stop()
    raise RuntimeError("the client always had the first turn")


async def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--runs", type=int, default=7, help="measured start-ups of each program (medians)")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measurement (0: none)")
    p.add_argument("--idle-runs", type=int, default=5, help="idle measurements (median)")
    p.add_argument("--before", default=None, help="another source tree (an older commit) to time `play` from too")
    p.add_argument("--after", default=str(ROOT), help="with --before: the tree to time as (b) (default: this one)")
    p.add_argument("--json", action="store_true", help="print only a JSON summary")
    p.add_argument(
        "--instructions", type=int, default=0, metavar="N", help="callgrind counts of N runs of each instead of times"
    )
    args = p.parse_args(argv)
    load_before = os.getloadavg()
    homes = Homes()
    if args.instructions:
        try:
            counts = await instructions(args.instructions, homes)
        finally:
            homes.close()
        if args.json:
            print(json.dumps(counts))
            return 0
        print(f"instructions from process start to the marker on screen (callgrind), medians of {args.instructions}:")
        print(f"  (a) bare Textual app      {counts['bare_minstr']:>8} M  (every run {counts['bare_all_minstr']})")
        print(f"  (b) pigeon-tui play       {counts['play_minstr']:>8} M  (every run {counts['play_all_minstr']})")
        print(f"  (c) ratio b/a             {counts['ratio']:>8}")
        return 0
    try:
        start = await startup(args.runs, homes, args.before, args.after)
        rest = await idle(args.idle, args.idle_runs) if args.idle > 0 else None
    finally:
        homes.close()
    load = {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]}
    if args.json:
        print(json.dumps({"startup": start, "idle": rest, "load": load}))
        return 0
    print(f"load averages (1, 5, 15 min): before {load['before']}, after {load['after']}")
    s = start
    print(f"start-up, medians of {args.runs} runs at 80x24 (wall; client CPU when the marker showed):")
    print(f"  (a) bare Textual app to first paint       {s['bare_ms']:>7} ms  (CPU {s['bare_cpu_ms']} ms)")
    print(f"  (b) pigeon-tui play to the table drawn    {s['play_ms']:>7} ms  (CPU {s['play_cpu_ms']} ms)")
    print(
        f"  (c) ratio b/a                             {s['play_ratio']:>7}     (CPU {s['play_cpu_ratio']})  bar <= 1.5"
    )
    if args.before:
        print(
            f"      before ({args.before}): {s['before_ms']} ms (CPU {s['before_cpu_ms']} ms),"
            f" ratio {s['before_ratio']} (CPU {s['before_cpu_ratio']})"
        )
    print(f"      every run, ms: bare {s['bare_all_ms']}  play {s['play_all_ms']}")
    if args.before:
        print(f"                     before {s['before_all_ms']}")
    if rest is None:
        return 0
    print(
        f"idle at the table after a move of the other player (marks of what changed on), median of"
        f" {rest['runs']} x {rest['seconds']} s: {rest['cpu_percent']} % of a core"
        f" (every run: {rest['cpu_percent_all']})  (bar < 1 %)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
