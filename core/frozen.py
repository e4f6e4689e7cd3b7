"""Fast positional constructors for frozen dataclasses the engine builds on its hot paths, and the
frozen (tuple) and thawed (list) forms of plain data: a turn's frames in a state, a view and a dict."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def slot_constructor(cls: type[T]) -> Callable[..., T]:
    """A positional constructor of the frozen slots dataclass `cls`, about three times as fast
    as its own __init__ (which goes through `object.__setattr__` for every field, the price of
    frozen, and was most of the cost of a view or a decision).

    The object is born an instance of a twin class, a subclass of `cls` that adds no slots and
    sets them by ordinary assignment (object's own __setattr__), then becomes a `cls` by
    `__class__` assignment, which Python allows between classes of the same slot layout. From
    then on it is a frozen `cls` like any other. Generated from the fields, as dataclasses
    generates __init__, so no field can be missed; `__post_init__` is not run (the classes it
    serves have none)."""
    return _generated(cls)[0]


def slot_filler(cls: type[T]) -> Callable[..., None]:
    """`fill(obj, *fields)`: sets every field of `obj`, an instance of `cls` or of a subclass
    that adds no slots (a `cls` still unfilled: core.views' lazy views), and makes it a `cls`,
    the way `slot_constructor` builds one."""
    return _generated(cls)[1]


_MADE: dict[type, tuple[Callable[..., Any], Callable[..., None]]] = {}
"""Each class's pair, generated once: a class asks for both (core.views), and a PlayerView's
pair costs ~2.8 M instructions to generate at every start (issue 9)."""


def _generated(cls: type[T]) -> tuple[Callable[..., T], Callable[..., None]]:
    made = _MADE.get(cls)
    if made is None:
        made = _MADE[cls] = _generate(cls)
    return made


def _generate(cls: type[T]) -> tuple[Callable[..., T], Callable[..., None]]:
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__ the fast constructor would skip")
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    slots = tuple(getattr(cls, "__slots__", None) or ("",))
    if slots[-1] == "__weakref__":  # dataclass(weakref_slot=True)
        slots = slots[:-1]
    if slots != tuple(names) or cls.__bases__ != (object,):
        raise TypeError(f"{cls.__name__} is not a slots dataclass of its own fields only")
    # A subclass, not a class of the same slots: Python 3.11 refuses `__class__` assignment
    # between two classes with a __weakref__ slot after their others, whatever their slots.
    # Both of object's own: a Python-level __delattr__ (the frozen one) would make every
    # assignment go through a slow generic hook.
    # object's __init__ too, so that `twin()` makes a bare object: a call of the class costs ~300
    # machine instructions less than object.__new__(twin) (a builtin taking its arguments as a
    # tuple, which it slices), once per decision the engine asks
    plain = {"__setattr__": object.__setattr__, "__delattr__": object.__delattr__, "__init__": object.__init__}
    twin = type(f"_{cls.__name__}Twin", (cls,), {"__slots__": (), **plain})
    env: dict[str, Any] = {"cls": cls, "twin": twin, "setattr": object.__setattr__}
    body = "".join(f"    obj.{n} = {n}\n" for n in names)
    args = ", ".join(names)
    exec(f"def make({args}):\n    obj = twin()\n{body}    obj.__class__ = cls\n    return obj\n", env)
    # obj's own __setattr__ may be the frozen one, which refuses a subclass (it calls super() with
    # the class as it was before dataclass remade it with slots): object's sets its class
    exec(f"def fill(obj, {args}):\n    setattr(obj, '__class__', twin)\n{body}    obj.__class__ = cls\n", env)
    return env["make"], env["fill"]


def thaw(v: Any) -> Any:
    """Tuples as lists, all the way down: plain data for the wire."""
    if isinstance(v, tuple | list):
        return [thaw(x) for x in v]
    if isinstance(v, dict):
        return {k: thaw(x) for k, x in v.items()}
    return v


def freeze(v: Any) -> Any:
    """Lists as tuples, all the way down (and every map key a string)."""
    if isinstance(v, list | tuple):
        return tuple(freeze(x) for x in v)
    if isinstance(v, dict):
        return {str(k): freeze(x) for k, x in v.items()}
    return v
