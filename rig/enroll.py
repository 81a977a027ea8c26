"""Enrol RFID tags to the deck: tap each physical card, confirm, save the tag map."""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from pathlib import Path

from hardware.events import CardPresented

Ask = Callable[[str], str]
Say = Callable[[str], None]


def enroll(cards: Sequence[tuple[str, str]], events: queue.Queue[object], ask: Ask, say: Say,
           tags: dict[str, str], timeout: float | None = None) -> dict[str, str]:
    """Walk the deck in order, filling `tags` (tag -> card id) as it goes, so an
    interrupted session keeps what was confirmed. Enter confirms, s skips, q stops."""
    for card_id, text in cards:
        while True:
            say(f"Tap card {card_id}: {text}")
            tag = _next_tag(events, timeout)
            if tag is None:
                say("no card seen; stopping")
                return tags
            if tag in tags and tags[tag] != card_id:
                say(f"  tag {tag} is already card {tags[tag]}")
            answer = ask(f"  tag {tag} is {card_id}? [Enter=yes, r=retry, s=skip, q=quit] ")
            answer = answer.strip().lower()
            if answer == "q":
                return tags
            if answer == "s":
                break
            if answer == "r":
                continue
            for old in [t for t, c in tags.items() if c == card_id]:
                del tags[old]
            tags[tag] = card_id
            break
    return tags


def _next_tag(events: queue.Queue[object], timeout: float | None) -> str | None:
    while True:
        try:
            event = events.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(event, CardPresented):
            return event.tag


def card_map_text(tags: dict[str, str]) -> str:
    lines = ["# RFID tag -> card id, written by `cbrig cards enroll`.", "[tags]"]
    lines += [f'"{tag}" = "{card}"' for tag, card in sorted(tags.items(), key=lambda i: i[1])]
    return "\n".join(lines) + "\n"


def save_card_map(path: Path, tags: dict[str, str]) -> None:
    from rig.journal import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, card_map_text(tags).encode("utf-8"))
