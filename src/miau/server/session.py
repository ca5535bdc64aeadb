"""One play session: the WebSocket of one page, playing one level at a time.

The engine is the single source of truth. An ``open`` loads the player's
stored game on that level and replays its intent log (:mod:`miau.play.log`)
on a fresh ``Game`` (or starts a new one); each accepted intent is appended
to the log and committed before the reply goes out, so a reload or a server
restart resumes exactly there, undo history included. A rejected intent is
answered and not stored. A win updates the player's progress and finishes
the stored game. What each reply says is :mod:`miau.play.service`'s, the
same as on the static site; this module is the server's side of it: the
store, the catch-up with other pages of the same player, and the limits.

Besides the worlds' levels (shipped, or from the player's library), a
session opens shared levels (``{"share": CODE}``: decoded, then stored and
resumed under the pack id ``share-…`` of their content) and the editor's
drafts (``{"draft": <one-level pack>}``: played in memory only, with nothing
stored and no progress).

A session is also where one connection is kept in bounds
(:mod:`miau.server.limits`): frames past its rate are answered with a
``rate-limited`` error and dropped, a long stored log is replayed on a
worker thread (:mod:`miau.server.replays`) so that other players' replies
are not held up behind it, and one player's resumes replay within a budget
of entries a second. Stored games are kept in bounds too: a restore stores
only the fields the engine reads, a stored log is compacted before it
reaches :data:`~miau.play.log.COMPACT_AT` entries (one stored before the cap
is shortened once, outside the server, by :mod:`miau.server.long_logs`), and
a stored game that no longer replays is set aside rather than left to fail
on every open.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from miau.engine import Event, Game
from miau.packs import Pack, PackLevel
from miau.packs.share import share_content_key
from miau.play import log as play_log
from miau.play import service
from miau.play.log import (
    COMPACT_AT,
    RESTORE,
    LogEntry,
    UnreplayableGameError,
    compacted_log,
    replay_log,
    restore_state,
)
from miau.play.protocol import (
    ErrorCode,
    Intent,
    Open,
    OpenDraft,
    OpenLevel,
    OpenShare,
    ProtocolError,
    Query,
    parse_message,
)
from miau.play.service import UNREPLAYABLE_NOTICE
from miau.play.worlds import Worlds
from miau.server.costs import (
    HEAVY_LOG_SECONDS,
    HEAVY_TURN_SECONDS,
    MAX_REPLY_BYTES,
    TimedTurn,
    timed,
    timed_replay,
    timed_turn,
    tokens_of,
)
from miau.server.library import Library
from miau.server.limits import (
    DRAFT_MAX_ENTITIES,
    DRAFT_OPEN_COST,
    ENTITIES_PER_TOKEN,
    PLAY_LIMITS,
    ConnectionLimits,
    DropCounter,
    HeavyWork,
    ServerFrames,
    TokenBucket,
)
from miau.server.long_logs import LongLogs, StoredForPlay
from miau.server.replays import (
    default_long_logs,
    heavy_turn_limiter,
    query_limiter,
    replay_limiter,
)
from miau.server.shares import AddressShareError, AddressShares
from miau.server.store import (
    StaleGameError,
    StoredGame,
    StoreQuotaError,
    StoreRunner,
)

__all__ = ["UNREPLAYABLE_NOTICE", "GameLocks", "OpenGame", "PlaySession", "player_tag"]

logger = logging.getLogger(__name__)

Result = TypeVar("Result")

RECENT_TURNS = 5
"""How many of a level's last turns price its next frame (:meth:`PlaySession._charge`)."""

LOG_READ_PART = 4096
"""How many entries of an over-long stored log one store call reads (about 6 ms in SQLite)."""

_STANDING_SECONDS = 10.0
"""How long a refused frame keeps a connection out of good standing (``ServerFrames``)."""

_REFUSALS_OF_STANDING = frozenset(
    {
        ErrorCode.BAD_JSON,
        ErrorCode.BAD_MESSAGE,
        ErrorCode.UNKNOWN_TYPE,
        ErrorCode.TOO_LARGE,
        ErrorCode.RATE_LIMITED,
    }
)
"""Refusals that take a connection out of good standing: what a flood gets, not a player."""

