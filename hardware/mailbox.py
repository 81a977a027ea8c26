"""A one-slot mailbox where the newest item wins, between the event loop and a worker.

The loop must never wait for slow work (synthesis, playback, working out what to say),
and work that is out of date is not worth doing: a newer screen or transmission makes
the one not yet taken stale. So the poster drops its item in the slot and goes on,
replacing whatever still waits there; the worker takes the newest when it is free.
The speaker (:mod:`hardware.speaker`) and the narrator (:mod:`rig.voice.narrator`) each run one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """One slot: :meth:`post` replaces what waits, :meth:`take` waits for the newest.

    ``idle`` is set while the worker waits and nothing is posted: tests and the bench
    wait on it instead of sleeping. Items are never None (:meth:`take` says "closed"
    with None)."""

    def __init__(self) -> None:
        self._wake = threading.Condition()
        self._item: T | None = None
        self._closed = False
        self.idle = threading.Event()
        self.idle.set()

    def post(self, item: T) -> None:
        """Put ``item`` in the slot (a stale one there is dropped); never waits for the
        worker. Once closed, nothing is taken any more: the item is dropped."""
        with self._wake:
            if self._closed:
                return
            self._item = item
            self.idle.clear()
            self._wake.notify()

    def clear(self) -> None:
        """Drop what waits, if anything (the worker goes on with what it has)."""
        with self._wake:
            self._item = None

    def take(self) -> T | None:
        """The newest item, waiting for one; None once the mailbox is closed (what still
        waits then is dropped)."""
        with self._wake:
            while self._item is None and not self._closed:
                self.idle.set()
                self._wake.wait()
            if self._closed:
                self.idle.set()
                return None
            item, self._item = self._item, None
            return item

    def close(self) -> None:
        """Wake the worker for good: :meth:`take` returns None from now on."""
        with self._wake:
            self._closed = True
            self._item = None
            self._wake.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    def serve(self, handle: Callable[[T], None]) -> None:
        """A worker thread's body: ``handle`` each item taken until the mailbox closes."""
        while (item := self.take()) is not None:
            handle(item)


def start_worker(mailbox: Mailbox[T], handle: Callable[[T], None],
                 name: str) -> threading.Thread:
    """A daemon thread serving ``mailbox`` with ``handle``, started."""
    thread = threading.Thread(target=mailbox.serve, args=(handle,), name=name, daemon=True)
    thread.start()
    return thread


__all__ = ["Mailbox", "start_worker"]
