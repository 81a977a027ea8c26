"""Package names that load on first use (PEP 562), so a package's facts stay cheap.

A game package lists each public name with the module it lives in; importing the package
(or its small ``info`` module) then loads none of the rules until a name is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping


def load_export(package: str, homes: Mapping[str, str], namespace: MutableMapping[str, object],
                name: str) -> object:
    """``package.name``: a listed name from its home module (kept in `namespace` so the
    next use is an ordinary lookup), else a submodule; AttributeError when neither."""
    home = homes.get(name)
    if home is None:
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{name}":
                raise
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    value: object = getattr(importlib.import_module(home), name)
    namespace[name] = value
    return value
