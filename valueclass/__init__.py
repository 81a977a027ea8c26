"""Value classes declared like dataclasses, without compiling anything at import.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__`` (and, frozen,
``__hash__``, ``__setattr__``, ``__delattr__``) as source text and compiles it every time
the module is imported: about 1 ms a class on the reference machine, ~10 ms on a Pi
Zero 2 W, which no ``.pyc`` caches; and importing :mod:`dataclasses` pulls in
``inspect``, ``ast``, ``dis`` and ``tokenize``. The ~40 classes the rig needs before its
first screen cost about a third of its start-up that way (docs/PERFORMANCE.md, "Third
pass: start"). A class deriving from :class:`Record` (mutable) or :class:`Frozen` is
declared the same way (annotated fields, defaults, docstrings under them) and behaves
the same, from methods shared by all of them:

* ``__init__`` takes the fields positionally or by name, in declaration order, with
  their defaults (one shared for an immutable default; :func:`field` with a
  ``default_factory`` makes a new one for each instance), then calls ``__post_init__``
  if the class has one; a subclass adds its fields after its base's;
* ``__eq__`` compares the fields with an instance of the same class only, ``__repr__``
  names them, a :class:`Frozen` hashes them and refuses assignment and deletion
  (:class:`FrozenInstanceError`, an ``AttributeError``); a :class:`Record` is unhashable
  (it defines ``__eq__`` only);
* :func:`replace` and :func:`fields` stand in for ``dataclasses.replace`` and
  ``dataclasses.fields`` (the names only); instances copy and pickle.

A class made often on a hot path (a screen's rows, hardware events) writes its own
``__init__`` (its parameters the fields in order, each stored with :func:`set_field`):
the shared one loops over the fields, about 1-3 us slower per instance here. A class
may declare ``__slots__`` (its fields, in any order: the annotations give the order;
no defaults in the class body then, its own ``__init__`` gives them). The type checker
reads these classes as dataclasses (``typing.dataclass_transform``), frozen for
:class:`Frozen`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, NoReturn, TypeVar, cast, dataclass_transform

T = TypeVar("T")
V = TypeVar("V", bound="_Value")

set_field = object.__setattr__
"""Stores a field from a hand-written ``__init__`` (a Frozen's own setattr refuses)."""

_MISSING: Any = object()


class FrozenInstanceError(AttributeError):
    """A field of a frozen value was assigned or deleted (as dataclasses' own error)."""


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A default made afresh for each instance (a dict, a list, a mutable helper)."""
    return cast(T, _Factory(default_factory))


def _no_fields(value: object) -> tuple[()]:
    return ()


def _own_fields(klass: type) -> list[str]:
    return [name for name, kind in vars(klass).get("__annotations__", {}).items()
            if not str(kind).startswith(("ClassVar", "typing.ClassVar"))]


class _Value:
    """What Record and Frozen share (apart, so the type checker sees two unrelated kinds
    of dataclass, not a frozen one deriving from a mutable one)."""

    __slots__ = ()
    _record_fields: ClassVar[tuple[str, ...]] = ()
    _record_defaults: ClassVar[tuple[Any, ...]] = ()
    _record_key: ClassVar[Callable[[Any], object]] = _no_fields
    """The fields' values in one C call (``attrgetter``; the value itself for one field),
    what ``__eq__`` and ``__hash__`` compare: screens are compared at every frame."""
    _record_post_init: ClassVar[Callable[[Any], None] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Reads the fields (annotations in declaration order, base classes' first) and
        their defaults once, when the class is made."""
        super().__init_subclass__(**kwargs)
        names: list[str] = []
        defaults: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            own = _own_fields(klass)
            names += [name for name in own if name not in names]
            slots = klass.__dict__.get("__slots__", ())
            defaults.update({name: klass.__dict__[name] for name in own
                             if name in klass.__dict__ and name not in slots})
        cls._record_fields = tuple(names)
        cls._record_defaults = tuple(defaults.get(name, _MISSING) for name in names)
        if names:
            cls._record_key = attrgetter(*names)
        cls._record_post_init = getattr(cls, "__post_init__", None)
        seen_default = False
        for name, default in zip(cls._record_fields, cls._record_defaults, strict=True):
            if default is _MISSING and seen_default and "__init__" not in cls.__dict__:
                raise TypeError(f"{cls.__qualname__}: field {name!r} without a default "
                                "follows one with a default")
            seen_default = seen_default or default is not _MISSING

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._record_fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__qualname__}() takes {len(names)} arguments, "
                            f"{len(args)} given")
        for name, value in zip(names, args, strict=False):
            set_field(self, name, value)
        for name, default in zip(names[len(args):], self._record_defaults[len(args):], strict=True):
            value = kwargs.pop(name, default)
            if value is _MISSING:
                raise TypeError(f"{type(self).__qualname__}() is missing the field {name!r}")
            set_field(self, name, value.make() if type(value) is _Factory else value)
        if kwargs:
            unknown = next(iter(kwargs))
            twice = " twice" if unknown in names else ""
            raise TypeError(f"{type(self).__qualname__}() got the field {unknown!r}{twice}"
                            + ("" if twice else " it does not have"))
        post_init = type(self)._record_post_init
        if post_init is not None:
            post_init(self)

    def _record_values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._record_fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            key = type(self)._record_key
            return key(self) == key(other)
        return NotImplemented

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_fields)
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[type[_Value], tuple[Any, ...]]:
        return type(self), self._record_values()


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
        return hash(type(self)._record_key(self))


def replace(value: V, /, **changes: Any) -> V:
    """A copy of ``value`` with some fields changed (``dataclasses.replace``)."""
    unknown = set(changes) - set(value._record_fields)
    if unknown:
        raise TypeError(f"{type(value).__qualname__} has no field {sorted(unknown)[0]!r}")
    return type(value)(**{name: getattr(value, name) for name in value._record_fields} | changes)


def fields(value: _Value | type[_Value]) -> tuple[str, ...]:
    """The field names, in declaration order."""
    return value._record_fields
