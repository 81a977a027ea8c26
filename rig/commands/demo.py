"""`cbrig demo`: a whole game played by scripted gestures through the emulated rig."""

from __future__ import annotations

import argparse
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rig.commands._gameargs import add_game_arguments, options_for, seats_for, variant_for

if TYPE_CHECKING:
    from hardware.speaker import MockBackend
    from rig.emulated import EmulatedRig
    from rig.screen import Screen
    from rig.voice import Narrator


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser, default_players=3)
    parser.add_argument("--delay", type=float, default=None,
                        help=f"seconds between gestures (default {PACE} on a terminal, "
                             "0 when the output is not a terminal)")
    parser.add_argument("--fast", action="store_true",
                        help="no pause between gestures and no spin animation time")
    parser.add_argument("--oled", action="store_true",
                        help="draw every screen as the OLED's pixels, not as text")
    parser.add_argument("--frames", action="store_true",
                        help="also show every frame of the spin animations")
    parser.add_argument("--voice", action="store_true",
                        help="narrate: speak every announcement through this computer's "
                             "sound output (each waits for the last to end) and print it")
    parser.add_argument("--record", type=Path, default=None, metavar="WAV",
                        help="with --voice: also write what is said to this WAV file")
    parser.add_argument("--record-lines", default="", metavar="A-B",
                        help="record only the announcements A to B (counting from 1)")


PACE = 1.5
"""Seconds between a person's gestures: time to read the screen before the next one."""


def pace_for(args: argparse.Namespace, watched: bool) -> float:
    """The pause between gestures: a person's pace when someone watches a terminal."""
    if args.fast:
        return 0.0
    if args.delay is not None:
        return max(0.0, float(args.delay))
    return PACE if watched else 0.0


def real_pause(seconds: float) -> None:
    """Wait out the time to the loop's next deadline (the paced demo runs in real time)."""
    threading.Event().wait(seconds)


def run(args: argparse.Namespace, pause: Callable[[float], object] | None = None) -> int:
    from rig.autopilot import describe, gestures_for
    from rig.emulated import new_emulated_rig
    from rig.games import GameSetupError, game_entry
    from rig.render import boxed, render_terminal

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    pace = pace_for(args, sys.stdout.isatty())
    holder: list[EmulatedRig] = []

    recorder = None
    if getattr(args, "record", None) is not None:
        from hardware.speaker import MockBackend

        recorder = MockBackend()
    narrate = narrator_for(args, recorder) if getattr(args, "voice", False) else None

    def show(screen: Screen) -> None:
        animating = holder and holder[0].controller.animation is not None
        if not animating or args.frames:
            print(render_terminal(screen) if args.oled else boxed(screen), flush=True)
        if narrate is not None:
            narrate.frame(screen)  # after the screen it goes with (a spin cuts the last)

    try:
        seats = seats_for(args, seed)
        print(f"{game_entry(args.game).title}: {args.players} players, seed {seed}")
        rig = new_emulated_rig(args.game, args.players, variant=variant_for(args), seed=seed,
                               seats=seats, options=options_for(args), draw=show)
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig demo: {exc}", file=sys.stderr)
        return 2
    holder.append(rig)
    if pace:
        rig.pause = pause or real_pause
    rng = random.Random(seed)
    gestures = 0
    while not rig.session.state.is_terminal():
        for gesture in gestures_for(rig.controller, rng):
            text = describe(gesture)
            if text:
                print(f"$ {text}")
            rig.loop.step(gesture)
            rig.settle()
            gestures += 1
            if narrate is not None and narrate.speaker is not None and (
                    not args.fast or recorder is not None):
                narrate.speaker.idle.wait(60)  # a narrated demo lets each line be heard
            if pace:
                rig.wait(pace)
    state = rig.session.state
    names = ", ".join(rig.session.game.seat_name(s) for s in state.winners())
    print(f"Game over after {gestures} gestures and {rig.session.steps} inputs: {names} won.")
    print("ADIOS, good buddies.")
    if narrate is not None and narrate.speaker is not None:
        narrate.speaker.idle.wait(60)
        narrate.speaker.close()
    if recorder is not None:
        saved = record(recorder, args.record, args.record_lines)
        print(f"(voice: {saved} recorded to {args.record})")
    return 0


def record(recorder: MockBackend, path: Path, lines: str) -> str:
    """The transmissions (those numbered ``lines``, "A-B") in one WAV, 0.3 s apart."""
    from hardware.speaker import Clip
    from rig.voice import wav_bytes

    played = [p for p in recorder.played if p.finished]
    first, _, last = lines.partition("-")
    chosen = played[int(first) - 1:int(last or first)] if first else played
    if not chosen:
        return "nothing"
    rate = chosen[0].rate
    gap = bytes(int(rate * 0.3) * 2)
    pcm = gap.join(bytes(p.pcm) for p in chosen if p.rate == rate)
    path.write_bytes(wav_bytes(Clip(rate, pcm)))
    return f"{len(chosen)} announcements, {len(pcm) / 2 / rate:.1f} s"


def narrator_for(args: argparse.Namespace, recorder: MockBackend | None = None) -> Narrator:
    """The demo's narrator: the default voice through this computer's sound output, its
    phrases cached in the user's state directory; where there is no sound output (or no
    espeak-ng), it says so once and only prints the words. With a ``recorder`` the voice
    goes there instead (``--record``)."""
    from rig.config import VoiceConfig, default_state_dir
    from rig.voice import Narrator, build_narrator, sound_card_present

    settings = VoiceConfig()

    def game() -> str:
        return str(args.game)

    narrator: Narrator
    if recorder is not None or sound_card_present():
        narrator = build_narrator(settings, default_state_dir() / "voice", game,
                                  on_fault=lambda why: print(f"(voice: no sound: {why})"),
                                  backend=recorder)
    else:
        print("(voice: no sound output on this computer: the words are printed)")
        narrator = Narrator(settings, None, None, game)
    narrator.on_say = lambda said: print(f'(voice) "{said.text}"', flush=True)
    return narrator
