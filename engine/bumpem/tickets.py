"""The Bump 'Em ticket set: the 13 kinds and how often each is drawn (RULINGS.md B2).

Frequencies are unknown, so they are data. "independent" draws pick a kind with
probability count/total every time (default: uniform over the 13 kinds); "deck" draws
are without replacement and the deck is reshuffled when it runs out, like a card deck.
Each kind has a stable id ("1".."12", "bump") that physical ticket cards enrol against.
"""

from __future__ import annotations

from engine.datafile import Checker, parse_toml
from valueclass import Frozen

TICKET_IDS: tuple[str, ...] = (*tuple(str(n) for n in range(1, 13)), "bump")
"""Every ticket kind, in table order."""

DRAW_MODES: tuple[str, ...] = ("independent", "deck")

_TOP_KEYS = {"draw", "ticket"}
_TICKET_KEYS = {"id", "count", "text"}


class TicketSet(Frozen):
    """Validated tickets: `counts[i]` copies of kind `TICKET_IDS[i]`."""

    draw: str
    counts: tuple[int, ...]
    texts: tuple[str, ...]

    @property
    def is_deck(self) -> bool:
        return self.draw == "deck"


def ticket_label(ticket: str) -> str:
    """How a ticket is named to the table."""
    return "Bump 'em!" if ticket == "bump" else ticket


def load_tickets(text: str, source: str) -> TicketSet:
    """Parse and validate a ticket file; raise DataError listing every problem."""
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    check.unknown_keys(data, _TOP_KEYS)
    draw = check.require(data, "draw", str)
    if draw is not None and draw not in DRAW_MODES:
        check.fail(f"expected one of {', '.join(DRAW_MODES)}, got {draw!r}", "draw")
    counts: dict[str, int] = {}
    texts: dict[str, str] = {}
    tables = check.tables(data, "ticket", _TICKET_KEYS,
                          required="expected [[ticket]] tables, one per kind")
    for i, table in tables:
        kind = check.require(table, "id", str, "ticket", i)
        count = check.require(table, "count", int, "ticket", i)
        words = table.get("text", "")
        if not isinstance(words, str):
            check.fail(f"expected a string, got {words!r}", "ticket", i, "text")
            words = ""
        if kind is not None and kind not in TICKET_IDS:
            check.fail(f"unknown ticket kind {kind!r}; kinds are {', '.join(TICKET_IDS)}",
                       "ticket", i, "id")
            continue
        if kind is not None and kind in counts:
            check.fail(f"duplicate ticket kind {kind!r}", "ticket", i, "id")
            continue
        if count is not None and count < 0:
            check.fail(f"must be 0 or more, got {count}", "ticket", i, "count")
            count = None
        if kind is not None:
            counts[kind] = count if count is not None else 0
            texts[kind] = words
    if tables:
        missing = [k for k in TICKET_IDS if k not in counts]
        if missing:
            check.fail(f"missing ticket kinds {', '.join(missing)} (use count = 0 to leave "
                       "one out)", "ticket")
        elif sum(counts.values()) == 0 and not check.problems:
            check.fail("every count is 0: there is nothing to draw", "ticket")
    check.done()
    return TicketSet(draw=str(draw), counts=tuple(counts[k] for k in TICKET_IDS),
                     texts=tuple(texts[k] for k in TICKET_IDS))
