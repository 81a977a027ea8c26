"""The phrase cache's faults (issue 35 item 4): damaged clips are made again, clips are
written whole (fsync before the rename), temporaries left by a kill go, the cache has a
size cap (least recently used out first) and gives way when the disk runs short (before
a game is refused for space), and ``<state>/voice`` as a symbolic link is not followed.

No synthesis here: the synthesizer's render is a tone per sentence, counted."""

from __future__ import annotations

import hashlib
import logging
import os
import random
from pathlib import Path
from typing import Any

import pytest

from hardware.speaker import Clip
from rig.voice.narrator import Synthesizer, VoiceSettings, clip_key
from tests.slowdown import hang

RATE = 16000


def sound(text: str, seconds: float = 0.5) -> Clip:
    """A clip that depends on ``text`` (its digest as a level)."""
    level = 200 + hashlib.sha256(text.encode()).digest()[0] * 50
    return Clip(RATE, level.to_bytes(2, "little", signed=True) * int(RATE * seconds))


class Counted(Synthesizer):
    """The plain voice, each sentence a tone: what it renders is counted."""

    def __init__(self, cache: Path | None, seconds: float = 0.5) -> None:
        super().__init__(VoiceSettings(effect="plain"), cache)
        self.sox = None
        self.made: list[str] = []
        self.seconds = seconds

    def _render(self, text: str, effect: str, low: bool = False) -> Clip:
        self.made.append(text)
        return sound(text, self.seconds)


def clip_file(directory: Path, text: str) -> Path:
    return directory / f"{clip_key(text, Counted(None).voice, 'plain')}.wav"


# -- damaged clips ------------------------------------------------------------------------


def _truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _header_only(data: bytes) -> bytes:
    return data[:44]


def _noise(data: bytes) -> bytes:
    noise = random.Random(7).randbytes(len(data) - 100)
    return data[:100] + noise


def _stereo(data: bytes) -> bytes:
    at = data.index(b"fmt ") + 10
    return data[:at] + (2).to_bytes(2, "little") + data[at + 2:]


def _tail_zeros(data: bytes) -> bytes:
    """The last 4 KiB never written (a power cut after a rename without fsync)."""
    return data[:-4096] + bytes(4096)


def _empty(data: bytes) -> bytes:
    return b""


@pytest.mark.parametrize("damage", [_truncated, _header_only, _noise, _stereo, _tail_zeros,
                                    _empty])
def test_a_damaged_clip_is_made_again(tmp_path: Path, damage: object) -> None:
    assert callable(damage)
    first = Counted(tmp_path)
    good = first.clip("Blue truck caught.")
    path = clip_file(tmp_path, "Blue truck caught.")
    path.write_bytes(damage(path.read_bytes()))
    again = Counted(tmp_path)
    assert again.clip("Blue truck caught.") == good
    assert again.made == ["Blue truck caught."], "a damaged clip was played as it was"
    third = Counted(tmp_path)
    assert third.clip("Blue truck caught.") == good and third.made == [], \
        "the damaged clip was not replaced"


def test_a_good_clip_is_read_back(tmp_path: Path) -> None:
    Counted(tmp_path).clip("Ten-four.")
    again = Counted(tmp_path)
    assert again.clip("Ten-four.") == sound("Ten-four.") and again.made == []
    assert again.cached("Ten-four.")


