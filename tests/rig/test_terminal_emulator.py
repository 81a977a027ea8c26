"""The terminal emulator as a person meets it: on a real pseudo-terminal, killed -9 and
started again with the same command, at 80x24 and bigger."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PIL import Image

from rig.config import GameConfig
from rig.core.controller import valid_cards
from rig.desktop.desk import DeskRig, desk_config, start_desk
from rig.desktop.terminal import KEYS_FULL, TerminalScreen, compose, layout_for
from rig.screens.render import render
from rig.screens.screen import Screen
from tests.rig.ptyscreen import PtyProgram
from tests.slowdown import hang

EMULATE = [sys.executable, "-m", "rig.cli", "emulate", "--players", "2", "--seed", "5"]


def _env(state_home: Path) -> dict[str, str]:
    return dict(os.environ, XDG_STATE_HOME=str(state_home), TERM="xterm")


def test_killed_emulator_resumes_on_the_same_prompt(tmp_path):
    first = PtyProgram(EMULATE, _env(tmp_path), (80, 24))
    try:
        first.wait_for("NEW GAME")
        first.send("a")
        first.wait_for("> START")
        first.send("s")
        first.wait_for("Red: spin for start")
        first.send("w")
        first.wait_for("Blue: spin for start")
        first.send("w")
        first.wait_for("Blue: put a Smokey")
        # the menu rows are painted after the prompt rows: wait for the row itself
        before = first.wait_for("Put Smokey 1 into")
    finally:
        first.kill()
    journal = tmp_path / "cbrig" / "emulator" / "current.jsonl"
    # header + two spins, then the zero tail a journal killed before closing keeps
    assert journal.read_bytes().rstrip(b"\0").count(b"\n") == 3

    again = PtyProgram(EMULATE, _env(tmp_path), (80, 24))
    try:
        again.wait_for("Picked up the unfinished game")
        prompt = [line for line in before.splitlines() if "Put Smokey 1 into" in line]
        assert prompt
        choice = prompt[0][:prompt[0].index("|", 1) + 1]  # the screen's row, not the help
        after = again.wait_for(choice)  # the same choice, under the cursor
        assert "(2 inputs)" in " ".join(after.split())
        again.send("q")
        assert again.wait_exit() == 0
        assert "picks it up again" in again.screen()
    finally:
        again.close()


def test_new_starts_over_and_keeps_the_old_game(tmp_path):
    state = tmp_path / "cbrig" / "emulator"
    rig = DeskRig(config=desk_config(GameConfig(players=2), state), seed=5, signals=False)
    start_desk(rig, new=False)
    _start_from_menu(rig)
    rig.stop()
    program = PtyProgram([*EMULATE, "--new"], _env(tmp_path), (80, 24))
    try:
        screen = program.wait_for("Started over")
        assert "NEW GAME" in screen
        assert list((state / "games").glob("*abandoned-*.jsonl"))
    finally:
        program.close()


def test_a_damaged_journal_is_set_aside_without_a_traceback(tmp_path):
    state = tmp_path / "cbrig" / "emulator"
    state.mkdir(parents=True)
    (state / "current.jsonl").write_text("not a journal\n{}\n")
    program = PtyProgram(EMULATE, _env(tmp_path), (80, 24))
    try:
        screen = program.wait_for("NEW GAME")
        assert "Traceback" not in program.output
        assert "Games are kept in" in screen
        assert list((state / "games").glob("*damaged-*.jsonl"))
    finally:
        program.close()


def _start_from_menu(rig: DeskRig) -> None:
    from hardware.events import KnobPress, KnobTurn

    assert rig.loop is not None
    rig.loop.step(KnobTurn("hi", -1))
    rig.loop.step(KnobPress("hi"))
    assert rig.controller is not None


def test_layout_follows_the_terminal_size():
    assert layout_for((130, 38)) == "full"
    assert layout_for((129, 38)) == "compact"
    assert layout_for((80, 24)) == "compact"
    assert layout_for((79, 24)) == "small"
    assert layout_for((200, 23)) == "small"


def test_every_layout_fits_its_terminal():
    screen = Screen(title="10-4  RED", lines=("Red: spin to move", "Flick the HI knob"),
                    menu=("Move truck 1 to R13 and beyond", "Stay"), cursor=0)
    frame = render(screen)
    for size in ((80, 24), (100, 30), (130, 38), (200, 60), (40, 10)):
        lines = compose(frame, screen, size, "tapped C07\nanother note")
        assert len(lines) <= size[1]
        assert all(len(line) <= size[0] for line in lines)
    full = compose(frame, screen, (130, 38))
    assert any("\u2588" in line or "\u2580" in line for line in full)  # the pixels
    compact = compose(frame, screen, (80, 24))
    assert any("Red: spin to move" in line for line in compact)  # the text rows
    assert "at least 80x24" in " ".join(compose(frame, screen, (60, 20)))


class _Stream:
    def __init__(self) -> None:
        self.writes: list[str] = []

    def write(self, text: str) -> None:
        self.writes.append(text)

    def flush(self) -> None:
        pass


def test_painting_is_in_place_and_skips_an_unchanged_picture():
    screen = Screen(title="T", lines=("one",))
    stream = _Stream()
    term = TerminalScreen(lambda: screen, stream=stream, size=lambda: (80, 24))  # type: ignore[arg-type]
    term.active = True
    term.show(render(screen))
    screen = Screen(title="T", lines=("two",))
    term.show(render(screen))
    term.paint()
    assert stream.writes[0].startswith("\x1b[H\x1b[2J")  # the first paint clears once
    assert stream.writes[1].startswith("\x1b[H") and "\x1b[2J" not in stream.writes[1]
    assert "two" in stream.writes[1] and "\x1b[K" in stream.writes[1]
    assert len(stream.writes) == 2  # the last paint changed nothing, so wrote nothing


def test_cards_listed_are_the_ones_the_reader_takes_now(tmp_path):
    rig = DeskRig(config=desk_config(GameConfig(name="bumpem", players=2), tmp_path),
                  seed=3, signals=False)
    start_desk(rig, new=False)
    _start_from_menu(rig)
    controller = rig.controller
    assert controller is not None
    cards = valid_cards(controller)
    assert cards and set(cards) <= set(controller.view.card_ids())
    from rig.desktop.terminal import Keyboard

    stream = _Stream()
    term = TerminalScreen(rig.screen_now, stream=stream, size=lambda: (80, 24))  # type: ignore[arg-type]
    term.active, term.frame = True, Image.new("1", (128, 64))
    keys = Keyboard(rig, term)
    for key in "cZZ9\r":
        keys.key(key)
    assert "No card 'ZZ9' in this deck" in term.message
    assert cards[0] in term.message
    steps = controller.session.steps
    for key in "c" + cards[0] + "\r":
        keys.key(key)
    assert controller.session.steps == steps + 1
    rig.stop()


def test_game_over_leads_back_to_the_setup_menu(tmp_path):
    from hardware.events import KnobLongPress
    from rig.core.autopilot import gestures_for
    from rig.core.service import StepSeeded

    rig = DeskRig(config=desk_config(GameConfig(name="bumpem", players=2), tmp_path),
                  seed=4, signals=False)
    start_desk(rig, new=False)
    _start_from_menu(rig)
    controller = rig.controller
    assert controller is not None and rig.loop is not None
    rng = StepSeeded(4, lambda: controller.session.steps, "pick")
    while not controller.session.state.is_terminal():
        for gesture in gestures_for(controller, rng):
            rig.loop.step(gesture)
            controller.animation = None
    rig.loop.step(KnobLongPress("hi"))
    assert rig.controller is None
    assert rig.screen_now().title == "NEW GAME"
    assert list((tmp_path / "games").glob("*bumpem.jsonl"))
    rig.stop()


def test_hints_as_on_the_pi(tmp_path):
    """`--hints` starts the menu with hints on; a person's choice then carries the
    hard level's mark, worked out after the frame is drawn (a slice per tick)."""
    import argparse

    from rig.commands import emulate

    parser = argparse.ArgumentParser()
    emulate.add_arguments(parser)
    args = parser.parse_args(["--game", "bumpem", "--players", "2", "--hints", "--seed", "2"])
    rig = DeskRig(config=desk_config(emulate.game_config(args), tmp_path), seed=2,
                  signals=False)
    start_desk(rig, new=False)
    assert "Hints: on" in rig.screen_now().text()
    _start_from_menu(rig)
    controller = rig.controller
    assert controller is not None and rig.loop is not None
    while controller.session.state.is_chance_node():
        _tap_card(rig, valid_cards(controller)[0])
    passes = 0
    while controller.decisions.choice_pending and passes < 10_000:
        rig.loop.run_due()  # what the terminal does when no key waits
        passes += 1
    assert passes > 1, "the hard hint thinks in slices"
    assert any(item.startswith("* ") for item in rig.screen_now().menu)
    rig.stop()


