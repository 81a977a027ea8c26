"""The running rig: the event loop, the controller and its modes, the session and its
journal, the setup menu, card enrolment, computer seats and the autopilot, and the
daemon that joins them to the hardware."""
