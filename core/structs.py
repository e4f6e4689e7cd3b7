"""`Struct`: a NamedTuple that costs a tenth as much to define (issue 9, start-up).

`typing.NamedTuple` compiles a `__new__` for every class (`collections.namedtuple` evals its
source) and checks each annotation; a client defines about sixty of them as it starts (frame types,
client events, views' parts), ~0.6 M instructions each. A `Struct` subclass is an ordinary class
statement: its fields are read from its annotations, its accessors are the C getters namedtuple
itself uses, and one shared `__new__` fills defaults. An instance is a tuple, like a NamedTuple's:
equality, hashing, unpacking, `_fields`, `_field_defaults`, `_replace`, `_asdict`, pickling and
`match` behave the same, and type checkers read the fields as a dataclass's (PEP 681).

    class Join(Struct):
        table: int
        seat: int | None = None
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Self, dataclass_transform

_tuplegetter: Callable[[int, str], Any] = getattr(collections, "_tuplegetter", None) or (
    lambda index, doc: property(itemgetter(index), doc=doc)
)
"""collections.namedtuple's own field getter (in C), or its fallback where there is none."""


class _StructType(type):
    """Makes each class statement a tuple type: fields from its annotations, in order."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> _StructType:
        if ns.get("__module__") == __name__ and name == "Struct":
            return super().__new__(mcs, name, bases, ns)
        fields = tuple(ns.get("__annotations__", ()))
        defaults: dict[str, Any] = {}
        for f in fields:
            if f in ns:
                defaults[f] = ns.pop(f)
            elif defaults:
                raise TypeError(f"{name}: field {f!r} without a default follows one with a default")
        ns["__slots__"] = ()
        ns["_fields"] = fields
        ns["_field_defaults"] = defaults
        ns["__match_args__"] = fields
        for i, f in enumerate(fields):
            ns[f] = _tuplegetter(i, f"Alias for field number {i}")
        return super().__new__(mcs, name, bases, ns)


@dataclass_transform(frozen_default=True)
class Struct(tuple[Any, ...], metaclass=_StructType):
    """Base of a NamedTuple-like class; see the module docstring."""

    __slots__ = ()
    if TYPE_CHECKING:  # set on each subclass; annotated here only for type checkers, so that
        # typing.get_type_hints of a subclass (net.schema) finds its own fields alone
        _fields: ClassVar[tuple[str, ...]]
        _field_defaults: ClassVar[dict[str, Any]]

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__} takes {len(fields)} fields, {len(args)} given")
        if len(args) == len(fields) and not kwargs:
            return tuple.__new__(cls, args)
        if not args and len(kwargs) == len(fields):  # every field by name (net.schema's parse)
            try:
                return tuple.__new__(cls, [kwargs[f] for f in fields])
            except KeyError:
                pass  # an unknown name among them: said below
        values = list(args)
        defaults = cls._field_defaults
        for f in fields[len(args) :]:
            if f in kwargs:
                values.append(kwargs.pop(f))
            elif f in defaults:
                values.append(defaults[f])
            else:
                raise TypeError(f"{cls.__name__}() needs its field {f!r}")
        if kwargs:
            raise TypeError(f"{cls.__name__}() got an unexpected or repeated field {next(iter(kwargs))!r}")
        return tuple.__new__(cls, values)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self._fields, self, strict=True))})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        """Pickling and copying call `__new__` with the fields, as for a NamedTuple."""
        return tuple(self)

    @classmethod
    def _make(cls, values: Any) -> Self:
        made = tuple.__new__(cls, values)
        if len(made) != len(cls._fields):
            raise TypeError(f"{cls.__name__} takes {len(cls._fields)} fields, {len(made)} given")
        return made

    def _replace(self, **changes: Any) -> Self:
        return type(self)(**{**dict(zip(self._fields, self, strict=True)), **changes})

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))
