"""Value classes declared like dataclasses, without compiling anything at import: the
one value-class convention of engine/, hardware/, rig/ and bench/.

Why, measured (``python -m bench.valueclass_cost``, docs/PERFORMANCE.md "Value
classes"): ``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``
(and, frozen, ``__hash__``, ``__setattr__``, ``__delattr__``) as source text and
compiles it every time the module is imported, which no ``.pyc`` caches: 0.38-0.67 ms a
frozen class and 0.24-0.36 ms a mutable one on this machine (x10 on a Pi Zero 2 W), and
importing :mod:`dataclasses` costs 6.3-6.9 ms more (it pulls in ``inspect``, ``ast``,
``dis``, ``tokenize``). A :class:`Frozen` or :class:`Record` class costs 0.02-0.035 ms
and this module 1.3 ms. Per instance the dataclass is quicker: made from the shared
``__init__`` 0.9-1.0 us against 0.41 (frozen) or 0.10 us (mutable), ``==`` ~200 against
~100 ns, ``hash`` ~130 against ~90 ns; a class with its own ``__init__`` is made in
0.31 us. With ~100 classes the import side wins by far (the engine's steps per second
stay within this machine's noise), so there is one convention: these classes.

A class deriving from :class:`Record` (mutable) or :class:`Frozen` is declared as a
dataclass is (annotated fields, defaults, docstrings under them) and behaves the same,
from methods shared by all of them:

* ``__init__`` takes the fields positionally or by name, in declaration order, with
  their defaults (one shared for an immutable default; :func:`field` with a
  ``default_factory`` makes a new one for each instance; ``kw_only=True`` fields are
  taken by name only, after the positional ones), then calls ``__post_init__`` if the
  class has one; a subclass adds its fields after its base's;
* ``__eq__`` compares the fields (not those with ``compare=False``) with an instance of
  the same class only, ``__repr__`` names them all, a :class:`Frozen` hashes the
  compared ones as a frozen dataclass does and refuses assignment and deletion
  (:class:`FrozenInstanceError`, an ``AttributeError``); a :class:`Record` is unhashable
  (it defines ``__eq__`` only);
* :func:`replace`, :func:`fields`, :func:`compared_fields`, :func:`field_types` and
  :func:`asdict` stand in for ``dataclasses.replace``, ``fields`` (names, compared
  names, annotations) and ``asdict`` (one level deep); instances copy and pickle.

What it lacks on purpose: ``order=True``, ``InitVar``, ``field(init=False)`` (set such
an attribute in ``__post_init__``), ``slots=True`` (declare ``__slots__``, below).

A class made often on a hot path (a screen's rows, hardware events) writes its own
``__init__`` (its parameters the fields in order, each stored with :func:`set_field`).
A class may declare ``__slots__`` (its fields, in any order: the annotations give the
order; no defaults in the class body then, its own ``__init__`` gives them). The type
checker reads these classes as dataclasses (``typing.dataclass_transform``), frozen for
:class:`Frozen`. This package imports only the standard library: hardware/ uses it and
imports neither engine/ nor rig/.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, NoReturn, TypeVar, dataclass_transform

T = TypeVar("T")
V = TypeVar("V", bound="_Value")

set_field = object.__setattr__
"""Stores a field from a hand-written ``__init__`` (a Frozen's own setattr refuses)."""

_MISSING: Any = object()


class FrozenInstanceError(AttributeError):
    """A field of a frozen value was assigned or deleted (as dataclasses' own error)."""


class _Factory:
    """A default made for each instance (in ``_record_rest``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


class _Field:
    """What :func:`field` gives the class body; read once when the class is made."""

    __slots__ = ("compare", "default", "kw_only", "make")

    def __init__(self, default: object, make: Callable[[], object] | None, compare: bool,
                 kw_only: bool) -> None:
        self.default = default
        self.make = make
        self.compare = compare
        self.kw_only = kw_only


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None,
          compare: bool = True, kw_only: bool = False) -> Any:
    """A field with more than a plain default, as ``dataclasses.field``: a
    ``default_factory`` makes a new default for each instance (a dict, a list, a mutable
    helper); ``compare=False`` leaves it out of ``==``, ``hash`` and
    :func:`compared_fields` (a preview beside the input that identifies a value);
    ``kw_only=True`` takes it by name only, after the positional fields."""
    if default is not _MISSING and default_factory is not None:
        raise ValueError("a field has a default or a default_factory, not both")
    return _Field(default, default_factory, compare, kw_only)


def _no_fields(value: object) -> tuple[()]:
    return ()


def _own_fields(klass: type) -> dict[str, object]:
    return {name: kind for name, kind in vars(klass).get("__annotations__", {}).items()
            if not str(kind).startswith(("ClassVar", "typing.ClassVar"))}


def _read_specs(klass: type) -> dict[str, _Field]:
    """The fields ``klass`` declares and what its body says of each (a plain default, a
    :func:`field`, or nothing; slots hold no defaults)."""
    slots = klass.__dict__.get("__slots__", ())
    specs = {}
    for name in _own_fields(klass):
        given = klass.__dict__.get(name, _MISSING) if name not in slots else _MISSING
        specs[name] = given if type(given) is _Field else _Field(given, None, True, False)
    return specs


class _Value:
    """What Record and Frozen share (apart, so the type checker sees two unrelated kinds
    of dataclass, not a frozen one deriving from a mutable one)."""

    __slots__ = ()
    _record_fields: ClassVar[tuple[str, ...]] = ()
    _record_compared: ClassVar[tuple[str, ...]] = ()
    _record_types: ClassVar[dict[str, str]] = {}
    _record_positional: ClassVar[tuple[str, ...]] = ()
    _record_rest: ClassVar[tuple[tuple[tuple[str, Any], ...], ...]] = ((),)
    """For each count of positional arguments, the fields still to fill and their
    defaults (``_MISSING``: none; a :class:`_Factory`: made for each instance)."""
    _record_key: ClassVar[Callable[[Any], Any]] = _no_fields
    """The compared fields' values in one C call (``attrgetter``; the value itself for
    one field), what ``__eq__`` and ``__hash__`` compare: screens are compared at every
    frame."""
    _record_single: ClassVar[bool] = False
    _record_own_specs: ClassVar[dict[str, _Field]] = {}
    """The fields this class declares itself, read from its body once."""
    _record_post_init: ClassVar[Callable[[Any], None] | None] = None
    _record_plain: ClassVar[tuple[dict[str, Any] | None, ...]] = ({},)
    """For each count of positional arguments, the rest's defaults when all are plain
    values (None: a field is missing or made by a factory, see ``_record_rest``)."""
    _record_init: ClassVar[tuple[tuple[str, ...], tuple[dict[str, Any] | None, ...],
                                 Callable[[Any], None] | None]] = ((), (), None)
    """What the shared ``__init__`` reads, in one lookup: the positional names, the plain
    defaults by count given (empty: instances have no dict), ``__post_init__``."""
    _record_dict: ClassVar[bool] = False
    """Whether instances have a ``__dict__`` (no ``__slots__`` all the way down): the
    shared ``__init__`` then fills it in one call instead of a ``set_field`` a field."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Reads the fields (annotations in declaration order, base classes' first) and
        their defaults once, when the class is made."""
        super().__init_subclass__(**kwargs)
        cls._record_own_specs = _read_specs(cls)
        for name, spec in cls._record_own_specs.items():
            if name in cls.__dict__ and spec.make is None and spec.default is not _MISSING:
                setattr(cls, name, spec.default)  # the class reads the plain default
        names: list[str] = []
        types: dict[str, str] = {}
        specs: dict[str, _Field] = {}
        for klass in reversed(cls.__mro__):
            own = _own_fields(klass)
            names += [name for name in own if name not in names]
            types.update({name: str(kind) for name, kind in own.items()})
            specs.update(klass.__dict__.get("_record_own_specs") or _read_specs(klass))

        def spec_of(name: str) -> _Field:
            return specs.get(name) or _Field(_MISSING, None, True, False)

        cls._record_fields = tuple(names)
        cls._record_types = types
        cls._record_compared = tuple(name for name in names if spec_of(name).compare)
        positional = tuple(name for name in names if not spec_of(name).kw_only)
        by_name = tuple(name for name in names if spec_of(name).kw_only)
        cls._record_positional = positional

        def default(name: str) -> Any:
            spec = spec_of(name)
            return _Factory(spec.make) if spec.make is not None else spec.default

        cls._record_rest = tuple(tuple((name, default(name))
                                       for name in positional[given:] + by_name)
                                 for given in range(len(positional) + 1))
        cls._record_plain = tuple(
            None if any(value is _MISSING or type(value) is _Factory for _, value in rest)
            else dict(rest) for rest in cls._record_rest)
        compared = cls._record_compared
        key = cls._record_key = attrgetter(*compared) if compared else _no_fields
        cls._record_single = len(compared) == 1
        if "__eq__" not in cls.__dict__:
            type.__setattr__(cls, "__eq__", _equality(key))
        if "__hash__" not in cls.__dict__ and cls.__hash__ is not None:  # a Frozen
            type.__setattr__(cls, "__hash__", _hashing(key, cls._record_single))
        cls._record_post_init = getattr(cls, "__post_init__", None)
        # a field in a base's slots must be stored through its slot, not the dict
        cls._record_dict = cls.__dictoffset__ != 0 and not any(
            klass.__dict__.get("__slots__") for klass in cls.__mro__)
        cls._record_init = (positional, cls._record_plain if cls._record_dict else (),
                            cls._record_post_init)
        seen_default = False
        for name in positional:
            missing = default(name) is _MISSING
            if missing and seen_default and "__init__" not in cls.__dict__:
                raise TypeError(f"{cls.__qualname__}: field {name!r} without a default "
                                "follows one with a default")
            seen_default = seen_default or not missing

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        positional, plain, post_init = type(self)._record_init
        if not kwargs and len(args) < len(plain):
            defaults = plain[len(args)]
            if defaults is not None:  # the common call, one C call or two: actions are
                fields_ = self.__dict__  # made at engine steps
                fields_.update(zip(positional, args, strict=False))
                if defaults:
                    fields_.update(defaults)
                if post_init is not None:
                    post_init(self)
                return
        self._record_init_slowly(args, kwargs)

    def _record_init_slowly(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Any call: fields by name, made by a factory, missing or too many; slots."""
        cls = type(self)
        try:
            rest = cls._record_rest[len(args)]
        except IndexError:
            names = cls._record_positional
            raise TypeError(f"{cls.__qualname__}() takes {len(names)} arguments, "
                            f"{len(args)} given") from None
        for name, value in zip(cls._record_positional, args, strict=False):
            set_field(self, name, value)
        if rest or kwargs:
            self._record_fill(rest, kwargs)
        post_init = cls._record_post_init
        if post_init is not None:
            post_init(self)

    def _record_fill(self, rest: tuple[tuple[str, Any], ...], kwargs: dict[str, Any]) -> None:
        """The fields not given by position: by name, else their defaults."""
        cls = type(self)
        for name, default in rest:
            value = kwargs.pop(name, default) if kwargs else default
            if value is _MISSING:
                raise TypeError(f"{cls.__qualname__}() is missing the field {name!r}")
            set_field(self, name, value.make() if type(value) is _Factory else value)
        if kwargs:
            unknown = next(iter(kwargs))
            twice = " twice" if unknown in cls._record_fields else ""
            raise TypeError(f"{cls.__qualname__}() got the field {unknown!r}{twice}"
                            + ("" if twice else " it does not have"))

    def _record_values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._record_fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            key = type(self)._record_key
            return bool(key(self) == key(other))
        return NotImplemented

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_fields)
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        cls = type(self)
        if len(cls._record_positional) == len(cls._record_fields):
            return cls, self._record_values()
        return _rebuild, (cls, self._record_values())


