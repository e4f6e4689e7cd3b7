"""Network figures, in one run (a benchmark, not a test: nothing depends on a machine's speed).

1. Latency: the time from a choice to every one of 6 clients holding the new view (a host
   child process, one table of 6 people on 127.0.0.1), p50/p99, beside a bare asyncio msgpack
   echo of a view-sized frame (also a child process), measured turn about with the choices so
   that both see the same machine. Bar: choice p99 <= 3 x echo p99.
2. Load: one host process, 50 tables of 4 seats (2 client seats + 2 random bots each, 100 real
   client connections, each table's pair from its own loopback address as the host counts
   addresses) play to the end. Bar: no error, host peak RSS under 250 MB.
3. Store: the same 50 busy tables (each choice answered at people's pace, games played one
   after another for `--seconds`), choice -> both clients of its table updated, p50/p99, with
   the host's games database on and off (runs alternate, twice each). Bar: p99 on <= 1.5 x off.

    python bench/net.py [--samples 1500] [--tables 50] [--window 1.5] [--seconds 15] [--part all] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.decisions import BACK, REACTIONS, DecisionKind
from net.frames import FrameDecoder, encode
from net.messages import HOST_TYPES, hello
from net.spawn import HostProcess, HostSpec, start_host

ECHO_SERVER = r"""
import asyncio, struct, sys
async def serve(reader, writer):
    header = struct.Struct(">I")
    try:
        while True:
            head = await reader.readexactly(4)
            body = await reader.readexactly(header.unpack(head)[0])
            writer.write(head + body)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()
async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.to_thread(sys.stdin.read)
asyncio.run(main())
"""


PACE = 0.01
"""Seconds between two measured messages, for the echo and the choices alike: a client sends at
most 30 frames a second (net.limits.FRAMES_PER_SECOND), and idle sockets are the real case."""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def ms(x: float) -> float:
    return round(x * 1000, 3)


@dataclass(eq=False)
class Peer:
    """A frame-level client: reads in the background and remembers what the seat knows."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    name: str
    decoder: FrameDecoder = field(default_factory=lambda: FrameDecoder(types=HOST_TYPES))
    seq: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)
    arrivals: dict[int, tuple[float, bool, int]] = field(default_factory=dict)
    """seq -> (perf_counter when it arrived, whether it was outside a reaction window, events)."""
    results: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    overs: list[dict[str, Any]] = field(default_factory=list)
    seated: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, port: int, name: str, local: str | None = None) -> Peer:
        local_addr = (local, 0) if local is not None else None
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local_addr)
        peer = cls(reader, writer, name)
        peer.task = asyncio.create_task(peer._read())
        return peer

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(encode(msg))

    async def _read(self) -> None:
        while True:
            data = await self.reader.read(65536)
            if not data:
                return
            now = time.perf_counter()
            for m in self.decoder.feed(data):
                if not isinstance(m, dict):
                    self.errors.append({"code": m.code.value})
                    continue
                t = m["t"]
                if t in ("update", "snapshot"):
                    self.seq = m["seq"]
                    self.decisions = m["decisions"]
                    self.arrivals[m["seq"]] = (now, m["window"] is None, len(m["events"]))
                elif t == "result":
                    self.results.append(m)
                    if not m["ok"]:
                        self.errors.append(m)
                elif t in ("error", "bye"):
                    self.errors.append(m)
                elif t == "over":
                    self.overs.append(m)
                elif t == "seated":
                    self.seated = m
                elif t == "ping":
                    self.send({"t": "pong", "n": m["n"]})
            self.changed.set()

    async def wait(self, cond: Any, timeout: float = 60.0) -> None:
        async with asyncio.timeout(timeout):
            while not cond():
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


def choice(d: dict[str, Any], rng: random.Random) -> Any:
    values = [o[0] for o in d["options"] if o[0] != BACK]
    return rng.choice(values)


def rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident set size of a process, in MB (Linux /proc)."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", 0.0), fields.get("VmHWM", 0.0)


# ---- 1. echo baseline ---------------------------------------------------------------------


