"""The program's version, read without `importlib.metadata`: looking it up in the installed
package's metadata costs a private host ~15 ms of its start-up (issue 9), and the store stamps
every run and game with it. pyproject.toml's `version` must say the same (a test checks)."""

from typing import Final

VERSION: Final = "0.1.0"
