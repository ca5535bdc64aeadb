"""One play session: the WebSocket of one page, playing one level at a time.

The engine is the single source of truth. An ``open`` loads the player's
stored game on that level and replays its intent log on a fresh ``Game``
(or starts a new one); each accepted intent is appended to the log and
committed before the reply goes out, so a reload or a server restart resumes
exactly there, undo history included. A rejected intent is answered and not
stored. A win updates the player's progress and finishes the stored game.

Besides the worlds' levels (shipped, or from the player's library), a
session opens shared levels (``{"share": CODE}``: decoded, then stored and
resumed under the pack id ``share-…`` of their content) and the editor's
drafts (``{"draft": <one-level pack>}``: played in memory only, with nothing
stored and no progress).

A session is also where one connection is kept in bounds
(:class:`ConnectionLimits`): frames past its rate are answered with a
``rate-limited`` error and dropped, and a long stored log is replayed in
short chunks so that other players' replies are not held up behind it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio

from miau.engine import Event, Game
from miau.engine.vocabulary import INTENT_OF_LETTER, MOVE_ALPHABET
from miau.packs import Pack, PackError, PackLevel, load_pack
from miau.packs.share import ShareLinkError, decode_share_code, share_content_key
from miau.server.library import Library
from miau.server.protocol import (
    ErrorCode,
    Intent,
    Open,
    OpenDraft,
    OpenLevel,
    OpenShare,
    ProtocolError,
    parse_message,
)
from miau.server.store import StaleGameError, StoredIntent, StoreRunner
from miau.server.worlds import Worlds

__all__ = [
    "PLAY_LIMITS",
    "UNTHROTTLED",
    "ConnectionLimits",
    "PlaySession",
    "TokenBucket",
    "apply_stored",
    "state_json",
]

logger = logging.getLogger(__name__)

STEP_LETTERS = {direction.name: direction.letter for direction in MOVE_ALPHABET}
"""The log letter of each accepted step or wait (the move alphabet of solutions)."""

UNDO, RESET, RESTORE = "Z", "X", "S"
"""The log letters of the other intents."""

_LETTER_STEPS = {letter: step for step, letter in STEP_LETTERS.items()}

_COMMIT_ATTEMPTS = 3
"""How often an intent is replayed on a stored game that other pages keep moving on."""

DRAFT_PROBLEMS_SHOWN = 3
"""How many of a refused draft's problems its error message lists."""


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """How much one play connection may ask of the server.

    ``frames_per_second`` and ``burst`` make a token bucket over every client
    frame: a held key (about 11 moves a second) never reaches it, a flood
    does; None turns the rate limit off (:data:`UNTHROTTLED`). ``send_timeout`` is how long a reply may wait for a client that
    does not read before the server gives up on that connection.
    ``replay_chunk`` is how many stored intents are replayed between two
    yields to the event loop when a game is resumed. ``clock`` is injectable
    for tests.
    """

    frames_per_second: float | None = 30.0
    burst: int = 20
    send_timeout: float = 10.0
    replay_chunk: int = 256
    clock: Callable[[], float] = time.monotonic


PLAY_LIMITS = ConnectionLimits()
"""The limits for players on the open internet: 30 frames a second, bursts of 20."""

UNTHROTTLED = ConnectionLimits(frames_per_second=None)
"""No rate limit (scripted clients, tests); the send timeout and replay chunks still hold."""


class TokenBucket:
    """A token bucket: ``burst`` tokens at most, refilled at ``rate`` tokens a second."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """A full bucket."""
        if rate <= 0 or burst < 1:
            raise ValueError("a token bucket needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = self.burst
        self.last = clock()

    def take(self) -> bool:
        """Take one token if there is one; whether there was."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def state_json(game: Game) -> dict[str, Any]:
    """The settled state for the wire: the history as a count (``historyLength``), not snapshots."""
    return game.state.to_json()


def apply_stored(game: Game, intent: StoredIntent) -> Event:
    """Apply one stored log entry to ``game``.

    :raises ValueError: for a letter that is not a log letter, or a restore
        whose payload is not JSON.
    """
    if intent.letter in INTENT_OF_LETTER:
        return game.step(INTENT_OF_LETTER[intent.letter])
    if intent.letter == UNDO:
        return game.undo()
    if intent.letter == RESET:
        return game.reset()
    if intent.letter == RESTORE and intent.payload is not None:
        return game.restore(json.loads(intent.payload))
    raise ValueError(f"not a log entry: {intent!r}")


@dataclass(slots=True)
class OpenGame:
    """The level this session plays, its live game and how it stands in the store.

    ``pack_id`` is what the game and progress are stored under: the pack's
    id, a shared level's ``share-…`` key, or None for a draft, which is
    never stored. ``game_id`` is None before the first accepted intent and
    after a win (the stored game is then finished); the next accepted
    intent starts a new stored game holding ``log`` and itself.
    """

    pack: Pack
    level: PackLevel
    game: Game
    pack_id: str | None
    game_id: int | None = None
    log: list[StoredIntent] = field(default_factory=list)

    def apply(self, intent: StoredIntent) -> Event:
        """Apply a log entry to the live game."""
        return apply_stored(self.game, intent)


