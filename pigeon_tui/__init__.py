"""pigeon_tui: Pigeons & Guano in the terminal. Importing this package loads nothing heavy."""

from net.version import VERSION

__version__ = VERSION
