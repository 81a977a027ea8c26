"""The README's and docs' shell blocks, walked as a newcomer would (issue 38).

Every ```sh block in README.md, docs/ and wiring/ carries a comment on the line before it
that says how a newcomer's walk treats it, so the docs cannot drift from the program:

- ``<!-- walk: run -->``: run as written, in order, in one shell, in a fresh copy of the
  checkout (lines that install from PyPI say so in the comment; pip reaches the package
  index as the quick start itself does); a block that installs an example game
  (``pip install ./examples/NAME``) has its later lines parsed with that game registered;
- ``<!-- walk: parse -->``: too long or never-ending to run here (a 1,000-game
  simulation, the full bench, a server): every ``cbrig`` line is read by the command's
  own argument parser and checks, every ``python -m`` module must exist, and the rest
  must be valid shell;
- ``<!-- walk: suite -->``: the test command itself, which CI runs (.ci/run);
- ``<!-- walk: pi -->``: for the Raspberry Pi (sudo, install.sh, reboot): valid shell,
  and every file of this checkout it names exists;
- ``<!-- walk: yours -->``: names the reader's own files (a game package of theirs):
  valid shell, and every ``cbrig`` command it names exists.
"""

from __future__ import annotations

import importlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from contextlib import ExitStack
from pathlib import Path

import pytest

from rig import registry
from rig.cli import main, parse_command
from rig.gametype import GameEntry
from tests.slowdown import hang

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("run", "parse", "suite", "pi", "yours")
BLOCK = re.compile(r"(?:<!-- walk: (?P<kind>[a-z]+)[^\n]*-->\n)?"
                   r"^```(?P<lang>sh|bash|shell|console)\n(?P<body>.*?)^```", re.S | re.M)


class Block:
    def __init__(self, path: Path, line: int, kind: str | None, body: str) -> None:
        self.path, self.line, self.kind, self.body = path, line, kind, body

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            *sorted((ROOT / "wiring").glob("*.md"))]


def blocks() -> list[Block]:
    found = []
    for path in _documents():
        text = path.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start("lang")) + 1
            found.append(Block(path, line, match.group("kind"), match.group("body")))
    return found


def _commands(body: str) -> list[list[str]]:
    """The simple commands of a block: continuations joined, comments dropped, split at
    ``&&``, ``||``, ``;`` and ``|``."""
    commands: list[list[str]] = []
    for line in body.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        current: list[str] = []
        for token in lexer:
            if token and set(token) <= set(";&|"):
                commands.append(current)
                current = []
            else:
                current.append(token)
        commands.append(current)
    return [c for c in commands if c]


def _program(command: list[str]) -> list[str]:
    """The command without what only runs it: VAR=value, ``sudo [-u USER]``, ``nice -n N``."""
    words = list(command)
    while words:
        if re.fullmatch(r"[A-Z_]+=\S*", words[0]):
            words = words[1:]
        elif words[0] == "sudo":
            words = words[3:] if words[1:2] == ["-u"] else words[1:]
        elif words[0] == "nice":
            words = words[3:] if words[1:2] == ["-n"] else words[1:]
        else:
            break
    return words


def _cbrig_arguments(command: list[str]) -> list[str] | None:
    """The arguments after ``cbrig`` (or ``python -m rig.cli``), or None."""
    words = _program(command)
    if not words:
        return None
    if words[0].endswith("cbrig"):
        return words[1:]
    if words[0].endswith(("python", "python3")) and words[1:3] == ["-m", "rig.cli"]:
        return words[3:]
    return None


def _module(command: list[str]) -> str | None:
    words = _program(command)
    if words and words[0].endswith(("python", "python3", "python3.11")) and (
            len(words) > 2 and words[1] == "-m"):
        return words[2]
    return None


def test_every_shell_block_says_how_the_walk_treats_it() -> None:
    found = blocks()
    assert len(found) > 10, "the block pattern no longer finds the docs' shell blocks"
    unmarked = [b.where for b in found if b.kind not in KINDS]
    assert not unmarked, (f"mark each block with <!-- walk: {'|'.join(KINDS)} --> on the "
                          f"line before it: {unmarked}")


