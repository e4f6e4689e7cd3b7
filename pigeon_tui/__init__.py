"""pigeon_tui: Pigeons & Guano in the terminal. Importing this package loads nothing heavy."""

__version__ = "0.1.0"
