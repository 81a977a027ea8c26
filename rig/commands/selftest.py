"""`cbrig selftest`: check each knob, button, the reader, the display, the buzzer and the
voice (a test phrase on the configured sound output)."""

from __future__ import annotations

import argparse
import importlib
import queue
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hardware.devices import build_real, config_from_sections
from rig import registry
from rig.commands._config import add_config_argument, command_config
from rig.config import ConfigError, RigConfig, load_config
from rig.core.journalread import parse_journal
from rig.gamebuild import build_game
from rig.owner.selftest import run_checks
from rig.screens.render import render
from rig.screens.screen import Screen
from rig.voice.narrator import TEST_PHRASE, sound_card_present, speak_test


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for each part")
    parser.add_argument("--software", action="store_true",
                        help="check the program alone, no hardware and nobody at the rig: "
                             "what an update runs before it is used (cbrig update)")


def run(args: argparse.Namespace) -> int:
    if args.software:
        return software_selftest(args.config)
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


OLD_JOURNAL = (b'{"format": "cbrig-journal", "version": 1, "seq": 0, '
               b'"game": {"game": "bumpem"}, "created": "2026-11-29T17:15:00Z"}\n'
               b'{"seq": 1, "action": {"kind": "pass"}}\n')
"""A journal as version 0.2.0 wrote it: every version must go on reading it."""


def software_selftest(config_path: Path | None) -> int:
    """The program checked without hardware: what ``cbrig run`` imports, each game built
    with its defaults and shown, a journal of the first format read, the config read
    (its mistakes are reported, not failed: the image starts the rig with them). 0 when
    all is well; 1 with what failed."""
    failed: list[str] = []

    def check(what: str, step: Callable[[], object]) -> None:
        try:
            step()
        except Exception as exc:  # any fault is the answer: the update is not used
            failed.append(f"{what}: {type(exc).__name__}: {exc}")
            print(f"  FAILED {what}: {exc}")
        else:
            print(f"  ok     {what}")

    print("software self-test:")
    check("the daemon's modules", lambda: importlib.import_module("rig.core.daemon"))
    for name in registry.names():
        check(f"game {name}", partial(_show_game, name))
    check("a journal of format 1", lambda: parse_journal(OLD_JOURNAL, "<0.2.0 journal>"))

    def config() -> None:
        try:
            load_config(config_path)
        except ConfigError as exc:
            print(f"  note   the config has {len(exc.problems)} mistake(s): the rig starts "
                  "with defaults for them")

    check("the config", config)
    total = 3 + len(registry.names())
    print(f"{'FAILED' if failed else 'passed'}: {total - len(failed)} of {total} checks ok")
    return 1 if failed else 0


def _show_game(name: str) -> None:
    entry = registry.entry(name)
    game = build_game(name, players=entry.player_counts[0])
    state = game.new_initial_state()
    render(Screen(title=entry.title, lines=(state.prompt().text,)))
