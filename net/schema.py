"""Typed fields, sans I/O: a frame type is a NamedTuple (a `core.structs.Struct`: one that is cheap
to define) whose annotations give each field's type and limits; `Schema(cls)` checks a decoded map
against them and builds the instance.

    class Join(Struct):
        table: Annotated[int, Range(0, ID_MAX)]
        seat: Annotated[int, Range(0, 5)] | None = None

    Schema(Join).parse({"t": "join", "table": 2})   # Join(table=2, seat=None)

A field without a default is required; one with a default may be absent or null (null reads as
the default). Unknown keys are ignored. Every failure is one ValueError naming the field and what
it must be (`Bad`), and `describe()` says the same in words for docs/protocol.md, so the
checks and the document come from one definition.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cached_property
from typing import Any, Final, Literal, Union

from core.structs import Struct

ID_MAX: Final = 2**53 - 1
"""Largest integer any frame carries (exact in every msgpack and JSON implementation)."""
_MISSING: Final = object()


class Bad(ValueError):
    """A field that is missing or has the wrong type or size; `path` is like `join.seat`."""

    def __init__(self, path: str, expected: str, missing: bool = False) -> None:
        owner, _, name = path.rpartition(".")
        super().__init__(f"`{owner}` needs a `{name}` field" if missing else f"`{path}` must be {expected}")
        self.path = path
        self.expected = expected


# ---- limits, as annotation metadata ---------------------------------------------------------


class _Mark:
    """Annotation metadata. Equal only to itself: typing caches and merges equal metadata, and a
    Size(24) must never stand for a Cut(24)."""

    __slots__ = ()

    def __repr__(self) -> str:
        names: tuple[str, ...] = type(self).__slots__
        return f"{type(self).__name__}({', '.join(repr(getattr(self, n)) for n in names)})"


class Range(_Mark):
    """An int or float from `lo` to `hi`, both included."""

    __slots__ = ("hi", "lo")

    def __init__(self, lo: float, hi: float) -> None:
        self.lo, self.hi = lo, hi


class Size(_Mark):
    """A string of at most `max` characters, or a list of at most `max` items; longer is refused."""

    __slots__ = ("max",)

    def __init__(self, max: int) -> None:  # noqa: A002 (the name the docs use)
        self.max = max


class Cut(_Mark):
    """A string of any length (within the frame); the receiver cleans it and keeps `max` characters."""

    __slots__ = ("max",)

    def __init__(self, max: int) -> None:  # noqa: A002
        self.max = max


class Codec(_Mark):
    """A value read by a function of its own (a game type's `from_dict`, raising ValueError)."""

    __slots__ = ("read", "words")

    def __init__(self, read: Callable[[Any], Any], words: str) -> None:
        self.read, self.words = read, words


# ---- checks ---------------------------------------------------------------------------------

Check = Callable[[Any, str], Any]
"""(value, path) -> the value as the field holds it; raises Bad."""


def _num(n: float) -> str:
    if n == ID_MAX:
        return "2^53-1"
    return f"{n:g}" if isinstance(n, float) else str(n)


class Field(Struct):
    name: str
    check: Check
    words: str
    required: bool
    """It must be there (an optional field may be absent or null, and then reads as `default`)."""
    default: Any
    nullable: bool


class Schema:
    """The checks of one Struct (or NamedTuple), compiled once, when first used: a client parses only host
    frames and a host only client frames, and every process defines all of them at start
    (issue 9)."""

    def __init__(self, cls: type, name: str | None = None) -> None:
        self.cls = cls
        self.name = name or cls.__name__.lower()

    @cached_property
    def fields(self) -> tuple[Field, ...]:
        hints = typing.get_type_hints(self.cls, include_extras=True)
        defaults: dict[str, Any] = getattr(self.cls, "_field_defaults", {})
        return tuple(
            _field(name, hints[name], defaults.get(name, _MISSING)) for name in getattr(self.cls, "_fields", ())
        )

    def parse(self, data: Any, path: str | None = None) -> Any:
        """An instance of the class from a decoded map. Raises Bad."""
        where = self.name if path is None else path
        if not isinstance(data, dict):
            raise Bad(where, "a map")
        values = {}
        for f in self.fields:
            v = data.get(f.name, _MISSING)
            if v is None or v is _MISSING:
                if not f.required:
                    v = f.default
                elif v is _MISSING:
                    raise Bad(f"{where}.{f.name}", f.words, missing=True)
                elif not f.nullable:
                    raise Bad(f"{where}.{f.name}", f.words)
                values[f.name] = v
            else:
                values[f.name] = f.check(v, f"{where}.{f.name}")
        return self.cls(**values)

    def __call__(self, value: Any, path: str) -> Any:
        return self.parse(value, path)


def _field(name: str, tp: Any, default: Any) -> Field:
    check, words = compile_type(tp)
    required = default is _MISSING
    return Field(name, check, words, required, None if required else default, words.endswith(" or null"))


def compile_type(tp: Any) -> tuple[Check, str]:
    """The check for an annotation, and what it accepts in words."""
    meta: tuple[Any, ...] = ()
    if typing.get_origin(tp) is typing.Annotated:
        tp, *rest = typing.get_args(tp)
        meta = tuple(rest)
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(members) != 1:
            raise TypeError(f"only `X | None` unions are supported, not {tp}")
        inner, words = compile_type(typing.Annotated[members[0], *meta] if meta else members[0])

        def nullable(v: Any, path: str) -> Any:
            return None if v is None else inner(v, path)

        return nullable, f"{words} or null"
    codec = next((m for m in meta if isinstance(m, Codec)), None)
    if codec is not None:
        return _codec(codec), codec.words
    if tp is bool:
        return _bool, "a boolean"
    if tp is int or tp is float:
        rng = next((m for m in meta if isinstance(m, Range)), None)
        if rng is None:
            raise TypeError(f"a number field needs a Range, not {tp} alone")
        return _number(tp is float, rng)
    if tp is str:
        size = next((m for m in meta if isinstance(m, Size | Cut)), None)
        if size is None:
            raise TypeError("a str field needs a Size or Cut")
        if isinstance(size, Cut):
            return _str_any, f"a string (cut to {size.max} characters)"
        return _str(size.max), f"a string of at most {size.max} characters"
    if origin is Literal:
        return _one_of(tuple(typing.get_args(tp)))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _one_of(tuple(m.value for m in tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"lists are `tuple[X, ...]`, not {tp}")
        size = next((m for m in meta if isinstance(m, Size)), None)
        if size is None:
            raise TypeError("a list field needs a Size")
        item_check, words = compile_type(args[0])
        return _list(item_check, size.max), f"a list of at most {size.max} ({words})"
    if isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields"):
        return Schema(tp), f"a map ({tp.__name__})"
    raise TypeError(f"no check for {tp!r}")


def _bool(v: Any, path: str) -> bool:
    if v is True or v is False:
        return v
    raise Bad(path, "a boolean")


def _number(is_float: bool, rng: Range) -> tuple[Check, str]:
    lo, hi = rng.lo, rng.hi
    words = f"{'a number' if is_float else 'an integer'} from {_num(lo)} to {_num(hi)}"

    def check(v: Any, path: str) -> Any:
        if isinstance(v, bool) or not isinstance(v, int | float if is_float else int):
            raise Bad(path, words)
        if not lo <= v <= hi or (is_float and not math.isfinite(v)):
            raise Bad(path, words)
        return float(v) if is_float else v

    return check, words


def _str(limit: int) -> Check:
    words = f"a string of at most {limit} characters"

    def check(v: Any, path: str) -> str:
        if not isinstance(v, str) or len(v) > limit:
            raise Bad(path, words)
        return v

    return check


def _str_any(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise Bad(path, "a string")
    return v


def _one_of(values: tuple[Any, ...]) -> tuple[Check, str]:
    allowed = frozenset(values)
    words = "one of " + ", ".join(f'"{v}"' for v in values)

    def check(v: Any, path: str) -> Any:
        if not isinstance(v, str) or v not in allowed:
            raise Bad(path, words)
        return v

    return check, words


def _list(item: Check, limit: int) -> Check:
    def check(v: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(v, list) or len(v) > limit:
            raise Bad(path, f"a list of at most {limit} items")
        return tuple(item(x, f"{path}[{i}]") for i, x in enumerate(v))

    return check


def _codec(codec: Codec) -> Check:
    def check(v: Any, path: str) -> Any:
        try:
            return codec.read(v)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            raise Bad(path, codec.words) from None

    return check
