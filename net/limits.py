"""The protocol's limits and budgets: every one a named constant (docs/protocol.md lists them)."""

from __future__ import annotations

from typing import Final

from core.structs import Struct

MAX_FRAME: Final = 64 * 1024
"""Largest frame body in bytes, either way; a bigger header is refused before any body is read."""
FRAMES_PER_SECOND: Final = 30.0
"""Sustained frames per second a client may send (a token bucket refilled at this rate)."""
FRAME_BURST: Final = 60
"""Frames a client may send at once before the rate limit applies."""
MAX_CONNECTIONS: Final = 256
"""Connections without a seat one host keeps at a time (seated players are not counted: a seat
token always gets back in); a newcomer past it makes room by closing the least useful one."""
PER_ADDRESS: Final = 32
"""Connections without a seat from one address (an IPv4 address, an IPv6 /64); past it, a
newcomer's `hello` is told `host_full`."""
PENDING_PER_ADDRESS: Final = 8
"""Connections from one address that have not said `hello` yet; a newer one closes the oldest."""
LOBBY_TIMEOUT: Final = 600.0
"""Seconds a connection may stay in the lobby (no seat, not watching) before it is closed."""
TABLES_PER_ADDRESS: Final = 2
"""Tables people from one address may have opened (`create`) and still open at once."""
TABLES_MAX: Final = 50
"""Tables one host may have open at once (`--tables`); the lobby frame lists them all."""
MAX_ERRORS: Final = 10
"""Protocol errors (bad frames, bad fields, rate limit) before the host disconnects a client."""
HELLO_TIMEOUT: Final = 10.0
"""Seconds a new connection has to complete its `hello`."""
PARTIAL_FRAME_TIMEOUT: Final = 15.0
"""Seconds a frame may take to arrive once its first byte came (slow senders are dropped)."""
PING_INTERVAL: Final = 5.0
"""Seconds between pings, both ways; each side measures latency from its own pings."""
IDLE_TIMEOUT: Final = 20.0
"""Seconds without any frame from the peer before the connection is treated as dead."""
SEND_TIMEOUT: Final = 10.0
"""Seconds a send may stay blocked (a client that stops reading) before the host drops it."""
MAX_QUEUED: Final = 1024 * 1024
"""Bytes queued for one client before it is dropped as a slow reader."""
NAME_MAX: Final = 24
"""Characters in a player name, after control characters are removed; longer names are cut."""
CHAT_MAX: Final = 200
"""Characters in one chat line, after control characters are removed; longer lines are cut."""
CLEAN_SCAN: Final = 16
"""Names and chat are cleaned from their first CLEAN_SCAN x limit characters only (the rest is
cut unread), so a long line costs the host no more than a short one."""
TOKEN_MAX: Final = 64
"""Characters in a seat token a client sends (the host's are 32 hex digits)."""
PASSWORD_MAX: Final = 256
"""Characters in a password a client sends."""
TEXT_MAX: Final = 200
"""Characters in any other string a client sends (a level, an edition, a rules hash) and in the
host's own texts (reasons, table names)."""
OPTION_MAX: Final = 16
"""Items in one list of an option value (lists nest at most OPTION_DEPTH deep)."""
OPTION_DEPTH: Final = 3
CHAT_HISTORY: Final = 50
"""Chat lines a table or the lobby remembers for newcomers."""
EVENT_HISTORY: Final = 400
"""Updates per seat the host keeps so a reconnecting client gets the events it missed."""
SNAPSHOT_EVENTS: Final = 300
"""Most events a snapshot carries (older ones are left out, and the snapshot says so)."""
BOT_DELAY_MAX: Final = 5.0
"""Most seconds a bot of a table opened with `create` waits before each move (its `bot_delay`)."""
TABLE_SEATS_MAX: Final = 6
"""Seats at one table (the game is for 2 to 6)."""
REACTION_WINDOW: Final = 1.5
"""Seconds a reaction window stays open at least when two or more humans play (timing hides hands)."""
REACTION_LIMIT: Final = 20.0
"""Seconds a player has to answer a reaction before the host passes for them (0: no limit)."""
TURN_LIMIT: Final = 120.0
"""Seconds a player has for each decision of their turn before a bot plays for them (0: no limit)."""
AWAY_GRACE: Final = 20.0
"""Seconds a disconnected player keeps their seat to themselves before a bot plays it."""
RECONNECT_DELAYS: Final = (0.2, 0.5, 1.0, 2.0, 4.0)
"""Client back-off between reconnection attempts (the last repeats)."""
RECONNECT_GIVE_UP: Final = 120.0
"""Seconds a client keeps trying to reconnect before it gives up."""


class Limits(Struct):
    """The limits one host or client runs with; tests shrink them, nobody else needs to. A
    Struct (core.structs, a NamedTuple): every client defines it at start, where a frozen
    dataclass costs far more (issue 9)."""

    max_frame: int = MAX_FRAME
    frames_per_second: float = FRAMES_PER_SECOND
    frame_burst: int = FRAME_BURST
    max_connections: int = MAX_CONNECTIONS
    per_address: int = PER_ADDRESS
    pending_per_address: int = PENDING_PER_ADDRESS
    lobby_timeout: float = LOBBY_TIMEOUT
    tables_per_address: int = TABLES_PER_ADDRESS
    max_errors: int = MAX_ERRORS
    hello_timeout: float = HELLO_TIMEOUT
    partial_frame_timeout: float = PARTIAL_FRAME_TIMEOUT
    ping_interval: float = PING_INTERVAL
    idle_timeout: float = IDLE_TIMEOUT
    send_timeout: float = SEND_TIMEOUT
    max_queued: int = MAX_QUEUED