_COMMIT_ATTEMPTS = 3
"""How often an intent is replayed on a stored game that other pages keep moving on."""


def player_tag(token: str) -> str:
    """How a player is named in the log: a digest of their token, never the token itself.

    The token is the player's only credential; whoever reads the log must not
    be able to play as them. The digest still tells one player's lines apart.
    """
    return "player " + hashlib.sha256(token.encode("utf-8")).hexdigest()[:12]


class GameLocks:
    """One lock per player and level, shared by a server's sessions.

    Pages of one player on one level take turns to play and store an
    intent, so each catches up with the others' moves before its own and
    never runs out of attempts (four pages at once used to end in
    ``server-error``). Locks no page holds are forgotten.
    """

    def __init__(self) -> None:
        """No locks yet."""
        self._locks: weakref.WeakValueDictionary[tuple[str, str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def of(self, player: str, pack_id: str, level_id: str) -> asyncio.Lock:
        """The lock of ``player``'s game on one level."""
        key = (player, pack_id, level_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock


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
    log: list[LogEntry] = field(default_factory=list)
    replay_seconds: float = 0.0
    """Engine time the stored log takes to replay, as measured (turns since the last restart)."""
    notice: str | None = None
    """Said to the player with ``opened`` when their stored game could not be resumed."""

    def apply(self, intent: LogEntry) -> Event:
        """Apply a log entry to the live game."""
        # Looked up on the module at each call, so that a test can count the entries applied.
        return play_log.apply_entry(self.game, intent)


class PlaySession:
    """The game state of one WebSocket: answers each client frame with one reply frame."""

    def __init__(
        self,
        player: str,
        worlds: Worlds,
        store: StoreRunner,
        limits: ConnectionLimits | None = None,
        library: Library | None = None,
        long_logs: LongLogs | None = None,
        heavy: HeavyWork | None = None,
        locks: GameLocks | None = None,
        server_frames: ServerFrames | None = None,
        shares: AddressShares | None = None,
        address: str | None = None,
    ) -> None:
        """A session for ``player`` on ``worlds`` and the player's ``library``, within ``limits``.

        Games and progress persist through ``store``. Without ``library``
        the session makes its own on ``worlds`` and ``store``. ``long_logs``
        shortens over-long stored logs, shared by every session of a server
        (default: one per event loop, shortening on a worker thread).
        ``heavy`` is the server's budget for heavy levels, shared by all its
        sessions (default: one of this session's own, from ``limits``).
        ``locks`` make pages of one player on one level take turns (default:
        this session's own). ``server_frames`` is the server's frame budget,
        shared by all its sessions (default: this session's own).
        ``shares`` bound the new players each address starts, ``address``
        being this connection's (``miau.server.shares``; None: no bound).
        """
        self.player = player
        self.shares = shares
        self.address = address
        self.worlds = worlds
        self.store = store
        self.library = library or Library(worlds, store)
        self._long_logs = long_logs
        self.limits = limits or PLAY_LIMITS
        rate = self.limits.frames_per_second
        self.bucket = (
            None if rate is None else TokenBucket(rate, self.limits.burst, self.limits.clock)
        )
        self.current: OpenGame | None = None
        self.frame_cost = 1.0
        """Tokens a frame takes: more on the open level the more entities it has, or the more
        engine time its recent turns took (:meth:`_charge`)."""
        self.size_cost = 1.0
        """What the open level's size alone makes a frame cost."""
        self.recent_turns: deque[float] = deque(maxlen=RECENT_TURNS)
        """The engine seconds of the open level's last few turns."""
        self.drops = DropCounter(self.limits.clock)
        self.heavy = heavy or HeavyWork(self.limits)
        self.locks = locks or GameLocks()
        self.server_frames = server_frames or ServerFrames(self.limits)
        self.refused_at: float | None = None
        """When a frame of this connection was last refused (it is not in good standing)."""
        self.heavy_level = False
        """Whether the open level's turns run off the event loop (big, or measured heavy)."""
        self._replayed_seconds = 0.0
        """The engine time the last heavy replay took."""

    @property
    def long_logs(self) -> LongLogs:
        """The shortener of over-long stored logs this session shares with others."""
        # Looked up when first needed: a session may be made before its event loop runs.
        if self._long_logs is None:
            self._long_logs = default_long_logs()
        return self._long_logs

    @property
    def flooding(self) -> bool:
        """Whether the client sent past its rate limit so hard that it is cut off."""
        limit = self.limits.flood_close
        return limit is not None and self.drops.in_the_last_second >= limit

    async def handle(self, frame: str | bytes | None) -> dict[str, Any]:
        """The reply to one client frame; never raises for anything the client sends."""
        seq: int | None = None
        try:
            if not self.server_frames.take(self._in_good_standing()):
                self.drops.count()
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    "The server is answering as many messages as it can right now; this one "
                    "was dropped. Try again in a moment.",
                    _seq_of(frame),
                )
            if self.bucket is not None and not self.bucket.take(self.frame_cost):
                self.drops.count()
                heavy = (
                    f" (on a level this big, a message counts as {self.frame_cost:g})"
                    if self.frame_cost > 1
                    else ""
                )
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"Too many messages: at most {self.bucket.rate:g} a second "
                    f"(bursts of {self.limits.burst}){heavy}; this one was dropped.",
                    _seq_of(frame),
                )
            if self.frame_cost > 1 and not self.heavy.take(self.frame_cost):
                self._refuse_heavy(_seq_of(frame))
            message = parse_message(frame)
            seq = message.seq
            if isinstance(message, Intent):
                return await self.intent(message)
            if isinstance(message, Query):
                service.check_query(message)  # an unknown type is refused here, not on a thread
                reply: dict[str, Any] = await anyio.to_thread.run_sync(
                    service.answer_query, self.current, message, limiter=query_limiter()
                )
                return reply
            return await self.open(message)
        except ProtocolError as error:
            if error.code in _REFUSALS_OF_STANDING:
                self.refused_at = self.limits.clock()
            return error.reply()
        except AddressShareError as error:
            # Nothing was stored; the live game is ahead of the store: drop it.
            self.current = None
            return ProtocolError(ErrorCode.QUOTA, str(error), seq).reply()
        except StoreQuotaError:
            # Nothing was stored; the live game may be ahead of the store: drop it.
            self.current = None
            return ProtocolError(
                ErrorCode.QUOTA,
                "The server holds as many games in progress (or players) as it may; this "
                "move was not kept. Try again later.",
                seq,
            ).reply()
        except StaleGameError:
            # Pages of this player on other servers kept moving the game on (on one server they
            # take turns): nothing was stored; the page opens the level again and catches up.
            self.current = None
            return ProtocolError(
                ErrorCode.RATE_LIMITED,
                "Another page of yours moved this game on at the same moment; this move was "
                "not kept. Open the level again.",
                seq,
            ).reply()
        except Exception:
            logger.exception("play session of %s failed", player_tag(self.player))
            # The live game may be ahead of the store now: drop it; the client re-opens.
            self.current = None
            return ProtocolError(
                ErrorCode.SERVER_ERROR,
                "Something went wrong on the server; open the level again.",
                seq,
            ).reply()

    async def serve(self, websocket: WebSocket) -> None:
        """Answer every frame of an accepted play WebSocket, one reply each, until it goes.

        The next frame is read only once a reply is out; a client that does
        not read its replies within the send timeout, that floods past its
        rate limit for good, or that sends nothing for the idle timeout, is
        cut off.
        """
        try:
            while True:
                with anyio.move_on_after(self.limits.idle_timeout or math.inf) as idle:
                    message = await websocket.receive()
                if idle.cancelled_caught:
                    await websocket.close(code=1001, reason="idle")
                    return
                if message["type"] == "websocket.disconnect":
                    return
                frame = message.get("text")
                reply = await self.handle(frame if frame is not None else message.get("bytes"))
                # The next frame is read only once this reply is out: a client that does not
                # read holds one buffer of replies here, and is dropped when it stays stuck.
                with anyio.move_on_after(self.limits.send_timeout) as waiting:
                    await websocket.send_text(json.dumps(reply, separators=(",", ":")))
                if waiting.cancelled_caught:
                    # The transport aborts a socket whose application ends with unsent
                    # replies (miau.server.serving), so the socket goes now.
                    logger.info(
                        "play session of %s: the client stopped reading; closed",
                        player_tag(self.player),
                    )
                    return
                if self.flooding:
                    logger.info(
                        "play session of %s: past its rate limit for good; closed",
                        player_tag(self.player),
                    )
                    await websocket.close(code=1008, reason="too many messages")
                    return
        except (WebSocketDisconnect, OSError):
            return
        except RuntimeError:
            # The server closed the socket meanwhile (its keepalive ping went unanswered):
            # the reply has nowhere to go. This is a departure, not a failure.
            logger.info(
                "play session of %s: the connection was closed under it", player_tag(self.player)
            )
            return

    def _in_good_standing(self) -> bool:
        """Whether this connection plays a level and had no frame refused for 10 s."""
        if self.current is None:
            return False
        return self.refused_at is None or self.limits.clock() - self.refused_at > _STANDING_SECONDS

    def _refuse_heavy(self, seq: int | None) -> NoReturn:
        """:raises ProtocolError: ``rate-limited``: the server's heavy-level budget is spent."""
        self.drops.count()
        raise ProtocolError(
            ErrorCode.RATE_LIMITED,
            "The server is busy with big levels right now: this message was dropped; "
            "try again in a moment (shipped levels are not affected).",
            seq,
        )

    async def open(self, message: Open) -> dict[str, Any]:
        """Resume the player's game on a level or a shared level, or start one; or play a draft."""
        if isinstance(message, OpenShare | OpenDraft):
            # Loading a link or a draft is heavy work of its own (a link at the entity bound
            # takes about 5 ms), done before its size is known: it draws from the heavy
            # budget first, and runs on the heavy thread, so a flood of them never has
            # several threads contending with the event loop for the interpreter.
            if not self.heavy.take(DRAFT_OPEN_COST):
                self._refuse_heavy(message.seq)
            try:
                pack: Pack = await anyio.to_thread.run_sync(
                    _link_or_draft_pack, message, limiter=heavy_turn_limiter()
                )
            except ProtocolError:
                self.heavy.settle(DRAFT_OPEN_COST, 1)
                raise
            pack_id: str | None = (
                share_content_key(pack) if isinstance(message, OpenShare) else None
            )
            level = pack.levels[0]
        else:
            pack, level = await self._world_level(message)
            pack_id = pack.manifest.id
        entities = len(level.data.get("objects", ()))
        if not isinstance(message, OpenLevel):
            self.heavy.settle(DRAFT_OPEN_COST, math.ceil(entities / ENTITIES_PER_TOKEN))
        if pack_id is None and entities > DRAFT_MAX_ENTITIES:
            # Refused before the engine builds its board: that alone is the heavy part.
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"This draft cannot be played: it has {entities:,} things and words; "
                f"a test-play takes at most {DRAFT_MAX_ENTITIES:,}.",
                message.seq,
            )
        self.heavy_level = entities > ENTITIES_PER_TOKEN
        self.frame_cost = self.size_cost = float(math.ceil(entities / ENTITIES_PER_TOKEN)) or 1.0
        self.recent_turns.clear()
        if self.heavy_level and pack_id is not None and not self.heavy.take(self.frame_cost):
            # A big shared or library level: building its board is heavy work of its own.
            self._refuse_heavy(message.seq)
        self._replayed_seconds = 0.0
        opened = await self._load(pack, level, pack_id)
        opened.replay_seconds = self._replayed_seconds
        self.current = opened

        def reply() -> dict[str, Any]:
            return service.opened_reply(
                message,
                pack_id,
                level,
                opened.game,
                resumed=opened.game_id is not None,
                notice=opened.notice,
            )

        return await self._heavy_work(reply) if self.heavy_level else reply()

    async def _heavy_work(self, work: Callable[[], Result]) -> Result:
        """``work()`` on the heavy-level thread, its engine time charged to the heavy budget."""
        result, seconds = await anyio.to_thread.run_sync(
            timed, self.limits.engine_clock, work, limiter=heavy_turn_limiter()
        )
        self.heavy.settle(0.0, tokens_of(seconds))
        return result

    async def _new_game(self, level: PackLevel) -> Game:
        """A fresh game on ``level``: built off the event loop on a heavy level."""
        if not self.heavy_level:
            return Game(level.data)
        return await self._heavy_work(lambda: Game(level.data))

    async def _world_level(self, message: OpenLevel) -> tuple[Pack, PackLevel]:
        """The level of a shipped world or of the player's library that ``message`` names."""
        found = await self.library.find(self.player, message.pack)
        return service.level_of(None if found is None else found[0], message)

    async def _load(self, pack: Pack, level: PackLevel, pack_id: str | None) -> OpenGame:
        """The stored game on this level replayed on a fresh ``Game``, or a new one.

        A draft (``pack_id`` None) is never stored, so it always starts fresh.
        Pages of the player opening the level together share one read of the
        stored game (:meth:`_read_stored`), which shortens a log stored
        before the cap. A stored game that cannot be replayed (an entry the
        engine refuses now, a payload that no longer reads) is deleted, and
        the level starts fresh with :data:`UNREPLAYABLE_NOTICE` for the
        player: a level is never stuck on a log that cannot come back.
        """
        opened = OpenGame(pack, level, await self._new_game(level), pack_id)
        if pack_id is None:
            return opened
        key = (self.player, pack_id, level.id)
        found = await self.long_logs.read_once(key, lambda: self._read_stored(pack_id, level))
        stored = found.game
        if found.set_aside:
            opened.notice = UNREPLAYABLE_NOTICE
        if stored is None:
            return opened
        try:
            game = await self._replay(level, stored.intents)
        except UnreplayableGameError as problem:
            await self._set_aside(pack_id, level, stored.game_id, problem)
            opened.notice = UNREPLAYABLE_NOTICE
            return opened
        opened.game, opened.game_id, opened.log = game, stored.game_id, list(stored.intents)
        if opened.game.won and opened.log and opened.log[-1].is_move:
            # A winning step was stored but the win not recorded (the server stopped in
            # between): record it now. A board restored as won is no win of the player's.
            await self._record_win(opened)
            return OpenGame(pack, level, await self._new_game(level), pack_id)
        return opened

    async def _read_stored(self, pack_id: str, level: PackLevel) -> StoredForPlay:
        """The player's stored game on the level, an over-long log shortened and stored so.

        A log of :data:`COMPACT_AT` entries or more (stored before the cap)
        is read in parts, so that other players' store calls pass in
        between, and shortened by :attr:`long_logs` (under ``miau play``, in
        a process of its own: the server never replays it); the short log
        replaces it in the store and is what the pages replay.
        """
        for _ in range(_COMMIT_ATTEMPTS):
            # At most COMPACT_AT entries: a longer log is read in parts below.
            stored = await self.store.current_game(self.player, pack_id, level.id, COMPACT_AT)
            if stored is None or len(stored.intents) < COMPACT_AT:
                return StoredForPlay(stored)
            intents = await self._read_log(pack_id, level, stored.game_id)
            if intents is None:
                continue  # another page won, reset or compacted it meanwhile
            try:
                short = await self.long_logs.shortened(level, intents, play_log.UNDO_KEPT)
            except UnreplayableGameError as problem:
                await self._set_aside(pack_id, level, stored.game_id, problem)
                return StoredForPlay(None, set_aside=True)
            if short is None:  # no shorter form: the pages replay it whole
                return StoredForPlay(StoredGame(stored.game_id, intents))
            new_id = await self.store.compact_game(
                self.player, pack_id, level.id, stored.game_id, len(intents), tuple(short)
            )
            if new_id is not None:
                return StoredForPlay(StoredGame(new_id, tuple(short)))
        raise StaleGameError("the stored game kept changing under this session")

    async def _read_log(
        self, pack_id: str, level: PackLevel, game_id: int
    ) -> tuple[LogEntry, ...] | None:
        """The whole log of stored game ``game_id``, read :data:`LOG_READ_PART` entries at a time.

        None when it is no longer the player's game on the level. (A 50,000-entry
        log read in one call held the store, and every player's moves, for 70 ms.)
        """
        entries: list[LogEntry] = []
        while True:
            part = await self.store.game_tail(
                self.player, pack_id, level.id, game_id, len(entries), LOG_READ_PART
            )
            if part is None:
                return None
            entries.extend(part)
            if len(part) < LOG_READ_PART:
                return tuple(entries)

    async def _set_aside(
        self, pack_id: str, level: PackLevel, game_id: int, problem: UnreplayableGameError
    ) -> None:
        """Delete a stored game that cannot be replayed, and log why."""
        logger.warning(
            "%s/%s game %d of %s cannot be replayed (%s): it starts again",
            pack_id,
            level.id,
            game_id,
            player_tag(self.player),
            problem,
        )
        await self.store.abandon_game(game_id, self.player)

    async def _replay(self, level: PackLevel, intents: Sequence[LogEntry]) -> Game:
        """:func:`replay_log` of a log under :data:`COMPACT_AT` entries: here, or on a thread."""
        if self.heavy_level:
            return await self._heavy_replay(level, intents)
        if len(intents) <= self.limits.replay_chunk:
            return replay_log(level, intents)
        rate = self.limits.replay_entries_per_second
        if rate is not None:
            wait = self.long_logs.budgets.reserve(
                self.player, len(intents), rate, self.limits.replay_burst, self.limits.clock()
            )
            if wait > 0:
                await self.limits.sleep(wait)
        # Up to ~60 ms of replay (4,095 entries): on a worker thread, so that the event
        # loop keeps answering everyone else.
        game: Game = await anyio.to_thread.run_sync(
            replay_log, level, intents, limiter=replay_limiter()
        )
        return game

    async def _heavy_replay(
        self, level: PackLevel, intents: Sequence[LogEntry], *, may_refuse: bool = True
    ) -> Game:
        """A replay on a heavy level: off the loop, timed, capped, charged to the heavy budget.

        ``may_refuse`` False: work already promised (a move stored), charged
        into debt rather than refused.

        :raises UnreplayableGameError: past its cap of engine time too
            (:func:`~miau.server.costs.timed_replay`).
        :raises ProtocolError: ``rate-limited`` when the heavy budget is spent.
        """
        taken = self.heavy.take(self.frame_cost)
        if not taken and may_refuse:
            self._refuse_heavy(None)
        game, seconds = await anyio.to_thread.run_sync(
            timed_replay, level, intents, self.limits.engine_clock, limiter=heavy_turn_limiter()
        )
        self.heavy.settle(self.frame_cost if taken else 0.0, tokens_of(seconds))
        self._replayed_seconds = seconds
        return game

    async def intent(self, message: Intent) -> dict[str, Any]:
        """Apply one intent to the open game; store it if the engine accepted it.

        The turn is timed and its cost charged (:meth:`_charge`); on a heavy
        level it runs off the event loop. Pages of this player on this
        level take turns (:class:`GameLocks`).
        """
        current = self.current
        if current is None or current.pack_id is None:
            return await self._play(message)
        async with self.locks.of(self.player, current.pack_id, current.level.id):
            return await self._play(message)

    async def _play(self, message: Intent) -> dict[str, Any]:
        """:meth:`intent` once the turn is this page's."""
        current = self.current
        turn = await self._timed_turn(message)
        self._charge(turn.seconds)
        if turn.too_big is not None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"This move would make the board too big to send ({turn.too_big / 1024:,.0f} "
                f"KiB; a reply holds at most {MAX_REPLY_BYTES // 1024:,} KiB), so it was "
                "taken back.",
                message.seq,
            )
        assert current is not None  # a turn without an open game raised no-game
        event, entry = turn.event, turn.entry
        if entry is None:
            return turn.reply
        current.replay_seconds = (
            turn.seconds if entry.starts_afresh else current.replay_seconds + turn.seconds
        )
        committed, event = await self._commit(current, entry, event)
        progress: dict[str, Any] | None = None
        if service.is_a_win(event, entry):
            progress = await self._record_win(committed)
        if committed is current and event is turn.event and progress is None:
            return turn.reply
        return service.result_reply(message, event, committed.game, progress)

    async def _timed_turn(self, message: Intent) -> TimedTurn:
        """Play one intent, timed: on the event loop, or on a worker thread on a heavy level."""
        clock = self.limits.engine_clock
        if not self.heavy_level:
            return timed_turn(self.current, message, clock)
        turn: TimedTurn = await anyio.to_thread.run_sync(
            timed_turn, self.current, message, clock, limiter=heavy_turn_limiter()
        )
        return turn

    def _charge(self, seconds: float) -> None:
        """Charge a turn's measured engine time to this connection and, if heavy, to the server.

        The frame already took :attr:`frame_cost` tokens (from the server's
        budget too when over one); the difference is settled, into debt if
        the turn cost more. The next frame costs what the level's recent turns
        say: the lower median of the last :data:`RECENT_TURNS` turns' engine
        time (or the level's size, if more), so one slow turn among fast ones
        (a garbage-collection pause) is paid for once and does not price every
        frame after it, while a level whose turns are all slow is priced from
        its first.
        """
        self.recent_turns.append(seconds)
        if seconds > HEAVY_TURN_SECONDS:
            tokens = tokens_of(seconds)
            self.heavy.settle(self.frame_cost if self.frame_cost > 1 else 0.0, tokens)
            if self.bucket is not None:
                self.bucket.settle(tokens - self.frame_cost)
        typical = sorted(self.recent_turns)[(len(self.recent_turns) - 1) // 2]
        slow = typical > HEAVY_TURN_SECONDS
        self.heavy_level = self.size_cost > 1 or slow
        self.frame_cost = max(self.size_cost, float(math.ceil(tokens_of(typical))) if slow else 1.0)

    async def _commit(
        self, current: OpenGame, entry: LogEntry, event: Event
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
                if not await self._catch_up(current, entry):
                    try:
                        current = self.current = await self._load(
                            current.pack, current.level, current.pack_id
                        )
                    except ProtocolError:
                        # Refused (the heavy budget): the live game is ahead of the store.
                        self.current = None
                        raise
                event = current.apply(entry)
                if not event.accepted:
                    return current, event
        raise StaleGameError("the stored game kept changing under this session")

    async def _catch_up(self, current: OpenGame, entry: LogEntry) -> bool:
        """Bring the live game level with a stored game that another page moved on; whether it could.

        The entry applied ahead of the store is taken back (a step or wait is
        undone exactly), then only the entries the other page stored since
        are applied: two pages taking turns never replay the whole game. A
        different stored game (the other page reset or won), an undo, reset
        or restore applied ahead, or a long tail, fall back to a full reload.
        """
        if current.game_id is None or current.pack_id is None or not entry.is_move:
            return False
        tail = await self.store.game_tail(
            self.player,
            current.pack_id,
            current.level.id,
            current.game_id,
            len(current.log),
            self.limits.replay_chunk + 1,  # one more tells a long tail: it is not read whole
        )
        if tail is None or len(tail) > self.limits.replay_chunk:
            return False
        if not current.game.undo().accepted:
            return False
        for stored in tail:
            try:
                accepted = current.apply(stored).accepted
            except (ValueError, TypeError, KeyError):
                accepted = False
            if not accepted:
                return False
            current.log.append(stored)
        return True

    async def _append(self, current: OpenGame, entry: LogEntry) -> None:
        """Commit an accepted entry: a new stored game on the first one (or after a win).

        :raises StaleGameError: when the stored game moved on since it was loaded.
        """
        pack_id, level_id = current.pack_id, current.level.id
        if pack_id is None:
            raise RuntimeError("a draft is never stored")
        # After a reset or a restore nothing before it matters to the board or to undo,
        # so it starts a new stored game: a log never grows past the last restart.
        fresh_start = entry.starts_afresh
        if current.game_id is None or fresh_start:
            log = [entry] if fresh_start else [*current.log, entry]
            if self.shares is not None:
                await self.shares.take(self.player, self.address)
            current.game_id = await self.store.start_game(
                self.player, pack_id, level_id, tuple(log), replace=fresh_start
            )
            current.log = log
            return
        await self.store.append_intent(current.game_id, len(current.log), entry)
        current.log.append(entry)
        if len(current.log) >= COMPACT_AT:
            await self._compact_or_log(current)
        elif current.replay_seconds > HEAVY_LOG_SECONDS:
            try:
                await self._restart_from_board(current)
            except Exception:
                # The entry is stored and the game as it was: only later resumes cost more.
                logger.exception(
                    "storing game %s of %s as a restore failed",
                    current.game_id,
                    player_tag(self.player),
                )

    async def _restart_from_board(self, current: OpenGame) -> None:
        """Store a costly log as one restore of the present board, so a resume stays cheap.

        The board and move count stay exact; undo on a later resume (and
        here, for the live game is replayed from it too) starts from this
        board. Nothing changes if another page moved the stored game on.
        """
        if current.game_id is None or current.pack_id is None:
            return
        state = restore_state(current.game.state.to_json())
        log = [LogEntry(RESTORE, json.dumps(state, separators=(",", ":")))]
        game = await self._heavy_replay(current.level, log, may_refuse=False)
        new_id = await self.store.compact_game(
            self.player,
            current.pack_id,
            current.level.id,
            current.game_id,
            len(current.log),
            tuple(log),
        )
        if new_id is not None:
            current.game_id, current.log, current.game = new_id, log, game
            current.replay_seconds = self._replayed_seconds

    async def _compact_or_log(self, current: OpenGame) -> None:
        """:meth:`_compact`, with a failure logged: it only saves later resumes time."""
        try:
            await self._compact(current)
        except Exception:
            # The game and its stored log are as they were: nothing is lost.
            logger.exception(
                "compacting game %s of %s failed", current.game_id, player_tag(self.player)
            )

    async def _compact(self, current: OpenGame) -> None:
        """Store a shorter log that replays to the same game (:func:`~miau.play.log.compacted_log`).

        So a stored log never holds more than :data:`COMPACT_AT` entries,
        and a resume never replays more. The shorter log is made on a worker
        thread (a capped one replays the game). Nothing changes if another
        page moved the stored game on meanwhile.
        """
        if current.game_id is None or current.pack_id is None or not current.log:
            return
        compacted = await anyio.to_thread.run_sync(
            compacted_log, current.level, list(current.log), current.game, limiter=replay_limiter()
        )
        if compacted is None:
            return
        log, capped = compacted
        new_id = await self.store.compact_game(
            self.player,
            current.pack_id,
            current.level.id,
            current.game_id,
            len(current.log),
            tuple(log),
        )
        if new_id is not None:  # else another page moved the game on: it stays as it is
            current.game_id, current.log = new_id, log
            if capped is not None:
                # The live game undoes no further than the stored log replays.
                current.game = capped

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
        return service.win_reply(progress.best_moves)


def _seq_of(frame: str | bytes | None) -> int | None:
    """The ``seq`` of a frame that will not be acted on, if it has a readable one."""
    try:
        return parse_message(frame).seq
    except ProtocolError as error:
        return error.seq


def _link_or_draft_pack(message: OpenShare | OpenDraft) -> Pack:
    """The one-level pack a share link carries or a draft is (see ``service``).

    :raises ProtocolError: ``bad-message`` with the link's or the draft's problem.
    """
    if isinstance(message, OpenShare):
        return service.shared_pack(message)
    return service.draft_pack(message)
