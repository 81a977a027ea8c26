"""A clip as WAV bytes and back: what the cache keeps, the browser plays and
``espeak-ng --stdout`` writes (mono, 16-bit)."""

from __future__ import annotations

import io
import wave

from hardware.speaker import Clip, ClipError


def pcm_of_wav(data: bytes) -> Clip:
    """The samples of a mono 16-bit WAV, also one streamed with an unknown length (as
    ``espeak-ng --stdout`` writes it: the sizes are 0x7FFFFFFF)."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ClipError("not a WAV")
    at, rate = 12, 0
    while at + 8 <= len(data):
        chunk, size = data[at:at + 4], int.from_bytes(data[at + 4:at + 8], "little")
        body = data[at + 8:at + 8 + size]
        if chunk == b"fmt ":
            channels = int.from_bytes(body[2:4], "little")
            rate = int.from_bytes(body[4:8], "little")
            bits = int.from_bytes(body[14:16], "little")
            if channels != 1 or bits != 16:
                raise ClipError(f"{channels} channels of {bits} bits, not mono 16-bit")
        elif chunk == b"data":
            pcm = body[: len(body) // 2 * 2]
            if not rate:
                raise ClipError("WAV data before its format")
            return Clip(rate, pcm)
        at += 8 + size + (size & 1)
    raise ClipError("WAV without data")


def wav_bytes(clip: Clip) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(clip.rate)
        w.writeframes(clip.pcm)
    return out.getvalue()
