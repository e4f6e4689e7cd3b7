"""core.structs.Struct behaves as a typing.NamedTuple of the same fields (issue 9: it only costs
less to define)."""

from __future__ import annotations

import copy
import pickle
import typing
from typing import Annotated, NamedTuple

import pytest

from core.structs import Struct


class Seat(Struct):
    """A doc of its own."""

    table: int
    seat: Annotated[int, "meta"] | None = None
    """An attribute docstring."""
    name: str = "x"


class SeatNT(NamedTuple):
    table: int
    seat: Annotated[int, "meta"] | None = None
    name: str = "x"


def test_a_struct_is_the_tuple_a_named_tuple_is() -> None:
    for args, kwargs in (((1,), {}), ((1, 2, "y"), {}), ((), {"table": 3, "name": "z"}), ((4,), {"seat": 5})):
        s, n = Seat(*args, **kwargs), SeatNT(*args, **kwargs)
        assert s == n and tuple(s) == tuple(n) and hash(s) == hash(n)
        assert (s.table, s.seat, s.name) == (n.table, n.seat, n.name)
        assert s._asdict() == n._asdict()
        assert s._replace(seat=9) == n._replace(seat=9)
        assert repr(s) == repr(n).replace("SeatNT", "Seat")
    assert Seat._fields == SeatNT._fields and Seat._field_defaults == SeatNT._field_defaults
    assert Seat.__match_args__ == SeatNT.__match_args__
    assert Seat._make([1, 2, "a"]) == Seat(1, 2, "a")
    assert Seat.__doc__ == "A doc of its own."
    assert isinstance(Seat(1), tuple)


def test_its_annotations_are_its_fields_alone() -> None:
    assert typing.get_type_hints(Seat, include_extras=True) == typing.get_type_hints(SeatNT, include_extras=True)


def test_it_pickles_copies_and_matches_like_one() -> None:
    s = Seat(1, 2, "a")
    assert pickle.loads(pickle.dumps(s)) == s and type(pickle.loads(pickle.dumps(s))) is Seat
    assert copy.copy(s) == s and copy.deepcopy(s) == s
    match s:
        case Seat(table, seat, name):
            assert (table, seat, name) == (1, 2, "a")
        case _:
            pytest.fail("no match")


def test_it_is_frozen_and_refuses_wrong_fields() -> None:
    s = Seat(1)
    with pytest.raises(AttributeError):
        s.table = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="table"):
        Seat()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="other"):
        Seat(1, other=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="table"):
        Seat(1, table=2)  # type: ignore[misc]
    with pytest.raises(TypeError):
        Seat(1, 2, "a", "b")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Seat._make([1])


def test_a_field_without_default_may_not_follow_one_with() -> None:
    with pytest.raises(TypeError, match="'b'"):

        class Bad(Struct):
            a: int = 0
            b: int  # type: ignore[misc]