def test_a_clip_is_fsynced_before_its_rename(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("fsync")
        real_fsync(fd)

    def replace(*args: Any, **kwargs: Any) -> None:
        calls.append("rename")
        real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    Counted(tmp_path).clip("Ten-four.")
    assert calls and calls[-1] == "rename" and "fsync" in calls[:-1]


def test_stale_temporaries_are_removed_at_start(tmp_path: Path) -> None:
    stale = tmp_path / ".0123abcd.999.1.tmp"
    stale.write_bytes(b"RIFF half a clip")
    os.utime(stale, (1_000_000, 1_000_000))
    fresh = tmp_path / f".4567cdef.{os.getppid()}.1.tmp"  # a live writer's, now
    fresh.write_bytes(b"RIFF")
    Counted(tmp_path).clip("Ten-four.")
    assert not stale.exists() and fresh.exists()


def test_a_crashed_writers_temporaries_go_at_the_next_start_whatever_their_age(
        tmp_path: Path) -> None:
    """Issue 44: temporaries of a killed rig outlived the 3 s restart (only those over
    60 s old went) and sat outside the cap. Their writer's pid is in their name: a
    writer that is no longer running cannot be writing them. A live writer's count."""
    import subprocess
    import sys

    from rig.voice.cache import ClipCache

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    dead = int(ended.stdout)
    crashed = [tmp_path / f".{n:08x}.{dead}.{n}.tmp" for n in range(30)]
    for path in crashed:
        path.write_bytes(b"RIFF" + bytes(1000))  # fresh: written a second ago
    live = tmp_path / f".4567cdef.{os.getppid()}.1.tmp"
    live.write_bytes(bytes(5000))
    cache = ClipCache(tmp_path)
    cache.prepare()
    assert not any(path.exists() for path in crashed)
    assert live.exists()
    assert cache._total == 5000  # the live writer's temporary counts against the cap
    cache.close()


# -- the size cap and a short disk --------------------------------------------------------


def test_the_cap_evicts_the_least_recently_used(tmp_path: Path) -> None:
    synthesizer = Counted(tmp_path)
    store = synthesizer.store
    assert store is not None
    size = len(store_bytes(synthesizer, "One."))
    store.cap = int(size * 3.5)  # three clips fit
    for n, text in enumerate(("One.", "Two.", "Three.")):
        synthesizer.clip(text)
        os.utime(clip_file(tmp_path, text), (1000.0 + n, 1000.0 + n))
    synthesizer.clip("One.")  # read: used now, the newest
    synthesizer.clip("Four.")  # over the cap: the least recently used go
    kept = {t for t in ("One.", "Two.", "Three.", "Four.") if clip_file(tmp_path, t).exists()}
    assert kept == {"One.", "Three.", "Four."}
    assert sum(p.stat().st_size for p in tmp_path.glob("*.wav")) <= store.cap


def store_bytes(synthesizer: Counted, text: str) -> bytes:
    from rig.voice.cache import clip_wav

    clip = sound(text, synthesizer.seconds)
    return clip_wav(clip.rate, clip.pcm)


class SmallDisk:
    """A disk with ``free`` bytes plus whatever the cache's clips free when removed."""

    def __init__(self, directory: Path, free: int) -> None:
        self.directory = directory
        self.base = free
        self.start = self.used()

    def used(self) -> int:
        return sum(p.stat().st_size for p in self.directory.glob("*.wav"))

    def __call__(self, fd: int) -> int:
        return self.base + self.start - self.used()


def test_a_short_disk_keeps_no_more_clips_and_gives_old_ones_back(tmp_path: Path) -> None:
    from rig.voice.cache import FLOOR

    synthesizer = Counted(tmp_path)
    for n, text in enumerate(("One.", "Two.", "Three.")):
        synthesizer.clip(text)
        os.utime(clip_file(tmp_path, text), (1000.0 + n, 1000.0 + n))
    store = synthesizer.store
    assert store is not None
    disk = SmallDisk(tmp_path, FLOOR - 1)  # something else filled the disk
    store.free = disk
    synthesizer.clip("Four.")  # needs its size above the floor: two old clips go
    kept = [t for t in ("One.", "Two.", "Three.", "Four.") if clip_file(tmp_path, t).exists()]
    assert kept == ["Three.", "Four."] and disk(0) >= FLOOR
    disk.base -= 10 * len(store_bytes(synthesizer, "One."))  # the disk fills up more
    synthesizer.clip("Five.")  # no room even with every clip gone: said, not kept
    assert list(tmp_path.glob("*.wav")) == [] and synthesizer.made[-1] == "Five."


def test_the_voice_gives_way_before_a_game_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon, on START with the disk short: the voice clips go first, oldest
    first, until the floor is free, and the game starts."""
    import rig.voice.cache
    from hardware.events import KnobPress, KnobTurn
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from rig.core.service import QuietNotifier
    from rig.voice.cache import FLOOR
    from tests.daemon.helpers import write_config

    config = load_config(write_config(tmp_path, game="bumpem", players=2))
    voice = config.state.directory / "voice"
    synthesizer = Counted(voice)
    for n, text in enumerate(("One.", "Two.", "Three.", "Four.")):
        synthesizer.clip(text)
        os.utime(clip_file(voice, text), (1000.0 + n, 1000.0 + n))
    one = clip_file(voice, "One.").stat().st_size
    disk = SmallDisk(voice, FLOOR - 2 * one + 1)  # two clips must go
    monkeypatch.setattr(rig.voice.cache, "disk_free", disk)
    daemon = Daemon(config=config, notifier=QuietNotifier())
    daemon.start()
    try:
        assert daemon.app is not None and daemon.loop is not None
        items = daemon.app.screen().menu
        row = next(i for i, item in enumerate(items) if item.startswith("START"))
        daemon.loop.step(KnobTurn("hi", row - daemon.app.screen().cursor))
        daemon.loop.step(KnobPress("hi"))
        assert daemon.app.controller is not None, "the game did not start"
        kept = [t for t in ("One.", "Two.", "Three.", "Four.") if clip_file(voice, t).exists()]
        assert kept == ["Three.", "Four."]
    finally:
        daemon.stop()


# -- the directory --------------------------------------------------------------------------


def test_a_linked_voice_directory_is_not_followed(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    state = tmp_path / "state"
    state.mkdir()
    (state / "voice").symlink_to(elsewhere)
    synthesizer = Counted(state / "voice")
    with caplog.at_level(logging.WARNING):
        assert synthesizer.clip("Ten-four.") == sound("Ten-four.")
        assert synthesizer.clip("Ten-four.") == sound("Ten-four.")
    assert list(elsewhere.iterdir()) == [], "a clip was written through the link"
    lines = [r.getMessage() for r in caplog.records if "voice cache" in r.getMessage()]
    assert len(lines) == 1 and "is a symbolic link" in lines[0], lines
    assert (state / "voice").is_symlink()


def test_a_fifo_or_a_link_at_a_clips_name_is_not_read_through(tmp_path: Path) -> None:
    """A FIFO would block a reader forever; a link would be read (and written) through:
    both are replaced by the clip, and what the link named is left as it was."""
    target = tmp_path / "someone's file"
    target.write_bytes(b"precious")
    cache = tmp_path / "voice"
    cache.mkdir()
    os.mkfifo(clip_file(cache, "Ten-four."))
    clip_file(cache, "Roger.").symlink_to(target)
    synthesizer = Counted(cache)
    assert synthesizer.clip("Ten-four.") == sound("Ten-four.")
    assert synthesizer.clip("Roger.") == sound("Roger.")
    assert synthesizer.made == ["Ten-four.", "Roger."]
    assert target.read_bytes() == b"precious"
    for text in ("Ten-four.", "Roger."):
        path = clip_file(cache, text)
        assert path.is_file() and not path.is_symlink()
    again = Counted(cache)
    assert again.clip("Roger.") == sound("Roger.") and again.made == []


def test_nothing_is_rendered_ahead_without_a_cache_to_keep_it(tmp_path: Path) -> None:
    """With the cache refused (a link), rendering a game's cards ahead would be work
    thrown away on the Pi's CPU at every START."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "voice").symlink_to(elsewhere)
    synthesizer = Counted(tmp_path / "voice")
    ahead = synthesizer.warm(["Red: draw a Mike card.", "Blue truck caught."])
    assert ahead is not None
    ahead.join(hang())
    assert synthesizer.made == [] and list(elsewhere.iterdir()) == []


def test_the_rig_tidies_the_cache_at_start(tmp_path: Path) -> None:
    """build_narrator prepares the cache on a thread of its own (off the speaker's
    worker, so the first sentence does not wait for the scan): stale temporaries go and
    the clips are counted."""
    import threading

    from hardware.speaker import MockBackend
    from rig.voice.narrator import build_narrator

    cache = tmp_path / "voice"
    Counted(cache).clip("Ten-four.")
    stale = cache / ".0123abcd.999.1.tmp"
    stale.write_bytes(b"RIFF half a clip")
    os.utime(stale, (1_000_000, 1_000_000))
    narrator = build_narrator(VoiceSettings(effect="plain"), cache, lambda: "tenfour",
                              backend=MockBackend())
    [tidying] = [t for t in threading.enumerate() if t.name == "voice-cache"] or [None]
    if tidying is not None:
        tidying.join(hang())
    narrator.close()
    assert not stale.exists()
    assert narrator.synthesizer is not None and narrator.synthesizer.store is not None
    assert narrator.synthesizer.store._total == clip_file(cache, "Ten-four.").stat().st_size
