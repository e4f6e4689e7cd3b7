"""How the app reaches a host: the private host of a game against bots (a child process made
by `net.spawn`, or for tests and screenshots the same host on this event loop), a LAN host it
starts, or any host by address; each gives a `Session`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.client import Client, Refused
from net.errors import ErrorCode
from net.spawn import HostFailed, HostProcess, HostSpec, spawn
from pigeon_tui.session import GameOptions, Session

if TYPE_CHECKING:
    from net.host import Host
    from net.table import Table
    from pigeon_tui.joining import SeatKeeper


class HostHere:
    """A host on this event loop: the same `net.host.Host` a child process runs, configured
    from the same `HostSpec` by the `host` command's own parser. Tests and screenshots use it
    (no process to start, and `settled` can look at its tables)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.port = host.port

    @classmethod
    async def start(cls, spec: HostSpec) -> HostHere:
        """Listen on `spec.bind` (port 0: a free one). Raises HostFailed."""
        from net.host import Host
        from pigeon_tui.cli import host_config

        try:
            # Bots think in threads: worker processes would be children of a test runner or a
            # Textual app whose stdio is not a terminal's (and they are slower to start).
            host = Host(host_config([*spec.options(), "--bot-processes", "0"]))
            await host.start()
        except (OSError, ValueError) as exc:
            raise HostFailed(f"the host did not start: {exc}") from None
        return cls(host)

    async def stop(self) -> None:
        await self.host.close()

    def table_of(self, session: Session) -> Table | None:
        tid = session.client.table_id
        return self.host.tables.get(tid) if tid is not None else None

    def settled(self, session: Session) -> bool:
        """Nothing more happens until this seat acts, and the session has handed every update
        the host sent it to its screen (so a picture taken now is the same on every run)."""
        table = self.table_of(session)
        if table is None or not table.settled:
            return False
        client = session.client
        seat = client.seat
        member = table.seats[seat] if seat is not None and seat < len(table.seats) else None
        if member is None or member.stream.seq != client.seq:
            return False
        return client.pending_updates == 0 and session.idle


async def private_game(
    options: GameOptions, spawned: HostProcess | None = None, here: bool = False, token: str | None = None
) -> Session:
    """Start the private host of a game against bots (or use `spawned`, made for the same
    options by the CLI), take the one free seat, and wait for the deal. With `here`, the host
    runs on this event loop (tests, screenshots). With a seat `token`, take that seat back
    instead: the game left unfinished that the private host brought back as it started.

    Raises HostFailed (or Refused, OSError) when anything on the way fails; the host is stopped."""
    host: HostHere | HostProcess
    if here:
        host = await HostHere.start(options.host_spec())
    else:
        host = await (spawned or spawn(options.host_spec())).ready()
    client = Client("127.0.0.1", host.port, options.name, table=None if token else 1, token=token, reconnect=True)
    session = Session(client, host, you=options.name, private=True)
    try:
        await client.connect()
        await session.first_view()
    except (Refused, OSError, HostFailed, TimeoutError):
        await session.close()
        raise
    return session


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """ "host", "host:port" or "[v6]:port" -> (host, port). Raises ValueError."""
    text = text.strip()
    if not text:
        raise ValueError("an address is needed, such as 192.168.1.20:7777")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    number = int(port) if port else default_port
    if not 0 < number < 65536:
        raise ValueError(f"port {number} is out of range")
    return host, number


async def connect(
    host: str,
    port: int,
    name: str,
    password: str | None = None,
    process: HostProcess | None = None,
    table: int | None = None,
    keeper: SeatKeeper | None = None,
) -> Session:
    """Connect to a host's lobby (or straight to a seat at `table`). Raises Refused (wrong
    password, version mismatch, full table...), OSError, TimeoutError.

    With a `keeper`, a seat token kept for this host (if the host still holds that seat) takes
    the seat back, and each new token is kept."""
    token = keeper.find() if keeper is not None else None
    while True:
        client = Client(host, port, name, password=password or None, table=table, token=token)
        session = Session(client, process, keeper=keeper)
        try:
            await client.connect()
        except Refused as exc:
            if token is not None and keeper is not None and exc.code == ErrorCode.BAD_TOKEN.value:
                await client.close()
                keeper.forget(token)  # that seat is gone (the game ended): come in as anyone does
                token = None
                continue
            await session.close()
            raise
        except BaseException:
            await session.close()
            raise
        session.start()
        return session
