"""valueclass: value classes that behave like the dataclasses they replaced, side by
side with a real dataclass of the same fields."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
from typing import ClassVar

import pytest

from valueclass import (
    Frozen,
    FrozenInstanceError,
    Record,
    asdict,
    compared_fields,
    field,
    field_types,
    fields,
    replace,
    set_field,
)


class Point(Frozen):
    x: int
    y: int = 0
    label: str = "p"
    ORIGIN_NAME: ClassVar[str] = "origin"


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: int = 0
    label: str = "p"


class Fast(Frozen):
    __slots__ = ("b", "a")  # noqa: RUF023  (any order: the annotations give the fields' order)
    a: int
    b: str

    def __init__(self, a: int, b: str = "b") -> None:
        set_field(self, "a", a)
        set_field(self, "b", b)


class Counter(Record):
    count: int = 0
    seen: list[str] = field(default_factory=list)


def test_fields_are_the_annotations_in_order_without_class_variables() -> None:
    assert fields(Point) == ("x", "y", "label") == tuple(f.name for f in
                                                          dataclasses.fields(DataPoint))
    assert fields(Fast) == ("a", "b")
    assert fields(Counter()) == ("count", "seen")


def test_init_takes_positions_names_and_defaults_like_a_dataclass() -> None:
    for args, kwargs in [((1,), {}), ((1, 2), {}), ((1,), {"label": "q"}),
                         ((), {"x": 3, "y": 4}), ((1, 2, "r"), {})]:
        ours, theirs = Point(*args, **kwargs), DataPoint(*args, **kwargs)
        assert (ours.x, ours.y, ours.label) == (theirs.x, theirs.y, theirs.label)


@pytest.mark.parametrize(("args", "kwargs", "says"), [
    ((), {}, "missing the field 'x'"),
    ((1, 2, "r", 4), {}, "takes 3 arguments, 4 given"),
    ((1,), {"z": 2}, "got the field 'z' it does not have"),
    ((1,), {"x": 2}, "got the field 'x' twice"),
])
def test_a_wrong_call_is_a_type_error_as_for_a_dataclass(args, kwargs, says) -> None:
    with pytest.raises(TypeError, match=says):
        Point(*args, **kwargs)
    with pytest.raises(TypeError):
        DataPoint(*args, **kwargs)


def test_equality_hash_and_repr_match_a_dataclass() -> None:
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(1, 3)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2
    assert repr(Point(1, 2)) == repr(DataPoint(1, 2)).replace("DataPoint", "Point")
    assert repr(Fast(1)) == "Fast(a=1, b='b')"
    assert Fast(1) == Fast(1, "b") and Fast(1) != Fast(2) and hash(Fast(1)) == hash(Fast(1))


def test_a_value_equals_only_its_own_class() -> None:
    class Other(Frozen):
        x: int
        y: int = 0
        label: str = "p"

    assert Point(1) != Other(1) and Point(1) != DataPoint(1) and Point(1) != (1, 0, "p")
    assert Point(1).__eq__((1, 0, "p")) is NotImplemented


def test_a_frozen_value_refuses_changes_and_a_record_takes_them() -> None:
    point, fast = Point(1), Fast(1)
    for value, name in [(point, "x"), (fast, "a"), (fast, "b")]:
        with pytest.raises(FrozenInstanceError, match=f"cannot assign to field '{name}'"):
            setattr(value, name, 5)
        with pytest.raises(FrozenInstanceError, match=f"cannot delete field '{name}'"):
            delattr(value, name)
    assert issubclass(FrozenInstanceError, AttributeError)
    assert (point.x, fast.a) == (1, 1)
    counter = Counter()
    counter.count += 2
    assert counter == Counter(2)
    with pytest.raises(TypeError, match="unhashable"):
        hash(counter)


def test_a_default_factory_makes_a_new_default_for_each_instance() -> None:
    first, second = Counter(), Counter()
    first.seen.append("x")
    assert second.seen == [] and first.seen == ["x"]
    assert Counter(seen=["a"]).seen == ["a"]


def test_replace_changes_named_fields_only() -> None:
    assert replace(Point(1, 2), label="q") == Point(1, 2, "q")
    assert replace(Fast(1), b="c") == Fast(1, "c")
    with pytest.raises(TypeError, match="Point has no field 'z'"):
        replace(Point(1), z=3)


def test_values_copy_and_pickle() -> None:
    for value in (Point(1, 2, "q"), Fast(3, "c"), Counter(4, ["s"])):
        assert copy.copy(value) == value
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value


def test_a_field_without_a_default_cannot_follow_one_with_a_default() -> None:
    with pytest.raises(TypeError, match="field 'b' without a default follows one"):
        class Wrong(Frozen):
            a: int = 0
            b: int


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_hand_written_init_takes_the_fields_in_order() -> None:
    """A class with its own ``__init__`` must take its fields in declaration order, by
    their names: replace, copy and pickle call it that way."""
    for module in ("rig.core.daemon", "rig.core.journal", "hardware.display.oled"):  # before READY
        importlib.import_module(module)
    own = [cls for cls in _subclasses(Frozen) + _subclasses(Record)
           if "__init__" in vars(cls) and cls.__module__.split(".")[0] in
           ("engine", "hardware", "rig")]
    assert len(own) >= 15, own
    for cls in own:
        parameters = list(inspect.signature(cls.__init__).parameters)[1:]
        assert tuple(parameters) == fields(cls), cls
        assert set(cls.__slots__) == set(fields(cls)), cls


class Move(Frozen):
    """Input fields compare; previews (compare=False) and by-name fields as dataclasses'."""

    piece: str
    to: str = field(compare=False, default="")
    steps: int = field(compare=False, kw_only=True, default=0)


