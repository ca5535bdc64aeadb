"""The play protocol's client messages, read into typed values, and its error replies.

Client frames are JSON text, at most :data:`MAX_FRAME_BYTES` each:

- ``{"type": "open", "pack": P, "level": L}`` becomes :class:`OpenLevel`,
  ``{"type": "open", "share": CODE}`` :class:`OpenShare` (a shared level) and
  ``{"type": "open", "draft": {...}}`` :class:`OpenDraft` (the editor's
  one-level pack, played in memory only);
- ``{"type": "intent", "seq": N, "intent": "step", "direction": D}`` and the
  intents ``wait``, ``undo``, ``reset`` and ``restore`` (with ``"state"``)
  become :class:`Intent`.

Anything else raises :class:`ProtocolError`, whose :meth:`~ProtocolError.reply`
is the ``error`` frame to send. ``docs/protocol.md`` is the full description.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

__all__ = [
    "INTENT_KINDS",
    "MAX_FRAME_BYTES",
    "NO_GAME_MESSAGE",
    "ErrorCode",
    "Intent",
    "IntentKind",
    "OpenDraft",
    "OpenLevel",
    "OpenShare",
    "ProtocolError",
    "Query",
    "no_game",
    "parse_message",
]

MAX_FRAME_BYTES = 64 * 1024
"""The largest client frame the server reads, in bytes of UTF-8."""

IntentKind = Literal["step", "wait", "undo", "reset", "restore"]
INTENT_KINDS: tuple[IntentKind, ...] = ("step", "wait", "undo", "reset", "restore")


class ErrorCode(StrEnum):
    """Why a client frame got an ``error`` reply instead of being acted on."""

    BAD_JSON = "bad-json"
    BAD_MESSAGE = "bad-message"
    UNKNOWN_TYPE = "unknown-type"
    NO_GAME = "no-game"
    TOO_LARGE = "too-large"
    NOT_FOUND = "not-found"
    RATE_LIMITED = "rate-limited"
    QUOTA = "quota"
    SERVER_ERROR = "server-error"


class ProtocolError(Exception):
    """A frame the server will not act on; carries the error reply's fields."""

    def __init__(self, code: ErrorCode, message: str, seq: int | None = None) -> None:
        """An error of kind ``code`` with a plain-words ``message``, about message ``seq``."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.seq = seq

    def reply(self) -> dict[str, Any]:
        """The ``error`` frame for this error."""
        return {"type": "error", "seq": self.seq, "code": self.code.value, "message": self.message}


@dataclass(frozen=True, slots=True)
class OpenLevel:
    """Open (resume or start) the player's game on one level."""

    pack: str
    level: str
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class OpenShare:
    """Open (resume or start) the player's game on a shared level: ``code`` is its share code or link."""

    code: str
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class OpenDraft:
    """Play a one-level pack (the editor's draft) in memory: nothing is stored."""

    pack: dict[str, Any]
    seq: int | None = None


Open = OpenLevel | OpenShare | OpenDraft
"""Every way to open a game."""


@dataclass(frozen=True, slots=True)
class Intent:
    """One player intent for the open game; ``direction`` only for ``step``, ``state`` only for ``restore``."""

    seq: int
    kind: IntentKind
    direction: str | None = None
    state: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Query:
    """A message of another ``type``: a question about the open game, answered by the play service.

    Its answer, and whether the type is one at all, are
    :data:`miau.play.service.QUERIES`'s (an unknown type is refused there);
    ``fields`` is the whole message, for the answer to read.
    """

    type: str
    seq: int | None
    fields: dict[str, Any]


NO_GAME_MESSAGE = 'Open a level first: send {"type": "open", ...}.'
"""What a message about the open game, sent before any ``open``, is told."""


def no_game(message: Intent | Query) -> ProtocolError:
    """The ``no-game`` error for a message that came before any level was opened."""
    return ProtocolError(ErrorCode.NO_GAME, NO_GAME_MESSAGE, message.seq)


def parse_message(text: str | bytes | None) -> Open | Intent | Query:
    """Read one client frame.

    :raises ProtocolError: for a frame that is too large, not JSON, not an
        object, of an unknown type or with fields of the wrong type.
    """
    if not isinstance(text, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "Send JSON as text frames, not binary ones.")
    # A character is at most 4 bytes of UTF-8: encode only when the length alone cannot tell.
    if len(text) > MAX_FRAME_BYTES or (
        len(text) * 4 > MAX_FRAME_BYTES and len(text.encode("utf-8")) > MAX_FRAME_BYTES
    ):
        raise ProtocolError(
            ErrorCode.TOO_LARGE, f"A message may be at most {MAX_FRAME_BYTES} bytes long."
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError(ErrorCode.BAD_JSON, f"That message is not JSON ({error}).") from None
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "A message must be a JSON object.")
    raw_seq = message.get("seq")
    seq = raw_seq if _is_int(raw_seq) else None
    kind = message.get("type")
    if kind == "open":
        return _read_open(message, seq)
    if kind == "intent":
        return _read_intent(message, seq)
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'A message needs a string "type".', seq)
    return Query(kind, seq, message)


def _read_open(message: dict[str, Any], seq: int | None) -> Open:
    if "seq" in message and seq is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, '"seq" must be an integer.')
    if "share" in message:
        code = message["share"]
        if not isinstance(code, str):
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, '"share" must be a string: a share code or link.', seq
            )
        return OpenShare(code, seq)
    if "draft" in message:
        draft = message["draft"]
        if not isinstance(draft, dict):
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, '"draft" must be an object: a one-level pack.', seq
            )
        return OpenDraft(draft, seq)
    pack, level = message.get("pack"), message.get("level")
    if not isinstance(pack, str) or not isinstance(level, str):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            '"open" needs a string "pack" and a string "level", a "share" code, or a "draft" pack.',
            seq,
        )
    return OpenLevel(pack, level, seq)


def _read_intent(message: dict[str, Any], seq: int | None) -> Intent:
    if seq is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'An intent needs an integer "seq".')
    kind = message.get("intent")
    if kind not in INTENT_KINDS:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            '"intent" must be one of ' + ", ".join(f'"{each}"' for each in INTENT_KINDS) + ".",
            seq,
        )
    if kind == "step":
        direction = message.get("direction")
        if not isinstance(direction, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, 'A step needs a string "direction".', seq)
        return Intent(seq, "step", direction=direction)
    if kind == "restore":
        state = message.get("state")
        if not isinstance(state, dict):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, 'A restore needs a "state" object.', seq)
        return Intent(seq, "restore", state=state)
    return Intent(seq, kind)


def _is_int(value: object) -> bool:
    # JSON true/false arrive as bool, which Python counts as int.
    return isinstance(value, int) and not isinstance(value, bool)
