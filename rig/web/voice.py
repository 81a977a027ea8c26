"""The voice in the browser rig: the page plays the same audio the Pi's speaker would.

:class:`WebSound` is a speaker backend (hardware.speaker): each transmission, once its
clips are made, becomes one WAV kept in memory under its hash and announced to the open
pages as a "voice" event with its URL (``/voice/<hash>.wav``, served by rig.web.httpserver).
The page keeps the speaker's priorities (hardware.speaker): each event says whether the
clip ``must`` be heard whole (a card, a move, an alert, the winner), and the page plays
such clips to the end, one after another; a routine clip (a prompt) is cut or dropped
by any newer event, dropped once it waited longer than the speaker's ROUTINE_LAG, and a
"stale" event (the table acted: a screen with nothing to say) cuts and drops routine
clips, or every clip when the voice was switched off. The mute switch silences all.
Only the last few WAVs are kept. When the voice cannot play (no synthesizer, a failed
effect) the pages are told why ("voicestate", shown in a banner beside the mute switch)
and the desk's greeting says so instead of "plays".

The hub keeps only the newest event of a topic for a page that has not taken it yet,
so two voice events close together would lose the first (a move result overtaken by
the next prompt). So each "voice" event carries the last `RECENT` voice messages, each
numbered (``seq``), and the page acts on those it has not seen; a page that connects
late acts on the newest only.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict, deque

from hardware.speaker import ROUTINE_LAG, Clip, Stream
from rig.voice.narrator import wav_bytes
from rig.web.hub import Hub

RECENT = 8
"""Voice messages repeated in each event (more than come between two of a page's reads)."""
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
        self._recent: deque[dict[str, object]] = deque(maxlen=RECENT)
        self._seq = 0

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

    def stale(self, everything: bool) -> None:
        """Routine clips (or every clip) the page holds are out of date."""
        self._announce({"stale": "all" if everything else "routine"})

    def _announce(self, message: dict[str, object]) -> None:
        with self._lock:
            self._seq += 1
            self._recent.append({"seq": self._seq, **message})
            data = json.dumps({"events": list(self._recent)})
            # published under the lock: the pages get the events in their order
            self.hub.publish("voice", data, keep=False)

    def wav(self, key: str) -> bytes | None:
        with self._lock:
            return self._wavs.get(key)

    def _finished(self, clip: Clip, label: str, must_hear: bool) -> None:
        data = wav_bytes(clip)
        key = hashlib.sha256(data).hexdigest()[:32]
        with self._lock:
            self._wavs[key] = data
            self._wavs.move_to_end(key)
            while len(self._wavs) > KEEP:
                self._wavs.popitem(last=False)
            self.published += 1
        self._announce({"url": f"/voice/{key}.wav", "text": label,
                        "seconds": round(clip.seconds, 2), "must": must_hear,
                        "lag": ROUTINE_LAG})


class _WebStream:
    def __init__(self, sound: WebSound, rate: int, label: str) -> None:
        self.sound = sound
        self.rate = rate
        self.label = label
        self.pcm = bytearray()
        self.aborted = False
        self.must_hear = False

    def mark(self, must_hear: bool) -> None:
        self.must_hear = must_hear

    def write(self, pcm: bytes) -> None:
        self.pcm.extend(pcm)

    def finish(self) -> None:
        if not self.aborted:
            self.sound._finished(Clip(self.rate, bytes(self.pcm)), self.label, self.must_hear)

    def abort(self) -> None:
        self.aborted = True
