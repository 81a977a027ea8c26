"""The voice effects: one table (issue 45), a protocol and a battery.

An effect is what the rig does to espeak-ng's voice before it plays it: a sox chain on
each sentence, the rate the chain writes, and whether an utterance is framed as a radio
transmission (a squelch burst first, the roger beep last). The built-in ones are the
radio's (``RADIO``, defined beside its chain in ``rig/voice/narrator.py``) and "plain"
(here); an installed one is named in the ``cbrig.voice_effects`` entry point group::

    [project.entry-points."cbrig.voice_effects"]
    tinny = "mypackage.voice:TINNY"

``[voice] effect`` names one; the narrator asks this table for it.
:func:`rig.voice.effectcheck.check_effect` is the battery any effect runs on itself
(``cbrig.conformance.check_effect``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from hardware.plugins import Table
from valueclass import Frozen

GROUP = "cbrig.voice_effects"
RATES = range(8000, 48001)
"""Sample rates an effect's chain may write (Hz)."""


@runtime_checkable
class VoiceEffect(Protocol):
    """What the narrator reads of an effect."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def sox(self) -> tuple[str, ...]:
        """The sox effects run on each sentence (empty: the voice as espeak-ng says it)."""

    @property
    def rate(self) -> int:
        """The sample rate the chain writes (Hz)."""

    @property
    def transmission(self) -> bool:
        """Frame an utterance as a radio transmission: squelch burst, roger beep."""


class Effect(Frozen):
    """A voice effect as a record (a :class:`VoiceEffect`)."""

    name: str
    title: str
    sox: tuple[str, ...] = ()
    rate: int = 16000
    transmission: bool = False


def needs_sox(effect: VoiceEffect) -> bool:
    """Whether the effect is made with sox (without it the rig speaks plain)."""
    return bool(effect.sox) or effect.transmission


PLAIN = Effect(name="plain", title="espeak-ng's voice as it is")
"""``effect = "plain"``."""


def as_effect(found: object) -> VoiceEffect:
    """`found` as an effect, or TypeError saying what an effect has."""
    if not isinstance(found, VoiceEffect):
        raise TypeError(f"{type(found).__name__} is no voice effect (rig.voice.effects."
                        "Effect: name, title, sox, rate, transmission)")
    return found


EFFECTS: Table[VoiceEffect] = Table(
    "voice effect", GROUP,
    {"radio": "rig.voice.narrator:RADIO", "plain": "rig.voice.effects:PLAIN"},
    as_effect, "cbrig.conformance.check_effect")
"""Every voice effect, by name."""


def effect_named(name: str) -> VoiceEffect:
    """The effect `name`; ValueError naming the ones there are."""
    return EFFECTS.get(name)
