"""hardware.mailbox: one slot, the newest item wins; the worker waits without polling and
a close wakes it. Synchronised with events, never with sleeps."""

from __future__ import annotations

import threading

from hardware.mailbox import Mailbox, start_worker
from tests.slowdown import hang

T = hang()


def test_a_newer_item_replaces_one_not_yet_taken() -> None:
    box: Mailbox[str] = Mailbox()
    box.post("stale")
    box.post("newest")
    assert box.take() == "newest"
    box.post("again")
    assert box.take() == "again"


def test_clear_drops_what_waits() -> None:
    box: Mailbox[int] = Mailbox()
    box.post(1)
    box.clear()
    box.post(2)
    assert box.take() == 2


def test_idle_is_set_only_while_nothing_waits() -> None:
    box: Mailbox[int] = Mailbox()
    assert box.idle.is_set()
    box.post(1)
    assert not box.idle.is_set()
    assert box.take() == 1


def test_the_worker_handles_the_newest_and_skips_the_stale() -> None:
    box: Mailbox[int] = Mailbox()
    handled: list[int] = []
    busy, release = threading.Event(), threading.Event()

    def handle(item: int) -> None:
        handled.append(item)
        if item == 1:
            busy.set()
            assert release.wait(T)  # the worker is busy with 1 while 2 and 3 arrive

    worker = start_worker(box, handle, "test-mailbox")
    box.post(1)
    assert busy.wait(T)
    box.post(2)
    box.post(3)
    release.set()
    assert box.idle.wait(T)  # set once the worker waits again with nothing posted
    assert handled == [1, 3]
    box.close()
    worker.join(T)
    assert not worker.is_alive()


def test_close_wakes_a_waiting_worker_and_take_says_closed() -> None:
    box: Mailbox[int] = Mailbox()
    box.post(1)  # idle is clear until the worker waits for a second item
    returned = threading.Event()
    got: list[int | None] = []

    def take_two() -> None:
        got.append(box.take())
        got.append(box.take())  # waits: nothing more is posted
        returned.set()

    worker = threading.Thread(target=take_two, daemon=True)
    worker.start()
    assert box.idle.wait(T)  # set under the lock just before the worker waits
    assert not returned.is_set()
    box.close()
    assert returned.wait(T)
    assert got == [1, None] and box.closed
    worker.join(T)


def test_after_close_nothing_is_taken_and_idle_stays_set() -> None:
    box: Mailbox[int] = Mailbox()
    box.post(1)
    box.close()
    box.post(2)
    assert box.take() is None
    assert box.idle.is_set()
