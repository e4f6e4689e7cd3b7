"""A stand-in for the TUI as serve-ssh's child, for the tests of the SSH server's own work
(sessions, their children's environment and terminal, caps, keys, idle and shutdown), which
need a child that draws and waits, not a game: it starts in milliseconds where the real TUI
takes a second or two. Run as `python tui_stand_in.py join ADDRESS --name USER ...` (the
arguments serve-ssh appends, ignored); it draws the words the tests wait for on the alternate
screen, then waits for keys until it is hung up.

With `--play` first it is a player too, for the tests of many sessions at one table: it joins
the host at ADDRESS as USER (with the password serve-ssh gives its children) through the client
library, and takes the keys the tests press at the TUI: Enter sits at Table 1, `1` takes the first
option of this seat's open decision, `0` passes a reaction. `--play --tui-for NAME` runs the real
TUI instead (`python -m pigeon_tui` with the same arguments, or forked with the others from
tests/net/zygote.py: `main`) for the session of player NAME. With `--deaf` first it ignores its
hang-up (SIGHUP) and never exits by itself."""

import os
import signal
import sys
from collections.abc import Callable


def draw(text: str) -> None:
    sys.stdout.write(f"\x1b[2J\x1b[H{text}")
    sys.stdout.flush()


async def play(address: str, name: str) -> None:
    """Sit and choose on keys, saying on screen where the seat is (Lobby, Your hand)."""
    import asyncio
    import tty

    from core.decisions import PASS, REACTIONS
    from net.client import Client

    host, port = address.rsplit(":", 1)
    client = Client(host, int(port), name, password=os.environ.get("PIGEON_TUI_PASSWORD") or None)
    await client.connect()
    tty.setraw(0)  # every key as it is pressed (Enter is "\r", not a line's end)
    keys: asyncio.Queue[bytes] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    loop.add_reader(0, lambda: keys.put_nowait(os.read(0, 1024)))

    async def show() -> None:
        async for _ in client.updates():
            draw("Your hand" if client.view is not None else "Lobby\r\nTable 1: waiting")

    shown = asyncio.create_task(show())
    draw("Lobby\r\nTable 1: waiting")
    while key := await keys.get():
        mine = [d for d in client.decisions if d.player == client.seat]
        if key == b"\r" and client.seat is None:
            await client.join(1)
        elif key == b"1" and mine:
            await client.choose(mine[0].id, mine[0].options[0].value)
        elif key == b"0" and mine and mine[0].kind in REACTIONS:
            passes = [o.value for o in mine[0].options if o.value == PASS]
            await client.choose(mine[0].id, passes[0] if passes else mine[0].options[0].value)
    shown.cancel()


def main(argv: list[str], tui: Callable[[list[str]], int] | None = None) -> int:
    """The stand-in on serve-ssh's arguments; `tui` is the TUI's main where this runs in a
    process that has it (tests/net/zygote.py), else the TUI is a new interpreter."""
    if argv[:1] == ["--play"]:
        argv = argv[1:]
        tui_for = argv[1] if argv[:1] == ["--tui-for"] else None
        argv = argv[2:] if tui_for is not None else argv
        name = argv[argv.index("--name") + 1]
        if name == tui_for:
            if tui is not None:
                return tui(argv)
            os.execv(sys.executable, [sys.executable, "-m", "pigeon_tui", *argv])
        sys.stdout.write("\x1b[?1049h")
        import asyncio

        asyncio.run(play(argv[1], name))
        return 0
    deaf = argv[:1] == ["--deaf"]
    if deaf:  # a game that will not hear its hang-up, for the server's kill after its grace
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    sys.stdout.write("\x1b[?1049h\x1b[2J\x1b[HLobby\r\nTable 1: waiting\r\n")
    sys.stdout.flush()
    while deaf:
        signal.pause()
    while os.read(0, 1024):  # the PTY's keys; its hang-up (SIGHUP) ends the process
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
