"""Per-address accounting, sans I/O: what counts as one source address, and token buckets kept
per address. The game host, LAN discovery and the SSH front door all limit by address with these.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from typing import Final

IPV6_PREFIX: Final = 64
"""An IPv6 peer is counted by its /64 (one household or host usually has a whole /64)."""


def address_key(address: str) -> str:
    """The address a peer is counted under: an IPv4 address as it is, an IPv4-mapped IPv6 address
    as its IPv4 address, any other IPv6 address as its /64; anything else as given."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


class Buckets:
    """A token bucket per address (`rate` a second, at most `burst`), for at most `size`
    addresses: the one heard from least recently is forgotten first (a full bucket again)."""

    def __init__(self, rate: float, burst: int, size: int = 1024) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float) -> bool:
        """Take one token from `key`'s bucket; False if it is empty."""
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        ok = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if ok else tokens, now)
        if len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return ok

    def __len__(self) -> int:
        return len(self._buckets)
