"""Debian root file systems for the container tests, built with mmdebstrap and cached.

A root file system is built from the package registry once per recipe (suite,
architecture, variant, package list) and kept as a tarball in the cache directory
(`/var/cache/cbrig-ci`, or `$CBRIG_CI_CACHE`) under a name derived from the recipe, so a
changed recipe builds afresh and an unchanged one costs a `tar -x` (about a second).
Every run unpacks a fresh copy: nothing one run does leaks into the next.

The host's CA bundle and its pip and apt configuration are copied into each fresh copy
(not into the cached tarball: the host's may change between runs), so `pip` and `apt`
inside reach the registries the same way they do on the host.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SUITE = "bookworm"
RECIPE_VERSION = 1
"""Bump to rebuild every cached root file system (e.g. for Debian's point releases)."""

HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
HOST_PIP_CONFIG = (Path("/etc/pip.conf"), Path("/etc/xdg/pip"))
HOST_APT_CONFIG = (Path("/etc/apt/apt.conf.d"), Path("/etc/apt/auth.conf.d"))
PASSED_ENVIRONMENT_PREFIXES = ("PIP_",)
PASSED_ENVIRONMENT = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                      "NO_PROXY")


_scratch_cache: list[Path] = []


def cache_dir() -> Path:
    """`$CBRIG_CI_CACHE`, else /var/cache/cbrig-ci; with CBRIG_TEST_NO_INSTALL set, a
    scratch folder removed when the run ends (nothing is kept on the system)."""
    if "CBRIG_CI_CACHE" in os.environ:
        return Path(os.environ["CBRIG_CI_CACHE"])
    if os.environ.get("CBRIG_TEST_NO_INSTALL", "") not in ("", "0"):
        if not _scratch_cache:
            import atexit

            _scratch_cache.append(Path(tempfile.mkdtemp(prefix="cbrig-ci-cache-")))
            atexit.register(shutil.rmtree, _scratch_cache[0], ignore_errors=True)
        return _scratch_cache[0]
    return Path("/var/cache/cbrig-ci")


@dataclass(frozen=True)
class Recipe:
    """What goes into a root file system: the cache key is made of exactly this."""

    arch: str
    """Debian architecture: amd64, arm64, armhf."""
    packages: tuple[str, ...]
    suite: str = SUITE
    variant: str = "minbase"

    def key(self) -> str:
        recipe = {"version": RECIPE_VERSION, "suite": self.suite, "arch": self.arch,
                  "variant": self.variant, "packages": sorted(set(self.packages))}
        digest = hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()
        return f"{self.suite}-{self.arch}-{digest[:16]}"

    def tarball(self) -> Path:
        return cache_dir() / f"{self.key()}.tar"


class RootfsError(RuntimeError):
    """The root file system could not be built or unpacked; the message says why."""


def host_arch() -> str:
    result = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        raise RootfsError(f"dpkg --print-architecture failed: {result.stderr.strip()}")
    return result.stdout.strip()


def build_tools(arch: str, host: str | None = None) -> dict[str, str]:
    """The commands (command -> Debian package) a build of an `arch` root file system
    needs on this host.

    mmdebstrap's own Debian dependencies do not cover a foreign architecture: it refuses
    one ("install arch-test for foreign architecture support") unless its recommended
    arch-test is there, and the suite installs with --no-install-recommends. So arch-test
    is named here whenever `arch` is not the host's; a machine that never built one
    before (no cache) then gets it with mmdebstrap.
    """
    tools = {"mmdebstrap": "mmdebstrap"}
    if arch != (host or host_arch()):
        tools["arch-test"] = "arch-test"
    return tools


