"""Running a test scenario as a user that file permissions bind.

Permissions do not bind root, so under root the scenario runs in a forked child that has
dropped to ``nobody`` (the modules it needs are already imported, so it reads nothing under
root's home); otherwise it runs in-process. Either way it gets a fresh folder of its own.
"""

from __future__ import annotations

import os
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

UNPRIVILEGED = 65534  # "nobody" on every Linux


def run_unprivileged(scenario: Callable[[Path], None]) -> None:
    """``scenario(folder)``; an assertion failing in it fails the calling test."""
    if os.geteuid() != 0:
        with tempfile.TemporaryDirectory() as folder:
            scenario(Path(folder))
        return
    with tempfile.TemporaryDirectory() as folder:
        os.chown(folder, UNPRIVILEGED, UNPRIVILEGED)
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 1
            try:
                os.close(read_end)
                os.setgroups([])
                os.setgid(UNPRIVILEGED)
                os.setuid(UNPRIVILEGED)
                scenario(Path(folder))
                code = 0
            except BaseException:
                os.write(write_end, traceback.format_exc().encode())
            finally:
                os._exit(code)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            failure = pipe.read().decode()
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, failure
