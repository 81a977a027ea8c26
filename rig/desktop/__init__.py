"""The rig on a desktop: the emulated hardware, the terminal emulator, the desk that
composes a daemon, and event scripts."""
