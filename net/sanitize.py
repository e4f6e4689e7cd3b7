"""Names and chat as plain text: no control characters or escape sequences reach a terminal."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from net.limits import CHAT_MAX, CLEAN_SCAN, NAME_MAX

_ESCAPES: Final = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?                # CSI: cursor moves, colours, erase
    | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # OSC: titles, hyperlinks, clipboard
    | (?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?  # DCS, SOS, PM, APC strings
    | \x1b.?                              # any other escape, and a lone ESC
    """,
    re.VERBOSE,
)
_DROP_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls (C0, DEL, C1 such as the one-byte CSI), format characters (bidi overrides, zero
widths), surrogates, private use, unassigned, and line/paragraph separators."""
_SPACES: Final = re.compile(r"\s+")


def clean(text: str, limit: int) -> str:
    """`text` with escape sequences and control characters removed, whitespace runs made one
    space, trimmed, and cut to `limit` characters. Only the first CLEAN_SCAN x `limit`
    characters are read: the rest is cut unread, so a long line costs no more than a short one."""
    text = _ESCAPES.sub("", text[: limit * CLEAN_SCAN])
    text = "".join(" " if ch in "\t\n\r\v\f" else ch for ch in text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _DROP_CATEGORIES)
    text = _SPACES.sub(" ", text).strip()
    return text[:limit].rstrip()


def clean_name(name: str, fallback: str = "Player") -> str:
    """A player name fit for everyone's screen; `fallback` if nothing printable is left."""
    return clean(name, NAME_MAX) or fallback


def clean_chat(text: str) -> str:
    """A chat line fit for everyone's screen (possibly empty: such a line is not sent)."""
    return clean(text, CHAT_MAX)
