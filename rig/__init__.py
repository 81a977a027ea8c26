"""The rig: one event loop joining the rules engine, the hardware and the screen."""
