"""A host's tables: seats, a game, what each seat is sent and when, time limits, bots.

`Table` (net/table/table.py) ties the parts together; each part's module says what it owns.
"""

from __future__ import annotations

from net.table.config import BOT_NAMES, Phase, TableConfig
from net.table.outbox import Frame, Outbox, Recipient
from net.table.seating import Kind, Member, Watcher
from net.table.streams import Stream
from net.table.table import Table, warm_up

__all__ = [
    "BOT_NAMES",
    "Frame",
    "Kind",
    "Member",
    "Outbox",
    "Phase",
    "Recipient",
    "Stream",
    "Table",
    "TableConfig",
    "Watcher",
    "warm_up",
]
