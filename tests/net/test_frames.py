"""The sans-I/O codec, with bytes alone: split, merged, oversize, garbage, unknown types."""

from __future__ import annotations

import random
import struct

import msgpack
import pytest

from net.errors import ErrorCode
from net.frames import HEADER, BadFrame, FrameDecoder, FrameTooBig, decode_body, encode

TYPES = frozenset({"ping", "say"})


def frame(body: bytes) -> bytes:
    return HEADER.pack(len(body)) + body


def test_encode_is_header_and_body_in_one_piece() -> None:
    data = encode({"t": "ping", "n": 1})
    (length,) = struct.unpack(">I", data[:4])
    assert length == len(data) - 4
    assert msgpack.unpackb(data[4:]) == {"t": "ping", "n": 1}


def test_encode_refuses_a_body_over_the_cap() -> None:
    with pytest.raises(FrameTooBig):
        encode({"t": "say", "text": "x" * 100}, max_size=50)


def test_roundtrip_whatever_the_chunking() -> None:
    messages = [{"t": "say", "text": f"hello {i}", "n": [i, "x", [1, 2]]} for i in range(20)]
    stream = b"".join(encode(m) for m in messages)
    rng = random.Random(4)
    for _ in range(20):
        dec = FrameDecoder(types=TYPES)
        out: list[object] = []
        pos = 0
        while pos < len(stream):
            step = rng.randint(1, 40)
            out += dec.feed(stream[pos : pos + step])
            pos += step
        assert out == messages
        assert not dec.in_frame


def test_byte_by_byte_and_all_at_once_agree() -> None:
    stream = encode({"t": "ping", "n": 7}) + encode({"t": "say", "text": "é"})
    one = FrameDecoder(types=TYPES).feed(stream)
    dec = FrameDecoder(types=TYPES)
    split = [m for i in range(len(stream)) for m in dec.feed(stream[i : i + 1])]
    assert one == split == [{"t": "ping", "n": 7}, {"t": "say", "text": "é"}]


def test_partial_frame_is_reported_as_pending() -> None:
    data = encode({"t": "ping", "n": 1})
    dec = FrameDecoder(types=TYPES)
    assert dec.feed(data[:3]) == [] and dec.in_frame
    assert dec.feed(data[3:7]) == [] and dec.in_frame
    assert dec.feed(data[7:]) == [{"t": "ping", "n": 1}]
    assert not dec.in_frame


def test_oversize_length_is_refused_before_the_body_and_never_buffered() -> None:
    dec = FrameDecoder(max_size=1000, types=TYPES)
    huge = 10_000_000
    out = dec.feed(HEADER.pack(huge) + b"x" * 500)
    assert out == [BadFrame(ErrorCode.FRAME_TOO_BIG, f"frame of {huge} bytes exceeds 1000")]
    assert dec.buffered == 0
    chunk = b"y" * 65536
    skipped = 500
    while skipped + len(chunk) < huge:
        assert dec.feed(chunk) == []
        assert dec.buffered == 0
        skipped += len(chunk)
    rest = huge - skipped
    out = dec.feed(b"z" * rest + encode({"t": "ping", "n": 2}))
    assert out == [{"t": "ping", "n": 2}], "decoding resumes after the skipped body"


def test_oversize_frame_inside_one_chunk_is_skipped() -> None:
    dec = FrameDecoder(max_size=12, types=TYPES)
    body = msgpack.packb({"t": "say", "text": "far too long for the cap"})
    out = dec.feed(frame(body) + encode({"t": "ping", "n": 1}, max_size=12))
    assert [type(x) for x in out] == [BadFrame, dict]
    assert isinstance(out[0], BadFrame) and out[0].code is ErrorCode.FRAME_TOO_BIG


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\xc1", ErrorCode.BAD_FRAME),  # never-used msgpack byte
        (b"\x92\x01", ErrorCode.BAD_FRAME),  # truncated array
        (msgpack.packb({"t": "ping"}) + b"\x00", ErrorCode.BAD_FRAME),  # trailing data
        (msgpack.packb([1, 2, 3]), ErrorCode.NOT_A_MAP),
        (msgpack.packb("ping"), ErrorCode.NOT_A_MAP),
        (msgpack.packb({"n": 1}), ErrorCode.UNKNOWN_TYPE),
        (msgpack.packb({"t": 5}), ErrorCode.UNKNOWN_TYPE),
        (msgpack.packb({"t": "launch_missiles"}), ErrorCode.UNKNOWN_TYPE),
        (msgpack.packb({1: "int keys"}), ErrorCode.BAD_FRAME),
        (msgpack.packb({"t": "say", "x": msgpack.ExtType(5, b"ab")}), ErrorCode.BAD_FRAME),
        (b"\x81\xa1t\xa2\xff\xfe", ErrorCode.BAD_FRAME),  # invalid UTF-8 string
        (b"\x91" * 5000 + b"\x90", ErrorCode.BAD_FRAME),  # nesting deeper than msgpack allows
        (b"", ErrorCode.BAD_FRAME),
    ],
    ids=[
        "reserved-byte",
        "truncated",
        "trailing-data",
        "array",
        "string",
        "no-t",
        "int-t",
        "unknown-t",
        "int-keys",
        "ext-type",
        "bad-utf8",
        "too-deep",
        "empty",
    ],
)
def test_bad_bodies_become_typed_errors(body: bytes, code: ErrorCode) -> None:
    out = decode_body(body, TYPES)
    assert isinstance(out, BadFrame) and out.code is code


def test_errors_do_not_stop_the_stream() -> None:
    dec = FrameDecoder(types=TYPES)
    data = frame(b"\xc1") + frame(msgpack.packb([1])) + encode({"t": "ping", "n": 3})
    out = dec.feed(data)
    assert [getattr(x, "code", None) for x in out] == [ErrorCode.BAD_FRAME, ErrorCode.NOT_A_MAP, None]
    assert out[-1] == {"t": "ping", "n": 3}


def test_random_garbage_never_raises() -> None:
    rng = random.Random(11)
    dec = FrameDecoder(max_size=4096, types=TYPES)
    for _ in range(2000):
        n = rng.randint(0, 300)
        if rng.random() < 0.5:
            data = frame(bytes(rng.getrandbits(8) for _ in range(n)))
        else:
            data = bytes(rng.getrandbits(8) for _ in range(n))
        for item in dec.feed(data):
            assert isinstance(item, BadFrame | dict)
        assert dec.buffered <= 4096 + HEADER.size
