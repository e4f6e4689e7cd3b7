"""Web front door figures, in one run (a benchmark, not a test: nothing depends on a machine's speed).

The server runs as a user runs it: `pigeon-tui serve-web --bind 127.0.0.1 --port 0 --password
...` in a child process; the browser is Debian's Chromium, headless, driven by Playwright
(tests/web/browser.py), logged in once.

1. Start: a new tab opens the page; the time from the start of its navigation to the start
   screen drawn ("Play against bots" in the page's terminal, checked at every animation frame),
   read from the page's own clock. Also, from the same clock: the page loaded, the game's
   WebSocket open, its first screen data. One warm-up, then `--runs` tabs one after another
   (each closed, and its app gone, before the next); medians. Bar: <= 3 s.
2. Ten tabs at once, each at a table against bots (start screen, Enter, one decision made);
   then the resident memory of the server's whole process tree (the server, each tab's app and
   its game host), summed RSS and PSS from /proc. Bar: RSS < 1.2 GB.

    python bench/web.py [--runs 7] [--sessions 10] [--json]

Linux only (/proc). Needs the test extra (textual-serve, playwright) and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.procs import descendants, memory
from tests.web.browser import (
    SCREEN_JS,
    GamePage,
    Server,
    chromium,
    process_group,
    serve_web,
    wait_gone,
    wait_until,
)

PASSWORD = "bench"
MARKER = "Play against bots"
TIMEOUT_MS = 60_000
FIRST_SCREEN_JS = (
    "(marker) => { const s = (" + SCREEN_JS + ")(); return s && s.text.includes(marker) ? performance.now() : null; }"
)
MARKS_JS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const marks = Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime]));
  return {loaded: nav ? nav.loadEventEnd : null, open: marks["pigeon-ws-open"], data: marks["pigeon-first-data"]};
}"""


def start_once(context: object, server: Server, spare: bool) -> dict[str, float]:
    """One new tab to the start screen; seconds from its navigation's start, by the page's clock.
    With `spare`, first wait until the server has a spare app ready (as it has between players)."""
    if spare:
        wait_until("a spare app ready", lambda: bool(server.ready_spares()))
    page = context.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(server.url, wait_until="commit")
        drawn = page.wait_for_function(FIRST_SCREEN_JS, arg=MARKER, polling="raf", timeout=TIMEOUT_MS).json_value()
        marks = page.evaluate(MARKS_JS)
    finally:
        page.close()
    app = server.apps()[-1]
    wait_gone(lambda: process_group(app))
    return {"drawn": drawn / 1000, **{k: (v or 0) / 1000 for k, v in marks.items()}}


def at_table(context: object, server: Server) -> GamePage:
    game = GamePage(context.new_page())  # type: ignore[attr-defined]
    game.open(server.url)
    game.wait_for(MARKER)
    game.press("Enter")
    game.wait_for("Your hand")
    game.decide()
    return game


def log_in(context: object, server: Server) -> None:
    page = GamePage(context.new_page())  # type: ignore[attr-defined]
    page.open(server.url)
    page.log_in(PASSWORD)
    page.wait_for(MARKER)
    page.page.close()
    wait_gone(lambda: process_group(server.apps()[-1]))


def starts(context: object, server: Server, runs: int, spare: bool) -> list[dict[str, float]]:
    """A warm-up (caches, the browser's first WebSocket), then `runs` measured starts."""
    start_once(context, server, spare)
    return [start_once(context, server, spare) for _ in range(runs)]


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(r[k] for r in runs), 3) for k in runs[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    caps = ("--max-sessions", str(args.sessions + 2), "--max-per-address", str(args.sessions + 2))
    with chromium() as context:
        with serve_web("--password", PASSWORD, *caps) as server:
            log_in(context, server)
            warm = starts(context, server, args.runs, spare=True)
            games = [at_table(context, server) for _ in range(args.sessions)]
            time.sleep(1.0)  # let the tables settle before reading memory (not a synchronisation)
            pids = [server.pid, *descendants(server.pid)]
            figures = [memory(p) for p in pids]
            for game in games:
                game.page.close()
            server.stop()
        with serve_web("--password", PASSWORD, "--spares", "0", *caps) as server:
            log_in(context, server)
            cold = starts(context, server, args.runs, spare=False)
            server.stop()
    w, c = medians(warm), medians(cold)
    result = {
        "start_screen_median_s": w["drawn"],
        "start_screen_runs_s": [round(r["drawn"], 3) for r in warm],
        "page_loaded_median_s": w["loaded"],
        "websocket_open_median_s": w["open"],
        "first_data_median_s": w["data"],
        "cold_start_screen_median_s": c["drawn"],
        "cold_start_screen_runs_s": [round(r["drawn"], 3) for r in cold],
        "cold_first_data_median_s": c["data"],
        "sessions_at_tables": len(games),
        "processes": len(pids),
        "tree_rss_mb": round(sum(r for r, _ in figures) / 2**20, 1),
        "tree_pss_mb": round(sum(p for _, p in figures) / 2**20, 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"page to start screen, a spare app ready: median {w['drawn']:.3f} s (bar <= 3 s); page loaded "
        f"{w['loaded']:.3f} s, WebSocket open {w['open']:.3f} s, first screen data {w['data']:.3f} s; "
        f"runs {result['start_screen_runs_s']}"
    )
    print(
        f"page to start screen, no spare (--spares 0, or a second tab at once): median {c['drawn']:.3f} s; "
        f"first screen data {c['data']:.3f} s; runs {result['cold_start_screen_runs_s']}"
    )
    print(
        f"{len(games)} tabs at tables: {len(pids)} processes, RSS {result['tree_rss_mb']} MB "
        f"(bar < 1229), PSS {result['tree_pss_mb']} MB"
    )


if __name__ == "__main__":
    main()
