"""LAN discovery: the messages (bytes only), a host's responder and the finder over UDP. Every
probe goes to 127.0.0.1: no broadcast, no multicast, no other address."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest

import net.discovery_udp
from net.client import Client
from net.clock import FakeClock, LoopFakeClock
from net.discovery import (
    ANNOUNCE_MAX,
    DISCOVERY_PORT,
    PROBE_SIZE,
    Game,
    TableSummary,
    announcement,
    probe,
    read_announcement,
    read_probe,
)
from net.discovery_udp import (
    FIRST_WAIT,
    GAME_TTL,
    PROBE_INTERVAL,
    Finder,
    Responder,
    answers_to,
    discover,
    listen_address,
    parse_target,
    reply_address,
)
from net.discovery_udp import broadcast_addresses as real_broadcast_addresses  # before conftest stubs it
from net.host import lan_addresses
from net.messages import PROTOCOL_VERSION
from pigeon_tui.cli import parser
from tests.net.helpers import running_host, table_config

LOOPBACK = "127.0.0.1"


def _game(**kw: Any) -> Game:
    base: dict[str, Any] = dict(host="den", port=7777, protocol=1, password=False, tables=1, free=3)
    base.update(kw)
    return Game(**base)


# ---- messages -----------------------------------------------------------------------------


def test_probe_round_trip_is_padded_and_short_ones_are_ignored() -> None:
    data = probe(12345)
    assert len(data) == PROBE_SIZE
    assert read_probe(data) == 12345
    assert read_probe(data[:-1]) is None  # a short probe could be used to amplify: not answered
    small = msgpack.packb({"t": "pigeon?", "v": 1, "n": 1})
    assert read_probe(small) is None
    with pytest.raises(ValueError):
        probe(-1)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1" * PROBE_SIZE,
        random.Random(1).randbytes(PROBE_SIZE),
        msgpack.packb([1, 2, 3]) + b"\0" * PROBE_SIZE,
        msgpack.packb({"t": "pigeon?", "v": 99, "n": 1, "pad": b"\0" * PROBE_SIZE}),
        msgpack.packb({"t": "pigeon?", "v": 1, "n": "one", "pad": b"\0" * PROBE_SIZE}),
        msgpack.packb({"t": "other", "v": 1, "n": 1, "pad": b"\0" * PROBE_SIZE}),
        b"\xdd\xff\xff\xff\xff" + b"\0" * PROBE_SIZE,  # an array claiming 4 billion items
    ],
    ids=["empty", "undecodable", "noise", "array", "version", "nonce", "type", "huge-array"],
)
def test_garbage_is_no_probe_and_no_announcement(data: bytes) -> None:
    assert read_probe(data) is None
    assert read_announcement(data) is None


def test_announcement_round_trip_and_nonce() -> None:
    game = _game(tables=2, free=4, password=True, listed=(TableSummary(1, "Table 1", "waiting", 4, 3),))
    data = announcement(game, 7)
    assert read_announcement(data, 7) == game
    assert read_announcement(data, 8) is None  # an answer to someone else's probe
    assert read_announcement(data) == game


def test_announcement_stays_small_however_big_the_host() -> None:
    tables = tuple(TableSummary(i, "\U0001f426" * 40, "waiting", 6, 6) for i in range(50))
    data = announcement(_game(host="\U0001f426" * 500, tables=50, free=300, listed=tables), 1)
    assert len(data) <= ANNOUNCE_MAX
    game = read_announcement(data, 1)
    assert game is not None and game.tables == 50 and game.free == 300


def test_announcement_fields_are_checked_and_names_cleaned() -> None:
    good: dict[str, Any] = {"t": "pigeon!", "v": 1, "n": 1, "host": "h", "port": 7777, "proto": 1}
    good.update({"pw": False, "tables": 1, "free": 1, "list": []})
    assert read_announcement(msgpack.packb(good)) is not None
    for field, bad in [("port", 0), ("port", 70000), ("pw", 1), ("host", 5), ("free", -1), ("list", [[1, 2]])]:
        assert read_announcement(msgpack.packb({**good, field: bad})) is None, field
    evil = read_announcement(msgpack.packb({**good, "host": "\x1b[2Jevil\x07"}))
    assert evil is not None and evil.host == "evil"


def test_only_lan_sources_are_answered() -> None:
    for address in ("127.0.0.1", "192.168.1.20", "10.0.0.7", "172.16.3.4", "169.254.1.1", "::1", "fe80::1"):
        assert answers_to(address), address
    for address in ("8.8.8.8", "1.1.1.1", "2001:4860::8888", "nonsense"):
        assert not answers_to(address), address


class _Transport:
    def __init__(self) -> None:
        self.sent: list[tuple[bytes, Any]] = []

    def sendto(self, data: bytes, addr: Any) -> None:
        self.sent.append((data, addr))


def test_responder_rate_limits_and_ignores_what_is_not_a_probe() -> None:
    responder = Responder(lambda: _game(), rate=0.001, burst=2)
    transport = _Transport()
    responder.transport = transport  # type: ignore[assignment]
    responder.datagram_received(b"hello", (LOOPBACK, 5000))
    responder.datagram_received(probe(1), ("8.8.8.8", 5000))
    assert transport.sent == []
    for n in range(5):
        responder.datagram_received(probe(n), (LOOPBACK, 5000))
    assert [read_announcement(d) is not None for d, _ in transport.sent] == [True, True]
    assert all(len(d) <= ANNOUNCE_MAX for d, _ in transport.sent)
    assert responder.ignored == 5


def test_one_noisy_address_does_not_use_up_everyone_s_answers() -> None:
    """Each address has its own small bucket inside the host's: a flood of probes from one
    address gets a few answers, and a probe from another address is still answered."""
    responder = Responder(lambda: _game(), rate=0.001, burst=40, per_address=0.001, address_burst=5)
    transport = _Transport()
    responder.transport = transport  # type: ignore[assignment]
    for n in range(200):
        responder.datagram_received(probe(n), ("192.168.1.66", 5000))
    assert len(transport.sent) == 5
    responder.datagram_received(probe(7), ("192.168.1.20", 5000))
    assert len(transport.sent) == 6 and transport.sent[-1][1] == ("192.168.1.20", 5000)
    for n in range(100):  # the /64 of an IPv6 address counts as one address
        responder.datagram_received(probe(n), (f"fe80::{n + 1:x}", 5000, 0, 0))
    assert len(transport.sent) == 11


def test_parse_target_and_join_without_an_address() -> None:
    assert parse_target("192.168.1.255") == ("192.168.1.255", 7778)
    assert parse_target("10.0.0.2:9000") == ("10.0.0.2", 9000)
    with pytest.raises(ValueError):
        parse_target(":1")
    args = parser().parse_args(["join", "--discover-at", "127.0.0.1:9", "--name", "Ada"])
    assert args.address is None and args.discover_at == ["127.0.0.1:9"]


def test_tests_never_probe_beyond_loopback() -> None:
    """The autouse fixture (tests/conftest.py) keeps default targets on loopback."""
    assert {addr for addr, _ in net.discovery_udp.default_targets()} == {LOOPBACK}


# ---- over UDP, on loopback ----------------------------------------------------------------


async def test_a_host_answers_with_its_port_tables_free_seats_and_version() -> None:
    async with running_host(table_config(seats=4, bots=1), discovery_port=0, name="Den", password="pw") as host:
        udp = host.discovery_port
        assert udp is not None and udp != host.port
        found = await discover([(LOOPBACK, udp)], bind=LOOPBACK)
        port = host.port
    assert len(found) == 1
    f = found[0]
    assert (f.address, f.game.port, f.join_address) == (LOOPBACK, port, f"{LOOPBACK}:{port}")
    assert f.game.host == "Den" and f.game.protocol == PROTOCOL_VERSION and f.game.password
    assert (f.game.tables, f.game.free) == (1, 3)
    assert f.game.listed == (TableSummary(1, "Table 1", "waiting", 4, 3),)


async def test_no_discovery_means_no_answer() -> None:
    async with running_host(table_config()) as host:
        assert host.discovery_port is None
    async with running_host(table_config(), discovery_port=0) as host:
        udp = host.discovery_port
        assert udp is not None
    # the host is closed: nothing answers on that port any more
    assert await discover([(LOOPBACK, udp)], wait=0.3, bind=LOOPBACK) == []


async def test_the_list_is_refreshed_live_and_bounded() -> None:
    """A finder's list follows the host's answers round by round (a seat taken shows at the next
    answer), drops a host GAME_TTL after its last answer, and stops after its rounds. The rounds
    and the games' age run on a clock the test moves: each answer is awaited as it comes (real
    UDP), then the clock goes on to the next round, with the real interval, wait and TTL."""
    clock = LoopFakeClock()
    seen: list[list[int]] = []
    async with running_host(table_config(seats=4, bots=0), discovery_port=0) as host:
        udp = host.discovery_port
        assert udp is not None
        finder = Finder([(LOOPBACK, udp)], bind=LOOPBACK, clock=clock)

        def changed(found: list[net.discovery_udp.Found]) -> None:
            seen.append([f.game.free for f in found])

        run = asyncio.create_task(finder.run(changed, rounds=30))
        await _answered(finder, free=4)
        await _next_round(clock, run)  # FIRST_WAIT after the first probes: the list is shown
        assert seen == [[4]] and clock.now() == FIRST_WAIT
        host.tables[1].sit(_Conn(), "Ada")  # a seat is taken: the next answers say so
        await _next_round(clock, run)  # the second round's probes go out
        await _answered(finder, free=3)
        await _next_round(clock, run)
        assert seen == [[4], [3]]
        heard = max(f.seen for f in finder.games.values())
    while not run.done():  # the host is gone: it drops off the list
        await _next_round(clock, run)
        if clock.now() - heard <= GAME_TTL:
            assert seen[-1] == [3], (clock.now(), heard)
    assert seen[-1] == [] and clock.now() == 30 * PROBE_INTERVAL, "30 rounds and no more"
    assert run.result() == []


async def _answered(finder: Finder, free: int) -> None:
    """Wait (in real time) until the host's answer saying `free` seats is in."""
    async with asyncio.timeout(10.0):
        while not any(f.game.free == free for f in finder.games.values()):
            await asyncio.sleep(0.001)


