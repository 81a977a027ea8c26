"""How to install an optional part (a pip extra) where this copy of cbrig runs.

A hint must work where the user is: cbrig is not on the package index, so "pip install
'cbrig[print]'" works nowhere, and a bare ``pip`` on Debian 12 stops with
"externally-managed-environment" (PEP 668). So the hint names this interpreter's own pip
and says which case it is: a source checkout (an editable install, or the tree itself)
installs the extra from the checkout; an installed wheel (the Pi's /opt/cbrig/venv)
installs the extra's packages by name.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
"""The tree this module was loaded from: a checkout when its pyproject.toml is there."""


def in_checkout(root: Path = CHECKOUT) -> bool:
    return (root / "pyproject.toml").is_file()


def _shown(path: Path) -> str:
    """`path` as the user would type it from the current directory."""
    try:
        relative = path.relative_to(Path.cwd())
    except ValueError:
        return str(path)
    text = str(relative)
    return "." if text == "." else text


def _pip() -> str:
    """This interpreter's pip, as a command (the venv's, never a system-wide ``pip``)."""
    return f"{_shown(Path(sys.prefix) / 'bin')}/pip"


def pip_command() -> str:
    """The pip a hint should name: this interpreter's own (``.venv/bin/pip``)."""
    return _pip()


def extra_packages(extra: str) -> list[str]:
    """The requirements the installed distribution lists for `extra` (empty when the
    metadata cannot be read)."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        listed = requires("cbrig") or []
    except PackageNotFoundError:
        return []
    wanted = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    packages = []
    for requirement in listed:
        spec, _, marker = requirement.partition(";")
        if wanted.search(marker) and "cbrig" not in spec:
            packages.append(spec.strip().replace(" ", ""))
    return packages


def install_hint(extra: str, root: Path = CHECKOUT) -> str:
    """One sentence: which case this is, and the command that installs `extra` here."""
    in_venv = sys.prefix != sys.base_prefix
    if in_checkout(root):
        target = f"{_shown(root)}[{extra}]" if _shown(root) != "." else f".[{extra}]"
        if not in_venv:
            venv = _shown(root / ".venv")
            return (f"from this checkout: python3 -m venv {venv} && "
                    f"{venv}/bin/pip install -e '{target}'")
        return f"from this checkout: {_pip()} install -e '{target}'"
    packages = extra_packages(extra)
    names = " ".join(f"'{p}'" for p in packages) or f"the packages of the {extra} extra"
    where = f" (its virtualenv {sys.prefix})" if in_venv else ""
    return f"this cbrig is an installed package{where}: {_pip()} install {names}"


def missing(command: str, what: str, extra: str) -> str:
    """The message a command prints when its extra is missing."""
    return (f"cbrig {command}: {what} is missing; install the '{extra}' extra, "
            f"{install_hint(extra)}")

