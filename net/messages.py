"""The protocol's frame types, their fields, and the checks a frame passes before it is used.

docs/protocol.md describes each type with an example. A frame is a plain map; `validate` makes
sure the fields a handler reads are there and have the right types, so handlers never guess.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields, is_dataclass
from typing import Any, Final, Mapping

from core.cards import ACTIONS, Edition, flock_book
from core.state import FORMAT
from net.errors import ErrorCode, NetError

PROTOCOL_VERSION: Final = 1
"""Bumped whenever a frame changes shape; a client of another version is refused."""

# ---- Frame types --------------------------------------------------------------------------

CLIENT_TYPES: Final = frozenset(
    {
        "hello",
        "join",
        "watch",
        "create",
        "leave",
        "start",
        "rematch",
        "choose",
        "sync",
        "here",
        "say",
        "ping",
        "pong",
    }
)
"""Frames a client may send."""

HOST_TYPES: Final = frozenset(
    {
        "welcome",
        "bye",
        "error",
        "result",
        "lobby",
        "table",
        "seated",
        "snapshot",
        "update",
        "over",
        "chat",
        "ping",
        "pong",
    }
)
"""Frames a host may send."""

REQUESTS: Final = frozenset({"join", "watch", "create", "leave", "start", "rematch", "choose", "sync", "here"})
"""Client frames that always get a `result` (ok, or a code and a sentence)."""

_ID_MAX: Final = 2**53
"""Largest integer id a frame may carry (safe in every msgpack/JSON implementation)."""


def _rules_text() -> str:
    def row(x: Any) -> str:
        if is_dataclass(x) and not isinstance(x, type):
            return repr(tuple(row(getattr(x, f.name)) for f in fields(x)))
        return repr(x)

    parts = [f"state-format={FORMAT}"]
    parts += [f"{cid}={row(r)}" for cid, r in sorted(ACTIONS.items())]
    for edition in Edition:
        parts += [f"{edition.value}:{cid}={row(r)}" for cid, r in sorted(flock_book(edition).items())]
    return "\n".join(parts)


RULES_HASH: Final = hashlib.sha256(_rules_text().encode()).hexdigest()[:16]
"""A digest of the card data both sides play with: host and client must agree on it."""


# ---- Validation -------------------------------------------------------------------------

_STR: Final = (str,)
_INT: Final = (int,)


def _check_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -_ID_MAX <= v <= _ID_MAX


def _check_option(v: Any, depth: int = 0) -> bool:
    if isinstance(v, str):
        return len(v) <= 200
    if _check_int(v):
        return True
    if isinstance(v, list) and depth < 3 and len(v) <= 16:
        return all(_check_option(x, depth + 1) for x in v)
    return False


Spec = Mapping[str, tuple[str, bool, int]]
"""field -> (kind, required, max length for strings)."""

_CLIENT_FIELDS: Final[Mapping[str, Spec]] = {
    "hello": {
        "v": ("int", True, 0),
        "rules": ("str", True, 64),
        "name": ("str", True, 200),
        "token": ("str|nil", False, 64),
        "password": ("str|nil", False, 200),
        "last_seq": ("int|nil", False, 0),
        "table": ("int|nil", False, 0),
        "watch": ("bool", False, 0),
    },
    "join": {"table": ("int", True, 0), "seat": ("int|nil", False, 0), "aid": ("int|nil", False, 0)},
    "watch": {"table": ("int", True, 0), "aid": ("int|nil", False, 0)},
    "create": {
        "seats": ("int|nil", False, 0),
        "bots": ("int|nil", False, 0),
        "level": ("str|nil", False, 32),
        "edition": ("str|nil", False, 8),
        "aid": ("int|nil", False, 0),
    },
    "leave": {"aid": ("int|nil", False, 0)},
    "start": {"aid": ("int|nil", False, 0)},
    "rematch": {"aid": ("int|nil", False, 0)},
    "choose": {"id": ("int", True, 0), "option": ("option", True, 0), "aid": ("int|nil", False, 0)},
    "sync": {"aid": ("int|nil", False, 0), "seq": ("int|nil", False, 0)},
    "here": {"aid": ("int|nil", False, 0)},
    "say": {"text": ("str", True, 2000)},
    "ping": {"n": ("int", True, 0)},
    "pong": {"n": ("int", True, 0)},
}


def _ok(kind: str, v: Any, limit: int) -> bool:
    for k in kind.split("|"):
        if k == "nil" and v is None:
            return True
        if k == "int" and _check_int(v):
            return True
        if k == "str" and isinstance(v, str) and len(v) <= limit:
            return True
        if k == "bool" and isinstance(v, bool):
            return True
        if k == "option" and _check_option(v):
            return True
    return False


def validate(message: Mapping[str, Any]) -> None:
    """Check a client frame's fields. Raises NetError(BAD_FIELD) naming the first bad field.

    Unknown extra fields are ignored, so that a newer client can add optional ones.
    """
    spec = _CLIENT_FIELDS.get(message["t"])
    if spec is None:
        raise NetError(ErrorCode.UNKNOWN_TYPE, f"unknown frame type {str(message['t'])[:40]!r}")
    for name, (kind, required, limit) in spec.items():
        if name not in message:
            if required:
                raise NetError(ErrorCode.BAD_FIELD, f"`{message['t']}` needs a `{name}` field")
            continue
        if not _ok(kind, message[name], limit):
            raise NetError(ErrorCode.BAD_FIELD, f"`{message['t']}.{name}` must be {kind.replace('|', ' or ')}")


def hello(
    name: str,
    token: str | None = None,
    password: str | None = None,
    last_seq: int | None = None,
    table: int | None = None,
    watch: bool = False,
) -> dict[str, Any]:
    """The first frame a client sends."""
    msg: dict[str, Any] = {"t": "hello", "v": PROTOCOL_VERSION, "rules": RULES_HASH, "name": name}
    if token is not None:
        msg["token"] = token
    if password is not None:
        msg["password"] = password
    if last_seq is not None:
        msg["last_seq"] = last_seq
    if table is not None:
        msg["table"] = table
    if watch:
        msg["watch"] = True
    return msg
