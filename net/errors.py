"""The protocol's error codes, and the exception that carries one inside the host and client."""

from __future__ import annotations

from enum import StrEnum

from net.limits import TEXT_MAX


class ErrorCode(StrEnum):
    """Every `code` the host may put in an `error`, `result` or `bye` frame (docs/protocol.md)."""

    # A frame the host could not use (an `error` frame; the frame is dropped).
    FRAME_TOO_BIG = "frame_too_big"
    BAD_FRAME = "bad_frame"
    NOT_A_MAP = "not_a_map"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    UNEXPECTED = "unexpected"
    RATE_LIMITED = "rate_limited"
    # Why the host closes a connection (a `bye` frame).
    VERSION_MISMATCH = "version_mismatch"
    RULES_MISMATCH = "rules_mismatch"
    BAD_PASSWORD = "bad_password"
    BAD_TOKEN = "bad_token"
    HOST_FULL = "host_full"
    REPLACED = "replaced"
    TOO_MANY_ERRORS = "too_many_errors"
    TIMEOUT = "timeout"
    SLOW_READER = "slow_reader"
    SHUTDOWN = "shutdown"
    # A request refused (a `result` frame with ok false).
    TABLE_FULL = "table_full"
    NO_SUCH_TABLE = "no_such_table"
    NOT_SEATED = "not_seated"
    NOT_ALLOWED = "not_allowed"
    WRONG_PHASE = "wrong_phase"
    # A choice refused; the first four are the engine's own codes (core.decisions.ChoiceErrorCode).
    NOT_YOUR_DECISION = "not_your_decision"
    STALE_DECISION = "stale_decision"
    OPTION_NOT_OFFERED = "option_not_offered"
    GAME_OVER = "game_over"
    INTERNAL = "internal"
    # Said by the client itself, never sent by a host.
    DISCONNECTED = "disconnected"


class NetError(Exception):
    """A refusal with a code and a sentence for the player."""

    def __init__(self, code: ErrorCode, text: str) -> None:
        super().__init__(f"{code.value}: {text}")
        self.code = code
        self.text = cut_text(text)


def cut_text(text: str) -> str:
    """A refusal's text as a frame may carry it (`TEXT_MAX`): some quote what the peer sent."""
    return text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"
