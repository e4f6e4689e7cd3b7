"""Fast positional constructors for frozen dataclasses the engine builds on its hot paths."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def slot_constructor(cls: type[T]) -> Callable[..., T]:
    """A positional constructor of the frozen slots dataclass `cls` that sets each slot through
    its descriptor. The dataclass's own __init__ goes through `object.__setattr__` for every
    field (the price of frozen), which doubles the cost of building a view or a decision.
    Generated from the fields, as dataclasses generates __init__, so no field can be missed;
    `__post_init__` is not run (the classes it serves have none)."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__ the fast constructor would skip")
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    env: dict[str, Any] = {"new": object.__new__, "cls": cls}
    env.update({f"set_{n}": getattr(cls, n).__set__ for n in names})
    body = "".join(f"    set_{n}(obj, {n})\n" for n in names)
    exec(f"def make({', '.join(names)}):\n    obj = new(cls)\n{body}    return obj\n", env)
    make: Callable[..., T] = env["make"]
    return make