def simulate(recipe: Recipe, mmdebstrap: str) -> str:
    """Why mmdebstrap would refuse to build `recipe` here, or "" if it accepts it.

    `--simulate` resolves the packages and checks foreign-architecture support, and
    installs nothing: a check of a cold build's prerequisites that no cache can hide.
    """
    command = [mmdebstrap, "--simulate", f"--variant={recipe.variant}",
               f"--architectures={recipe.arch}", f"--include={','.join(recipe.packages)}",
               recipe.suite, "/dev/null"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        return ""
    tail = (result.stdout + result.stderr).strip().splitlines()[-10:]
    return f"mmdebstrap --simulate failed (exit {result.returncode}): " + "\n".join(tail)


def cached_tarball(recipe: Recipe, mmdebstrap: str, log: Path | None = None) -> Path:
    """The recipe's tarball, built first if the cache does not hold it yet.

    Builds are serialised with a lock file beside the tarball, so two suites started at
    once build it once; a half-built tarball never carries the final name.
    """
    tarball = recipe.tarball()
    tarball.parent.mkdir(parents=True, exist_ok=True)
    with open(tarball.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if tarball.exists():
            return tarball
        partial = tarball.with_suffix(f".partial-{os.getpid()}.tar")
        command = [mmdebstrap, f"--variant={recipe.variant}", f"--architectures={recipe.arch}",
                   f"--include={','.join(recipe.packages)}", recipe.suite, str(partial)]
        log_path = log or tarball.with_suffix(".log")
        with open(log_path, "w") as out:
            result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=False)
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            tail = log_path.read_text(errors="replace").strip().splitlines()[-15:]
            raise RootfsError(f"mmdebstrap failed (exit {result.returncode}): "
                              f"{' '.join(command)}\n" + "\n".join(tail))
        partial.rename(tarball)
    return tarball


def unpack(tarball: Path, parent: Path | None = None) -> Path:
    """A fresh directory holding the tarball's root file system."""
    root = Path(tempfile.mkdtemp(prefix="cbrig-rootfs-", dir=parent or "/var/tmp"))
    root.chmod(0o755)
    result = subprocess.run(["tar", "--numeric-owner", "-xpf", str(tarball), "-C", str(root)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise RootfsError(f"cannot unpack {tarball}: {result.stderr.strip()[-400:]}")
    return root


def _copy(source: Path, root: Path) -> None:
    target = root / source.relative_to("/")
    if target.is_symlink():  # an absolute link would point back at the host's own file
        target.unlink()
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True, symlinks=False)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def copy_host_config(root: Path) -> list[str]:
    """Copy the host's CA bundle, pip and apt configuration into `root`; what was copied.

    The CA bundle replaces the image's own (a machine behind an inspecting proxy trusts
    that proxy's certificate); pip's system-wide files keep their absolute paths (a
    `constraint = /etc/xdg/pip/constraints.txt` there finds its file inside too).
    """
    copied = []
    for source in (HOST_CA_BUNDLE, *HOST_PIP_CONFIG, *HOST_APT_CONFIG):
        if source.exists():
            _copy(source, root)
            copied.append(str(source))
    return copied


def passed_environment() -> dict[str, str]:
    """The host's pip and proxy settings that live in the environment, for commands run
    inside (a CI machine may configure pip's index or a proxy only there)."""
    return {name: value for name, value in os.environ.items()
            if name.startswith(PASSED_ENVIRONMENT_PREFIXES) or name in PASSED_ENVIRONMENT}


def local_find_links(environment: dict[str, str]) -> list[Path]:
    """Local directories pip's `find-links` points at (to be mounted read-only inside at
    the same path, so the configuration means the same there)."""
    found: list[Path] = []
    for raw in environment.get("PIP_FIND_LINKS", "").split():
        path = Path(raw.removeprefix("file://"))
        if path.is_absolute() and path.is_dir():
            found.append(path)
    return found


def mounts_under(root: Path) -> list[str]:
    """Mount points inside `root` seen from here (there must be none before deleting it)."""
    prefix = str(root.resolve()).rstrip("/") + "/"
    points = []
    with open("/proc/self/mountinfo") as info:
        for line in info:
            point = line.split()[4]
            if point.startswith(prefix) or point == prefix.rstrip("/"):
                points.append(point)
    return points


def remove(root: Path) -> None:
    """Delete an unpacked root file system, refusing if anything is still mounted in it
    (a bind mount of a host directory would be deleted with it)."""
    still = mounts_under(root)
    if still:
        raise RootfsError(f"not deleting {root}: still mounted there: {', '.join(still)}")
    shutil.rmtree(root)
