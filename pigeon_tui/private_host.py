"""A headless host run as a child process of the app: a private game against bots on 127.0.0.1,
or a LAN table the app's player hosts. Never imports textual.

    python -m pigeon_tui.private_host --bind 127.0.0.1 --seats 4 --bots 3 --level random

Prints `PORT <n>` (then, for a LAN host, one `JOIN <line>` per address, then `READY`) on
stdout once it listens, and stops when its stdin closes, so it always ends with the app that started it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Sequence

from core.bots import LEVELS

READY_PREFIX = "PORT "
JOIN_PREFIX = "JOIN "
DONE_LINE = "READY"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pigeon_tui.private_host")
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 picks a free port")
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--bots", type=int, default=3)
    p.add_argument("--level", default="random", choices=LEVELS)
    p.add_argument("--edition", default="3.5", choices=["3.5", "3.0"])
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--password", default=None)
    p.add_argument("--bot-delay", type=float, default=0.3)
    p.add_argument("--timed", action="store_true", help="keep the host's turn and reaction time limits")
    return p


async def run(args: argparse.Namespace) -> None:
    from net.host import Host, HostConfig, share_lines
    from net.limits import REACTION_LIMIT, TURN_LIMIT
    from net.table import TableConfig

    table = TableConfig(
        seats=args.seats,
        bots=args.bots,
        bot_level=args.level,
        edition=args.edition,
        seed=args.seed,
        bot_delay=args.bot_delay,
        reaction_limit=REACTION_LIMIT if args.timed else 0.0,
        turn_limit=TURN_LIMIT if args.timed else 0.0,
    )
    host = Host(HostConfig(bind=args.bind, port=args.port, name="pigeon_tui", password=args.password, table=table))
    await host.start()
    print(f"{READY_PREFIX}{host.port}", flush=True)
    if args.bind not in ("127.0.0.1", "localhost", "::1"):
        for line in share_lines(host):
            print(f"{JOIN_PREFIX}{line}", flush=True)
    print(DONE_LINE, flush=True)
    serving = asyncio.create_task(host.serve_forever())
    try:
        await asyncio.to_thread(sys.stdin.read)  # returns at EOF: the app is gone
    finally:
        serving.cancel()
        try:
            await serving
        except asyncio.CancelledError:
            pass


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        asyncio.run(run(args))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
