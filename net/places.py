"""Where pigeon_tui keeps files on this machine: the user data directory (seat tokens, the SSH
host key) and the user log directory, from platformdirs. Each can be moved by an environment
variable, so tests (and two people's test runs) never touch the real ones."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

APP_DIR: Final = "pigeon-tui"
"""The directory name under platformdirs' user directories."""
DATA_DIR_ENV: Final = "PIGEON_TUI_DATA_DIR"
"""If set, the data directory itself (instead of platformdirs' user data directory)."""
LOG_DIR_ENV: Final = "PIGEON_TUI_LOG_DIR"
"""If set, the log directory itself (instead of platformdirs' user log directory)."""
SHARED_ACCOUNT_ENV: Final = "PIGEON_TUI_SHARED_ACCOUNT"
"""If set (a browser tab of serve-web), this process shares its account with strangers: its
games against bots are kept in memory only, and the account's games (to resume, the history)
are not its own to read."""


def data_dir() -> Path:
    """`$PIGEON_TUI_DATA_DIR`, else `<user data dir>/pigeon-tui` (not created here)."""
    if moved := os.environ.get(DATA_DIR_ENV):
        return Path(moved)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_DIR))


def log_dir() -> Path:
    """`$PIGEON_TUI_LOG_DIR`, else `<user log dir>/pigeon-tui` (not created here)."""
    if moved := os.environ.get(LOG_DIR_ENV):
        return Path(moved)
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_DIR))


def private_dir(path: Path) -> Path:
    """Make `path` (and its parents) if missing; one made here gets mode 0700. Raises OSError."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def process_running(pid: int) -> bool:
    """Whether a process `pid` runs on this machine (one we may not signal counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
