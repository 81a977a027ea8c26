"""The voice in the browser rig: the page plays the same audio the Pi's speaker would.

:class:`WebSound` is a speaker backend (hardware.speaker): each transmission, once its
clips are made, becomes one WAV kept in memory under its hash and announced to the open
pages as a "voice" event with its URL (``/voice/<hash>.wav``, served by rig.web.httpserver).
A newer transmission is a newer event: the page stops the old one and plays the new,
unless its mute switch is on. Only the last few WAVs are kept. When the voice cannot
play (no synthesizer, a failed effect) the pages are told why ("voicestate", shown in a
banner beside the mute switch) and the desk's greeting says so instead of "plays".
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

from hardware.speaker import Clip, Stream
from rig.web.hub import Hub

KEEP = 16
"""WAVs kept for pages to fetch (a page fetches at once; a few for slow ones)."""


PLAYS = "Voice: plays in the page (its mute switch silences it)."


class WebSound:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.problem = ""
        """Why the voice cannot play ("" while it can), as the speaker said it."""
        self._wavs: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.published = 0
        """Transmissions announced to the pages (tests wait on the hub, and count)."""

    @property
    def note(self) -> str:
        """Where the voice is heard, or why not (the desk's greeting)."""
        return f"Voice: cannot play: {self.problem}." if self.problem else PLAYS

    def sound_status(self, ok: bool, message: str) -> None:
        """The speaker's word on the sound (hardware.speaker): the pages show it."""
        self.problem = "" if ok else message
        self.hub.publish("voicestate", json.dumps({"ok": ok, "why": self.problem}))

    def open(self, rate: int, label: str) -> Stream:
        return _WebStream(self, rate, label)

    def wav(self, key: str) -> bytes | None:
        with self._lock:
            return self._wavs.get(key)

    def _finished(self, clip: Clip, label: str) -> None:
        from rig.voice import wav_bytes

        data = wav_bytes(clip)
        key = hashlib.sha256(data).hexdigest()[:32]
        with self._lock:
            self._wavs[key] = data
            self._wavs.move_to_end(key)
            while len(self._wavs) > KEEP:
                self._wavs.popitem(last=False)
            self.published += 1
        self.hub.publish("voice", json.dumps({"url": f"/voice/{key}.wav", "text": label,
                                              "seconds": round(clip.seconds, 2)}),
                         keep=False)


class _WebStream:
    def __init__(self, sound: WebSound, rate: int, label: str) -> None:
        self.sound = sound
        self.rate = rate
        self.label = label
        self.pcm = bytearray()
        self.aborted = False

    def write(self, pcm: bytes) -> None:
        self.pcm.extend(pcm)

    def finish(self) -> None:
        if not self.aborted:
            self.sound._finished(Clip(self.rate, bytes(self.pcm)), self.label)

    def abort(self) -> None:
        self.aborted = True
