"""A table screen drawn at once and dealt when its game's session comes."""

from __future__ import annotations

from pigeon_tui.screens.size import GuardedScreen
from pigeon_tui.session import Session
from pigeon_tui.themes import Glyphs
from pigeon_tui.widgets.prompt import Prompt


class DealtScreen(GuardedScreen):
    """The table is on screen before the host has dealt (a private host still starting): the
    prompt says so until `attach` brings the session, then `follow` reads its updates."""

    def __init__(self, session: Session | None, glyphs: Glyphs) -> None:
        super().__init__()
        self.session = session
        self.glyphs = glyphs
        self._mounted = False

    def on_mount(self) -> None:
        prompt = self.query_one(Prompt)
        prompt.waiting = f"Dealing{self.glyphs.ellipsis}"
        prompt.focus()
        self._mounted = True
        if self.session is not None:
            self.follow()

    def attach(self, session: Session) -> None:
        """Deal: the session of the game this table was drawn for has come."""
        self.session = session
        if self._mounted:
            self.follow()  # else on_mount will

    def follow(self) -> object:
        """Read the session's updates until the game ends (a worker in each table)."""
        raise NotImplementedError
