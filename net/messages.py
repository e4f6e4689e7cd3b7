"""The protocol's frame types, defined once: one Struct (a NamedTuple, core.structs) per frame
type, whose annotated fields say each field's type and limits (net/schema.py reads them). Structs,
and annotations evaluated at once (no `from __future__ import annotations`: a string annotation
is compiled when read), because this module is imported on every client's start: defining it
costs ~10 M instructions with Structs, ~26 M with typing.NamedTuples (issue 9).

The host checks every client frame with `parse_client`, the client every host frame with
`parse_host`, and docs/protocol.md's field tables are `reference()` (a test keeps them equal).
"""

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from core.decisions import Decision, DecisionKind, Option, normalize
from core.games import DEFAULT, GAMES, game, record_from_dict, rules_text
from core.structs import Struct
from net.errors import ErrorCode, NetError
from net.limits import (
    BOT_DELAY_MAX,
    CHAT_MAX,
    NAME_MAX,
    OPTION_DEPTH,
    OPTION_MAX,
    PASSWORD_MAX,
    TABLE_SEATS_MAX,
    TABLES_MAX,
    TEXT_MAX,
    TOKEN_MAX,
)
from net.schema import ID_MAX, Bad, Codec, Cut, Range, Schema, Size

PROTOCOL_VERSION: Final = 1
"""Bumped whenever a frame changes shape; a client of another version is refused."""


RULES_HASH: Final = "5227362102dd9e26"
"""A digest of the card data of every game both sides play (`rules_digest()`): host and client
must agree on it. Written out rather than computed at import: every client imports this module as
it starts, and the digest cost it ~11 M instructions and hashlib (issue 9). A test keeps it equal
to `rules_digest()` (change the card data, and it says the new value), docs/protocol.md too."""


def rules_digest() -> str:
    """The digest of `core.games.rules_text()` that `RULES_HASH` must equal."""
    import hashlib

    return hashlib.sha256(rules_text().encode()).hexdigest()[:16]


# ---- field types ----------------------------------------------------------------------------

Int = Annotated[int, Range(0, ID_MAX)]
"""Ids, sequence numbers, counters."""
Aid = Annotated[int, Range(0, ID_MAX)] | None
SeatNo = Annotated[int, Range(0, TABLE_SEATS_MAX - 1)]
Seconds = Annotated[float, Range(0, 10**6)]
Text = Annotated[str, Size(TEXT_MAX)]
Name = Annotated[str, Size(NAME_MAX)]
"""A name as the host sends it (already cleaned and cut)."""
Code = Annotated[str, Size(32)]
"""An error code: `ErrorCode` values; a client keeps any it does not know as a string."""
Level = Annotated[str, Size(32)]


def _read_game_id(value: Any) -> str:
    if not isinstance(value, str) or value not in GAMES:
        raise ValueError("not a game id")
    return value


GameId = Annotated[str, Codec(_read_game_id, f"a game id: {', '.join(f'`{g}`' for g in GAMES)}")]
"""Which game a table plays (`core.games`); a table without one plays the default."""
Token = Annotated[str, Size(TOKEN_MAX)]


def read_option(value: Any, depth: int = 0) -> Any:
    """An option value as a client may send it: a string of at most TEXT_MAX characters, an
    integer from 0 to ID_MAX (no game offers another), or a list of at most OPTION_MAX of them,
    nested at most OPTION_DEPTH deep."""
    if isinstance(value, str):
        if len(value) <= TEXT_MAX:
            return value
    elif isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value <= ID_MAX:
            return value
    elif isinstance(value, list) and depth < OPTION_DEPTH and len(value) <= OPTION_MAX:
        return [read_option(v, depth + 1) for v in value]
    raise ValueError("not an option value")


_OPTION_WORDS: Final = (
    f"an option value (a string of at most {TEXT_MAX} characters, an integer from 0 to 2^53-1, "
    f"or a list of at most {OPTION_MAX} of them, {OPTION_DEPTH} deep)"
)
OptionValue = Annotated[Any, Codec(read_option, _OPTION_WORDS)]


# ---- client to host -------------------------------------------------------------------------


class Hello(Struct):
    """The first frame. `token` rejoins a seat; `table` sits there at once (or watches, with `watch`)."""

    v: Int
    rules: Annotated[str, Size(64)]
    name: Annotated[str, Cut(NAME_MAX)]
    token: Token | None = None
    password: Annotated[str, Size(PASSWORD_MAX)] | None = None
    last_seq: Int | None = None
    table: Int | None = None
    watch: bool = False


class Join(Struct):
    """Sit at a table that has not started: at `seat`, or the first free one."""

    table: Int
    seat: SeatNo | None = None
    aid: Aid = None


