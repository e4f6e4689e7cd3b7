"""Whoever keeps a table's games (the host's store) hears of each step here: a game started, a
choice applied, what the seats were sent, seats given up, a chat line, the end. The table
calls these before the frames that tell anyone of the step, so a keeper that holds frames
back (`net.journal.Journal`) can make each step durable before a client sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from net.table.table import Table


class Recorder:
    """Keeps nothing: a table of a host with no store (tests, `--no-db`)."""

    def game_started(self, table: Table) -> None:
        """`table.record` is the new game's (no choices yet), its seats are taken."""

    def chose(self, table: Table) -> None:
        """The last choice of `table.record` was applied."""

    def delivered(self, table: Table) -> None:
        """The seats' streams moved on (sequence numbers, decision ids); their frames follow."""

    def seats_changed(self, table: Table) -> None:
        """Someone left the game for good (a bot plays their seat to the end)."""

    def said(self, table: Table, line: dict[str, Any]) -> None:
        """A chat line (`chat` frame) is about to go to the table."""

    def game_over(self, table: Table) -> None:
        """The game ended; its results are about to go out."""

    def emptied(self, table: Table) -> None:
        """Everybody left: the table is reset or closed (its last results wait for nobody)."""
