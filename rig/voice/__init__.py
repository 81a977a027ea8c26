"""The table's voice: the spoken form of each screen (speech), the narrator that
synthesizes and schedules it (narrator), its settings (control), the espeak-ng library
(espeak) and the clip cache (cache). The devices it speaks through stay with their kind:
hardware.speaker on a rig, rig.web.voice in a browser."""
