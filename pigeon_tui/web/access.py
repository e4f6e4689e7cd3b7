"""Who may open a tab, sans I/O (the caller passes the time): the password, compared in constant
time; wrong passwords counted per address; the logins a cookie stands for."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import OrderedDict, deque

from pigeon_tui.web.config import LOGIN_LIFETIME, MAX_LOGINS, MAX_TRACKED_ADDRESSES


class Password:
    """The server's password. Both sides are hashed first, so the comparison takes the same time
    whatever is given, its length included."""

    def __init__(self, secret: str) -> None:
        self._digest = hashlib.sha256(secret.encode()).digest()

    def matches(self, given: str) -> bool:
        return hmac.compare_digest(hashlib.sha256(given.encode()).digest(), self._digest)


class RateLimit:
    """At most `failures` wrong passwords per address within `window` seconds; then that address
    waits until the oldest of them is `window` old. A right password clears its count."""

    def __init__(self, failures: int, window: float, max_addresses: int = MAX_TRACKED_ADDRESSES) -> None:
        self.failures = failures
        self.window = window
        self.max_addresses = max_addresses
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def wait(self, address: str, now: float) -> float:
        """Seconds `address` must wait before its next try (0: it may try now)."""
        times = self._seen.get(address)
        if times is None:
            return 0.0
        while times and now - times[0] >= self.window:
            times.popleft()
        if not times:
            del self._seen[address]
            return 0.0
        if len(times) < self.failures:
            return 0.0
        return times[0] + self.window - now

    def failed(self, address: str, now: float) -> None:
        times = self._seen.pop(address, None) or deque(maxlen=self.failures)
        times.append(now)
        self._seen[address] = times  # most recent last: the oldest address is forgotten first
        while len(self._seen) > self.max_addresses:
            self._seen.popitem(last=False)

    def succeeded(self, address: str) -> None:
        self._seen.pop(address, None)


class Logins:
    """Logins by cookie value: random tokens, each valid for `lifetime` seconds. Kept in memory
    only (a restarted server asks again); beyond `max_logins` the oldest is forgotten."""

    def __init__(self, lifetime: float = LOGIN_LIFETIME, max_logins: int = MAX_LOGINS) -> None:
        self.lifetime = lifetime
        self.max_logins = max_logins
        self._expiry: OrderedDict[str, float] = OrderedDict()

    def new(self, now: float) -> str:
        token = secrets.token_urlsafe(32)
        self._expiry[token] = now + self.lifetime
        while len(self._expiry) > self.max_logins:
            self._expiry.popitem(last=False)
        return token

    def valid(self, token: str | None, now: float) -> bool:
        if not token:
            return False
        expiry = self._expiry.get(token)
        if expiry is None:
            return False
        if now >= expiry:
            del self._expiry[token]
            return False
        return True

    def __len__(self) -> int:
        return len(self._expiry)
