"""The voice's settings: the ``[voice]`` section of the rig's config (rig.config reads
and checks it; the narrator speaks by it). The voice owns them, so the narrator needs no
config module and the config stands on the voice, never the other way (issue 45)."""

from __future__ import annotations

from rig.voice.effects import EFFECTS
from rig.voice.speech import EVENTS as VOICE_EVENTS
from valueclass import Frozen

VOICE_EFFECTS = tuple(EFFECTS.built_in)
"""The built-in voice effects; ``[voice] effect`` may also name an installed one
(rig.voice.effects: the effect table)."""


class VoiceConfig(Frozen):
    """The spoken announcements (RULINGS G6; rig.voice.narrator, docs/VOICE.md)."""

    enabled: bool = True
    """Where the rig has a sound output it speaks (on by default; the setup menu too)."""
    volume: int = 80
    """Percent of full scale (0 to 100)."""
    rate: int = 165
    """Words a minute (80 to 450; espeak-ng's own default is 175)."""
    voice: str = "en-us"
    """An espeak-ng voice (``espeak-ng --voices=en`` lists them)."""
    events: tuple[str, ...] = VOICE_EVENTS
    """Which moments are spoken: turn, card, move, police, alert, winner, refusal."""
    effect: str = "radio"
    """"radio" (a CB radio: 300-3,400 Hz, squelch, roger beep; needs sox), "plain", or
    one installed in ``cbrig.voice_effects`` (rig.voice.effects)."""
    device: str = "default"
    """The ALSA output aplay plays on: "default", "plughw:1,0", "plughw:MAX98357A"..."""
    choices: str = "brief"
    """How a person's choice is said: "brief" (how many, and the option under the knob;
    each turn says the one it lands on) or "all" (every option read out)."""
