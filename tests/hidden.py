"""The scan both games' whole-game tests make of a view for card ids its seat may not see."""

from __future__ import annotations

import json
import re
from typing import Any

import msgpack


def hidden_ids_in(data: Any, hidden: set[str], card_id: re.Pattern[str]) -> set[str]:
    """The `hidden` card ids (matches of `card_id`) anywhere in plain data: keys, values, labels
    and prompts, as its JSON text holds them.

    A first pass scans the data packed with msgpack, as the host sends it: half the CPU of the
    JSON text, and the playthroughs scan a view of every seat after every decision (~18,000 views
    a hundred games). Every string's bytes appear in the packed data unchanged (UTF-8, read here
    as Latin-1, keeps every ASCII character where it was), so it finds every id the JSON text
    holds, and perhaps more (a packed integer's bytes can read as "F01"). Only when it finds a
    hidden id does the JSON text decide."""
    if hidden.isdisjoint(card_id.findall(msgpack.packb(data).decode("latin-1"))):
        return set()
    return set(card_id.findall(json.dumps(data, separators=(",", ":")))) & hidden
