"""Where a table's frames leave it: every frame goes through one `Outbox` to one recipient, so
tests read what each connection was sent without sockets, and a store that must write a game
down before its frames go out has one place to hold them back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

Frame = dict[str, Any]
"""A frame as a table builds it (encoded by the connection it goes to)."""


class Recipient(Protocol):
    """A connection as a table sees it: something frames are sent to, never waited on."""

    def send(self, message: Mapping[str, Any], /) -> bool:
        """Queue one frame; False if it could not be (closing, too big). Never blocks."""
        ...


class Outbox:
    """Sends each frame to its recipient at once, in the order the table makes them."""

    def send(self, to: Recipient, frame: Frame) -> None:
        to.send(frame)
