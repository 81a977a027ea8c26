"""`cbrig demo`: a whole game played by scripted gestures through the emulated rig."""

from __future__ import annotations

import argparse
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from hardware.speaker import Clip, MockBackend
from rig.commands._gameargs import (
    add_game_arguments,
    check_game_arguments,
    options_for,
    seats_for,
    variant_for,
)
from rig.config import VoiceConfig, default_state_dir
from rig.core.autopilot import describe, gestures_for, read_on
from rig.desktop.emulated import new_emulated_rig
from rig.gamebuild import GameSetupError, game_entry
from rig.registry import entry
from rig.screens.render import boxed, render_terminal
from rig.voice.narrator import Narrator, build_narrator, sound_card_present, wav_bytes

if TYPE_CHECKING:
    from hardware.speaker import MockBackend
    from rig.desktop.emulated import EmulatedRig
    from rig.screens.screen import Screen
    from rig.voice.narrator import Narrator


check_arguments = check_game_arguments
"""Run by rig.cli right after parsing: bad --players, --variant or --seats are refused
before anything starts."""


GAME_OPTIONS = True
"""rig.cli adds the chosen game's rule option flags."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--delay", type=float, default=None,
                        help=f"seconds between gestures (default on a terminal: the pace "
                             f"that shows the game in {DEMO_SECONDS / 60:.0f} minutes, at most "
                             f"{PACE}; 0 when the output is not a terminal)")
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
DEMO_SECONDS = 240.0
"""How long a watched demo lasts at its default pace. A 10-Four game for three is
about 200 gestures, a Bump 'Em game about 770 (most turns are a ticket press and a
"cannot use"): at PACE after every gesture that was 6 and 19 minutes. The default pace
fits the seeded game, played through unseen first, in four minutes; the transcript stays
on the terminal to scroll back."""
MIN_PACE = 0.25
"""The fastest default pace: a game longer than DEMO_SECONDS / MIN_PACE gestures (960)
runs over the four minutes rather than blur: 11 of 40 seeded Bump 'Em games for three,
the longest 5.4 minutes (`python -m bench.demo_length`)."""


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


def _unpaced_because(args: argparse.Namespace) -> str:
    """Why a demo runs without pauses, said on its first line (a piped demo ran unpaced
    without a word)."""
    if args.fast or args.delay is not None:
        return ", no pauses"
    return ", no pauses (not a terminal: --delay S paces it)"


def how_long(seconds: float, narrated: bool = False) -> str:
    """What the banner says of a paced demo's length and how to stop it (issue 47)."""
    minutes = max(1, round(seconds / 60))
    about = "at least" if narrated else "about"  # a narrated demo waits for the voice
    return f": {about} {minutes} minute{'' if minutes == 1 else 's'}; Ctrl-C stops it"


def fitted_pace(gestures: int, animation: float) -> float:
    """The default pace for a game of `gestures` whose spins animate for `animation`
    seconds: the whole game in DEMO_SECONDS, never slower than PACE nor faster than
    MIN_PACE."""
    return max(MIN_PACE, min(PACE, (DEMO_SECONDS - animation) / max(1, gestures)))


def run(args: argparse.Namespace, pause: Callable[[float], object] | None = None,
        watched: bool | None = None) -> int:
    """Play the demo; `watched` (default: stdout is a terminal) paces it for a person,
    and `pause` (default: real time) is how the paced demo waits."""

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    pace = pace_for(args, sys.stdout.isatty() if watched is None else watched)
    holder: list[EmulatedRig] = []
    first: list[Screen] = []

    recorder = None
    if getattr(args, "record", None) is not None:
        recorder = MockBackend()
    narrate = narrator_for(args, recorder) if getattr(args, "voice", False) else None

    def show(screen: Screen) -> None:
        if not holder:  # the rig's first screen, shown after the banner
            first[:] = [screen]
            return
        if holder[0].controller.animation is None or args.frames:
            print(render_terminal(screen) if args.oled else boxed(screen), flush=True)
        if narrate is not None:
            narrate.frame(screen)  # after the screen it goes with (a spin cuts the last)

    length = ""
    try:
        rig = _new_rig(args, seed, draw=show)
        if pace:
            count, animation = _rehearse(args, seed)
            if args.delay is None:
                pace = fitted_pace(count, animation)
            length = how_long(count * pace + animation, narrated=narrate is not None)
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig demo: {exc}", file=sys.stderr)
        return 2
    print(f"{game_entry(args.game).title}: {args.players} players, seed {seed}"
          + (f", {pace:.2g} s a gesture{length}" if pace else _unpaced_because(args)))
    holder.append(rig)

    def heard() -> None:
        """A narrated demo lets each line be heard before the next gesture (and a
        recorded one, recorded): its pace is the voice's, so nothing is cut."""
        if narrate is not None and narrate.speaker is not None and (
                not args.fast or recorder is not None):
            narrate.speaker.idle.wait(60)

    for screen in first:
        show(screen)
    heard()  # the first prompt too, before the first gesture
    if pace:
        rig.pause = pause or real_pause

    gestures = _play(rig, seed, pace, lambda text: print(f"$ {text}"), after=heard)
    state = rig.session.state
    names = ", ".join(rig.session.game.seat_name(s) for s in state.winners())
    print(f"Game over after {gestures} gestures and {rig.session.steps} inputs: {names} won.")

    print(entry(rig.session.game.name).sign_off)
    if narrate is not None and narrate.speaker is not None:
        narrate.speaker.idle.wait(60)
        narrate.speaker.close()
    if recorder is not None:
        saved = record(recorder, args.record, args.record_lines)
        print(f"(voice: {saved} recorded to {args.record})")
    return 0


def record(recorder: MockBackend, path: Path, lines: str) -> str:
    """The transmissions (those numbered ``lines``, "A-B") in one WAV, 0.3 s apart."""

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


def _new_rig(args: argparse.Namespace, seed: int,
             draw: Callable[[Screen], object] | None = None) -> EmulatedRig:
    return new_emulated_rig(args.game, args.players, variant=variant_for(args), seed=seed,
                            seats=seats_for(args, seed), options=options_for(args), draw=draw)


def _rehearse(args: argparse.Namespace, seed: int) -> tuple[int, float]:
    """Play the seeded game through unseen (well under a second with the default seats):
    its gestures and its spin animations' seconds, for the pace that fits it."""
    rig = _new_rig(args, seed)
    animation: list[float] = []
    rig.pause = animation.append
    return _play(rig, seed, 0.0, None), sum(animation)


def _play(rig: EmulatedRig, seed: int, pace: float,
          say: Callable[[str], object] | None,
          after: Callable[[], object] | None = None) -> int:
    """Gesture through the whole game as the table would, `pace` seconds after each
    gesture (and ``after`` it, e.g. waiting for the voice), and read the last screen to its
    last page; the number of gestures."""

    rng = random.Random(seed)
    gestures = 0
    while not rig.session.state.is_terminal() or read_on(rig.controller):
        more = read_on(rig.controller) if rig.session.state.is_terminal() else []
        for gesture in more or gestures_for(rig.controller, rng):
            text = describe(gesture)
            if text and say is not None:
                say(text)
            rig.loop.step(gesture)
            rig.settle()
            gestures += 1
            if after is not None:
                after()
            if pace:
                rig.wait(pace)
    return gestures