class Echo:
    """A bare asyncio msgpack echo server in a child process, and one client of it."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.frame = encode(payload)
        self.dec = FrameDecoder(types={"update"})
        self.samples: list[float] = []

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", ECHO_SERVER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        assert self.proc.stdout is not None
        port = int((await self.proc.stdout.readline()).decode())
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(50):
            await self.once()
        self.samples.clear()

    async def once(self) -> None:
        t0 = time.perf_counter()
        self.writer.write(self.frame)
        got: list[Any] = []
        while not got:
            got = self.dec.feed(await self.reader.read(65536))
        self.samples.append(time.perf_counter() - t0)

    async def stop(self) -> None:
        self.writer.close()
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        await self.proc.wait()


# ---- 1. choice -> 6 clients -----------------------------------------------------------------


async def choice_latency(samples: int, seed: int, echo: Echo, db: str) -> dict[str, Any]:
    """Choices at a table of 6, each followed by one echo round trip: both see the same machine."""
    host = await start_host(
        HostSpec(
            seats=6,
            bots=0,
            reaction_limit=0,
            turn_limit=0,
            bot_delay=0,
            seed=seed,
            db=db,
            extra=("--reaction-window", "0"),
        )
    )
    rng = random.Random(seed)
    peers = [await Peer.open(host.port, f"P{i}") for i in range(6)]
    for p in peers:
        p.send(hello(p.name, table=1))
    await asyncio.gather(*(p.wait(lambda p=p: p.seq >= 1) for p in peers))
    full: list[float] = []
    windowed: list[float] = []
    steps: list[float] = []
    games = 0
    example_view_size = 0
    try:
        while len(full) < samples:
            if all(p.overs and len(p.overs) > games for p in peers):
                games += 1
                for p in peers:
                    p.send({"t": "rematch", "aid": 0})
                seqs = [p.seq for p in peers]
                await asyncio.gather(*(p.wait(lambda p=p, s=s: p.seq > s) for p, s in zip(peers, seqs, strict=True)))
                continue
            await asyncio.sleep(PACE)  # people's pace: well within the host's frame rate limit
            asked = [(p, d) for p in peers for d in p.decisions[:1]]
            if not asked:
                await asyncio.sleep(0.001)  # the host is between frames (game over on its way)
                continue
            seqs = [p.seq for p in peers]
            kind = DecisionKind(asked[0][1]["kind"])
            if kind in REACTIONS:
                for p, d in asked:  # everyone asked answers; the last answer closes the window
                    p.send({"t": "choose", "id": d["id"], "option": choice(d, rng), "aid": 1})
                    p.decisions = []
            else:
                chooser, d = asked[0]
                t0 = time.perf_counter()
                chooser.send({"t": "choose", "id": d["id"], "option": choice(d, rng), "aid": 1})
                chooser.decisions = []
                s = seqs[peers.index(chooser)]
                await chooser.wait(lambda c=chooser, s=s: c.seq > s)
                if not chooser.arrivals[s + 1][2]:
                    # A step that shows nothing yet goes to its chooser alone (the others hear
                    # of the move when its events come): not a choice -> 6 clients sample.
                    steps.append(chooser.arrivals[s + 1][0] - t0)
                    continue
            await asyncio.gather(*(p.wait(lambda p=p, s=s: p.seq > s) for p, s in zip(peers, seqs, strict=True)))
            if kind in REACTIONS:
                continue
            firsts = [p.arrivals[s + 1] for p, s in zip(peers, seqs, strict=True)]
            latency = max(t for t, _, _ in firsts) - t0
            (full if all(v for _, v, _ in firsts) else windowed).append(latency)
            await asyncio.sleep(PACE)
            await echo.once()
    finally:
        errors = [e for p in peers for e in p.errors]
        for p in peers:
            await p.close()
        await host.stop()
    return {
        "samples": len(full),
        "window_samples": len(windowed),
        "games": games,
        "p50_ms": ms(statistics.median(full)),
        "p99_ms": ms(pct(full, 0.99)),
        "max_ms": ms(max(full)),
        "window_frame_p99_ms": ms(pct(windowed, 0.99)) if windowed else None,
        "step_samples": len(steps),
        "step_p50_ms": ms(statistics.median(steps)) if steps else None,
        "errors": len(errors),
        "view_bytes": example_view_size,
    }


# ---- 2. many tables -------------------------------------------------------------------------


async def load(tables: int, window: float, seed: int, db: str) -> dict[str, Any]:
    host: HostProcess = await start_host(
        HostSpec(
            seats=4,
            bots=2,
            bot_delay=0,
            seed=seed,
            db=db,
            extra=("--tables", str(tables), "--reaction-window", str(window)),
        )
    )
    pid = host.process.pid
    rng = random.Random(seed)
    peak = 0.0
    sampling = True

    async def sample_rss() -> None:
        nonlocal peak
        while sampling:
            peak = max(peak, rss_mb(pid)[0])
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample_rss())
    rss_idle = rss_mb(pid)[0]
    t_start = time.perf_counter()
    pairs: list[tuple[Peer, Peer]] = []
    try:
        for i in range(tables):
            local = f"127.0.{i // 250}.{i % 250 + 2}"  # one address per table: players open 2 each at most
            a = await Peer.open(host.port, f"A{i}", local)
            b = await Peer.open(host.port, f"B{i}", local)
            if i == 0:
                a.send(hello(a.name, table=1))
            else:
                a.send(hello(a.name))
                a.send({"t": "create", "seats": 4, "bots": 2, "aid": 1})
            await a.wait(lambda a=a: a.seated is not None)
            assert a.seated is not None
            b.send(hello(b.name, table=a.seated["table"]))
            pairs.append((a, b))
        t_seated = time.perf_counter()
        peers = [p for pair in pairs for p in pair]

        async def play(p: Peer) -> None:
            answered: set[int] = set()
            while not p.overs:
                todo = [d for d in p.decisions if d["id"] not in answered]
                for d in todo:
                    answered.add(d["id"])
                    p.send({"t": "choose", "id": d["id"], "option": choice(d, rng), "aid": d["id"]})
                p.changed.clear()
                if not todo and not p.overs:
                    await p.changed.wait()

        async with asyncio.timeout(600):
            await asyncio.gather(*(play(p) for p in peers))
        t_done = time.perf_counter()
        rss_end, hwm = rss_mb(pid)
    finally:
        sampling = False
        await sampler
        errors = [e for a, b in pairs for p in (a, b) for e in p.errors]
        for a, b in pairs:
            await a.close()
            await b.close()
        await host.stop()
    agree = sum(1 for a, b in pairs if a.overs and b.overs and a.overs[0]["winners"] == b.overs[0]["winners"])
    decisions = sum(len(p.results) for a, b in pairs for p in (a, b))
    return {
        "tables": tables,
        "connections": 2 * tables,
        "games_finished": sum(1 for a, b in pairs if a.overs and b.overs),
        "results_agree": agree,
        "client_choices": decisions,
        "errors": len(errors),
        "error_codes": sorted({str(e.get("code")) for e in errors}),
        "reaction_window_s": window,
        "seat_s": round(t_seated - t_start, 2),
        "play_s": round(t_done - t_seated, 2),
        "host_rss_idle_mb": round(rss_idle, 1),
        "host_rss_end_mb": round(rss_end, 1),
        "host_rss_peak_mb": round(max(peak, hwm), 1),
    }


# ---- 3. the store on and off ----------------------------------------------------------------


async def busy(tables: int, seconds: float, seed: int, db: str) -> list[float]:
    """`tables` tables of 2 people and 2 bots playing game after game for `seconds`: the time
    from each person's choice to both people of its table holding the update it led to.
    `db`: the host's database ("": none)."""
    host = await start_host(
        HostSpec(
            seats=4,
            bots=2,
            bot_delay=0,
            seed=seed,
            reaction_limit=0,
            turn_limit=0,
            db=db,
            extra=("--tables", str(tables), "--reaction-window", "0"),
        )
    )
    rng = random.Random(seed)
    samples: list[float] = []
    pairs: list[tuple[Peer, Peer]] = []
    try:
        for i in range(tables):
            local = f"127.0.{i // 250}.{i % 250 + 2}"
            a = await Peer.open(host.port, f"A{i}", local)
            b = await Peer.open(host.port, f"B{i}", local)
            a.send(hello(a.name, table=1) if i == 0 else hello(a.name))
            if i:
                a.send({"t": "create", "seats": 4, "bots": 2, "aid": 1})
            await a.wait(lambda a=a: a.seated is not None)
            assert a.seated is not None
            b.send(hello(b.name, table=a.seated["table"]))
            pairs.append((a, b))
        end = time.perf_counter() + seconds

        async def play(me: Peer, other: Peer) -> None:
            games = 0
            while time.perf_counter() < end:
                if len(me.overs) > games:
                    games = len(me.overs)
                    me.send({"t": "rematch", "aid": 0})
                if not me.decisions:
                    me.changed.clear()
                    try:
                        await asyncio.wait_for(me.changed.wait(), 1.0)
                    except TimeoutError:
                        pass
                    continue
                await asyncio.sleep(PACE * (1 + rng.random()))
                if not me.decisions:
                    continue
                d = me.decisions[0]
                seqs = (me.seq, other.seq)
                t0 = time.perf_counter()
                me.send({"t": "choose", "id": d["id"], "option": choice(d, rng), "aid": 1})
                me.decisions = []
                try:
                    await me.wait(lambda s=seqs[0]: me.seq > s, 10.0)
                    await other.wait(lambda s=seqs[1]: other.seq > s, 10.0)
                except TimeoutError:
                    continue  # a reaction others still answer: not a choice that updates everyone
                if DecisionKind(d["kind"]) not in REACTIONS:
                    samples.append(max(me.arrivals[seqs[0] + 1][0], other.arrivals[seqs[1] + 1][0]) - t0)

        await asyncio.gather(*(play(a, b) for a, b in pairs), *(play(b, a) for a, b in pairs))
    finally:
        for a, b in pairs:
            await a.close()
            await b.close()
        await host.stop()
    return samples


