"""espeak-ng in the rig's own process, through its C library (libespeak-ng1, which the
espeak-ng package installs), for the phrases that are wanted now.

A new phrase's first word waits for its synthesis: the espeak-ng program spends most of
its time starting (loading its voice data: 13-20 ms a sentence here, against 2-13 ms for
the synthesis itself in a library loaded once, docs/VOICE.md). The library is not
thread-safe, so one lock serialises it; it is loaded on first use, and where it cannot
be (another version, no library) the program is used instead, said once in the log.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading

log = logging.getLogger(__name__)

AUDIO_OUTPUT_SYNCHRONOUS = 2
INITIALIZE_DONT_EXIT = 0x8000
POS_CHARACTER = 1
CHARS_UTF8 = 1
RATE = 1
"""espeak_PARAMETER espeakRATE (words a minute)."""

_Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int,
                             ctypes.c_void_p)


class EspeakLibrary:
    """One loaded libespeak-ng: `say(text, voice, rate)` gives (sample rate, PCM)."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        self.lock = threading.Lock()
        self._chunks: list[bytes] = []
        self._callback = _Callback(self._collect)  # kept: C holds the pointer
        lib.espeak_Initialize.restype = ctypes.c_int
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.espeak_Synth.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint,
                                     ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                                     ctypes.c_void_p, ctypes.c_void_p]
        self.rate = lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, None,
                                          INITIALIZE_DONT_EXIT)
        if self.rate <= 0:
            raise OSError(f"espeak_Initialize failed ({self.rate})")
        lib.espeak_SetSynthCallback(self._callback)
        self._voice = ""
        self._speed = 0

    def _collect(self, wav: ctypes._Pointer[ctypes.c_short], count: int,
                 events: int | None) -> int:
        if count > 0:
            self._chunks.append(ctypes.string_at(wav, count * 2))
        return 0

    def say(self, text: str, voice: str, speed: int) -> tuple[int, bytes]:
        """The whole sentence's samples (mono, signed 16-bit)."""
        data = text.encode("utf-8") + b"\0"
        with self.lock:
            if voice != self._voice:
                if self.lib.espeak_SetVoiceByName(voice.encode()) != 0:
                    raise OSError(f"espeak-ng has no voice {voice!r}")
                self._voice = voice
            if speed != self._speed:
                self.lib.espeak_SetParameter(RATE, speed, 0)
                self._speed = speed
            self._chunks = []
            status = self.lib.espeak_Synth(data, len(data), 0, POS_CHARACTER, 0, CHARS_UTF8,
                                           None, None)
            self.lib.espeak_Synchronize()
            if status != 0:
                raise OSError(f"espeak_Synth failed ({status})")
            return self.rate, b"".join(self._chunks)


_loaded: EspeakLibrary | None = None
_tried = False
_load_lock = threading.Lock()


def library() -> EspeakLibrary | None:
    """The library, loaded once; None (logged once) where it cannot be loaded."""
    global _loaded, _tried
    with _load_lock:
        if not _tried:
            _tried = True
            name = ctypes.util.find_library("espeak-ng") or "libespeak-ng.so.1"
            try:
                _loaded = EspeakLibrary(ctypes.CDLL(name))
            except (OSError, AttributeError) as exc:
                log.info("voice: libespeak-ng not usable here (%s): the espeak-ng program "
                         "speaks instead", exc)
        return _loaded
