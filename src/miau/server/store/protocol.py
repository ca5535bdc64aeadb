"""The ``Store`` protocol: the only face of the database that the game code sees.

A game is (player, pack, level) plus its intent log, one row per accepted
intent. A player's library holds the packs they imported or made, each as
its JSON text. Every method is synchronous and commits before it returns;
the server calls them through :class:`~miau.server.store.runner.StoreRunner`
so that a disk flush never stalls the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from miau.server.store.records import (
    LevelProgress,
    LibraryBounds,
    LibraryEntry,
    LibraryPack,
    LibraryUsage,
    LogEntry,
    RoomCheck,
    StoredGame,
)

__all__ = ["Store"]


class Store(Protocol):
    """Storage of players, games in progress and progress; every call commits."""

    def ensure_player(self, token: str) -> None:
        """Record the player ``token`` if it is new.

        A player is recorded this way or by their first stored game or pack.
        The database keeps at most ``max_players``: past it, players who hold
        nothing (no game in progress, no win, no library pack) are deleted to
        make room, then the least recently active players idle longer than
        ``idle_after`` with all they hold; when none can go a new player is
        refused. A player's activity is the time they last stored a game, a
        move (at most once an hour per game), a win or a pack.

        :raises StoreQuotaError: when the database holds its most players.
        """
        ...

    def is_player(self, token: str) -> bool:
        """Whether the player ``token`` is stored (has stored a game, a win or a pack)."""
        ...

    def current_game(
        self, player: str, pack: str, level: str, at_most: int | None = None
    ) -> StoredGame | None:
        """The player's unfinished game on this level, with its log, or None.

        With ``at_most``, only the log's first ``at_most`` entries: a log that
        long is over-long, and read in parts (``game_tail``) by one page.
        """
        ...

    def game_tail(
        self,
        player: str,
        pack: str,
        level: str,
        game_id: int,
        since: int,
        at_most: int | None = None,
    ) -> tuple[LogEntry, ...] | None:
        """Entries ``since`` on (0-based) of game ``game_id`` (at most ``at_most``), or None if it is no longer the player's unfinished game on the level.

        Two pages of one game catch up with each other's moves this way, without reading the whole log;
        an over-long log is read this way a part at a time, so other players' calls pass in between.
        """
        ...

    def start_game(
        self,
        player: str,
        pack: str,
        level: str,
        intents: Sequence[LogEntry] = (),
        *,
        replace: bool = False,
    ) -> int:
        """Start a game on this level with the log ``intents``; its id.

        With ``replace``, an unfinished game on the level is finished first.

        Finished games are deleted with their logs (a win lives on in the
        progress). A player keeps at most ``max_player_games`` games in
        progress: starting one more deletes their oldest. Past ``max_games``
        in all, the games in progress of the least recently active players
        idle longer than ``idle_after`` are deleted to make room (never the
        player's own).

        :raises StaleGameError: without ``replace``, when there is an unfinished game.
        :raises StoreQuotaError: when the database holds its most games in progress.
        """
        ...

    def compact_game(
        self,
        player: str,
        pack: str,
        level: str,
        game_id: int,
        length: int,
        intents: Sequence[LogEntry],
    ) -> int | None:
        """Replace game ``game_id`` by a new game whose log is ``intents``; the new id.

        In one transaction, and only if the game is still unfinished with
        exactly ``length`` entries (no other page moved it on): else nothing
        changes and the answer is None. The caller makes sure both logs
        replay to the same game.
        """
        ...

    def abandon_game(self, game_id: int, player: str) -> None:
        """Finish and delete the player's game ``game_id`` without a win (one that cannot be replayed)."""
        ...

    def append_intent(self, game_id: int, seq: int, intent: LogEntry) -> None:
        """Append ``intent`` as entry ``seq`` (0-based) of the game's log.

        :raises StaleGameError: when entry ``seq`` exists already or the game is finished.
        """
        ...

    def record_win(
        self, game_id: int, player: str, pack: str, level: str, moves: int, solution: str | None
    ) -> LevelProgress:
        """Finish the game and keep the win (the best move count and its moves); the new progress."""
        ...

    def progress(self, player: str) -> list[LevelProgress]:
        """Every level the player has won, by pack and level id."""
        ...

    def library_packs(self, player: str) -> list[LibraryEntry]:
        """Every pack in the player's library, by id (code point order)."""
        ...

    def library_pack(self, player: str, pack: str) -> LibraryPack | None:
        """The pack ``pack`` of the player's library, or None."""
        ...

    def save_library_pack(
        self,
        player: str,
        pack: str,
        version: str,
        name: str,
        text: str,
        *,
        replace: bool = True,
        stale_levels: Sequence[str] = (),
        summary: str = "",
        check_room: RoomCheck | None = None,
        bounds: LibraryBounds | None = None,
    ) -> bool:
        """Keep ``text`` as the pack ``pack`` of the player's library; whether it replaced one.

        ``summary`` is what listings show of the pack (JSON), kept so that a
        listing never parses the pack. ``check_room`` is called in the same
        transaction, library saves taking turns, with what the libraries
        hold and the size of the pack replaced; what it raises refuses the
        save (nothing stored) and reaches the caller: so racing saves never
        pass a quota. With ``bounds``, before ``check_room`` the libraries of
        the least recently active players idle longer than ``idle_after``
        (never the player's own) are deleted, one at a time, until the save
        fits them.

        The player's unfinished games on ``stale_levels`` of the pack (levels
        whose content changed) are finished in the same transaction: their
        logs belong to the old level.

        :raises LibraryPackExistsError: without ``replace``, when the pack is there already.
        """
        ...

    def set_library_summary(
        self, player: str, pack: str, digest: str, summary: str, size: int
    ) -> None:
        """Keep the summary and size of a pack saved before summaries were, if its text is still ``digest``."""
        ...

    def library_usage(self, player: str) -> LibraryUsage:
        """What the player's library and all libraries hold, for the quotas."""
        ...

    def delete_library_pack(self, player: str, pack: str) -> bool:
        """Remove the pack from the player's library (and finish its games); whether it was there."""
        ...

    def expire_idle(self, idle_for: float, at_most: int = 64) -> tuple[int, int]:
        """Delete up to ``at_most`` players who stored nothing for ``idle_for`` seconds, with all they hold.

        The least recently active first; each goes with their games in
        progress, wins and library packs. A player active within
        ``idle_for`` is never touched. How many idle players were found and
        how many of them went (a player who holds the database's highest
        game id stays, holding nothing else); fewer found than ``at_most``
        means none are left.
        """
        ...

    def close(self) -> None:
        """Release the database."""
        ...
