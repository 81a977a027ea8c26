"""Untrusted text made safe for a terminal: control characters shown, never obeyed.

Board names, space ids, card tags and ids, journal fields and the error messages that
quote them come from files and radios anyone can write. Printed as they are, an escape
sequence in a board ``name`` could clear the screen, retitle the window, hide the lines
before it or forge a line of output. :func:`safe_text` writes every control and format
character as a visible escape (``\\x1b``, ``\\r``, ``\\u202e``) and keeps all other text,
accents and symbols included, exactly as it is.
"""

from __future__ import annotations

import sys
from typing import TextIO

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls (C0, DEL, C1: ESC and CSI start escape sequences), format characters
(bidi overrides, zero-width joiners: text that reads other than it is), lone surrogates
and the Unicode line and paragraph separators."""

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safe_text(text: object, keep_newlines: bool = False) -> str:
    """`text` (anything: it is ``str()``-ed) with control characters escaped visibly.

    ``keep_newlines`` lets ``\\n`` through for messages of several lines; every other
    control character, ``\\r`` included, is always escaped.
    """
    value = str(text)
    if value.isprintable():
        return value
    import unicodedata  # only for text that needs it: the daemon's start stays lean

    out = []
    for char in value:
        if keep_newlines and char == "\n":
            out.append(char)
        elif unicodedata.category(char) in _UNSAFE_CATEGORIES:
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out)


def clip(text: str, limit: int = 200) -> str:
    """`text` cut to `limit` characters, saying how many more there were: a value from a
    file may be a megabyte long, and a terminal or a log needs its start only."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def shown(value: object, limit: int = 200) -> str:
    """An untrusted value for one line of output: escaped (:func:`safe_text`), then
    clipped (:func:`clip`)."""
    return clip(safe_text(value), limit)


def safe_print(text: object, file: TextIO | None = None, keep_newlines: bool = False) -> None:
    """``print`` for a line that quotes untrusted text (see :func:`safe_text`)."""
    print(safe_text(text, keep_newlines=keep_newlines), file=sys.stdout if file is None
          else file)


__all__ = ["clip", "safe_print", "safe_text", "shown"]
