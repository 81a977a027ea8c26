"""Optional buzzer and LED for catch alerts.

Patterns run in gpiozero's background threads (``beep``/``blink`` with
``background=True``), so :meth:`Alerts.play` returns at once and a new pattern replaces
the running one. Either device may be absent (pin ``None``). :class:`MockAlerts` records
what was played for tests and the emulator.
"""

from __future__ import annotations

from typing import Protocol

from hardware.pins import PinFactory, PinId
from valueclass import Frozen


class Pattern(Frozen):
    on_time: float
    off_time: float
    count: int
    led: bool = True
    buzzer: bool = True


PATTERNS: dict[str, Pattern] = {
    "catch": Pattern(0.08, 0.08, 3),
    "alert": Pattern(0.3, 0.2, 2),
    "ok": Pattern(0.05, 0.05, 1),
    "error": Pattern(0.6, 0.1, 1),
    "blink": Pattern(0.2, 0.2, 5, buzzer=False),
}


class AlertSink(Protocol):
    def play(self, name: str) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...


def _pattern(name: str) -> Pattern:
    try:
        return PATTERNS[name]
    except KeyError:
        raise ValueError(f"unknown alert pattern {name!r}; known: {', '.join(PATTERNS)}") from None


class _Blinker(Protocol):
    """What cb-rig uses of a gpiozero ``Buzzer`` (``beep``) or ``LED`` (``blink``)."""

    def off(self) -> None: ...

    def close(self) -> None: ...


class _Buzzer(_Blinker, Protocol):
    def beep(self, on_time: float, off_time: float, *, n: int | None,
             background: bool) -> None: ...


class _Led(_Blinker, Protocol):
    def blink(self, on_time: float, off_time: float, *, n: int | None,
              background: bool) -> None: ...


class Alerts:
    """Buzzer and/or LED on GPIO pins (``pin_factory`` injected)."""

    def __init__(
        self,
        *,
        buzzer_pin: PinId | None,
        led_pin: PinId | None,
        pin_factory: PinFactory,
        active_high: bool = True,
    ) -> None:
        from gpiozero import LED, Buzzer  # lazy

        self._buzzer: _Buzzer | None = None
        self._led: _Led | None = None
        try:
            if buzzer_pin is not None:
                self._buzzer = Buzzer(buzzer_pin, active_high=active_high, pin_factory=pin_factory)
            if led_pin is not None:
                self._led = LED(led_pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def play(self, name: str) -> None:
        """Start pattern ``name`` in the background (replacing any running one)."""
        p = _pattern(name)
        if self._buzzer is not None:
            if p.buzzer:
                self._buzzer.beep(p.on_time, p.off_time, n=p.count, background=True)
            else:
                self._buzzer.off()
        if self._led is not None and p.led:
            self._led.blink(p.on_time, p.off_time, n=p.count, background=True)

    def off(self) -> None:
        devices: tuple[_Blinker | None, ...] = (self._buzzer, self._led)
        for device in devices:
            if device is not None:
                device.off()

    def close(self) -> None:
        devices: tuple[_Blinker | None, ...] = (self._buzzer, self._led)
        for device in devices:
            if device is not None:
                device.close()
        self._buzzer = self._led = None


class MockAlerts:
    def __init__(self) -> None:
        self.played: list[str] = []
        self.closed = False

    def play(self, name: str) -> None:
        _pattern(name)
        self.played.append(name)

    def off(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


__all__ = ["PATTERNS", "AlertSink", "Alerts", "MockAlerts", "Pattern"]
