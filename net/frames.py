"""The wire format, sans I/O: a 4-byte big-endian length, then one msgpack map with a `t` key.

Pure functions and one incremental decoder; no sockets, no asyncio (tested with bytes alone).
"""

from __future__ import annotations

import struct
from collections.abc import Collection, Mapping
from typing import Any, Final

import msgpack

from core.structs import Struct
from net.errors import ErrorCode
from net.limits import MAX_FRAME

HEADER: Final = struct.Struct(">I")
"""The length prefix: the body's size in bytes, big-endian, unsigned 32 bits."""

Message = dict[str, Any]
"""A decoded frame: a map with a string `t` (its type) and that type's fields."""


class FrameTooBig(ValueError):
    """An outgoing message whose body would exceed the cap."""

    def __init__(self, size: int, cap: int) -> None:
        super().__init__(f"frame body of {size} bytes exceeds the {cap}-byte cap")
        self.size = size


# A Struct (core.structs), not a frozen dataclass: defined at every start, far cheaper (issue 9).
class BadFrame(Struct):
    """A frame the decoder could not turn into a message; it is dropped and decoding goes on."""

    code: ErrorCode
    """FRAME_TOO_BIG, BAD_FRAME (undecodable msgpack), NOT_A_MAP or UNKNOWN_TYPE."""
    detail: str


def encode(message: Mapping[str, Any], max_size: int = MAX_FRAME) -> bytes:
    """Header and body as one bytes object, so that one write sends the whole frame.

    Raises FrameTooBig if the body exceeds `max_size`, and TypeError on a value msgpack cannot pack.
    """
    body: bytes = msgpack.packb(message, use_bin_type=True)
    if len(body) > max_size:
        raise FrameTooBig(len(body), max_size)
    return HEADER.pack(len(body)) + body


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not part of the protocol")


_TIMESTAMP_MARKS: Final = (b"\xd6\xff", b"\xd7\xff", b"\xc7\x0c\xff")
"""How msgpack's Timestamp extension (type -1) starts: fixext 4, fixext 8, ext 8 of 12 bytes.
msgpack decodes it itself, without calling `ext_hook`."""


def _has_timestamp(obj: Any) -> bool:
    todo = [obj]
    while todo:
        x = todo.pop()
        if isinstance(x, msgpack.Timestamp):
            return True
        if isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
    return False


def decode_body(body: bytes, types: Collection[str] | None = None) -> Message | BadFrame:
    """One frame body (without its header) as a message, or the reason it is not one."""
    try:
        obj = msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True, ext_hook=_no_ext)
    except Exception as exc:  # msgpack raises several types on hostile input; its docs say to catch them all
        return BadFrame(ErrorCode.BAD_FRAME, f"undecodable msgpack ({type(exc).__name__})")
    if any(mark in body for mark in _TIMESTAMP_MARKS) and _has_timestamp(obj):
        return BadFrame(ErrorCode.BAD_FRAME, "msgpack extension type -1 (Timestamp) is not part of the protocol")
    if not isinstance(obj, dict):
        return BadFrame(ErrorCode.NOT_A_MAP, f"a frame must be a map, not {type(obj).__name__}")
    t = obj.get("t")
    if not isinstance(t, str):
        return BadFrame(ErrorCode.UNKNOWN_TYPE, "a frame needs a string `t`")
    if types is not None and t not in types:
        return BadFrame(ErrorCode.UNKNOWN_TYPE, f"unknown frame type {t[:40]!r}")
    return obj


class FrameDecoder:
    """Turns a byte stream into messages, whatever the chunking.

    The length is checked against the cap before any of the body is kept: an oversized body is
    skipped as it arrives (never buffered) and reported once as FRAME_TOO_BIG.
    """

    def __init__(self, max_size: int = MAX_FRAME, types: Collection[str] | None = None) -> None:
        self.max_size = max_size
        self.types = types
        self._buf = bytearray()
        self._skip = 0

    @property
    def in_frame(self) -> bool:
        """Whether part of a frame (header, body, or an oversized body being skipped) is pending."""
        return bool(self._buf) or self._skip > 0

    @property
    def buffered(self) -> int:
        """Bytes held for a frame that has not fully arrived (never more than header + cap)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Message | BadFrame]:
        """Every complete frame in `data` and what came before it, in order."""
        out: list[Message | BadFrame] = []
        view = memoryview(data)
        if self._skip:
            n = min(self._skip, len(view))
            self._skip -= n
            view = view[n:]
        buf = self._buf
        buf += view
        pos = 0
        size = HEADER.size
        while len(buf) - pos >= size:
            (length,) = HEADER.unpack_from(buf, pos)
            if length > self.max_size:
                out.append(BadFrame(ErrorCode.FRAME_TOO_BIG, f"frame of {length} bytes exceeds {self.max_size}"))
                available = len(buf) - pos - size
                if available >= length:
                    pos += size + length
                    continue
                self._skip = length - available
                pos = len(buf)
                break
            if len(buf) - pos - size < length:
                break
            start = pos + size
            out.append(decode_body(bytes(buf[start : start + length]), self.types))
            pos = start + length
        if pos:
            del buf[:pos]
        return out
