"""`pigeon-tui serve-ssh`: an SSH front door. Each SSH session gets the TUI as a child process
on its own pseudo-terminal, joined to a game host (docs/ssh.md).

Modules: `child` (the child's command line and environment, sans I/O), `pty` (a child process
on a pseudo-terminal), `hostkey` (the server's kept host key), `server` (the asyncssh server).
Only `hostkey` and `server` import asyncssh (the `ssh` extra).
"""