def _tap_card(rig: DeskRig, card: str) -> None:
    from rig.desktop.terminal import Keyboard

    Keyboard(rig, TerminalScreen(rig.screen_now, stream=_Stream())).post_tap(card)  # type: ignore[arg-type]


def test_journal_without_a_script_says_where_games_are_kept(tmp_path, capsys):
    from rig.cli import main

    assert main(["emulate", "--journal", str(tmp_path / "game.jsonl")]) == 2
    assert "--state DIR" in capsys.readouterr().err
    assert not (tmp_path / "game.jsonl").exists()


def test_the_full_layout_keeps_its_top_border_in_a_real_terminal(tmp_path):
    """At 130x38 the first picture (the OLED, the keys and the greeting) fills every row:
    painted with a newline after the last row, the terminal scrolled the OLED's top
    border away. tmux is the terminal here; its screen is read with capture-pane."""
    import shlex
    import subprocess
    import threading
    import time

    from tests.system_tools import require_command

    tmux = require_command("tmux", "tmux")
    socket = str(tmp_path / "tmux.sock")
    command = " ".join(shlex.quote(part) for part in [
        "env", "-u", "COLUMNS", "-u", "LINES",  # the suite's fixed 80x24 (tests/conftest.py)
        f"XDG_STATE_HOME={tmp_path}", "TERM=xterm", *EMULATE])
    config = tmp_path / "tmux.conf"
    config.write_text("set -g status off\n")  # all 38 rows are the program's
    base = [tmux, "-S", socket, "-f", str(config)]
    subprocess.run([*base, "new-session", "-d", "-x", "130", "-y", "38", "-s", "rig", command],
                   check=True, cwd=Path(__file__).resolve().parents[2])

    def pane() -> list[str]:
        result = subprocess.run([*base, "capture-pane", "-p", "-t", "rig"],
                                capture_output=True, text=True, check=True)
        return result.stdout.split("\n")

    try:
        deadline = time.monotonic() + hang()
        rows = pane()
        while not any(KEYS_FULL[-1] in row for row in rows):  # the full layout's keys
            assert time.monotonic() < deadline, "never painted:\n" + "\n".join(rows)
            threading.Event().wait(0.05)  # not a hang deadline: a poll of tmux's pane
            rows = pane()
        assert rows[0].startswith("\u250c\u2500"), "the top border scrolled away:\n" + \
            "\n".join(rows)
        assert any("Games are kept in" in row for row in rows)  # the greeting, still shown
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True, check=False)