async def _next_round(clock: LoopFakeClock, run: asyncio.Task[Any]) -> None:
    """Once the finder waits on `clock` (or is done), move the clock to the end of that wait."""
    async with asyncio.timeout(10.0):
        while (due := clock.next_due()) is None and not run.done():
            await asyncio.sleep(0.001)
    if due is not None:
        clock.advance(due - clock.now())
    await asyncio.sleep(0)  # the finder's sleep returns on the loop's next step


class _Conn:
    """Enough of a connection for `Table.sit` (it sends the `seated` frame)."""

    name = "Ada"

    def send(self, message: Any) -> bool:
        return True


# ---- issue 9: a host bound to one address; a host bound to loopback ------------------------


def test_where_a_host_listens_for_probes_and_answers_from() -> None:
    """A socket bound to 192.168.1.20 never hears the broadcasts to 192.168.1.255 that probes
    are: such a host listens on every address and answers from its own, where the game is."""
    assert (listen_address("192.168.1.20"), reply_address("192.168.1.20")) == ("0.0.0.0", "192.168.1.20")
    assert (listen_address("0.0.0.0"), reply_address("0.0.0.0")) == ("0.0.0.0", None)
    assert (listen_address("127.0.0.1"), reply_address("127.0.0.1")) == (LOOPBACK, None)