class Watch(Struct):
    """Watch a table (a snapshot follows if it is playing)."""

    table: Int
    aid: Aid = None


class Create(Struct):
    """Open a table and sit at it; a missing field takes the host's own setting."""

    seats: Annotated[int, Range(2, TABLE_SEATS_MAX)] | None = None
    bots: Annotated[int, Range(0, TABLE_SEATS_MAX - 1)] | None = None
    level: Annotated[str, Size(100)] | None = None
    """A level, or one per bot seat, comma-separated ("hard,greedy,random")."""
    edition: Annotated[str, Size(16)] | None = None
    game_id: GameId | None = None
    """The game to play (default: the host's own)."""
    bot_delay: Annotated[float, Range(0, BOT_DELAY_MAX)] | None = None
    """Seconds a bot waits before each move of its turn, so people can follow it (default:
    the host's own): the pace chosen by whoever opens a table against bots."""
    aid: Aid = None


class Leave(Struct):
    """Back to the lobby."""

    aid: Aid = None


class Start(Struct):
    """The owner starts the game with whoever is seated."""

    aid: Aid = None


class Rematch(Struct):
    """Ask for another game after `over`."""

    aid: Aid = None


class Here(Struct):
    """Take the seat back from the bot that played it."""

    aid: Aid = None


class Sync(Struct):
    """Ask for a snapshot (with the events after `seq`)."""

    seq: Int | None = None
    aid: Aid = None


class Choose(Struct):
    """Answer one of this seat's open decisions with one of its option values, as received."""

    id: Int
    option: OptionValue
    aid: Aid = None


class Say(Struct):
    """A chat line to the table."""

    text: Annotated[str, Cut(CHAT_MAX)]
    aid: Aid = None


class Ping(Struct):
    """A heartbeat; the other side answers `pong` with the same `n`."""

    n: Int


class Pong(Struct):
    """The answer to a `ping`."""

    n: Int


# ---- parts of host frames -------------------------------------------------------------------


class SeatInfo(Struct):
    """Who sits in a seat."""

    seat: SeatNo
    name: Name
    kind: Literal["human", "bot"]
    level: Level | None
    """A bot's level (also set for a person's seat while a bot plays it)."""
    connected: bool
    away: bool
    """A bot is playing for this person right now."""
    left: bool


class Settings(Struct):
    """A table's timing (seconds; 0 is none)."""

    reaction_window: Seconds
    reaction_limit: Seconds
    turn_limit: Seconds
    away_grace: Seconds
    bot_level: Level


class TableInfo(Struct):
    """A table as the lobby lists it; a `table` frame adds `owner`, `rematch` and `settings`."""

    id: Int
    name: Text
    phase: Literal["waiting", "playing", "over"]
    game: Int
    edition: Annotated[str, Size(16)]
    seats: Annotated[tuple[SeatInfo | None, ...], Size(TABLE_SEATS_MAX)]
    """None is a free seat."""
    watchers: Int
    owner: SeatNo | None = None
    rematch: Annotated[tuple[SeatNo, ...], Size(TABLE_SEATS_MAX)] = ()
    settings: Settings | None = None
    game_id: GameId = DEFAULT
    """The game this table plays."""


EVENT_FIELDS: Final = 16
"""Fields of one event, at most."""
EVENT_CARDS: Final = 128
"""Card ids in one event's list, at most."""


