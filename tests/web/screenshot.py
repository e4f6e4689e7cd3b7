"""Screenshots of the game in a browser (headless Chromium on `pigeon-tui serve-web`), for the
README: a table against bots after a few moves, at two window sizes.

    python -m tests.web.screenshot [DIRECTORY]      # default: screenshots/
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.web.browser import CURSOR, GamePage, chromium, serve_web

SIZES = ((1280, 800), (1024, 640))


def shoot(directory: Path) -> list[Path]:
    out = []
    with serve_web("--open") as server:
        for width, height in SIZES:
            with chromium(width, height) as context:
                game = GamePage(context.new_page())
                game.open(server.url)
                game.wait_for("Play against bots")
                game.press("Enter")
                game.wait_for("Your hand")
                for _ in range(3):
                    game.decide()
                game.wait_until("a decision of ours", lambda t: CURSOR.search(t) is not None)
                path = directory / f"web-{width}x{height}.png"
                game.page.screenshot(path=str(path))
                out.append(path)
        server.stop()
    return out


if __name__ == "__main__":
    for path in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")):
        print(path)
