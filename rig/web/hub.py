"""Push to open pages: the loop thread publishes, each page's request thread waits.

Every page has a mailbox that keeps only the newest value of each topic ("frame",
"board", "cards", "buzz"): a slow phone never builds a backlog, and a page that opens
late gets the current picture at once.
"""

from __future__ import annotations

import threading


class Mailbox:
    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._pending: dict[str, str] = {}
        self.closed = False

    def put(self, topic: str, data: str) -> None:
        with self._ready:
            self._pending.pop(topic, None)  # the newest value goes to the back
            self._pending[topic] = data
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._ready.notify()

    def take(self, timeout: float) -> list[tuple[str, str]]:
        """Everything pending, oldest topic first; [] after `timeout` or when closed."""
        with self._ready:
            if not self._pending and not self.closed:
                self._ready.wait(timeout)
            items = list(self._pending.items())
            self._pending.clear()
            return items


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, str] = {}
        self._boxes: list[Mailbox] = []

    def publish(self, topic: str, data: str, keep: bool = True) -> None:
        """Send to every open page; `keep` remembers it for pages that open later."""
        with self._lock:
            if keep:
                self._latest[topic] = data
            boxes = list(self._boxes)
        for box in boxes:
            box.put(topic, data)

    def latest(self, topic: str) -> str | None:
        with self._lock:
            return self._latest.get(topic)

    def subscribe(self) -> Mailbox:
        box = Mailbox()
        with self._lock:
            for topic, data in self._latest.items():
                box.put(topic, data)
            self._boxes.append(box)
        return box

    def unsubscribe(self, box: Mailbox) -> None:
        with self._lock:
            if box in self._boxes:
                self._boxes.remove(box)

    @property
    def pages(self) -> int:
        with self._lock:
            return len(self._boxes)

    def close(self) -> None:
        with self._lock:
            boxes, self._boxes = self._boxes, []
        for box in boxes:
            box.close()
