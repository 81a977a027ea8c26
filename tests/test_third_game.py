"""The proof that a game is one folder: Race to 20 (tests/racegame) and Race for Five
(tests/racefive) are known to no file outside their folders, and once registered they
appear in the setup menu, `cbrig simulate`, `cbrig board`, `cbrig print`, the desk rig's
web page (with and without a live board), the conformance battery (tests/test_registry.py)
and, for five players, through the config check and a whole game on the rig."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import KnobPress, KnobTurn
from rig import gametype, registry
from rig.cli import main
from tests.racefive.entry import FIVE
from tests.racegame.entry import RACE
from tests.web.conftest import serving

START = (KnobTurn("hi", -1), KnobPress("hi"))
"""The setup menu: round to START, pressed."""


@pytest.fixture
def race() -> Iterator[gametype.GameEntry]:
    with registry.registered(RACE):
        yield RACE


@pytest.fixture
def five() -> Iterator[gametype.GameEntry]:
    with registry.registered(FIVE):
        yield FIVE


def _desk_config(name: str, players: int, state: Path) -> object:
    from rig.config import GameConfig
    from rig.desktop.desk import desk_config

    return desk_config(GameConfig(name=name, players=players, levels=("human",) * players),
                       state)


def test_the_setup_menu_offers_the_third_game(race: gametype.GameEntry) -> None:
    from rig.core.setup_menu import SetupMenu

    menu = SetupMenu()
    menu.cursor = 0
    while menu.choice.game != "race":
        menu.handle(KnobPress("lo"))
    assert "Race to 20" in menu.screen().text()


def test_board_check_and_show_draw_the_game_s_own_track(
        race: gametype.GameEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "check", "default", "--game", "race"]) == 0
    out = capsys.readouterr().out
    assert "default:race_track.toml: OK" in out and "21 spaces, 7 a row" in out
    png = tmp_path / "track.png"
    assert main(["board", "show", "default", "--game", "race", "--png", str(png)]) == 0
    assert png.stat().st_size > 1000


def test_print_writes_every_sheet_the_game_has(race: gametype.GameEntry, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "all", "--game", "race", "--out", str(tmp_path)]) == 0
    written = sorted(path.name for path in tmp_path.iterdir())
    assert len(written) == 3 and not any("cards" in name for name in written), written
    assert main(["print", "cards", "--game", "race", "--out", str(tmp_path / "c.pdf")]) == 2
    assert "Race to 20 has no cards to print" in capsys.readouterr().err


def test_the_web_desk_starts_the_game_with_its_live_board(race: gametype.GameEntry,
                                                          tmp_path: Path) -> None:
    with serving(_desk_config("race", 3, tmp_path / "state"), seed=3, first=START) as web:
        assert web.rig.controller is not None
        assert web.publisher is not None and web.publisher.board is not None
        board = web.publisher.board
        assert 'data-location="0"' in board.svg and 'data-location="20"' in board.svg
        pieces = board.pieces(web.rig.controller.session.state)
        assert [piece["location"] for piece in pieces] == ["0", "0", "0"]
        assert {piece["shape"] for piece in pieces} == {"square"}


def test_the_web_desk_plays_a_game_that_has_no_live_board(tmp_path: Path) -> None:
    """It used to stop on START with ValueError: no live board."""
    no_live = gametype.GameEntry(name="race", title=RACE.title, info=RACE.info,
                                 build=RACE.build, view=RACE.view, colours=RACE.colours)
    state = tmp_path / "state"
    with registry.registered(no_live), \
            serving(_desk_config("race", 2, state), seed=3, first=START) as web:
        assert web.rig.controller is not None
        assert web.publisher is not None and web.publisher.board is not None
        assert "No live board for Race to 20" in web.publisher.board.svg
        assert web.publisher.board.pieces(web.rig.controller.session.state) == []
        assert "RACE" in web.rig.app.screen().text()  # the game's own screen, not an error


def test_a_five_player_game_is_accepted_end_to_end(five: gametype.GameEntry, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from rig.config import load_config
    from rig.core.autopilot import play_out
    from rig.core.setup_menu import SetupMenu, colour_sets
    from rig.desktop.emulated import new_emulated_rig

    config = tmp_path / "config.toml"
    config.write_text('[game]\nname = "racefive"\nplayers = 5\n')
    assert load_config(config).game.players == 5
    menu = SetupMenu()
    menu.cursor = 0
    while menu.choice.game != "racefive":
        menu.handle(KnobPress("lo"))
    menu.cursor = 1
    while menu.choice.players != 5:
        menu.handle(KnobPress("lo"))
    assert colour_sets("racefive", 5)[0] == FIVE.colours
    assert main(["simulate", "--game", "racefive", "--players", "5", "--games", "10",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["finished"] == 10 and len(report["wins_by_seat"]) == 5
    rig = new_emulated_rig("racefive", 5, seed=4)
    play_out(rig, random.Random(4))
    assert rig.session.state.is_terminal() and rig.session.game.num_players == 5


def test_the_game_s_own_words_are_the_rig_s(race: gametype.GameEntry) -> None:
    from rig.core.startup import goodbye_screen

    assert "See you at the finish line." in goodbye_screen("race").text()
    assert "ADIOS, good buddies." in goodbye_screen("tenfour").text()
    assert "ADIOS" not in goodbye_screen("bumpem").text()


def test_an_installed_game_is_found_through_its_entry_point(tmp_path: Path) -> None:
    """What `pip install` of a game package leaves: a dist-info whose entry_points.txt
    names the entry in the cbrig.games group; no CBRIG_GAMES, no registration call."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    dist = tmp_path / "site" / "racegame-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: racegame\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[cbrig.games]\nrace = tests.racegame.entry:RACE\n")
    env = {key: value for key, value in os.environ.items() if key != "CBRIG_GAMES"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "site"), str(root)])
    done = subprocess.run([sys.executable, "-m", "rig.cli", "simulate", "--game", "race",
                           "--players", "2", "--games", "3", "--json"],
                          capture_output=True, text=True, env=env, cwd=root)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] == 3
    lean = subprocess.run([sys.executable, "-c", "import sys\nfrom rig import registry\n"
                           "registry.entry('tenfour')\n"
                           "print('importlib.metadata' in sys.modules)"],
                          capture_output=True, text=True, env=env, cwd=root, check=True)
    assert lean.stdout.strip() == "False"  # a built-in game is found without the scan


def test_checking_the_shipped_config_lists_no_installed_games() -> None:
    """The daemon checks its config at every start: a built-in game's config is checked
    from its folder alone, without importlib.metadata's scan of the installed packages."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    code = ("import sys\nfrom rig.config import load_config\n"
            "load_config('wiring/config.toml')\nprint('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=root, check=True)
    assert done.stdout.strip() == "False"


def test_a_game_without_board_tools_or_sheets_is_told_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bare = gametype.GameEntry(name="race", title=RACE.title, info=RACE.info,
                              build=RACE.build, view=RACE.view, colours=RACE.colours)
    with registry.registered(bare):
        assert main(["board", "check", "default", "--game", "race"]) == 2
        assert "Race to 20 has no board file to check or draw" in capsys.readouterr().err
        assert main(["print", "all", "--game", "race", "--out", str(tmp_path)]) == 2
        assert "Race to 20 has no printed sheets" in capsys.readouterr().err
