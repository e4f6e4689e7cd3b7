"""Log files: the TUI and a host each log to a rotating file under the user log directory
(`net.places.log_dir`), so that nothing a private game's host says is lost to /dev/null."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Final

from net.places import log_dir, private_dir

HOST_LOG: Final = "host.log"
"""A host's log file (the private host of a game against bots, or `host --log-file`)."""
CLIENT_LOG: Final = "pigeon-tui.log"
"""The TUI's log file."""
MAX_BYTES: Final = 2 * 1024 * 1024
"""Size at which a log file is rotated."""
BACKUPS: Final = 2
"""Rotated files kept (`host.log.1`, `host.log.2`): a few MB in all."""
FORMAT: Final = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"


def log_path(path: str | None, default: str) -> Path:
    """`path` if given (not empty), else `default` in the log directory."""
    return Path(path) if path else log_dir() / default


_handler: logging.Handler | None = None
"""The file handler `log_to_file` installed (one per process: a second call replaces it)."""


def log_to_file(path: Path, level: int, *, take_stderr: bool = False) -> Path:
    """Send every log record at `level` or above to a rotating file at `path` (its directory
    made if missing), instead of the file of an earlier call. With `take_stderr`, this
    process's stderr goes there too (a traceback that escapes logging, a warning). Returns
    `path`. Raises OSError if the file cannot be had."""
    global _handler
    from logging.handlers import RotatingFileHandler

    private_dir(path.parent)
    handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    if _handler is not None:
        root.removeHandler(_handler)
        _handler.close()
    _handler = handler
    root.addHandler(handler)
    root.setLevel(level)
    if take_stderr and handler.stream is not None:
        os.dup2(handler.stream.fileno(), 2)
    return path
