"""LAN discovery over UDP: a host's `Responder` answers probes; a `Finder` sends them and keeps
the list of games heard from. The messages are `net/discovery.py`'s (sans I/O).

In real use probes go to the LAN's broadcast addresses (`default_targets`); the targets are a
parameter everywhere, so tests point them at 127.0.0.1 and send nothing else anywhere.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, cast

from net.clock import Clock, LoopClock, sleep
from net.discovery import (
    DATAGRAM_MAX,
    DISCOVERY_PORT,
    NONCE_MAX,
    Game,
    announcement,
    probe,
    read_announcement,
    read_probe,
)
from net.peers import Buckets, address_key

log = logging.getLogger(__name__)

REPLIES_PER_SECOND: Final = 20.0
"""Sustained announcements a host sends per second, to everyone together (a token bucket)."""
REPLY_BURST: Final = 40
"""Announcements a host may send at once before the rate applies."""
REPLIES_PER_ADDRESS: Final = 2.0
"""Sustained announcements per second to one address (a finder probes once a second), so one
noisy machine cannot use up the answers everyone else is waiting for."""
ADDRESS_BURST: Final = 5
"""Announcements one address may get at once before its own rate applies."""
ADDRESSES_KEPT: Final = 1024
"""Addresses whose buckets a host remembers (the least recently heard from is forgotten first)."""
PROBE_INTERVAL: Final = 1.0
"""Seconds between probe rounds while a list of games is shown."""
FIRST_WAIT: Final = 0.6
"""Seconds `discover` listens after its probes (the games found "within a second")."""
GAME_TTL: Final = 3.5
"""Seconds a game stays listed after its last answer (three probe rounds and a half)."""
WATCH_ROUNDS: Final = 600
"""Most probe rounds one `Finder.run` sends (ten minutes at one a second); then it stops."""
FOUND_MAX: Final = 64
"""Most games a finder keeps (the rest of a crowded or hostile network is ignored)."""

Target = tuple[str, int]
"""(address, UDP port) a probe is sent to."""


def answers_to(address: str) -> bool:
    """Whether a host answers probes from `address`: loopback, private and link-local addresses
    only, so discovery never talks to the internet."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local


def is_loopback(address: str) -> bool:
    """127.0.0.0/8, ::1 or "localhost": only this machine reaches it."""
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def listen_address(bind: str) -> str:
    """Where a host bound to `bind` (TCP) listens for probes. A host on every address, or on one
    LAN address, listens on every address: a socket bound to 192.168.1.20 never receives the
    broadcasts to 192.168.1.255 that probes are. A host bound to loopback listens there only,
    and so is found by probes from this machine alone."""
    if is_loopback(bind):
        return "127.0.0.1"
    return "0.0.0.0"


def reply_address(bind: str) -> str | None:
    """The address a host bound to `bind` answers from, so that a finder (which joins the
    answer's source) joins where the game listens; None: from the listening socket."""
    if bind in ("", "0.0.0.0", "::") or is_loopback(bind):
        return None
    return bind


class Responder(asyncio.DatagramProtocol):
    """A host's side: answer each valid probe from a LAN address with `describe()` (from the
    `reply` transport if given: the address the game itself listens on)."""

    def __init__(
        self,
        describe: Callable[[], Game],
        *,
        rate: float = REPLIES_PER_SECOND,
        burst: int = REPLY_BURST,
        per_address: float = REPLIES_PER_ADDRESS,
        address_burst: int = ADDRESS_BURST,
        allow: Callable[[str], bool] = answers_to,
        reply: asyncio.DatagramTransport | None = None,
    ) -> None:
        self.describe = describe
        self.rate = rate
        self.burst = burst
        self.allow = allow
        self.addresses = Buckets(per_address, address_burst, ADDRESSES_KEPT)
        self.transport: asyncio.DatagramTransport | None = None
        self.reply = reply
        self.answered = 0
        self.ignored = 0
        self._tokens = float(burst)
        self._refill = time.monotonic()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.DatagramTransport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.reply is not None:
            self.reply.close()

    def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
        host = str(addr[0])
        nonce = read_probe(data) if self.allow(host) else None
        if (
            nonce is None
            or not self.addresses.take(address_key(host), time.monotonic())
            or not self._take_token()
            or self.transport is None
        ):
            self.ignored += 1
            return
        try:
            reply = announcement(self.describe(), nonce)
        except Exception:  # describing the host must not stop discovery
            log.exception("discovery: could not describe the host")
            return
        (self.reply or self.transport).sendto(reply, addr)
        self.answered += 1

    def error_received(self, exc: Exception) -> None:
        log.debug("discovery: %s", exc)

    def _take_token(self) -> bool:
        now = time.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refill) * self.rate)
        self._refill = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


