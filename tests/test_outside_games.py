"""Games from outside, as an outsider meets them (issue 45):

- the battery (``check_game``) drives a game through the rig's parts (view, screens,
  speech, board drawing, live board, card tray, printed sheets) and names the part that
  broke;
- a game written against the release before (its view, speech and print parts import
  ``rig.views``, ``rig.screen``, ``rig.speech``, ``rig.printout.*``, which moved into
  rooms) loads with a warning naming each new home, and plays in demo, simulate and print;
- a game whose part cannot load, or that needs a game API this rig cannot give, is refused
  at start with one line naming the game, the part and the fix, and the rig goes on.

The installed games are what ``pip install`` leaves: a package on the path and a
``.dist-info`` whose entry_points.txt names the entry in ``cbrig.games``.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from cbrig.conformance import ConformanceError, check_game
from cbrig.game import Part
from rig import moved
from rig.gametype import API_VERSION, GameEntry, LiveTools, api_problem
from tests.racegame.entry import RACE
from tests.racegame.view import RaceView
from tests.slowdown import scaled
from valueclass import replace

ROOT = Path(__file__).resolve().parent.parent
RACEGAME = ROOT / "tests" / "racegame"

OLD_IMPORTS = {
    "view.py": ("from cbrig.game import Action, ChanceInput, CorrectionPlace, EventNotices, "
                "Fix, Part\n",
                "from engine.api import Action\nfrom rig.screen import Part\n"
                "from rig.views import ChanceInput, CorrectionPlace, EventNotices, Fix\n"),
    "printout.py": ("from cbrig.game import PieceList, PrintedPiece, PrintTools, Sections, "
                    "corrections\n",
                    "from rig.gametype import PrintTools\n"
                    "from rig.printout.reference import Sections, corrections\n"
                    "from rig.printout.sheets import PieceList, PrintedPiece\n"),
}
"""Race to 20's parts as the release before 0.2.0 let a game write them."""
OLD_SPEECH = ('"""How the old game is said."""\n\nfrom rig.speech import Vocabulary\n\n'
              "VOCABULARY = Vocabulary()\n")


# -- the battery drives the rig ------------------------------------------------------------

def test_the_battery_plays_the_game_through_the_rig() -> None:
    report = check_game(RACE, seeds=[1])
    assert report.rig_games == 2  # the one variant at its fewest players, two seeds
    assert check_game(RACE, seeds=[1], rig=False).rig_games == 0


class _Silent(RaceView):
    def prompt_parts(self, state):  # type: ignore[no-untyped-def]
        return [Part(state.prompt().text, "text")]  # no instruction role


class _Wide(RaceView):
    def seat_title(self, seat: int) -> str:
        return "A TITLE FAR WIDER THAN THE OLED " + str(seat)


def _view(kind: type[RaceView]) -> Callable[[object], object]:
    from cbrig.game import StateChecked
    from tests.racegame.game import RaceState

    return lambda game: StateChecked(kind(game), RaceState)  # type: ignore[arg-type]


def _raises() -> object:
    raise RuntimeError("the part is broken")


def _live_with_bad_pieces() -> LiveTools:
    tools = RACE.live() if RACE.live is not None else None
    assert tools is not None

    def pieces(game: object, state: object) -> list[object]:
        raise KeyError("no such space")

    return replace(tools, pieces=pieces)


class _Mute:
    def words(self, text: str) -> str:
        raise ValueError("cannot say it")


BROKEN = {
    "screens (no instruction)": (dict(view=_view(_Silent)), "screens",
                                 "carries no instruction"),
    "screens (too wide)": (dict(view=_view(_Wide)), "screens", "wider than 21"),
    "live board": (dict(live=_live_with_bad_pieces), "live board", "no such space"),
    "speech": (dict(speech=lambda: _Mute()), "speech", "cannot say it"),
    "print sheets": (dict(printout=_raises), "print sheets", "the part is broken"),
    "board drawing": (dict(board=_raises, live=None), "board drawing", "the part is broken"),
}


