"""The one way to start a host child process (`pigeon-tui host`) and learn where it listens:
used by the app (a game against bots, hosting a LAN game), tests and benches.

Standard library only, and no asyncio until awaited: the CLI starts a private host first
thing, before it loads the engine or the UI, so the host gets ready while the app loads.
`spawn(spec)` starts the child at once (no event loop needed); `await process.ready()` reads
its ready line.

    host = await start_host(HostSpec(seats=3, bots=2, bot_delay=0))   # raises HostFailed
    ... Client(host.address, host.port, ...) ...
    await host.stop()
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Final

from core.structs import Struct
from net.forked import Forked, can_fork, fork
from net.places import SHARED_ACCOUNT_ENV

READY_LINE: Final = "LISTENING"
"""First word of the last line `pigeon-tui host --ready` prints once it listens:
`LISTENING 127.0.0.1 54321`. The lines before it (the `pigeon-tui join` lines to share, the
discovery port) are kept in `HostProcess.said`."""
HOST_COMMAND: Final = (sys.executable, "-m", "pigeon_tui", "host")
"""The host child: the app's own headless `host` subcommand, with the running interpreter."""
START_TIMEOUT: Final = 15.0
"""Seconds the child has to print its ready line."""
STOP_GRACE: Final = 3.0
"""Seconds the child has to exit once its stdin is closed, before it is killed."""
_LAST_WORDS: Final = 2000
"""Characters of a failed child's stderr quoted in `HostFailed`."""


class HostFailed(Exception):
    """The host child did not start (its last words, if any, are in the message)."""


class HostSpec(Struct):
    """The options of a `pigeon-tui host` child. `argv` is the only place they become a command
    line, and the child parses them with the `host` subcommand's own parser. A Struct (core.structs,
    a NamedTuple): the CLI defines it before it starts the private host, and a frozen dataclass of
    20 fields costs ~10 M instructions to define, a typing.NamedTuple ~1.4 M (issue 9)."""

    seats: int = 4
    bots: int = 0
    levels: tuple[str, ...] = ("random",)
    """Bot level per bot seat in seat order (the last repeats)."""
    edition: str = "3.5"
    seed: int | None = None
    bind: str = "127.0.0.1"
    port: int = 0
    bot_delay: float = 0.5
    """Seconds a bot waits before each move of its turn."""
    password: str | None = None
    reaction_limit: float | None = None
    """Seconds to react (0: no limit); None: the host's default."""
    turn_limit: float | None = None
    """Seconds per decision of a turn (0: no limit); None: the host's default."""
    discovery: bool = False
    """Answer LAN discovery probes (a host others join)."""
    log_file: str | None = None
    """Log to this file ("": `host.log` in the user log directory), and keep the child's stderr
    there too; None: the child's stderr is this process's."""
    verbose: bool = False
    """Log connections and table events, not only warnings."""
    extra: tuple[str, ...] = ()
    """More `pigeon-tui host` options, as written (`--reaction-window 0`)."""
    game: str = "pigeons"
    """The game its table plays (a `core.games` id)."""
    db: str | None = None
    """Its games database ("": none, games kept in memory); None: the default one."""
    house: tuple[tuple[str, str], ...] = ()
    """House rules (core.house) as (name, value) pairs: `--house-rule name=value` each."""
    custom: tuple[str, ...] = ()
    """The customizable cards in their text form (core.cards.custom_from_text): `--custom-card` each."""
    private_game_host: bool = False
    """The private host of a game against bots (`--private`): it brings back the game a person
    left unfinished here, and gives up older ones when a new game starts."""

    @classmethod
    def private_game(
        cls,
        players: int,
        levels: Sequence[str],
        edition: str,
        seed: int | None,
        bot_delay: float,
        game: str = "pigeons",
        house: tuple[tuple[str, str], ...] = (),
        custom: tuple[str, ...] = (),
    ) -> HostSpec:
        """A game against bots on this machine: every seat but yours is a bot, at the level given
        for its seat. No time limits (nobody else waits for you), no discovery, a log file."""
        return cls(
            seats=players,
            bots=players - 1,
            levels=tuple(levels) or ("random",),
            edition=edition,
            seed=seed,
            bot_delay=bot_delay,
            reaction_limit=0,
            turn_limit=0,
            log_file="",
            verbose=True,
            game=game,
            house=house,
            custom=custom,
            private_game_host=True,
            db="" if os.environ.get(SHARED_ACCOUNT_ENV) else None,
        )

    @property
    def private(self) -> bool:
        """Bound to this machine only (no one else can join)."""
        return self.bind.startswith("127.") or self.bind in ("::1", "localhost")

    def options(self) -> list[str]:
        """These settings as `pigeon-tui host` options (every one written out)."""
        args = ["--game", self.game, "--bind", self.bind, "--port", str(self.port), "--seats", str(self.seats)]
        args += ["--bots", str(self.bots), "--bot-level", ",".join(self.levels), "--edition", self.edition]
        args += ["--bot-delay", _number(self.bot_delay)]
        for name, value in self.house:
            args += ["--house-rule", f"{name}={value}"]
        for card in self.custom:
            args += ["--custom-card", card]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        if self.password:
            args += ["--password", self.password]
        if self.reaction_limit is not None:
            args += ["--reaction-limit", _number(self.reaction_limit)]
        if self.turn_limit is not None:
            args += ["--turn-limit", _number(self.turn_limit)]
        if not self.discovery:
            args.append("--no-discovery")
        if self.log_file is not None:
            args += ["--log-file", self.log_file]
        if self.verbose:
            args.append("--verbose")
        if self.db is not None:
            args += ["--db", self.db] if self.db else ["--no-db"]
        if self.private_game_host:
            args.append("--private")
        return [*args, *self.extra]

    def argv(self, command: Sequence[str] = HOST_COMMAND) -> list[str]:
        """The child's command line: it says when it listens and ends with its stdin."""
        return [*command, *self.options(), "--ready", "--exit-with-stdin"]


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


