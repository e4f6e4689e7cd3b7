"""A browser tab's process: the normal `pigeon-tui` app (start screen first), which dies with the
server. On Linux the kernel kills it if the server dies (PR_SET_PDEATHSIG), so even a killed
server leaves no orphan; what the app started ends with its stdin (its game host) or its group."""

from __future__ import annotations

import os
import sys

from pigeon_tui.web.child import PARENT_ENV


def die_with_parent() -> None:
    """Ask the kernel for SIGKILL when the server exits; exit now if it already has."""
    if sys.platform != "linux":
        return
    import ctypes
    import signal

    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    parent = os.environ.get(PARENT_ENV)
    if parent and os.getppid() != int(parent):
        os._exit(1)  # the server died before the request: it can no longer be obeyed


def main() -> int:
    die_with_parent()
    from pigeon_tui.cli import main as cli_main

    return cli_main([])


if __name__ == "__main__":
    sys.exit(main())