@pytest.mark.parametrize("block", [b for b in blocks() if b.kind in ("run", "parse", "pi")],
                         ids=lambda b: b.where)
def test_every_documented_command_line_is_one_the_program_takes(block: Block) -> None:
    """Read by the command's own parser and checks, as the program would, without running
    it: a renamed flag, a removed command or a wrong count fails here (the Pi's commands
    too: the rig there is this program). ``--help`` is taken (it exits 0)."""
    with ExitStack() as installed:
        for entry in _example_games(block):
            installed.enter_context(registry.registered(entry))
        _parse_every_command(block)
    _valid_shell(block)


def _example_games(block: Block) -> list[GameEntry]:
    """The games of the examples the block installs (``pip install ./examples/NAME``),
    found as pip would: the package's cbrig.games entry points."""
    found = []
    for command in _commands(block.body):
        words = _program(command)
        if not (words and words[0].endswith("pip") and "install" in words):
            continue
        for word in words:
            folder = ROOT / word
            if word.startswith("./examples/") and (folder / "pyproject.toml").is_file():
                project = tomllib.loads((folder / "pyproject.toml").read_text())
                points = project["project"]["entry-points"]["cbrig.games"]
                if str(folder) not in sys.path:
                    sys.path.insert(0, str(folder))
                for value in points.values():
                    module, _, name = value.partition(":")
                    found.append(getattr(importlib.import_module(module), name))
    return found


def _parse_every_command(block: Block) -> None:
    for command in _commands(block.body):
        arguments = _cbrig_arguments(command)
        if arguments is not None:
            assert arguments, f"{block.where}: a bare cbrig"
            if arguments[0].startswith("-"):  # cbrig --help, --version: the program's own
                with pytest.raises(SystemExit) as done:
                    main(arguments)
                assert done.value.code in (0, None), f"{block.where}: cbrig {arguments}"
                continue
            try:
                parse_command(arguments)
            except SystemExit as exc:
                if exc.code not in (0, None) or "--help" not in arguments:
                    pytest.fail(f"{block.where}: cbrig {shlex.join(arguments)}: refused "
                                f"(exit {exc.code})")
            except ValueError as exc:
                pytest.fail(f"{block.where}: cbrig {shlex.join(arguments)}: {exc}")
            continue
        module = _module(command)
        if module is not None and module != "pytest":
            import importlib.util

            assert importlib.util.find_spec(module) is not None, (
                f"{block.where}: no module {module}")
        first = _program(command)[0] if _program(command) else ""
        if first in ("pip", "pip3") or (first.startswith("python")
                                        and command[1:3] == ["-m", "pip"]):
            pytest.fail(f"{block.where}: a bare pip installs into the system's Python "
                        "(refused on Debian 12): use .venv/bin/pip")


