"""The owner's checks of a rig being wired: the self test of every knob, button, reader,
screen and buzzer, and the reader check."""