def _keys_for(gesture: object, controller: object) -> str:
    """The emulator's keys for one gesture of the autopilot."""
    from hardware.events import CardPresented, CardRemoved, KnobPress, KnobSpin, KnobTurn

    if isinstance(gesture, KnobTurn):
        return ("d" if gesture.steps > 0 else "a") * abs(gesture.steps)
    if isinstance(gesture, KnobSpin):
        return "w" if gesture.knob == "hi" else "i"
    if isinstance(gesture, KnobPress):
        return "s" if gesture.knob == "hi" else "k"
    if isinstance(gesture, CardPresented):
        return "c" + controller.options.cards[gesture.tag] + "\r"  # type: ignore[attr-defined]
    assert isinstance(gesture, CardRemoved)  # the "c" key takes the card off again
    return ""


def _boxed_rows(screen: Screen) -> list[str]:
    from rig.screens.render import boxed

    return boxed(screen).split("\n")[1:-1]


def test_a_press_during_the_spin_shows_the_move_first(tmp_path):
    """Flick, then press at once, while the wheel animates (issue 34: the move result
    was never shown, the next prompt came straight up). The game is played to its
    first move spin (three players: one truck each, so the spin moves it) on the
    emulator and, in step, on a mirror rig in this process with the same seed; then the
    flick and the press go in one write: the press reaches the rig mid-spin, every
    time."""
    import random

    from hardware.events import KnobSpin
    from rig.core.autopilot import gestures_for
    from rig.screens.words import EARLY_INPUT

    mirror = DeskRig(config=desk_config(GameConfig(name="tenfour", players=3),
                                        tmp_path / "mirror"), seed=5, signals=False)
    start_desk(mirror, new=False)
    three = [*EMULATE[:EMULATE.index("--players") + 1], "3", *EMULATE[EMULATE.index("--seed"):]]
    program = PtyProgram(three, _env(tmp_path / "pty"), (80, 24))
    try:
        program.wait_for("NEW GAME")
        program.send("a")
        program.wait_for("> START")
        program.send("s")
        _start_from_menu(mirror)
        controller = mirror.controller
        assert controller is not None and mirror.loop is not None
        rng = random.Random(5)
        while not (controller.session.state.prompt().kind == "spin"
                   and controller.alert is None):
            for gesture in gestures_for(controller, rng):
                program.send(_keys_for(gesture, controller))
                mirror.loop.step(gesture)
                controller.animation = None
            for row in _boxed_rows(mirror.screen_now()):  # the emulator is in step
                program.wait_for(row)
        band = controller.session.state.prompt().band or "hi"
        flick = "w" if band == "hi" else "i"
        program.send(flick + "s")  # flick and press in one write: the press is mid-spin
        mirror.loop.step(KnobSpin(band, 0.7))
        result = controller.alert
        assert result is not None and result.parts[0].role == "result"
        controller.animation = None
        shown = program.wait_for(EARLY_INPUT, timeout=hang())
        for row in _boxed_rows(mirror.screen_now())[:-1]:  # the result, all but its footer
            assert row in shown, f"{row!r} is not on the emulator:\n{shown}"
    finally:
        program.close()
        mirror.stop()
