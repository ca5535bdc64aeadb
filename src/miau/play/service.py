"""The play protocol's answers, the same on both hosts.

A host (the server's :class:`~miau.server.session.PlaySession`, the static
site's :class:`~miau.site.backend.SiteBackend`) owns where games are kept
and how long work is scheduled; everything a reply says, and every rule of
the conversation, is here: which level an ``open`` names, what a shared
level or a draft loads as, how an intent becomes a log entry
(:func:`miau.play.log.entry_of_intent`), what ``opened`` and ``result``
hold, what counts as a win and what the win record keeps.

Adding a protocol request that asks about the open game and changes
nothing (such as "can I still win?"): its answer, a function of the open
game (a :class:`~miau.play.winnable.QueriedGame`: the live game and its
pack level) and the :class:`~miau.play.protocol.Query`, and one row for it in
:data:`QUERIES`. Both hosts hand every query to :func:`answer_query`, so
nothing else changes (the server runs the answer on a worker thread).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from miau.engine import Event, Game
from miau.packs import Pack, PackLevel
from miau.packs.share import ShareLinkError, decode_share_code
from miau.play.log import LogEntry
from miau.play.protocol import (
    ErrorCode,
    Intent,
    OpenDraft,
    OpenLevel,
    OpenShare,
    ProtocolError,
    Query,
    no_game,
)
from miau.play.studio_levels import DraftError, load_draft
from miau.play.winnable import QueriedGame, winnable_reply

__all__ = [
    "QUERIES",
    "UNREPLAYABLE_NOTICE",
    "answer_query",
    "best_after_win",
    "check_query",
    "draft_pack",
    "is_a_win",
    "level_of",
    "opened_reply",
    "result_reply",
    "shared_pack",
    "state_on_the_wire",
    "win_reply",
]

UNREPLAYABLE_NOTICE = (
    "Your saved game on this level could not be resumed (it no longer fits the level), "
    "so the level starts again from the beginning. Your wins are kept."
)
"""What ``opened`` says when a stored game that cannot be replayed was set aside."""


QueryAnswer = Callable[[QueriedGame, Query], dict[str, Any]]
"""The answer to a query: the reply frame, from the open game and the message."""

QUERIES: Final[Mapping[str, QueryAnswer]] = {"winnable": winnable_reply}
"""Each query's ``type`` and its answer; any other ``type`` is unknown.

- ``winnable``: can the open game still be won? (:mod:`miau.play.winnable`)
"""


def check_query(query: Query) -> QueryAnswer:
    """The answer of a query's type.

    :raises ProtocolError: ``unknown-type`` for a type that is no query.
    """
    answer = QUERIES.get(query.type)
    if answer is None:
        types = ["open", "intent", *QUERIES]
        listed = ", ".join(f'"{each}"' for each in types[:-1]) + f' and "{types[-1]}"'
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"Unknown message type {query.type[:40]!r}; the types are {listed}.",
            query.seq,
        )
    return answer


def answer_query(opened: QueriedGame | None, query: Query) -> dict[str, Any]:
    """The reply to a query about the open game (None: no level is open).

    :raises ProtocolError: ``unknown-type`` for a type that is no query,
        ``no-game`` before any level was opened.
    """
    answer = check_query(query)
    if opened is None:
        raise no_game(query)
    return answer(opened, query)


def level_of(pack: Pack | None, message: OpenLevel) -> tuple[Pack, PackLevel]:
    """The level ``message`` names in ``pack`` (the pack it names, None if there is none).

    :raises ProtocolError: ``not-found`` naming the missing world or level.
    """
    level = (
        None
        if pack is None
        else next((each for each in pack.levels if each.id == message.level), None)
    )
    if pack is None or level is None:
        what, name = ("world", message.pack) if pack is None else ("level", message.level)
        raise ProtocolError(ErrorCode.NOT_FOUND, f"There is no {what} {name[:64]!r}.", message.seq)
    return pack, level


def shared_pack(message: OpenShare) -> Pack:
    """The one-level pack a share code carries.

    :raises ProtocolError: ``bad-message`` with the link's plain-words problem.
    """
    try:
        return decode_share_code(message.code)
    except ShareLinkError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error), message.seq) from None


def draft_pack(message: OpenDraft) -> Pack:
    """The draft, loaded by the pack loader; it must hold exactly one level.

    :raises ProtocolError: ``bad-message`` listing the first problems.
    """
    try:
        return load_draft(message.pack)
    except DraftError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error), message.seq) from None


def opened_reply(
    message: OpenLevel | OpenShare | OpenDraft,
    pack_id: str | None,
    level: PackLevel,
    game: Game,
    *,
    resumed: bool,
    notice: str | None = None,
) -> dict[str, Any]:
    """The ``opened`` frame: the level's board as the game stands (``pack_id`` None: a draft)."""
    reply: dict[str, Any] = {
        "type": "opened",
        "pack": pack_id,
        "level": level.id,
        "state": state_on_the_wire(game),
        "resumed": resumed,
    }
    if pack_id is None:
        reply["draft"] = True
    if notice is not None:
        reply["notice"] = notice
    if message.seq is not None:
        reply["seq"] = message.seq
    return reply


def state_on_the_wire(game: Game) -> dict[str, Any]:
    """The settled state a reply carries, with the board's forecast in its optional fields.

    ``ticks`` (each TICK thing's next beats if the player waits) and
    ``facingMatters`` (the things whose facing a rule reads) come from
    :meth:`Game.forecast`; each is left out when empty, so a level without
    automata or facing rules sends exactly the state it always sent.
    """
    state = game.state.to_json()
    state.update(game.forecast().to_json())
    return state


def result_reply(
    message: Intent, event: Event, game: Game, progress: dict[str, Any] | None
) -> dict[str, Any]:
    """The ``result`` frame of an intent: the engine's event and the board after it."""
    return {
        "type": "result",
        "seq": message.seq,
        "event": event.to_json(),
        "state": state_on_the_wire(game),
        "progress": progress,
    }


def is_a_win(event: Event, entry: LogEntry) -> bool:
    """Whether an accepted entry won the level for the player.

    Only a move wins: a board restored, or undone back to, a won position is
    no win of the player's.
    """
    return event.accepted and event.won and entry.is_move


def best_after_win(best: dict[str, Any] | None, moves: int, solution: str | None) -> dict[str, Any]:
    """A level's win record after one more win in ``moves`` (``solution``: None after a restore).

    The record is ``{"bestMoves", "bestSolution", "wins"}``: the fewest moves
    and the move string that made them, and how many wins there were.
    """
    if best is None or moves < int(best["bestMoves"]):
        return {
            "bestMoves": moves,
            "bestSolution": solution,
            "wins": (best or {}).get("wins", 0) + 1,
        }
    return {**best, "wins": int(best.get("wins", 1)) + 1}


def win_reply(best_moves: int | None) -> dict[str, Any]:
    """The ``progress`` of a ``result`` that won: the level's best score now."""
    return {"won": True, "bestMoves": best_moves}
