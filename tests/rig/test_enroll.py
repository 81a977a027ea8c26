"""Card enrolment: the model, "Enrol cards" on the rig's setup menu (the daemon keeps
the reader), and `cbrig cards enroll` / `cards show` on a terminal, all with a custom
deck from the config."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import CardPresented, KnobPress, KnobTurn
from rig.cli import main
from rig.core.enroll import Enrolment
from tests.rig.conftest import Pty

DECK = """
[[card]]
id = "X01"
band = "hi"
text = "Breaker, breaker. Spin the Hi-Band."

[[card]]
id = "X02"
band = "lo"
extra = 2
text = "Hammer down. Spin the Lo-Band, move 2 more."

[[card]]
id = "X03"
band = "lo"
break_one_nine = true
text = "BREAK ONE NINE. Spin the Lo-Band."
"""

CARDS = [("X01", "one"), ("X02", "two"), ("X03", "three")]


def write_config(tmp_path: Path, port: str = "loop://", reader: str = "rdm6300") -> Path:
    deck = tmp_path / "my_deck.toml"
    deck.write_text(DECK)
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(f"""
[game]
name = "tenfour"
players = 3

[game.data]
deck = "{deck}"

[pins]
backend = "mock"

[reader]
type = "{reader}"
port = "{port}"

[display]
driver = "none"