def _valid_shell(block: Block) -> None:
    result = subprocess.run(["bash", "-n"], input=block.body, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, f"{block.where}: {result.stderr}"


@pytest.mark.parametrize("block", [b for b in blocks() if b.kind == "pi"],
                         ids=lambda b: b.where)
def test_the_pi_s_commands_are_valid_shell_and_name_files_that_exist(block: Block) -> None:
    _valid_shell(block)
    for command in _commands(block.body):
        for word in command:
            if re.fullmatch(r"(systemd|wiring|docs|rig)/[\w./-]+", word):
                assert (ROOT / word).exists(), f"{block.where}: {word} is not in the checkout"


def _check_yours(block: Block) -> None:
    from rig.cli import COMMANDS

    _valid_shell(block)
    for command in _commands(block.body):
        arguments = _cbrig_arguments(command)
        if arguments and not arguments[0].startswith("-"):
            assert arguments[0] in COMMANDS, f"{block.where}: no command cbrig {arguments[0]}"


def test_blocks_about_the_reader_s_own_files_name_real_commands() -> None:
    """(None in the docs since README's outside game is examples/mygame, walked for
    real; the check stays for the next one, and is shown to catch a wrong command.)"""
    for block in (b for b in blocks() if b.kind == "yours"):
        _check_yours(block)
    wrong = Block(ROOT / "README.md", 1, "yours", ".venv/bin/cbrig simulat --game mine\n")
    with pytest.raises(AssertionError, match="no command cbrig simulat"):
        _check_yours(wrong)


def test_the_readme_s_test_command_is_the_one_ci_runs() -> None:
    suites = [b for b in blocks() if b.kind == "suite"]
    assert [b.path.name for b in suites] == ["README.md"]
    ci = [line.removesuffix(" || x86=$?")
          for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.startswith("python3 -m venv")]
    assert [suites[0].body.strip()] == ci


def fresh_copy(target: Path) -> None:
    """The checkout as a newcomer's clone has it: the tracked and new files, not the
    ignored ones (no .venv, no caches), as a git repository of its own."""
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], cwd=ROOT, capture_output=True,
                             check=True)
    for raw in filter(None, listing.stdout.split(b"\0")):
        source = ROOT / os.fsdecode(raw)
        if source.is_file():
            destination = target / os.fsdecode(raw)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    git = ["git", "-c", "user.name=walk", "-c", "user.email=walk@localhost"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "fresh clone"]):
        subprocess.run([*git, *step], cwd=target, check=True, capture_output=True)


def walk_script() -> str:
    """The run blocks as one bash script, each announced on stderr (so a failure names
    its block)."""
    script = ["set -euo pipefail"]
    for number, block in enumerate(b for b in blocks() if b.kind == "run"):
        script += [f"echo '=== walk {number}: {block.where}' >&2", block.body]
    script.append("echo '=== walk done' >&2")
    return "\n".join(script)


def check_walk(returncode: int, stdout: str, stderr: str, clone: Path) -> None:
    """The walk reached its end, and left what the docs say it makes."""
    walked = [b for b in blocks() if b.kind == "run"]
    reached = re.findall(r"=== walk (\d+|done)", stderr)
    last = walked[int(reached[-1])].where if reached and reached[-1] != "done" else "?"
    assert returncode == 0 and reached[-1:] == ["done"], (
        f"the walk stopped in {last} (exit {returncode}):\n"
        f"{stdout[-1500:]}\n{stderr[-2500:]}")
    assert "won." in stdout  # the quick start's demo played to its winner
    out = clone / "cbrig-out"  # every output in one folder git ignores (issue 47)
    assert {"tenfour-board.pdf", "tenfour-cards.pdf", "tenfour-pieces.pdf",
            "tenfour-reference.pdf", "bumpem-board.pdf"} <= {p.name for p in out.glob("*.pdf")}
    assert (out / "myboard.toml").is_file()
    assert list((out / "case").glob("*.stl"))
    assert "mygame (Ladders)" in stdout  # the example game installed from outside...
    assert "mygame (standard), 5 players" in stdout  # ...and played
    status = subprocess.run(["git", "-c", "safe.directory=*", "status", "--porcelain",
                             "--untracked-files=all"],  # the appliance's clone is its user's
                            cwd=clone, capture_output=True, text=True, check=True).stdout
    assert status == "", f"the walk left files git sees in the checkout:\n{status}"


@pytest.mark.case  # it builds the case, a desktop's job: the x86 job walks it
def test_the_run_blocks_run_as_written_in_order_in_a_fresh_clone(tmp_path: Path) -> None:
    """What a newcomer pastes, in the order the docs give it, from an empty checkout
    (on this machine; tests/appliance runs the same walk on a fresh Debian 12)."""
    clone = tmp_path / "cb-rig"
    fresh_copy(clone)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VIRTUAL_ENV", "PYTHON")) and k != "CBRIG_GAMES"}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(sys.prefix))
    result = subprocess.run(["bash", "-c", walk_script()], cwd=clone, env=env,
                            capture_output=True, text=True, check=False, timeout=hang(1500))
    check_walk(result.returncode, result.stdout, result.stderr, clone)