def _udp_socket(bind: str, port: int, *, broadcast: bool = False) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # several hosts on one machine may all answer broadcasts on the discovery port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if broadcast:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        sock.setblocking(False)
        sock.bind((bind, port))
    except BaseException:
        sock.close()
        raise
    return sock


async def start_responder(
    describe: Callable[[], Game], bind: str = "0.0.0.0", port: int = DISCOVERY_PORT
) -> tuple[asyncio.DatagramTransport, Responder]:
    """Answer probes for a game host bound (TCP) to `bind`: listen on UDP `listen_address(bind)`
    and `port` (0 picks a free port; the transport's sockname says which), answer from
    `reply_address(bind)`. Raises OSError if a port cannot be had. Close the transport to stop."""
    loop = asyncio.get_running_loop()
    reply = None
    source = reply_address(bind)
    if source is not None:
        reply, _ = await loop.create_datagram_endpoint(asyncio.DatagramProtocol, sock=_udp_socket(source, 0))
    responder = Responder(describe, reply=reply)
    try:
        sock = _udp_socket(listen_address(bind), port)
        transport, _ = await loop.create_datagram_endpoint(lambda: responder, sock=sock)
    except BaseException:
        if reply is not None:
            reply.close()
        raise
    return transport, responder


# ---- finding games ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Found:
    """A game heard from: `address` is where the answer came from, `game.port` its TCP port."""

    address: str
    game: Game
    seen: float
    """When the last answer came, on the finder's clock."""

    @property
    def join_address(self) -> str:
        return f"{self.address}:{self.game.port}"

    @property
    def this_machine_only(self) -> bool:
        """A host bound to loopback: only this machine can join it."""
        return is_loopback(self.address)


def broadcast_addresses() -> list[str]:
    """This machine's IPv4 broadcast addresses, one per subnet of its interfaces but loopback
    (from ifaddr: Linux, macOS and Windows alike), then the limited broadcast 255.255.255.255.
    A /31 or /32 address (a point-to-point link) has no broadcast address of its own."""
    import ifaddr

    found: list[str] = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: (address, flowinfo, scope)
            subnet = ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False)
            addr = str(subnet.broadcast_address)
            if subnet.is_loopback or subnet.prefixlen >= 31 or addr in found:
                continue
            found.append(addr)
    found.append("255.255.255.255")
    return found


def default_targets(port: int = DISCOVERY_PORT) -> list[Target]:
    """Where probes go in real use: every broadcast address of this machine, and 127.0.0.1 (a
    host bound to loopback, which only this machine can join, answers there alone)."""
    return [(addr, port) for addr in broadcast_addresses()] + [("127.0.0.1", port)]


def parse_target(text: str, port: int = DISCOVERY_PORT) -> Target:
    """ "ADDRESS" or "ADDRESS:PORT" (a host, or a subnet's broadcast address). Raises ValueError."""
    host, _, port_text = text.strip().partition(":")
    if not host:
        raise ValueError(f"not an address: {text!r}")
    number = int(port_text) if port_text else port
    if not 0 < number < 65536:
        raise ValueError(f"port {number} is out of range")
    return host, number


class _Listener(asyncio.DatagramProtocol):
    def __init__(self, finder: Finder) -> None:
        self.finder = finder

    def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
        self.finder.heard(data, str(addr[0]))

    def error_received(self, exc: Exception) -> None:
        log.debug("discovery: %s", exc)