[state]
directory = "{state}"
""")
    return config


# -- the model ------------------------------------------------------------------------------

def test_tap_skip_redo_and_the_summary() -> None:
    walk = Enrolment(CARDS, {"OLD": "X02"})
    assert walk.tap("A") == "X01 = tag A"
    assert walk.skip() == "X02 skipped (keeps tag OLD)"
    assert walk.redo() == "Tap X02 again"
    assert walk.current == ("X02", "two")
    assert walk.tap("A") == "That tag is X01: tap X02"  # the previous card left on
    assert walk.current == ("X02", "two")
    assert walk.tap("B") == "X02 = tag B"
    assert walk.tap("C") == "X03 = tag C"
    assert walk.done
    assert walk.tags == {"A": "X01", "B": "X02", "C": "X03"}  # OLD replaced by B
    assert walk.summary() == ["3 tapped now, 3 of 3 known"]


def test_a_tag_from_an_older_enrolment_moves_and_skips_are_listed() -> None:
    walk = Enrolment(CARDS, {"T9": "X03"})
    assert walk.tap("T9") == "X01 = tag T9 (was X03)"
    walk.skip()
    walk.skip()
    assert walk.tags == {"T9": "X01"}
    assert walk.summary() == ["1 tapped now, 1 of 3 known", "skipped: X02 X03",
                              "no tag yet: X02 X03"]


# -- on the rig -----------------------------------------------------------------------------

class Quiet:
    def ready(self, status: str | None = None, start_cpu: float | None = None) -> None: ...
    def status(self, text: str) -> None: ...
    def watchdog_interval(self) -> None: return None
    def watchdog(self) -> None: ...
    def stopping(self) -> None: ...


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[object]:
    from rig.config import load_config
    from rig.core.daemon import Daemon

    config = load_config(write_config(tmp_path))
    config.state.directory.mkdir()
    config.reader.cards.write_text('[tags]\n"T-OLD" = "M07"\n')  # a tag of the shipped deck
    rig = Daemon(config=config, notifier=Quiet())
    rig.start()
    yield rig
    rig.stop()


def _select(rig: object, label: str) -> None:
    app = rig.app  # type: ignore[attr-defined]
    items = app.screen().menu
    row = next(i for i, item in enumerate(items) if item.startswith(label))
    rig.loop.step(KnobTurn("hi", row - app.screen().cursor))  # type: ignore[attr-defined]
    rig.loop.step(KnobPress("hi"))  # type: ignore[attr-defined]


def test_enrol_cards_on_the_setup_menu_walks_the_configured_deck(daemon: object) -> None:
    rig = daemon
    loop, app = rig.loop, rig.app  # type: ignore[attr-defined]
    assert "Enrol cards" in app.screen().menu
    _select(rig, "Enrol cards")
    screen = app.screen()
    assert screen.title == "ENROL CARDS 1/3" and screen.big == "X01"
    assert "Breaker, breaker." in screen.plain()

    loop.step(CardPresented("TAG-1", "deck"))
    assert app.screen().big == "X02" and "X01 = tag TAG-1" in app.screen().plain()
    _select(rig, "Redo previous")
    assert app.screen().big == "X01"
    loop.step(CardPresented("TAG-A", "deck"))
    loop.step(CardPresented("TAG-A", "deck"))
    assert app.screen().big == "X02" and "That tag is X01: tap X02" in app.screen().plain()
    _select(rig, "Skip this card")
    assert app.screen().big == "X03"
    loop.step(CardPresented("TAG-C", "deck"))

    summary = app.screen()
    assert summary.title == "CARDS ENROLLED"
    text = summary.plain()
    assert "Saved. 2 of 3 have a tag 2 tapped, 1 skipped no tag: X02" in text
    saved = rig.config.reader.cards.read_text()  # type: ignore[attr-defined]
    assert '"TAG-A" = "X01"' in saved and '"TAG-C" = "X03"' in saved
    assert "TAG-1" not in saved
    assert '"T-OLD" = "M07"' in saved  # a card of another deck is left as it was

    _select(rig, "Back to the menu")
    assert app.screen().title == "NEW GAME"
    _select(rig, "START")
    assert app.controller is not None
    _play_to_the_first_draw(rig)
    loop.step(CardPresented("T-OLD", "deck"))
    assert "Card M07 is not in this deck" in app.screen().plain()
    loop.step(KnobPress("hi"))  # acknowledge
    steps = app.controller.session.steps
    loop.step(CardPresented("TAG-A", "deck"))
    assert app.controller.session.steps == steps + 1  # X01 drawn: the new map is in use
    assert app.controller.session.last_action.card == "X01"


def _play_to_the_first_draw(rig: object) -> None:
    """The start-order spins, as the autopilot makes them."""
    import random

    from rig.core.autopilot import gestures_for

    controller = rig.app.controller  # type: ignore[attr-defined]
    rng = random.Random(3)
    while controller.session.state.prompt().kind != "draw":
        for gesture in gestures_for(controller, rng):
            rig.loop.step(gesture)  # type: ignore[attr-defined]
            controller.animation = None  # its time is up: the next input is not early


def test_no_enrol_row_without_a_reader(tmp_path: Path) -> None:
    from rig.core.app import App

    app = App(lambda choice: None, lambda controller: None)  # type: ignore[arg-type,return-value]
    assert "Enrol cards" not in app.screen().menu


# -- on a terminal --------------------------------------------------------------------------

def test_cards_enroll_walks_the_configured_deck_on_the_configured_port(
        tmp_path: Path, pty: Pty, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import rig.owner.readercheck

    config = write_config(tmp_path, port=pty.path)
    real_wait = rig.owner.readercheck.wait_for_connection

    def connected_then_tap(events: queue.Queue[object], *args: object) -> object:
        status = real_wait(events)
        pty.tap(101)
        return status

    answers = iter([("", 202), ("s", 303), ("", None)])

    def answer(prompt: str) -> str:
        reply, number = next(answers)
        if number is not None:
            pty.tap(number)
        return reply

    monkeypatch.setattr(rig.owner.readercheck, "wait_for_connection", connected_then_tap)
    monkeypatch.setattr("builtins.input", answer)
    assert main(["cards", "enroll", "--config", str(config), "--timeout", "10"]) == 0
    out = capsys.readouterr().out
    assert "3 cards to enrol" in out
    assert "Tap card X01: Breaker, breaker." in out
    assert "Tap card M01" not in out
    assert "skipped: X02" in out
    cards = (tmp_path / "state/cards.toml").read_text()
    assert '"0000000101" = "X01"' in cards and '"0000000303" = "X03"' in cards
    assert "0000000202" not in cards
    assert main(["cards", "show", "--config", str(config)]) == 0
    shown = capsys.readouterr().out
    assert "X01  0000000101" in shown and "2 cards enrolled in" in shown


def test_cards_enroll_on_a_missing_port_says_so_and_fails(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path, port=str(tmp_path / "ttyNONE"))
    assert main(["cards", "enroll", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert f"cannot open {tmp_path / 'ttyNONE'}" in err
    assert "sudo systemctl stop cbrig" in err
    assert not (tmp_path / "state/cards.toml").exists()


def test_cards_show_says_when_nothing_is_enrolled(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path)
    assert main(["cards", "show", "--config", str(config)]) == 0
    assert "no cards enrolled in" in capsys.readouterr().out


def test_a_card_map_that_cannot_be_written_is_said_without_a_traceback(
        tmp_path: Path, pty: Pty, capsys) -> None:
    config = write_config(tmp_path, port=pty.path)
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    out = blocker / "cards.toml"
    assert main(["cards", "enroll", "--config", str(config), "--out", str(out),
                 "--timeout", "0.2"]) == 1
    captured = capsys.readouterr()
    assert "no card seen; stopping" in captured.out
    assert f"cbrig cards: cannot save {out}" in captured.err
    assert "Traceback" not in captured.err
