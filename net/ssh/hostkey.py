"""The front door's host key: made on first start, then kept (mode 0600) in the user's data
directory, so the fingerprint players' known_hosts remember stays the same across restarts."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Final

import asyncssh

log = logging.getLogger(__name__)

KEY_FILE: Final = "ssh_host_ed25519_key"
KEY_ALGORITHM: Final = "ssh-ed25519"


def default_path() -> Path:
    """`<user data dir>/pigeon-tui/ssh_host_ed25519_key` (`net.places.data_dir`)."""
    from net.places import data_dir

    return data_dir() / KEY_FILE


def load_or_create(path: Path | None = None) -> asyncssh.SSHKey:
    """The host key kept at `path` (default: `default_path()`), made first if there is none.

    A new key is written with mode 0600 in a directory made with mode 0700; an existing key
    readable by others has its mode narrowed to 0600. Raises OSError or asyncssh.KeyImportError
    if the file cannot be read or written."""
    path = path or default_path()
    if path.exists():
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("%s was readable by others (mode %o): now 0600", path, mode)
            path.chmod(0o600)
        return asyncssh.read_private_key(str(path))
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = asyncssh.generate_private_key(KEY_ALGORITHM)
    data = key.export_private_key()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)  # whole or not at all, even if two servers start at once
    key.write_public_key(str(path.with_name(path.name + ".pub")))
    log.info("made a new host key %s (%s)", path, fingerprint(key))
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """`SHA256:...`, as `ssh` shows it."""
    return str(key.get_fingerprint("sha256"))
