"""What a table says besides the game: its chat, its `table` frame, and its line in the lobby."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from net.limits import CHAT_HISTORY
from net.sanitize import clean_chat
from net.table.outbox import Frame, Recipient

if TYPE_CHECKING:
    from net.table.table import Table


class Talk:
    """The table's chat lines (the last `CHAT_HISTORY` kept for newcomers) and its status frames."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.chat: deque[Frame] = deque(maxlen=CHAT_HISTORY)

    def say(self, name: str, seat: int | None, text: str) -> None:
        t = self.table
        text = clean_chat(text)
        if not text:
            return
        line = {"t": "chat", "table": t.id, "name": name, "seat": seat, "text": text}
        self.chat.append(line)
        t.recorder.said(t, line)
        for conn in t.seating.conns():
            t.outbox.send(conn, line)

    def replay(self, conn: Recipient) -> None:
        """The chat so far, for someone who just came."""
        for line in self.chat:
            self.table.outbox.send(conn, line)

    def info(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        t = self.table
        return {
            "id": t.id,
            "name": t.name,
            "phase": t.phase.value,
            "game": t.game_no,
            "edition": t.config.edition,
            "game_id": t.game.id,
            "seats": [m.public() if m is not None else None for m in t.seating.seats],
            "watchers": len(t.seating.watchers),
        }

    def table_frame(self) -> Frame:
        t = self.table
        owner = t.seating.owner
        c = t.config
        return {
            "t": "table",
            **self.info(),
            "owner": owner.seat if owner is not None else None,
            "rematch": [m.seat for m in t.seating.humans if m.rematch],
            "settings": {
                "reaction_window": c.reaction_window,
                "reaction_limit": c.reaction_limit,
                "turn_limit": c.turn_limit,
                "away_grace": c.away_grace,
                "bot_level": c.bot_level,
            },
        }

    def changed(self, lobby_only: bool = False) -> None:
        """Something people see of the table changed: tell them, and the host (for the lobby)."""
        t = self.table
        if not lobby_only:
            frame = self.table_frame()
            for conn in t.seating.conns():
                t.outbox.send(conn, frame)
        t.on_change(t)
