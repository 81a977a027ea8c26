"""Drivers that turn physical signals into plain events and draw frames.

Every device has a real backend and a mock one behind a small typed interface; hardware
libraries are imported lazily so this package imports on any desktop.

Modules:

* :mod:`hardware.events` - the frozen event values every device emits (``HardwareEvent``).
* :mod:`hardware.clock` - injected clocks (``FakeClock``, the one fake clock).
* :mod:`hardware.gestureclock` - the knobs' one clock: raw pin inputs to gestures (on the rig loop).
* :mod:`hardware.pins` - explicit gpiozero pin-factory selection, no silent fallback.
* :mod:`hardware.gesture` - pure quadrature decoder and knob gesture classifier.
* :mod:`hardware.knob` - ``Knob`` (gpiozero), ``QuadratureDriver`` (mock pins), ``MockKnob``.
* :mod:`hardware.rfid` - RDM6300 and PN532 decoders, presence tracking, reader thread, mock.
* :mod:`hardware.display` - ``Display`` interface, luma OLED with recovery, the desktop's
  terminal and PNG stand-ins (``desktop``), pixel fonts.
* :mod:`hardware.buzzer` - optional buzzer and LED patterns.
* :mod:`hardware.devices` - build a whole real or mock device set from a config.
* :mod:`hardware.mailbox` - the newest-wins mailbox between the loop and a worker thread.
"""
