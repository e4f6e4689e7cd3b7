"""A stand-in for the TUI as serve-ssh's child, for the tests of the SSH server's own work
(sessions, their children's environment and terminal, caps, keys, idle and shutdown), which
need a child that draws and waits, not a game: it starts in milliseconds where the real TUI
takes a second or two. Run as `python tui_stand_in.py join ADDRESS --name USER ...` (the
arguments serve-ssh appends, ignored); it draws the words the tests wait for on the alternate
screen, then waits for keys until it is hung up."""

import os
import sys

if __name__ == "__main__":
    sys.stdout.write("\x1b[?1049h\x1b[2J\x1b[HLobby\r\nTable 1: waiting\r\n")
    sys.stdout.flush()
    while os.read(0, 1024):  # the PTY's keys; its hang-up (SIGHUP) ends the process
        pass