@pytest.mark.parametrize("broken", BROKEN, ids=list(BROKEN))
def test_the_battery_names_the_broken_rig_part(broken: str) -> None:
    changes, part, detail = BROKEN[broken]
    entry = replace(RACE, **changes)
    with pytest.raises(ConformanceError) as caught:
        check_game(entry, seeds=[1])
    message = str(caught.value)
    assert message.startswith("race-standard-2p, seed 1, ") or message.startswith("race, ")
    assert f"{part}: " in message and detail in message, message
    assert check_game(entry, seeds=[1], rig=False).games == 3  # the rules alone pass


# -- the old module names ------------------------------------------------------------------

def test_every_old_name_is_the_module_at_its_new_home_with_a_warning() -> None:
    for old, new in moved.MOVED.items():
        if old in ("rig.case",):  # its modules import the CAD extra at their top
            continue
        sys.modules.pop(old, None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = importlib.import_module(old)
        assert module is importlib.import_module(new), old
        assert module.__spec__ is not None and module.__spec__.name == new
        said = [str(w.message) for w in caught if issubclass(w.category, moved.MovedName)]
        assert said and new in said[0] and moved.removed_in(old) in said[0], (old, said)
    assert moved.new_home("rig.printout.sheets") == "rig.maker.printout.sheets"
    assert moved.new_home("rig.screens.views") is None
    assert moved.new_home("rig") is None
    assert moved.new_home("rig.games.tenfour.view") == "cbrig.games.tenfour.view"
    assert moved.removed_in("rig.games.tenfour.view") == moved.REMOVED_AFTER_0_3_IN
    assert moved.removed_in("rig.printout.sheets") == moved.REMOVED_IN


def test_the_old_voice_module_s_names_are_the_narrator_s() -> None:
    from rig.voice import narrator

    with pytest.warns(moved.MovedName, match=r"rig\.voice\.narrator\.Narrator"):
        from rig.voice import Narrator
    assert Narrator is narrator.Narrator
    with pytest.raises(ImportError):
        from rig.voice import NoSuchName  # noqa: F401


# -- games installed from outside ----------------------------------------------------------

def install_race(site: Path, name: str, *, old_names: bool = True,
                 edit: Callable[[Path], None] | None = None, entry_point: str = "") -> Path:
    """Race to 20 as a package `name` installed in `site`, written as the release before
    0.2.0 let a game be (`old_names`), with its dist-info entry point; `edit` changes the
    package before it is installed."""
    package = site / name
    shutil.copytree(RACEGAME, package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in package.rglob("*.py"):
        text = path.read_text().replace("tests.racegame", name)
        if old_names and path.name in OLD_IMPORTS:
            new, old = OLD_IMPORTS[path.name]
            assert new in text, path
            text = text.replace(new, old)
        path.write_text(text)
    for module, said in (("entry.py", 'name="race"'), ("game.py", 'NAME = "race"'),
                         ("board.py", 'finish("race"')):
        path = package / module
        path.write_text(path.read_text().replace(said, said.replace("race", name)))
    if old_names:
        (package / "speech.py").write_text(OLD_SPEECH)
    if edit is not None:
        edit(package)
    dist = site / f"{name}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[cbrig.games]\n{name} = {entry_point or name + '.entry:RACE'}\n")
    return package


def cbrig(site: Path, *arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("CBRIG_GAMES", "PYTHONWARNINGS")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    return subprocess.run([sys.executable, "-m", "rig.cli", *arguments], capture_output=True,
                          text=True, env=env, cwd=cwd or site, timeout=scaled(300))


def test_a_game_written_for_the_release_before_loads_with_a_warning_and_plays(
        tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_race(site, "oldrace")
    done = cbrig(site, "simulate", "--game", "oldrace", "--players", "3", "--games", "3",
                 "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] == 3
    assert done.stderr.splitlines() == [
        f"cbrig: game 'oldrace' imports old module names, kept until cbrig {moved.REMOVED_IN}: "
        "rig.screen (now rig.screens.screen), rig.views (now rig.screens.views), "
        "rig.printout (now rig.maker.printout), rig.printout.reference (now "
        "rig.maker.printout.reference), rig.printout.sheets (now rig.maker.printout.sheets), "
        "rig.speech (now rig.voice.speech); import them from cbrig.game, the game API"]
    assert "Traceback" not in done.stderr
    demo = cbrig(site, "demo", "--game", "oldrace", "--fast")
    assert demo.returncode == 0, demo.stderr
    assert "won" in demo.stdout.lower()
    printed = cbrig(site, "print", "all", "--game", "oldrace", "--out", str(tmp_path / "pdf"))
    assert printed.returncode == 0, printed.stderr
    assert len(list((tmp_path / "pdf").glob("*.pdf"))) == 3


def test_a_game_whose_part_cannot_load_is_refused_in_one_line_and_the_rig_goes_on(
        tmp_path: Path) -> None:
    site = tmp_path / "site"

    def break_view(package: Path) -> None:
        view = package / "view.py"
        view.write_text(view.read_text().replace("from rig.views import",
                                                 "from rig.gone import"))

    install_race(site, "badrace", edit=break_view)
    done = cbrig(site, "simulate", "--game", "tenfour", "--players", "3", "--games", "2",
                 "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] == 2
    refusals = [line for line in done.stderr.splitlines() if "refused" in line]
    assert refusals == [
        "cbrig: game 'badrace' refused: its view failed: ModuleNotFoundError: No module "
        "named 'rig.gone' (fix: import it from cbrig.game, the game API; CHANGELOG.md: "
        "\"What breaks and how to move\")"], done.stderr
    assert "Traceback" not in done.stderr
    asked = cbrig(site, "simulate", "--game", "badrace", "--players", "3")
    assert asked.returncode == 2 and "Traceback" not in asked.stderr
    assert "argument --game: invalid choice: 'badrace' (choose from 'bumpem', 'tenfour')" \
        in asked.stderr


def test_a_game_needing_a_newer_api_is_refused_in_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"

    def ask_api_2(package: Path) -> None:
        entry = package / "entry.py"
        entry.write_text(entry.read_text().replace(
            'sign_off="See you', 'requires_api="2", sign_off="See you'))

    install_race(site, "nextrace", old_names=False, edit=ask_api_2)
    done = cbrig(site, "--help")
    assert done.returncode == 0
    major, minor = API_VERSION
    assert done.stderr.splitlines() == [
        f"cbrig: game 'nextrace' refused: it needs the game API 2, this cbrig gives "
        f"{major}.{minor} (fix: install the game's release for this cbrig, or a cbrig that "
        "gives the API it needs)"]
    assert "nextrace" not in done.stdout


def test_an_entry_point_that_does_not_load_is_refused_in_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_race(site, "typorace", old_names=False, entry_point="typorace.entry:RAEC")
    done = cbrig(site, "--help")
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "cbrig: game 'typorace' refused: entry point typorace = typorace.entry:RAEC failed "
        "to load: AttributeError: module 'typorace.entry' has no attribute 'RAEC' (fix: run "
        "cbrig.conformance.check_game on the game, which names the part and the step)"]


@pytest.mark.parametrize(("wanted", "given", "problem"), [
    ("", (1, 0), None), ("1", (1, 1), None), ("1.1", (1, 1), None),
    ("1.2", (1, 1), "it needs the game API 1.2, this cbrig gives 1.1"),
    ("2", (1, 1), "it needs the game API 2, this cbrig gives 1.1"),
    ("one", (1, 1), "requires_api = 'one' is no version (write \"1\" or \"1.1\")"),
])
def test_the_api_a_game_needs(wanted: str, given: tuple[int, int], problem: str | None) -> None:
    entry: GameEntry = replace(RACE, requires_api=wanted)
    assert api_problem(entry, given) == problem