async def store_on_off(tables: int, seconds: float, seed: int) -> dict[str, Any]:
    import tempfile

    on: list[float] = []
    off: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(4):
            store = run % 2 == 1
            got = await busy(tables, seconds, seed + run, f"{tmp}/games{run}.sqlite" if store else "")
            (on if store else off).extend(got)
    out = {
        "tables": tables,
        "off": {"samples": len(off), "p50_ms": ms(statistics.median(off)), "p99_ms": ms(pct(off, 0.99))},
        "on": {"samples": len(on), "p50_ms": ms(statistics.median(on)), "p99_ms": ms(pct(on, 0.99))},
    }
    out["ratio_p99"] = round(pct(on, 0.99) / pct(off, 0.99), 2)
    out["bar_ratio_p99_le_1_5"] = out["ratio_p99"] <= 1.5
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--samples", type=int, default=1500, help="choices measured for the latency figure")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--window", type=float, default=1.5, help="the host's --reaction-window in the load run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each run of the store figure")
    ap.add_argument("--part", choices=["all", "latency", "load", "store"], default="all")
    ap.add_argument(
        "--db", default=None, help="the host's games database in parts 1 and 2 (default: a new one; '': none)"
    )
    ap.add_argument("--json", action="store_true", help="print only the JSON summary")
    args = ap.parse_args()
    summary: dict[str, Any] = {"machine": {"python": sys.version.split()[0], "cpus": os.cpu_count()}}
    import tempfile

    scratch = tempfile.TemporaryDirectory()
    if args.db is None:
        args.db = f"{scratch.name}/games.sqlite"
    if args.part in ("all", "latency"):
        summary.update(await latency_part(args))
    if args.part in ("all", "load"):
        summary.update(await load_part(args))
    if args.part in ("all", "store"):
        st = await store_on_off(args.tables, args.seconds, args.seed)
        summary["store"] = st
        if not args.json:
            print(
                f"store, {st['tables']} busy tables: choice -> both clients, off p50 {st['off']['p50_ms']} ms "
                f"p99 {st['off']['p99_ms']} ms ({st['off']['samples']}); on p50 {st['on']['p50_ms']} ms "
                f"p99 {st['on']['p99_ms']} ms ({st['on']['samples']}); ratio p99 {st['ratio_p99']} (bar <= 1.5)"
            )
    scratch.cleanup()
    print(json.dumps(summary))


