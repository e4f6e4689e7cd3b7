"""What a browser gets: the login page, the tab's page, short message pages, and the few files
the tab's page loads (textual-serve's terminal, its style sheet and font, and ours). Every file
is read once at start and served from memory, from a fixed list: no path reaches the disk."""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template
from typing import Final

import textual_serve

log = logging.getLogger(__name__)

TERMINAL_HOOK: Final = ("this.terminal.open(e),", "this.terminal.open(e),e.terminal=this.terminal,")
"""A change to textual-serve's textual.js: the xterm.js terminal is kept on its element
(`document.getElementById("terminal").terminal`), so scripts (tests, screen readers' helpers)
can read the screen's text (`terminal.buffer.active`), which is otherwise only drawn."""
_TEXTUAL_SERVE_FILES: Final = {
    "textual.js": ("js/textual.js", "application/javascript; charset=utf-8"),
    "xterm.css": ("css/xterm.css", "text/css; charset=utf-8"),
    "RobotoMono.ttf": ("fonts/RobotoMono-VariableFont_wght.ttf", "font/ttf"),
}
_OUR_FILES: Final = {
    "page.js": "application/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    content_type: str


def _ours(name: str) -> str:
    return resources.files("pigeon_tui.web").joinpath("assets", name).read_text(encoding="utf-8")


def load_assets() -> dict[str, Asset]:
    """The files under /static/, by name. Raises OSError if textual-serve's are missing."""
    static = Path(textual_serve.__file__).parent / "static"
    assets = {}
    for name, (path, content_type) in _TEXTUAL_SERVE_FILES.items():
        body = (static / path).read_bytes()
        if name == "textual.js":
            old, new = TERMINAL_HOOK
            if old.encode() in body:
                body = body.replace(old.encode(), new.encode(), 1)
            else:
                log.warning("this textual-serve's textual.js differs: the screen's text is not readable by scripts")
        assets[name] = Asset(body, content_type)
    for name, content_type in _OUR_FILES.items():
        assets[name] = Asset(_ours(name).encode(), content_type)
    return assets


class Pages:
    """The HTML pages, from the templates in assets/."""

    def __init__(self) -> None:
        self._login = Template(_ours("login.html"))
        self._message = Template(_ours("message.html"))
        self.app = _ours("app.html")
        """The tab's page: the terminal the game is drawn in."""

    def login(self, error: str | None = None) -> str:
        """The password form; `error` (plain text) says what went wrong with the last try."""
        message = f'<p class="error" role="alert">{html.escape(error)}</p>' if error else ""
        return self._login.substitute(message=message)

    def message(self, text: str) -> str:
        """A page that only says `text` (plain text), with a link to try again."""
        return self._message.substitute(message=html.escape(text))