@dataclasses.dataclass(frozen=True)
class DataMove:
    piece: str
    to: str = dataclasses.field(compare=False, default="")
    steps: int = dataclasses.field(compare=False, kw_only=True, default=0)


class Preview(Frozen):
    steps: int = field(compare=False, kw_only=True, default=0)


class Later(Preview):
    """Positional fields after a base's keyword-only one (as dataclasses allow)."""

    piece: str
    seat: int = 0


@dataclasses.dataclass(frozen=True)
class DataPreview:
    steps: int = dataclasses.field(compare=False, kw_only=True, default=0)


@dataclasses.dataclass(frozen=True)
class DataLater(DataPreview):
    piece: str
    seat: int = 0


def test_compare_false_fields_are_previews_outside_eq_and_hash() -> None:
    assert Move("a", "x", steps=1) == Move("a", "y", steps=2)
    assert Move("a") != Move("b")
    assert compared_fields(Move) == ("piece",) == tuple(
        f.name for f in dataclasses.fields(DataMove) if f.compare)
    for args, kwargs in [(("a", "x"), {"steps": 3}), (("b",), {})]:
        ours, theirs = Move(*args, **kwargs), DataMove(*args, **kwargs)
        assert hash(ours) == hash(theirs)  # sets of them iterate in the same order
        assert repr(ours) == repr(theirs).replace("DataMove", "Move")


def test_kw_only_fields_are_taken_by_name_after_the_positional_ones() -> None:
    assert fields(Later) == ("steps", "piece", "seat")
    for ours, theirs in [(Later("a", 2, steps=5), DataLater("a", 2, steps=5)),
                         (Later("a"), DataLater("a"))]:
        assert [getattr(ours, name) for name in fields(Later)] == [
            getattr(theirs, f.name) for f in dataclasses.fields(DataLater)]
        assert repr(ours) == repr(theirs).replace("DataLater", "Later")
    with pytest.raises(TypeError, match="takes 2 arguments, 3 given"):
        Later("a", 2, 5)
    with pytest.raises(TypeError):
        DataLater("a", 2, 5)
    assert Move.to == "" and Preview.steps == 0  # the class reads a field's plain default


def test_kw_only_values_copy_pickle_and_replace() -> None:
    value = Later("a", 2, steps=5)
    assert pickle.loads(pickle.dumps(value)).steps == 5
    assert copy.deepcopy(value).steps == 5
    assert replace(value, steps=6).steps == 6 and replace(value, steps=6) == value


def test_field_types_are_the_annotations_as_written() -> None:
    assert field_types(Later) == {"steps": "int", "piece": "str", "seat": "int"}
    assert field_types(Move)["to"] == "str"


def test_asdict_gives_the_fields_in_order_one_level_deep() -> None:
    assert asdict(Point(1, 2)) == {"x": 1, "y": 2, "label": "p"} == dataclasses.asdict(
        DataPoint(1, 2))
    assert list(asdict(Later("a", steps=3))) == ["steps", "piece", "seat"]


def test_a_field_in_a_bases_slots_is_stored_in_its_slot() -> None:
    """The shared __init__ fills an instance's dict in one call, but not a field a base
    class keeps in a slot (its slot would hide the dict's value)."""
    class Slotted(Frozen):
        __slots__ = ("a",)
        a: int

    class Grown(Slotted):
        b: str = "b"

    grown = Grown(1)
    assert (grown.a, grown.b) == (1, "b") and grown == Grown(1, "b")
    assert Point(1, 2).__dict__ == {"x": 1, "y": 2, "label": "p"}