class PlaySession:
    """The game state of one WebSocket: answers each client frame with one reply frame."""

    def __init__(
        self,
        player: str,
        worlds: Worlds,
        store: StoreRunner,
        limits: ConnectionLimits | None = None,
        library: Library | None = None,
    ) -> None:
        """A session for ``player`` on ``worlds`` and the player's ``library``, within ``limits``.

        Games and progress persist through ``store``. Without ``library``
        the session makes its own on ``worlds`` and ``store``.
        """
        self.player = player
        self.worlds = worlds
        self.store = store
        self.library = library or Library(worlds, store)
        self.limits = limits or PLAY_LIMITS
        rate = self.limits.frames_per_second
        self.bucket = (
            None if rate is None else TokenBucket(rate, self.limits.burst, self.limits.clock)
        )
        self.current: OpenGame | None = None

    async def handle(self, frame: str | bytes | None) -> dict[str, Any]:
        """The reply to one client frame; never raises for anything the client sends."""
        seq: int | None = None
        try:
            if self.bucket is not None and not self.bucket.take():
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"Too many messages: at most {self.bucket.rate:g} a second "
                    f"(bursts of {self.limits.burst}); this one was dropped.",
                    _seq_of(frame),
                )
            message = parse_message(frame)
            seq = message.seq
            if isinstance(message, Intent):
                return await self.intent(message)
            return await self.open(message)
        except ProtocolError as error:
            return error.reply()
        except Exception:
            logger.exception("play session of %s failed", self.player)
            # The live game may be ahead of the store now: drop it; the client re-opens.
            self.current = None
            return ProtocolError(
                ErrorCode.SERVER_ERROR,
                "Something went wrong on the server; open the level again.",
                seq,
            ).reply()

    async def open(self, message: Open) -> dict[str, Any]:
        """Resume the player's game on a level or a shared level, or start one; or play a draft."""
        if isinstance(message, OpenShare):
            pack = await self._shared_pack(message)
            pack_id: str | None = share_content_key(pack)
            level = pack.levels[0]
        elif isinstance(message, OpenDraft):
            pack = await self._draft_pack(message)
            pack_id, level = None, pack.levels[0]
        else:
            pack, level = await self._world_level(message)
            pack_id = pack.manifest.id
        opened = await self._load(pack, level, pack_id)
        self.current = opened
        reply: dict[str, Any] = {
            "type": "opened",
            "pack": pack_id,
            "level": level.id,
            "state": state_json(opened.game),
            "resumed": opened.game_id is not None,
        }
        if pack_id is None:
            reply["draft"] = True
        if message.seq is not None:
            reply["seq"] = message.seq
        return reply

    async def _world_level(self, message: OpenLevel) -> tuple[Pack, PackLevel]:
        """The level of a shipped world or of the player's library that ``message`` names."""
        found = await self.library.find(self.player, message.pack)
        pack = None if found is None else found[0]
        level = (
            None
            if pack is None
            else next((each for each in pack.levels if each.id == message.level), None)
        )
        if pack is None or level is None:
            what, name = ("world", message.pack) if pack is None else ("level", message.level)
            raise ProtocolError(
                ErrorCode.NOT_FOUND, f"There is no {what} {name[:64]!r}.", message.seq
            )
        return pack, level

    async def _shared_pack(self, message: OpenShare) -> Pack:
        """The one-level pack a share code carries.

        :raises ProtocolError: ``bad-message`` with the link's plain-words problem.
        """
        try:
            pack: Pack = await anyio.to_thread.run_sync(decode_share_code, message.code)
        except ShareLinkError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error), message.seq) from None
        return pack

    async def _draft_pack(self, message: OpenDraft) -> Pack:
        """The draft, loaded by the pack loader; it must hold exactly one level.

        :raises ProtocolError: ``bad-message`` listing the first problems.
        """
        try:
            pack: Pack = await anyio.to_thread.run_sync(load_pack, message.pack)
        except PackError as error:
            count = len(error.errors)
            shown = "; ".join(str(issue) for issue in error.errors[:DRAFT_PROBLEMS_SHOWN])
            more = len(error.errors) - DRAFT_PROBLEMS_SHOWN
            tail = f"; and {more} more" if more > 0 else ""
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"This draft cannot be played: it has {count} problem"
                f"{'' if count == 1 else 's'}: {shown}{tail}.",
                message.seq,
            ) from None
        if len(pack.levels) != 1:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"A draft is a pack of exactly one level; this one has {len(pack.levels)}.",
                message.seq,
            )
        return pack

    async def _load(self, pack: Pack, level: PackLevel, pack_id: str | None) -> OpenGame:
        """The stored game on this level replayed on a fresh ``Game``, or a new one.

        A draft (``pack_id`` None) is never stored, so it always starts fresh.
        """
        opened = OpenGame(pack, level, Game(level.data), pack_id)
        if pack_id is None:
            return opened
        stored = await self.store.current_game(self.player, pack_id, level.id)
        if stored is None:
            return opened
        chunk = max(1, self.limits.replay_chunk)
        for index, entry in enumerate(stored.intents):
            if index and index % chunk == 0:
                # A long log takes a while (~100k steps/s): let other connections' replies out.
                await anyio.sleep(0)
            if not opened.apply(entry).accepted:
                logger.warning(
                    "%s/%s game %d: stored %r was rejected on replay",
                    pack_id,
                    level.id,
                    stored.game_id,
                    entry,
                )
        opened.game_id, opened.log = stored.game_id, list(stored.intents)
        if opened.game.won and opened.log and opened.log[-1].letter in _LETTER_STEPS:
            # A winning step was stored but the win not recorded (the server stopped in
            # between): record it now. A board restored as won is no win of the player's.
            await self._record_win(opened)
            return OpenGame(pack, level, Game(level.data), pack_id)
        return opened

    async def intent(self, message: Intent) -> dict[str, Any]:
        """Apply one intent to the open game; store it if the engine accepted it."""
        current = self.current
        if current is None:
            raise ProtocolError(
                ErrorCode.NO_GAME, 'Open a level first: send {"type": "open", ...}.', message.seq
            )
        entry = _log_entry(message)
        # A direction the engine does not know (no entry): it says no, and nothing is stored.
        event = current.game.step(message.direction) if entry is None else current.apply(entry)
        progress: dict[str, Any] | None = None
        if event.accepted and entry is not None and current.pack_id is not None:
            current, event = await self._commit(current, entry, event)
            if event.accepted and event.won and entry.letter in _LETTER_STEPS:
                progress = await self._record_win(current)
        state = state_json(current.game)
        return {
            "type": "result",
            "seq": message.seq,
            "event": event.to_json(),
            "state": state,
            "progress": progress,
        }

    async def _commit(
        self, current: OpenGame, entry: StoredIntent, event: Event
    ) -> tuple[OpenGame, Event]:
        """Store an accepted entry; if the stored game moved on elsewhere, replay it and retry.

        Another page of the same player may have played this level since it
        was loaded here: the stored game is the truth, so the intent is
        applied to it instead. Returns the game and event that hold.
        """
        for _ in range(_COMMIT_ATTEMPTS):
            try:
                await self._append(current, entry)
                return current, event
            except StaleGameError:
                current = self.current = await self._load(
                    current.pack, current.level, current.pack_id
                )
                event = current.apply(entry)
                if not event.accepted:
                    return current, event
        raise StaleGameError("the stored game kept changing under this session")

    async def _append(self, current: OpenGame, entry: StoredIntent) -> None:
        """Commit an accepted entry: a new stored game on the first one (or after a win).

        :raises StaleGameError: when the stored game moved on since it was loaded.
        """
        pack_id, level_id = current.pack_id, current.level.id
        if pack_id is None:
            raise RuntimeError("a draft is never stored")
        # After a reset or a restore nothing before it matters to the board or to undo,
        # so it starts a new stored game: a log never grows past the last restart.
        fresh_start = entry.letter in (RESET, RESTORE)
        if current.game_id is None or fresh_start:
            log = [entry] if fresh_start else [*current.log, entry]
            current.game_id = await self.store.start_game(
                self.player, pack_id, level_id, tuple(log), replace=fresh_start
            )
            current.log = log
            return
        await self.store.append_intent(current.game_id, len(current.log), entry)
        current.log.append(entry)

    async def _record_win(self, current: OpenGame) -> dict[str, Any]:
        """Keep the win in the player's progress and finish the stored game."""
        if current.game_id is None or current.pack_id is None:
            raise RuntimeError("a win needs a stored game")
        # The engine's move string leads from the start to this board (None after a restore).
        moves = current.game.moves
        progress = await self.store.record_win(
            current.game_id,
            self.player,
            current.pack_id,
            current.level.id,
            current.game.state.move_count,
            moves,
        )
        current.game_id = None
        return {"won": True, "bestMoves": progress.best_moves}


def _seq_of(frame: str | bytes | None) -> int | None:
    """The ``seq`` of a frame that will not be acted on, if it has a readable one."""
    try:
        return parse_message(frame).seq
    except ProtocolError as error:
        return error.seq


def _log_entry(message: Intent) -> StoredIntent | None:
    """The log entry an intent is stored as if accepted; None for a direction no engine knows."""
    if message.kind == "step":
        letter = STEP_LETTERS.get(message.direction or "")
        return None if letter is None else StoredIntent(letter)
    if message.kind == "wait":
        return StoredIntent("W")
    if message.kind == "undo":
        return StoredIntent(UNDO)
    if message.kind == "reset":
        return StoredIntent(RESET)
    return StoredIntent(RESTORE, json.dumps(message.state, separators=(",", ":")))