def _event_value(value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -ID_MAX <= value <= ID_MAX
    if isinstance(value, str):
        return len(value) <= 32
    if isinstance(value, list):
        return len(value) <= EVENT_CARDS and all(isinstance(v, str) and len(v) <= 16 for v in value)
    return False


def read_event(value: Any) -> Mapping[str, Any]:
    """An event map (its game's `Event.to_dict`): a `kind`, and fields of small values. The
    client turns it into its game's event (`core.games.Game.event_from_dict`)."""
    if not isinstance(value, dict) or not 0 < len(value) <= EVENT_FIELDS:
        raise ValueError("an event is a map of at most 16 fields")
    if not isinstance(value.get("kind"), str):
        raise ValueError("an event has a `kind`")
    for k, v in value.items():
        if not isinstance(k, str) or len(k) > 16 or not _event_value(v):
            raise ValueError(f"bad event field {str(k)[:16]!r}")
    return dict(value)


def _read_option_row(value: Any) -> Option:
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError("an option is [value, label, refs]")
    v, label, refs = value
    if not isinstance(label, str) or len(label) > TEXT_MAX:
        raise ValueError("bad label")
    if not isinstance(refs, list) or len(refs) > 64 or not all(isinstance(r, str) and len(r) <= 16 for r in refs):
        raise ValueError("bad refs")
    return Option(normalize(read_option(v)), label, tuple(refs))


class WireDecision(Struct):
    """A decision as the wire carries it (`core.decisions.Decision.to_dict`, with a per-seat id)."""

    id: Int
    player: SeatNo
    kind: DecisionKind
    prompt: Text
    options: Annotated[tuple[Annotated[Option, Codec(_read_option_row, "[value, label, refs]")], ...], Size(256)]


_DECISION: Final = Schema(WireDecision, "decision")


def read_decision(value: Any) -> Decision:
    w = _DECISION.parse(value)
    if not w.options or len({o.value for o in w.options}) != len(w.options):
        raise ValueError("a decision has distinct options, at least one")
    return Decision(w.id, w.player, DecisionKind(w.kind), w.prompt, w.options)


def _read_view(value: Any) -> Any:
    """A seat's view, by the game its map names (no name: the default game)."""
    if not isinstance(value, dict):
        raise ValueError("a view is a map")
    return game(value.get("game", DEFAULT)).view_from_dict(value)


def _read_score(value: Any) -> Mapping[str, int]:
    if not isinstance(value, dict) or len(value) > 32:
        raise ValueError("a score is a map")
    for k, v in value.items():
        if not isinstance(k, str) or len(k) > 32 or isinstance(v, bool) or not isinstance(v, int):
            raise ValueError("a score maps names to integers")
    return dict(value)


def _read_record(value: Any) -> Mapping[str, Any]:
    record_from_dict(value)
    return dict(value)


EventT = Annotated[Mapping[str, Any], Codec(read_event, "an event map, its game's `Event.to_dict` (see Updates)")]
DecisionT = Annotated[Decision, Codec(read_decision, "a decision (see Decisions and choices)")]
ViewT = Annotated[Any, Codec(_read_view, "a view, its game's `PlayerView.to_dict` (see Updates)")]


class Window(Struct):
    """A reaction window being shown: the same for every window and seat."""

    kind: Annotated[str, Size(16)]
    limit: Seconds | None


# ---- host to client -------------------------------------------------------------------------


class Welcome(Struct):
    """The handshake succeeded; `name` is the cleaned name the others see."""

    v: Int
    rules: Annotated[str, Size(64)]
    host: Name
    name: Name
    resumed: bool


class Bye(Struct):
    """The host closes the connection, and why."""

    code: Code
    text: Text


class Error(Struct):
    """A frame was dropped (a protocol error)."""

    code: Code
    text: Text


class Result(Struct):
    """The answer to a request: exactly one per request, `aid` as the request had it."""

    aid: Aid
    ok: bool
    code: Code | None = None
    text: Text | None = None


class LobbyInfo(Struct):
    """The host's tables, for a client not at one."""

    host: Name
    tables: Annotated[tuple[TableInfo, ...], Size(TABLES_MAX)]
    can_create: bool
    levels: Annotated[tuple[Level, ...], Size(16)]


class Seated(Struct):
    """You sit here; keep the token to come back. Only its owner ever gets a token."""

    table: Int
    seat: SeatNo
    token: Token


class Update(Struct):
    """One step of the game for this seat (see Updates)."""

    table: Int
    seq: Int
    events: Annotated[tuple[EventT, ...], Size(2048)]
    view: ViewT | None
    decisions: Annotated[tuple[DecisionT, ...], Size(16)]
    window: Window | None
    limit: Seconds | None


class Snapshot(Struct):
    """Everything a seat needs to go on; resets its `seq` (see Updates)."""

    table: Int
    seat: SeatNo | None
    seq: Int
    events: Annotated[tuple[EventT, ...], Size(2048)]
    view: ViewT | None
    decisions: Annotated[tuple[DecisionT, ...], Size(16)]
    window: Window | None
    limit: Seconds | None
    complete: bool


class Over(Struct):
    """The game ended."""

    table: Int
    game: Int
    winners: Annotated[tuple[SeatNo, ...], Size(TABLE_SEATS_MAX)]
    scores: Annotated[
        tuple[Annotated[Mapping[str, int], Codec(_read_score, "a map of integers")], ...], Size(TABLE_SEATS_MAX)
    ]
    names: Annotated[tuple[Name, ...], Size(TABLE_SEATS_MAX)]
    record: Annotated[Mapping[str, Any], Codec(_read_record, "a record, its game's `Record.to_dict`")]


class Chat(Struct):
    """A cleaned chat line (`seat` null for a spectator)."""

    table: Int
    name: Name
    seat: SeatNo | None
    text: Annotated[str, Size(CHAT_MAX)]


ClientFrame = Hello | Join | Watch | Create | Leave | Start | Rematch | Here | Sync | Choose | Say | Ping | Pong
HostFrame = (
    Welcome | Bye | Error | Result | LobbyInfo | Seated | TableInfo | Update | Snapshot | Over | Chat | Ping | Pong
)

CLIENT_FRAMES: Final[Mapping[str, Schema]] = {
    s.name: s
    for s in (
        Schema(c) for c in (Hello, Join, Watch, Create, Leave, Start, Rematch, Here, Sync, Choose, Say, Ping, Pong)
    )
}
"""Every frame a client may send, by `t`."""
HOST_FRAMES: Final[Mapping[str, Schema]] = {
    s.name: s
    for s in (
        *(Schema(c) for c in (Welcome, Bye, Error, Result)),
        Schema(LobbyInfo, "lobby"),
        Schema(Seated),
        Schema(TableInfo, "table"),
        *(Schema(c) for c in (Update, Snapshot, Over, Chat, Ping, Pong)),
    )
}
"""Every frame a host may send, by `t`."""
PARTS: Final[tuple[Schema, ...]] = (
    Schema(SeatInfo, "seat"),
    Schema(Settings, "settings"),
    Schema(Window, "window"),
    _DECISION,
)
"""The maps inside host frames that have a schema of their own."""

CLIENT_TYPES: Final = frozenset(CLIENT_FRAMES)
HOST_TYPES: Final = frozenset(HOST_FRAMES)
REQUESTS: Final = frozenset({"join", "watch", "create", "leave", "start", "rematch", "choose", "sync", "here", "say"})
"""Client frames that always get exactly one `result` (ok, or a code and a sentence)."""


def _parse(frames: Mapping[str, Schema], message: Mapping[str, Any]) -> Any:
    schema = frames.get(message["t"])
    if schema is None:
        raise NetError(ErrorCode.UNKNOWN_TYPE, f"unknown frame type {str(message['t'])[:40]!r}")
    try:
        return schema.parse(message)
    except Bad as exc:
        raise NetError(ErrorCode.BAD_FIELD, str(exc)) from None


def parse_client(message: Mapping[str, Any]) -> ClientFrame:
    """A client frame as its type. Raises NetError(BAD_FIELD or UNKNOWN_TYPE) naming the first
    bad field. Unknown extra fields are ignored, so that a newer client can add optional ones."""
    return _parse(CLIENT_FRAMES, message)  # type: ignore[no-any-return]


def parse_host(message: Mapping[str, Any]) -> HostFrame:
    """A host frame as its type. Raises NetError(BAD_FIELD or UNKNOWN_TYPE)."""
    return _parse(HOST_FRAMES, message)  # type: ignore[no-any-return]


def hello(
    name: str,
    token: str | None = None,
    password: str | None = None,
    last_seq: int | None = None,
    table: int | None = None,
    watch: bool = False,
) -> dict[str, Any]:
    """The first frame a client sends."""
    msg: dict[str, Any] = {"t": "hello", "v": PROTOCOL_VERSION, "rules": RULES_HASH, "name": name}
    if token is not None:
        msg["token"] = token
    if password is not None:
        msg["password"] = password
    if last_seq is not None:
        msg["last_seq"] = last_seq
    if table is not None:
        msg["table"] = table
    if watch:
        msg["watch"] = True
    return msg


# ---- the document's tables ------------------------------------------------------------------


def reference() -> str:
    """docs/protocol.md's field tables, one per frame type and part, in Markdown."""
    out: list[str] = []
    for title, schemas in (
        ("Client to host", CLIENT_FRAMES.values()),
        ("Host to client", HOST_FRAMES.values()),
        ("Parts of host frames", PARTS),
    ):
        out.append(f"#### {title}\n")
        for s in schemas:
            doc = (s.cls.__doc__ or "").strip().splitlines()[0]
            out.append(f"`{s.name}`: {doc}\n")
            out.append("| field | type | |")
            out.append("| --- | --- | --- |")
            for f in s.fields:
                out.append(f"| `{f.name}` | {f.words} | {'required' if f.required else 'optional'} |")
            out.append("")
    return "\n".join(out)


DOC_BEGIN: Final = "<!-- fields: begin -->"
DOC_END: Final = "<!-- fields: end -->"


def with_reference(doc: str) -> str:
    """`doc` (docs/protocol.md) with the text between its field markers made `reference()`."""
    head, _, rest = doc.partition(DOC_BEGIN)
    _, _, tail = rest.partition(DOC_END)
    return f"{head}{DOC_BEGIN}\n{reference()}{DOC_END}{tail}"


if __name__ == "__main__":  # python -m net.messages docs/protocol.md: rewrite its field tables
    import sys
    from pathlib import Path

    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(with_reference(path.read_text()))
