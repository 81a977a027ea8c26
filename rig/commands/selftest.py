"""`cbrig selftest`: check each knob, button, the reader, the display, the buzzer and the
voice (a test phrase on the configured sound output)."""

from __future__ import annotations

import argparse
import queue
import sys

from hardware.devices import build_real, config_from_sections
from rig.commands._config import add_config_argument, command_config
from rig.config import RigConfig
from rig.owner.selftest import run_checks
from rig.screens.render import render
from rig.screens.screen import Screen
from rig.voice.narrator import TEST_PHRASE, sound_card_present, speak_test


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for each part")


def run(args: argparse.Namespace) -> int:
    cfg = command_config(args.config, "selftest")
    events: queue.Queue[object] = queue.Queue()
    try:
        hw = build_real(config_from_sections(cfg.pins, cfg.encoder, cfg.reader, cfg.display),
                        events.put)
    except Exception as exc:
        print(f"cbrig selftest: cannot set up the hardware: {exc}", file=sys.stderr)
        return 1
    hw.start()
    try:
        hw.display.show(render(Screen(title="SELF TEST", big="8888888",
                                      lines=("If you can read this,", "the display works."))))
        hw.alerts.play("ok")
        voice_ok = check_voice(cfg)

        def show(text: str) -> None:
            hw.display.show(render(Screen(title="SELF TEST", lines=(text,))))

        results = run_checks(events, print, show, timeout=args.timeout)
    finally:
        hw.close()
    if voice_ok is not None:
        results["Voice test phrase"] = voice_ok
    failed = [name for name, ok in results.items() if not ok]
    print(f"{len(results) - len(failed)} of {len(results)} parts seen working")
    for name in failed:
        print(f"  not seen: {name}")
    return 1 if failed else 0


def check_voice(cfg: object) -> bool | None:
    """Speak the test phrase and say how it went; None when the voice is off or no
    sound card is fitted at all (not a failed part)."""

    assert isinstance(cfg, RigConfig)
    voice = cfg.voice
    if not voice.enabled:
        print("voice: off in the config ([voice] enabled = false)")
        return None
    if voice.device == "default" and not sound_card_present():
        print("voice: no sound card (none fitted? see wiring/README.md, Sound)")
        return None
    print(f"voice: saying \"{TEST_PHRASE}\" on {voice.device} ({voice.effect}) ...")
    problem = speak_test(voice, cfg.state.directory / "voice")
    print("  ok (did you hear it?)" if not problem else f"  NOT PLAYED: {problem}")
    return not problem