async def test_a_host_bound_to_one_address_is_found_and_joined_there() -> None:
    """Issue 9: `host --bind ADDRESS` answered no probe (its probe socket was bound to that
    address). The probe here goes to 127.0.0.1, which only a socket listening on every address
    hears; the answer comes from the host's address, which the finder joins."""
    address = next(iter(lan_addresses()), LOOPBACK)
    async with running_host(table_config(), bind=address, discovery_port=0, name="Den") as host:
        udp = host.discovery_port
        assert udp is not None
        found = await discover([(LOOPBACK, udp)], wait=0.5)
        assert [(f.address, f.game.port, f.game.host) for f in found] == [(address, host.port, "Den")]
        client = Client(found[0].address, found[0].game.port, "Ada")
        await client.connect()
        await client.close()


async def test_a_host_bound_to_loopback_is_found_as_on_this_machine() -> None:
    """Issue 9: a host bound to 127.0.0.1 is listed (probes to 127.0.0.1 are among the default
    targets) and said to be on this machine, not taken for a firewall problem."""
    async with running_host(table_config(), discovery_port=0, name="Den") as host:
        udp = host.discovery_port
        assert udp is not None
        (found,) = await discover([(LOOPBACK, udp)], wait=0.5, bind=LOOPBACK)
        assert found.this_machine_only and found.join_address == f"{LOOPBACK}:{host.port}"
    assert ("127.0.0.1", DISCOVERY_PORT) in _real_default_targets()


def test_a_host_heard_on_the_lan_and_on_loopback_is_listed_once() -> None:
    finder = Finder([], clock=FakeClock())  # no event loop here: the finder's time is this clock
    finder._nonces = [5]
    finder.heard(announcement(_game(), 5), LOOPBACK)
    finder.heard(announcement(_game(), 5), "192.168.1.20")
    finder.heard(announcement(_game(host="other"), 5), LOOPBACK)
    assert [(f.address, f.game.host) for f in finder.listed()] == [("192.168.1.20", "den"), (LOOPBACK, "other")]


def _real_default_targets() -> list[tuple[str, int]]:
    """`default_targets` as it is without the test-wide fixture (which keeps probes on loopback)."""
    import importlib

    fresh = importlib.reload(importlib.import_module("net.discovery_udp"))
    try:
        fresh.broadcast_addresses = lambda: []  # type: ignore[attr-defined]
        return list(fresh.default_targets())
    finally:
        importlib.reload(fresh)


def test_broadcast_addresses_come_from_every_interface_not_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """LAN discovery probes every subnet of this machine whatever its system (ifaddr: Linux,
    macOS, Windows): one broadcast address per IPv4 subnet, none for loopback, IPv6 or a
    point-to-point /32, then 255.255.255.255."""
    import ifaddr

    def ip(address: Any, prefix: int, name: str) -> ifaddr.IP:
        return ifaddr.IP(address, prefix, name)

    adapters = [
        ifaddr.Adapter("lo0", "lo0", [ip("127.0.0.1", 8, "lo0"), ip(("::1", 0, 0), 128, "lo0")]),
        ifaddr.Adapter("en0", "Wi-Fi", [ip("192.168.1.23", 24, "Wi-Fi"), ip(("fe80::1", 0, 4), 64, "Wi-Fi")]),
        ifaddr.Adapter("en1", "Ethernet", [ip("10.20.30.40", 16, "Ethernet"), ip("192.168.1.24", 24, "Ethernet")]),
        ifaddr.Adapter("utun0", "VPN", [ip("100.64.0.7", 32, "VPN")]),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    assert real_broadcast_addresses() == ["192.168.1.255", "10.20.255.255", "255.255.255.255"]