class Finder:
    """Probes `targets` and keeps the games that answer, newest answers first.

    `await finder.run(on_change)` probes every `interval` seconds for at most `rounds` rounds
    (cancel it to stop sooner), calling `on_change(games)` whenever the list changes.
    `await discover(targets)` is the one-shot form. Its rounds, waits and the games' age run on
    `clock` (the event loop's unless given: a test moves a fake one round by round).
    """

    def __init__(self, targets: Sequence[Target], *, bind: str = "0.0.0.0", clock: Clock | None = None) -> None:
        self.targets = list(targets)
        self.bind = bind
        self.clock: Clock = clock or LoopClock()
        self.games: dict[tuple[str, int], Found] = {}
        self._nonces: list[int] = []
        self._changed = False

    def heard(self, data: bytes, address: str) -> None:
        """Take in one datagram from `address` (ignored unless it answers one of our probes)."""
        if len(data) > DATAGRAM_MAX:
            return
        for nonce in self._nonces:
            game = read_announcement(data, nonce)
            if game is not None:
                break
        else:
            return
        key = (address, game.port)
        if key not in self.games and len(self.games) >= FOUND_MAX:
            return
        old = self.games.get(key)
        self.games[key] = Found(address, game, self.clock.now())
        if old is None or old.game != game:
            self._changed = True

    def expire(self, now: float | None = None) -> None:
        now = self.clock.now() if now is None else now
        for key, found in list(self.games.items()):
            if now - found.seen > GAME_TTL:
                del self.games[key]
                self._changed = True

    def listed(self) -> list[Found]:
        """The games heard from, each once: a host of this machine that also answered from a
        LAN address is not listed again at 127.0.0.1."""
        games = list(self.games.values())
        seen_on_lan = {(f.game.host, f.game.port) for f in games if not f.this_machine_only}
        games = [f for f in games if not (f.this_machine_only and (f.game.host, f.game.port) in seen_on_lan)]
        return sorted(games, key=lambda f: (f.game.host.lower(), f.address, f.game.port))

    def _send(self, transport: asyncio.DatagramTransport) -> None:
        nonce = secrets.randbelow(NONCE_MAX)
        self._nonces = [nonce, *self._nonces[:2]]  # answers to the last three rounds count
        data = probe(nonce)
        for target in self.targets:
            try:
                transport.sendto(data, target)
            except OSError as exc:  # an unreachable network, a firewall: try the others
                log.debug("discovery: probe to %s:%d failed: %s", *target, exc)

    async def run(
        self,
        on_change: Callable[[list[Found]], None] | None = None,
        *,
        rounds: int = WATCH_ROUNDS,
        interval: float = PROBE_INTERVAL,
        first_wait: float = FIRST_WAIT,
    ) -> list[Found]:
        """Probe for `rounds` rounds (at most), then return the games listed.

        The first call of `on_change` comes `first_wait` seconds after the first probes, found
        or not; later ones when the list changes. Cancelling it is safe: the socket is closed."""
        loop = asyncio.get_running_loop()
        sock = _udp_socket(self.bind, 0, broadcast=True)
        transport, _ = await loop.create_datagram_endpoint(lambda: _Listener(self), sock=sock)
        try:
            for n in range(max(1, rounds)):
                self._send(transport)
                if n == 0:
                    await sleep(self.clock, first_wait)
                    self.expire()
                    self._changed = False
                    if on_change is not None:
                        on_change(self.listed())
                    if rounds == 1:
                        break
                    await sleep(self.clock, max(0.0, interval - first_wait))
                    continue
                await sleep(self.clock, interval)
                self.expire()
                if self._changed and on_change is not None:
                    on_change(self.listed())
                self._changed = False
        finally:
            transport.close()
        return self.listed()


async def discover(
    targets: Sequence[Target] | None = None, wait: float = FIRST_WAIT, *, bind: str = "0.0.0.0"
) -> list[Found]:
    """Probe once (the LAN's broadcast addresses unless `targets` is given), listen `wait`
    seconds, return the games that answered. Cancelling it is safe."""
    finder = Finder(default_targets() if targets is None else targets, bind=bind)
    return await finder.run(rounds=1, first_wait=wait)