async def _read_line(fd: int, unread: bytearray) -> bytes:
    """The next line of the pipe `fd` (what is left at its end, b"" once all is read), read as
    the event loop sees it readable. Not `asyncio.to_thread(readline)`: that starts the default
    executor's thread (and imports concurrent.futures.thread) on the app's way to its table
    (issue 9), for a line that is usually there already. `unread` keeps what came after it."""
    import asyncio

    loop = asyncio.get_running_loop()
    while (end := unread.find(b"\n")) < 0:
        readable = loop.create_future()

        def ready(readable: asyncio.Future[None] = readable) -> None:
            loop.remove_reader(fd)
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, ready)
        try:
            await readable
        finally:
            loop.remove_reader(fd)  # cancelled (a timeout) while waiting
        chunk = os.read(fd, 4096)  # readable: returns at once
        if not chunk:
            line = bytes(unread)
            unread.clear()
            return line
        unread += chunk
    line = bytes(unread[: end + 1])
    del unread[: end + 1]
    return line


class HostProcess:
    """A host running as a child process. It exits when `stop` closes its stdin."""

    def __init__(self, spec: HostSpec, process: subprocess.Popen[bytes] | Forked) -> None:
        self.spec = spec
        self.process = process
        self.address = ""
        """Where it listens, once `ready`."""
        self.port = 0
        self.said: tuple[str, ...] = ()
        """The lines it printed before its ready line."""

    @property
    def join_lines(self) -> tuple[str, ...]:
        """The `pigeon-tui join ADDRESS:PORT` lines it printed for others to type."""
        return tuple(line for line in self.said if line.startswith("pigeon-tui join "))

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    async def ready(self, timeout: float = START_TIMEOUT) -> HostProcess:  # noqa: ASYNC109  (a late host fails with why)
        """Wait for the ready line; returns self. Raises HostFailed (the child is then stopped).
        Cancelling it kills the child."""
        import asyncio

        out = self.process.stdout
        assert out is not None
        said: list[str] = []
        unread = bytearray()
        try:
            async with asyncio.timeout(timeout):
                while True:
                    raw = await _read_line(out.fileno(), unread)
                    if not raw:
                        code = await asyncio.to_thread(self.process.wait)
                        raise HostFailed(f"the host exited with status {code}{self._last_words()}")
                    line = raw.decode(errors="replace").strip()
                    words = line.split()
                    if len(words) == 3 and words[0] == READY_LINE:
                        self.address, self.port = words[1], int(words[2])
                        self.said = tuple(said)
                        return self
                    said.append(line)
        except TimeoutError:
            self.kill()
            raise HostFailed(f"the host did not start within {timeout:g} s") from None
        except ValueError:
            self.kill()
            raise HostFailed("the host printed a ready line without a port") from None
        except BaseException:
            self.kill()
            raise

    def _last_words(self) -> str:
        """What the child said on stderr before it went, or where its log is."""
        err = self.process.stderr
        if err is not None:
            with contextlib.suppress(OSError, ValueError):
                text = err.read().decode(errors="replace").strip()
                if text:
                    return ": " + text[-_LAST_WORDS:]
        if self.spec.log_file is not None:
            from net.logs import HOST_LOG, log_path

            return f" (its log: {log_path(self.spec.log_file, HOST_LOG)})"
        return ""

    async def stop(self) -> None:
        """Close its stdin (it exits by itself, its bot workers with it), kill it if it
        lingers. Safe to call twice."""
        import asyncio

        proc = self.process
        if proc.poll() is None:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            try:
                await asyncio.to_thread(proc.wait, STOP_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                await asyncio.to_thread(proc.wait)
        self._close_pipes()

    def kill(self) -> None:
        """Kill it now, without an event loop (the CLI's last resort)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close_pipes()

    def _close_pipes(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def spawn(
    spec: HostSpec, command: Sequence[str] = HOST_COMMAND, *, run_here: Callable[[list[str]], int] | None = None
) -> HostProcess:
    """Start the host child now; `await process.ready()` waits until it listens. Raises OSError
    if it cannot be started at all.

    With `run_here` (the `pigeon-tui` command's `main`), where it is safe the child is a fork of
    this process that runs `run_here(["host", ...])` (`net.forked`): it starts with what this
    process has imported. Either way it is in our process group: a terminal's hangup, or
    serve-web's end of a tab, ends it too."""
    if run_here is not None and can_fork():
        return HostProcess(spec, fork(spec.argv(("host",)), run_here, stderr=spec.log_file is not None))
    process = subprocess.Popen(
        spec.argv(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        # With a log file the child moves its stderr there once it has read its options; until
        # then (a bad option, a failed import) it comes here and `ready` quotes it.
        stderr=subprocess.PIPE if spec.log_file is not None else None,
        close_fds=True,
    )
    return HostProcess(spec, process)


async def start_host(spec: HostSpec, command: Sequence[str] = HOST_COMMAND) -> HostProcess:
    """Start a host child and wait until it listens. Raises HostFailed."""
    try:
        process = spawn(spec, command)
    except OSError as exc:
        raise HostFailed(f"could not run the host: {exc}") from None
    return await process.ready()
