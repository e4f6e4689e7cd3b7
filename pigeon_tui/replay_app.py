"""`pigeon-tui replay`: the list of finished games, and the viewer of one game (from the games
database or an exported file)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from net.archive import SavedRecord, games, open_db
from net.store import StoreError
from pigeon_tui.birds import BIRD_COLOURS
from pigeon_tui.hangup import watch_terminal
from pigeon_tui.screens.replay import GameListScreen, Viewer, replay_screen
from pigeon_tui.themes import KIND_COLOURS, glyphs


class ReplayApp(App[None]):
    """Watch recorded games: one (`saved`), or a pick from the database's finished games."""

    CSS_PATH = "app.tcss"
    TITLE = "Pigeons & Guano: replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", id="quit", priority=True)]

    def __init__(
        self,
        saved: SavedRecord | None = None,
        *,
        db: Path | None = None,
        viewer: Viewer | None = None,
        ascii_only: bool = False,
    ) -> None:
        super().__init__()
        self.saved = saved
        self.db = db
        self.viewer = viewer
        self.ascii_only = ascii_only
        self.glyphs = glyphs(ascii_only)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**KIND_COLOURS, **BIRD_COLOURS}

    def on_mount(self) -> None:
        self.set_class(self.ascii_only, "-ascii")
        watch_terminal(self)
        if self.saved is not None:
            self.push_screen(replay_screen(self.saved, self.glyphs, self.viewer))
            return
        assert self.db is not None
        try:
            db = open_db(self.db)
            try:
                lines = games(db)
            finally:
                db.close()
        except StoreError as exc:
            self.exit(return_code=1, message=str(exc))
            return
        self.push_screen(GameListScreen(lines, self.glyphs, self.db))
