"""Shared fixtures. Hardware tests use mock backends only; nothing here sleeps."""

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

if "LG_WD" not in os.environ:
    # lgpio (installed with the [pi] extra) leaves its notification FIFO .lgd-nfy0 in
    # the working directory, or in LG_WD: a scratch directory keeps it out of the checkout.
    os.environ["LG_WD"] = tempfile.mkdtemp(prefix="cbrig-lgpio-")
    atexit.register(shutil.rmtree, os.environ["LG_WD"], ignore_errors=True)

if "PULSE_RUNTIME_PATH" not in os.environ:
    # espeak-ng (even with --stdout) and Chromium start PulseAudio's client library, which
    # without this links ~/.config/pulse/<machine-id>-runtime to a /tmp folder: a run
    # writes nothing in the user's home (issue 47).
    os.environ["PULSE_RUNTIME_PATH"] = tempfile.mkdtemp(prefix="cbrig-pulse-")
    atexit.register(shutil.rmtree, os.environ["PULSE_RUNTIME_PATH"], ignore_errors=True)

# Hypothesis fails an example that takes over 200 ms by default, and a run whose data
# takes long to draw (too_slow): verdicts on the machine's speed, which no test gives
# (issue 46). Every property test runs without them.
settings.register_profile("cbrig", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cbrig")

# The rig honours gpiozero's GPIOZERO_PIN_FACTORY where a config names no backend
# (rig.config): one set in the developer's shell must not change what the tests see.
os.environ.pop("GPIOZERO_PIN_FACTORY", None)


def pytest_configure(config: "pytest.Config") -> None:
    """Say, before anything runs, what this run may install and cache (issue 38)."""
    from tests.system_tools import plan

    said = plan()
    if said and not hasattr(config, "workerinput"):
        import sys
        import textwrap

        print(textwrap.fill(said, width=88), file=sys.stderr, flush=True)


def pytest_collection_finish(session: "pytest.Session") -> None:
    """Before the first test of a run that cannot install (not root, or
    CBRIG_TEST_NO_INSTALL): which of the selected tests will fail and why, and the
    command that installs what they lack (issue 47). No test skips itself."""
    from tests.system_tools import will_fail

    if hasattr(session.config, "workerinput"):
        return
    said = will_fail({item.nodeid for item in session.items})
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if said and reporter is not None:
        reporter.write_line("")
        for line in said.splitlines():
            reporter.write_line(line)
