"""serve-ssh's child in the tests whose TUI is forked from a prepared process (tests/net/zygote.py):
run as `python -I -S tui_launch.py SOCKET join ADDRESS --name USER ...` in the session's new
session, on its terminal. It lets go of the terminal, hands it and its arguments to the zygote at
SOCKET, which forks `pigeon-tui join ...` there as the leader of a session of its own with that
terminal, and stays until that TUI ends, passing on the signals it gets (serve-ssh's hang-up)."""

import fcntl
import json
import os
import select
import signal
import socket
import sys
import termios

if __name__ == "__main__":
    where, argv = sys.argv[1], sys.argv[2:]
    door = socket.socket(socket.AF_UNIX)
    door.connect(where)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # letting go of the terminal hangs this group up
    fcntl.ioctl(0, termios.TIOCNOTTY)
    request = {"tui": argv, "env": dict(os.environ), "cwd": os.getcwd()}
    socket.send_fds(door, [json.dumps(request).encode() + b"\n"], [0])
    said, fds, _, _ = socket.recv_fds(door, 64, 1)
    pid, pidfd = int(said), fds[0]

    def forward(sig: int, _frame: object) -> None:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT, signal.SIGCONT):
        signal.signal(sig, forward)
    select.select([pidfd], [], [])
    sys.exit(0)
