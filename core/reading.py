"""Reading a saved game's state: what every game's `read` shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def read_state(d: Any, parse: Callable[[dict[str, Any]], T]) -> T:
    """`parse(d)` for a mapping `d`. Raises ValueError, saying what is wrong, on anything else
    and on corrupt data: a parser's KeyError or TypeError on a malformed save is the save's
    fault, not a crash."""
    if not isinstance(d, dict):
        raise ValueError("game state must be a mapping")
    try:
        return parse(d)
    except ValueError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"corrupt game state: {type(exc).__name__}: {exc}") from None
