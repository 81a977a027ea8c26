"""The game API is one door: the shipped games and the test games import cbrig only
through ``cbrig.game`` (their own rules and folder aside), every name it lists is there
and typed, and importing it to register a game loads no view, PIL or PDF code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import cbrig.game as api
from rig import registry

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("cbrig", "engine", "hardware", "rig", "valueclass")
"""The packages a game could reach into; of them it may use cbrig.game only."""


def _game_folders() -> dict[Path, tuple[str, ...]]:
    """Each game folder with the modules it may import besides cbrig.game: its own
    folder, and its own rules package for a shipped game."""
    folders: dict[Path, tuple[str, ...]] = {}
    for name in registry.built_in_names():
        folders[ROOT / "cbrig" / "games" / name] = (f"cbrig.games.{name}", f"engine.{name}")
    for name in ("racegame", "racefive"):
        folders[ROOT / "tests" / name] = (f"tests.{name}", "tests.racegame")
    return folders


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return found


def test_the_games_import_cbrig_through_the_game_api_only() -> None:
    wrong = []
    for folder, own in _game_folders().items():
        assert (folder / "__init__.py").is_file(), folder
        for path in sorted(folder.glob("*.py")):
            for line, module in _imports(path):
                if module.split(".")[0] not in PROJECT or module == "cbrig.game":
                    continue
                if any(module == mine or module.startswith(mine + ".") for mine in own):
                    continue
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert wrong == [], "\n".join(wrong)


def test_the_walk_sees_what_it_checks() -> None:
    """The rule above cannot pass by seeing nothing: the game folders hold imports of
    cbrig.game, and an import of a rig module would be seen."""
    seen = [module for folder in _game_folders() for path in folder.glob("*.py")
            for _, module in _imports(path)]
    assert seen.count("cbrig.game") >= 10
    assert "engine.tenfour" in seen and "cbrig.games.tenfour.view" in seen


def test_every_listed_name_is_there() -> None:
    assert api.API_VERSION[0] == 1
    missing = [name for name in api.__all__ if not hasattr(api, name)]
    assert missing == []
    assert api.EventNotices.__module__ == "rig.screens.views"
    assert api.check_game.__module__ == "cbrig.conformance"


def test_the_installed_package_is_typed() -> None:
    for package in PROJECT:
        assert (ROOT / package / "py.typed").is_file(), package
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"py.typed"' in pyproject and '"cbrig*"' in pyproject


def test_registering_through_the_api_loads_no_view_pil_or_pdf() -> None:
    script = ("import sys\nimport cbrig.game\nfrom rig import registry\nregistry.entries()\n"
              "print('\\n'.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    loaded = set(done.stdout.split())
    heavy = {"rig.screens.views", "rig.voice.speech", "rig.maker.boardart.geometry",
             "rig.maker.printout.sheets",
             "rig.web.live", "PIL", "reportlab", "engine.api", "engine.tenfour.game",
             "engine.bumpem.game"}
    assert "cbrig.games.tenfour" in loaded and "cbrig.game" in loaded
    assert not loaded & heavy, sorted(loaded & heavy)


def test_each_built_in_game_s_data_is_in_its_own_folder() -> None:
    """A shipped game is its rules folder (with its data) and its rig folder; the names
    journals use ("default:tenfour_board.toml") resolve in the game's own data package."""
    from rig.datafiles import is_shipped

    for name in registry.built_in_names():
        facts = registry.entry(name).facts
        assert facts.data_package == f"engine.{name}.data"
        for filename in facts.data_roles.values():
            assert (ROOT / "engine" / name / "data" / filename).is_file(), filename
            assert is_shipped(f"default:{filename}", facts.data_package)
    assert not (ROOT / "engine" / "data").exists()


def test_folder_parts_finds_the_parts_a_folder_has_and_checks_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part is there when its module is (nothing is imported to know it), and is
    checked when first loaded: a wrong ``TOOLS`` is a TypeError naming it."""
    folder = tmp_path / "foldergame"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "board.py").write_text("TOOLS = 'not tools'\n", encoding="utf-8")
    (folder / "speech.py").write_text(
        "from cbrig.game import Vocabulary\nVOCABULARY = Vocabulary()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    parts = api.folder_parts("foldergame")
    assert sorted(parts) == ["board", "speech"]
    assert "foldergame.board" not in sys.modules
    with pytest.raises(TypeError, match=r"foldergame\.board\.TOOLS is str, not a BoardTools"):
        parts["board"]()
    assert isinstance(parts["speech"](), api.Vocabulary)
    shipped = api.folder_parts("cbrig.games.tenfour")
    assert sorted(shipped) == ["board", "live", "printout", "speech"]
    for name in ("board", "live", "printout", "speech"):
        sys.modules.pop(f"foldergame.{name}", None)
    sys.modules.pop("foldergame", None)