async def latency_part(args: argparse.Namespace) -> dict[str, Any]:

    from core.setup import new_game
    from core.views import view

    payload = {"t": "update", "seq": 1, "events": [], "view": view(new_game(6, 1), 0).to_dict(), "decisions": []}
    echo_server = Echo(payload)
    await echo_server.start()
    try:
        latency = await choice_latency(args.samples, args.seed, echo_server, args.db)
    finally:
        await echo_server.stop()
    echo = echo_server.samples
    latency["view_bytes"] = len(encode(payload))
    echo_p99 = pct(echo, 0.99)
    summary: dict[str, Any] = {
        "echo": {"samples": len(echo), "p50_ms": ms(statistics.median(echo)), "p99_ms": ms(echo_p99)},
        "choice_to_6_clients": latency,
        "ratio_p99": round(latency["p99_ms"] / ms(echo_p99), 2),
        "bar_ratio_p99_le_3": latency["p99_ms"] <= 3 * ms(echo_p99),
    }
    if not args.json:
        e, c = summary["echo"], latency
        print(f"echo (1 client, {latency['view_bytes']} B frame): p50 {e['p50_ms']} ms  p99 {e['p99_ms']} ms")
        print(f"choice -> 6 clients hold the new view:  p50 {c['p50_ms']} ms  p99 {c['p99_ms']} ms ({c['samples']})")
        print(f"ratio p99 {summary['ratio_p99']} (bar <= 3)")
    return summary


async def load_part(args: argparse.Namespace) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    many = await load(args.tables, args.window, args.seed, args.db)
    summary["load"] = many
    summary["bar_load"] = (
        many["errors"] == 0 and many["games_finished"] == args.tables and many["host_rss_peak_mb"] < 250
    )
    if not args.json:
        m = many
        print(
            f"{m['tables']} tables x 4 seats, {m['connections']} connections: {m['games_finished']} games finished, "
            f"{m['errors']} errors, host RSS peak {m['host_rss_peak_mb']} MB, play {m['play_s']} s"
        )
    return summary


if __name__ == "__main__":
    asyncio.run(main())