def _equality(key: Callable[[Any], Any]) -> Callable[[Any, object], Any]:
    """A class's ``__eq__``, its key bound (no lookups per call: values are compared at
    every frame and every engine step)."""

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hashing(key: Callable[[Any], Any], single: bool) -> Callable[[Any], int]:
    """A frozen class's ``__hash__``: its compared fields' tuple's, as a frozen
    dataclass's (so sets of values iterate in the same order as they did as
    dataclasses)."""
    if single:
        def __hash__(self: Any) -> int:
            return hash((key(self),))
    else:
        def __hash__(self: Any) -> int:
            return hash(key(self))
    return __hash__


def _rebuild(cls: type[V], values: tuple[Any, ...]) -> V:
    """An instance from its fields' values in order (pickle, copy: kw_only fields)."""
    return cls(**dict(zip(cls._record_fields, values, strict=True)))


@dataclass_transform(field_specifiers=(field,))
class Record(_Value):
    """A mutable value class: fields, defaults, ``__init__``, ``__eq__``, ``__repr__``."""

    __slots__ = ()


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Frozen(_Value):
    """An immutable value class: like a Record, and it hashes its fields and refuses
    changes."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        """The compared fields' tuple's hash, as a frozen dataclass's (so sets of values
        iterate in the same order as they did as dataclasses)."""
        cls = type(self)
        key = cls._record_key(self)
        return hash((key,) if cls._record_single else key)


def replace(value: V, /, **changes: Any) -> V:
    """A copy of ``value`` with some fields changed (``dataclasses.replace``)."""
    unknown = set(changes) - set(value._record_fields)
    if unknown:
        raise TypeError(f"{type(value).__qualname__} has no field {sorted(unknown)[0]!r}")
    return type(value)(**{name: getattr(value, name) for name in value._record_fields} | changes)


def fields(value: _Value | type[_Value]) -> tuple[str, ...]:
    """The field names, in declaration order."""
    return value._record_fields


def compared_fields(value: _Value | type[_Value]) -> tuple[str, ...]:
    """The names of the fields ``==`` and ``hash`` compare (not ``compare=False``)."""
    return value._record_compared


def field_types(value: _Value | type[_Value]) -> dict[str, str]:
    """Each field's annotation, as written (``"int"``, ``"tuple[str, ...]"``)."""
    return dict(value._record_types)


def asdict(value: _Value) -> dict[str, Any]:
    """The fields and their values, in order (``dataclasses.asdict`` one level deep: a
    field holding another value is not turned into a dict)."""
    return {name: getattr(value, name) for name in value._record_fields}
