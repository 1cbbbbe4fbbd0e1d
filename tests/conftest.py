"""Test-session settings for the processes the tests start.

Most tests start real processes (the server, Python bots, relays), each importing pokerbots
afresh. Where the environment says not to write bytecode next to the sources
(``PYTHONDONTWRITEBYTECODE``, as on a read-only or shared checkout), every one of those
processes compiled every module again: about 0.07 s a process, a tenth of the default run.
Their bytecode goes to a cache folder outside the checkout instead (``PYTHONPYCACHEPREFIX``),
so the checkout stays as clean as the setting asked. Nothing the tests check depends on it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    cache = Path(tempfile.gettempdir()) / f"pokerbots-test-pycache-{os.getuid()}"
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = str(cache)
