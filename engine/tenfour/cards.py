"""Spinner bands and the Mike card deck: data files an owner edits to match the rig.

Neither the printed spinner segments nor the deck are published (RULINGS.md), so both
ship as documented assumptions. Each loader validates the whole file and names the line
and field of every mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.datafile import Checker, parse_toml
from valueclass import Frozen

REQUIRED_BANDS: tuple[str, ...] = ("hi", "lo")
"""The start order spins the Hi-Band and a Hammer Up turn the Lo-Band, so both must exist."""


class Bands(Frozen):
    """Band name -> printed segment values; a value printed twice is twice as likely."""

    segments: Mapping[str, tuple[int, ...]]

    def names(self) -> tuple[str, ...]:
        return tuple(self.segments)


class Card(Frozen):
    """One Mike card entry; `copies` identical physical cards share it."""

    id: str
    band: str
    extra: int
    break_one_nine: bool
    text: str
    copies: int = 1


class Deck(Frozen):
    cards: tuple[Card, ...]

    @property
    def size(self) -> int:
        return sum(card.copies for card in self.cards)


def load_bands(text: str, source: str) -> Bands:
    """Parse `[band.NAME] segments = [...]` tables; raise DataError listing every problem."""
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    segments: dict[str, tuple[int, ...]] = {}
    bands = data.get("band")
    if not isinstance(bands, dict) or not bands:
        check.fail("expected [band.hi] and [band.lo] tables", "band")
        check.done()
    assert isinstance(bands, dict)
    for name, table in bands.items():
        if not isinstance(table, dict):
            check.fail("expected a table", "band", name)
            continue
        check.unknown_keys(table, _BAND_FIELDS, "band", name)
        values = check.require(table, "segments", list, "band", name)
        if values is None:
            continue
        if not values:
            check.fail("a band needs at least one segment", "band", name, "segments")
            continue
        bad = [v for v in values if not isinstance(v, int) or isinstance(v, bool) or v < 1]
        if bad:
            check.fail(f"segments must be whole numbers of 1 or more; not {bad!r}",
                       "band", name, "segments")
            continue
        segments[name] = tuple(values)
    for name in REQUIRED_BANDS:
        if name not in bands:
            check.fail(f"missing the [band.{name}] table", "band")
    check.unknown_keys(data, {"band"}, what="table")
    check.done()
    return Bands(segments)


_BAND_FIELDS = {"segments", "label"}
_CARD_FIELDS = {"id", "band", "extra", "break_one_nine", "text", "copies"}


def load_deck(text: str, source: str, bands: Bands | None = None) -> Deck:
    """Parse `[[card]]` tables; raise DataError listing every problem.

    With `bands`, every card must name one of them and every band must have a card
    (otherwise that spinner could never be used); without, the bands are hi and lo.
    """
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    band_names = bands.names() if bands is not None else REQUIRED_BANDS
    tables = check.tables(data, "card", _CARD_FIELDS,
                          required="expected one or more [[card]] tables")
    if not tables:
        check.done()  # nothing to check the cards against
    cards: list[Card] = []
    ids: set[str] = set()
    for i, table in tables:
        card = _card(check, table, i, band_names, ids)
        if card is not None:
            cards.append(card)
    used = {c.band for c in cards}
    for name in band_names:
        if name not in used and not check.problems:
            check.fail(f"no card uses the {name!r} band", "card")
    if cards and not any(c.break_one_nine for c in cards):
        check.fail("no BREAK ONE NINE card: the police would never move", "card")
    check.unknown_keys(data, {"card"}, what="table")
    check.done()
    return Deck(tuple(cards))


def _card(check: Checker, table: Mapping[str, Any], i: int, band_names: tuple[str, ...],
          ids: set[str]) -> Card | None:
    before = len(check.problems)
    ident = check.require(table, "id", str, "card", i)
    if ident is not None:
        if not ident.strip():
            check.fail("an id cannot be empty", "card", i, "id")
        elif ident in ids:
            check.fail(f"duplicate card id {ident!r}", "card", i, "id")
        ids.add(ident)
    band = check.require(table, "band", str, "card", i)
    if band is not None and band not in band_names:
        check.fail(f"unknown band {band!r}; the bands are {', '.join(band_names)}",
                   "card", i, "band")
    extra = table.get("extra", 0)
    if not isinstance(extra, int) or isinstance(extra, bool) or extra < 0:
        check.fail(f"extra must be a whole number of 0 or more, got {extra!r}", "card", i, "extra")
    flag = table.get("break_one_nine", False)
    if not isinstance(flag, bool):
        check.fail(f"expected true or false, got {flag!r}", "card", i, "break_one_nine")
    text = check.require(table, "text", str, "card", i)
    copies = table.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        check.fail(f"copies must be a whole number of 1 or more, got {copies!r}",
                   "card", i, "copies")
    if len(check.problems) > before or ident is None or band is None or text is None:
        return None  # a field require() refused is one of the problems just recorded
    return Card(ident, band, extra, flag, text, copies)
