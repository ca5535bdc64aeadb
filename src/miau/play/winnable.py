"""The play protocol's "can I still win?": a question about the open game, answered by the solver.

A player who suspects a dead end sends ``{"type": "winnable", "seq": N}``;
the reply says in one line whether the level can still be won from here,
and if not, how many undos take the game back to where it can; or that it
could not tell in time. It never carries a move: a hint that never
auto-solves must not hand out the way (the design backbone's "optional
post-failure hints").

The search is :func:`miau.solver.winnable.can_still_win` on the open
game's undoable moves, within :data:`WINNABLE_EXPANSIONS` states and
:data:`WINNABLE_SECONDS` (the server runs it on a worker thread, the static
site in its worker, so the page never waits on it).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from miau.engine import Game
from miau.packs import PackLevel
from miau.play.protocol import Query
from miau.solver.winnable import Verdict, WinnableAnswer, can_still_win

WINNABLE_EXPANSIONS: Final = 200_000
"""States one answer may expand, the walk back through the undo history included."""

WINNABLE_SECONDS: Final = 2.0
"""Time one answer may take: past it the answer is "could not tell in time"."""

VERDICT_WORDS: Final = {
    Verdict.WINNABLE: "winnable",
    Verdict.NOT_WINNABLE: "not-winnable",
    Verdict.UNKNOWN: "unknown",
}
"""Each verdict as the wire writes it."""


class QueriedGame(Protocol):
    """What a query reads of a host's open game: the live game and the pack level it plays."""

    @property
    def game(self) -> Game:
        """The live game."""

    @property
    def level(self) -> PackLevel:
        """The level as its pack gives it (its stored solution included)."""


def winnable_reply(opened: QueriedGame, query: Query) -> dict[str, Any]:
    """The reply to ``winnable``: the verdict, the undos back to a winnable state, and one line.

    The level's stored solution is the search's witness: replayed, and
    when it wins, every state along it is known to be winnable
    (:func:`~miau.solver.winnable.can_still_win`), so a game on or near
    that line is answered at once. A game whose history starts from a
    restored board (a long game compacted by the host) cannot be replayed
    from the level's start, so its answer is "unknown".
    """
    game = opened.game
    moves = game.moves
    answer = (
        None
        if moves is None
        else can_still_win(
            game.level,
            moves,
            max_expansions=WINNABLE_EXPANSIONS,
            max_seconds=WINNABLE_SECONDS,
            witness=opened.level.solution,
        )
    )
    verdict = Verdict.UNKNOWN if answer is None else answer.verdict
    undos_back = None if answer is None else answer.undos_back
    return {
        "type": "winnable",
        "seq": query.seq,
        "verdict": VERDICT_WORDS[verdict],
        "undosBack": undos_back,
        "won": game.won,
        "message": winnable_message(answer),
    }


def winnable_message(answer: WinnableAnswer | None) -> str:
    """The answer in one line for the player (``None``: the game cannot be replayed)."""
    if answer is None or answer.verdict is Verdict.UNKNOWN:
        return "Too large to tell: the search ran out of time."
    if answer.won:
        return "Already won."
    if answer.verdict is Verdict.WINNABLE:
        return "Still winnable."
    if answer.undos_back is None:
        return "Not winnable any more: restart to try again."
    count = answer.undos_back
    return f"Not winnable any more: undo {count} move{'' if count == 1 else 's'} to get back."
