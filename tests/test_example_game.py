"""examples/mygame, the game package README's "Games from outside" installs, passes its
own tests (the battery on itself, rules and rig) from its own folder, as its author runs
them: with the package on the path and nothing of this suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.slowdown import scaled

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mygame"


def test_the_example_game_passes_its_own_tests() -> None:
    env = {key: value for key, value in os.environ.items() if key != "CBRIG_GAMES"}
    env["PYTHONPATH"] = os.pathsep.join([str(EXAMPLE), str(ROOT)])
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(EXAMPLE), "-c", os.devnull, "tests"],
                          cwd=EXAMPLE, env=env, capture_output=True, text=True,
                          timeout=scaled(600))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout
