"""Shared fixtures. Hardware tests use mock backends only; nothing here sleeps."""

import atexit
import os
import shutil
import tempfile

if "LG_WD" not in os.environ:
    # lgpio (installed with the [pi] extra) leaves its notification FIFO .lgd-nfy0 in
    # the working directory, or in LG_WD: a scratch directory keeps it out of the checkout.
    os.environ["LG_WD"] = tempfile.mkdtemp(prefix="cbrig-lgpio-")
    atexit.register(shutil.rmtree, os.environ["LG_WD"], ignore_errors=True)

# The rig honours gpiozero's GPIOZERO_PIN_FACTORY where a config names no backend
# (rig.config): one set in the developer's shell must not change what the tests see.
os.environ.pop("GPIOZERO_PIN_FACTORY", None)
