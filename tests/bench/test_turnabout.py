"""The paired gate (issue 46): this tree and a baseline turn about, the ratio judged with
its spread. No speed is judged here: the verdict's rule is tested on given ratios, and
one short run against this tree's own commit checks the plumbing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench import turnabout

GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c",
       "init.defaultBranch=main"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository of this tree's packages (the suite may run from a copy without
    .git, as the emulated job does): one commit setting the version, one after it."""
    root = tmp_path_factory.mktemp("repo")
    for name in turnabout.PACKAGES:
        if (turnabout.HERE / name).is_dir():
            shutil.copytree(turnabout.HERE / name, root / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pyproject.toml").write_text('[project]\nversion = "9.8.7"\n', encoding="utf-8")
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "release"], cwd=root, check=True)
    (root / "NOTES").write_text("after the release\n", encoding="utf-8")
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "later"], cwd=root, check=True)
    return root


def test_only_a_whole_interval_below_the_threshold_fails() -> None:
    level = turnabout.judge([0.97, 1.02, 0.99, 1.01, 0.96, 1.03, 1.0, 0.98], 0.05)
    assert level["verdict"] == "level" and level["exit_code"] == 0
    slower = turnabout.judge([0.86, 0.88, 0.87, 0.85, 0.89, 0.87, 0.86, 0.88], 0.05)
    assert slower["verdict"] == "slower" and slower["exit_code"] == 1
    assert slower["ratio_interval_95"][1] < 0.95
    # a median below the line whose spread reaches above it is not a verdict
    spread = turnabout.judge([0.80, 0.99, 0.85, 1.05, 0.90, 0.93, 0.82, 1.01], 0.05)
    assert spread["ratio_median"] < 0.95 and spread["exit_code"] == 0
    faster = turnabout.judge([1.2, 1.25, 1.22, 1.18, 1.21, 1.24, 1.19, 1.2], 0.05)
    assert faster["verdict"] == "faster" and faster["exit_code"] == 0


def test_the_interval_is_seeded_and_holds_the_median() -> None:
    ratios = [0.9, 1.1, 1.0, 0.95, 1.05, 0.97]
    low, high = turnabout.interval(ratios)
    assert (low, high) == turnabout.interval(ratios)
    assert min(ratios) <= low <= 0.985 <= high <= max(ratios)


def test_the_last_release_is_the_default_baseline(repo: Path) -> None:
    release = turnabout._git("rev-parse", "HEAD~1", repo=repo)
    assert turnabout.resolve_baseline(None, repo) == (
        "release 9.8.7 (the commit that set it)", release)
    assert turnabout.resolve_baseline("HEAD", repo)[1] == turnabout._git("rev-parse", "HEAD",
                                                                         repo=repo)
    with pytest.raises(turnabout.BaselineError):
        turnabout.resolve_baseline("no-such-commit-anywhere", repo)
    subprocess.run([*GIT, "tag", "v9.8.7", "HEAD~1"], cwd=repo, check=True)
    try:
        assert turnabout.resolve_baseline(None, repo) == ("release v9.8.7", release)
    finally:
        subprocess.run([*GIT, "tag", "-d", "v9.8.7"], cwd=repo, check=True,
                       capture_output=True)
    with pytest.raises(turnabout.BaselineError, match="not a git checkout"):
        turnabout.resolve_baseline(None, repo / "engine")


def test_a_run_turns_about_against_a_commit(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(turnabout.QUICK, "games", 1)
    monkeypatch.setitem(turnabout.QUICK, "repeats", 1)
    report = turnabout.run("HEAD", quick=True, pairs=2, repo=repo)
    assert len(report["pair_ratios"]) == 2 and all(r > 0 for r in report["pair_ratios"])
    assert report["baseline"]["commit"] == turnabout._git("rev-parse", "HEAD", repo=repo)
    assert report["verdict"] in ("level", "slower", "faster")
    assert report["exit_code"] == (report["verdict"] == "slower")
    assert len(report["load_average_after_each_pair"]) == 2
    for tree in ("tree", "baseline"):
        assert report["rates_not_judged"][tree]["steps_per_cpu_s_median"] > 0
    assert "turn about" in "\n".join(turnabout.summary_lines(report))
