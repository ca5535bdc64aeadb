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
``rate-limited`` error and dropped, a long stored log is replayed on a
worker thread so that other players' replies are not held up behind it, and
one player's resumes replay within a budget of entries a second. Stored
games are kept in bounds too: a restore stores only the fields the engine
reads, a stored log is compacted before it reaches :data:`COMPACT_AT`
entries (one stored before the cap is shortened once, outside the server,
by :mod:`miau.server.long_logs`), and a stored game that no longer replays
is set aside rather than left to fail on every open.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sys
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

import anyio

from miau.engine import Event, Game
from miau.engine.state import history_records
from miau.engine.vocabulary import INTENT_OF_LETTER, MOVE_ALPHABET
from miau.packs import Pack, PackLevel
from miau.packs.share import ShareLinkError, decode_share_code, share_content_key
from miau.server.library import Library
from miau.server.long_logs import LongLogs, StoredForPlay
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
from miau.server.store import (
    StaleGameError,
    StoredGame,
    StoredIntent,
    StoreQuotaError,
    StoreRunner,
)
from miau.server.studio_levels import DraftError, load_draft
from miau.server.worlds import Worlds

__all__ = [
    "DRAFT_MAX_ENTITIES",
    "ENTITIES_PER_TOKEN",
    "PLAY_LIMITS",
    "UNTHROTTLED",
    "ConnectionLimits",
    "DropCounter",
    "PlaySession",
    "TokenBucket",
    "UnreplayableGameError",
    "apply_stored",
    "replay_log",
    "restore_state",
    "shorten_on_a_thread",
    "shortened_log",
    "state_json",
]

logger = logging.getLogger(__name__)

STEP_LETTERS = {direction.name: direction.letter for direction in MOVE_ALPHABET}
"""The log letter of each accepted step or wait (the move alphabet of solutions)."""

UNDO, RESET, RESTORE = "Z", "X", "S"
"""The log letters of the other intents."""

RESTORE_FIELDS = ("entities", "moveCount", "won", "automata")
"""The fields of a restore's state that are read and stored (``docs/protocol.md``); no others."""

MAX_MOVE_COUNT = 1_000_000_000
"""The largest ``moveCount`` a restore takes: far past any real game, far inside a 64-bit column."""

_LETTER_STEPS = {letter: step for step, letter in STEP_LETTERS.items()}

COMPACT_AT = 4096
"""A stored log is compacted when it reaches this many entries (see :meth:`PlaySession._compact`)."""

UNDO_KEPT = 2048
"""The turns of undo a compacted log keeps when the game has more (the cap's policy)."""

LOG_READ_PART = 4096
"""How many entries of an over-long stored log one store call reads (about 6 ms in SQLite)."""

_COMMIT_ATTEMPTS = 3
"""How often an intent is replayed on a stored game that other pages keep moving on."""

DRAFT_MAX_ENTITIES = 1024
"""The most things and words a draft may start with: a step's reply then stays under
140 KiB and the engine's step takes a few milliseconds (4,093 YOU things: 537 KiB, 30 ms)."""

ENTITIES_PER_TOKEN = 128
"""A frame on a level of more entities than this costs the rate limit more than one token:
one for each started 128 (every shipped level has at most 63; a held key keeps up on levels
of up to 256; a step on a 1,024-entity draft costs 8)."""

DRAFT_OPEN_COST = -(-DRAFT_MAX_ENTITIES // ENTITIES_PER_TOKEN)
"""The heavy-work tokens a draft's open takes before the draft is loaded (the largest
playable draft's cost); the rest is settled once its size is known."""


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """How much one play connection may ask of the server.

    ``frames_per_second`` and ``burst`` make a token bucket over every client
    frame: a held key (about 11 moves a second) never reaches it, a flood
    does; None turns the rate limit off (:data:`UNTHROTTLED`). ``send_timeout`` is how long a reply may wait for a client that
    does not read before the server gives up on that connection.
    ``replay_chunk`` is the longest stored log replayed on the event loop
    (a longer one is replayed on a worker thread), and the most entries a
    page catches up on from another page before it reloads instead.
    ``flood_close`` is how many frames the rate limit may drop within one
    second before the connection is closed (1008): a client that keeps
    sending past its limit costs the server a reply per frame otherwise.
    ``replay_entries_per_second`` and ``replay_burst`` bound the stored
    entries one player's resumes replay (all their pages together,
    :class:`~miau.server.long_logs.ReplayBudgets`): a resume past it waits
    its turn; None turns it off. ``heavy_tokens_per_second`` and
    ``heavy_burst`` make one token bucket for the whole server
    (:class:`HeavyWork`) that every frame costing more than one token (on a
    level of more than :data:`ENTITIES_PER_TOKEN` entities) and every draft
    opened also draws from: it bounds the event-loop time all heavy levels
    together take each second, however many connections (or reconnections)
    ask; None turns it off. ``clock`` and ``sleep`` are injectable for
    tests.
    """

    frames_per_second: float | None = 30.0
    burst: int = 20
    send_timeout: float = 10.0
    replay_chunk: int = 256
    flood_close: int | None = 20
    replay_entries_per_second: float | None = 4096.0
    replay_burst: int = 4096
    heavy_tokens_per_second: float | None = 64.0
    heavy_burst: int = 64
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep


PLAY_LIMITS = ConnectionLimits()
"""The limits for players on the open internet: 30 frames a second, bursts of 20; each player's
resumes replay at most 4,096 stored entries a second (a whole capped log at once); heavy
levels take at most 64 tokens a second of the whole server (about 20 ms of its event loop)."""

UNTHROTTLED = ConnectionLimits(
    frames_per_second=None, replay_entries_per_second=None, heavy_tokens_per_second=None
)
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

    def take(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens (at most the burst) if there are that many; whether there were."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        cost = min(max(cost, 1.0), self.burst)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def settle(self, extra: float) -> None:
        """Take ``extra`` more tokens for work already done (into debt), or give some back."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate - extra)
        self.last = now


class HeavyWork:
    """The server's one budget for heavy levels, shared by every play connection.

    A step on a 1,024-entity draft costs the server about 2.5 ms of its
    event loop (the engine's step, the state, its JSON), 8 tokens: a
    connection's own rate limit bounds one connection, but a client that
    opens many connections, or opens a new one each time it is cut off,
    starts each with a full bucket. This bucket is not per connection: all
    heavy frames together get at most ``rate`` tokens a second, so heavy
    levels take a bounded share of the event loop whatever the number of
    sockets. Frames on shipped levels and small drafts (one token) never
    draw from it; opening any draft does (a small one 1 token in the end).
    A flood of heavy drafts delays other drafts, never play on shipped
    levels.
    """

    def __init__(self, limits: ConnectionLimits) -> None:
        """The budget ``limits`` sets (none when its ``heavy_tokens_per_second`` is None)."""
        rate = limits.heavy_tokens_per_second
        self.bucket = None if rate is None else TokenBucket(rate, limits.heavy_burst, limits.clock)

    def take(self, cost: float) -> bool:
        """Take ``cost`` tokens of heavy work if the server has them now; whether it had."""
        return self.bucket is None or self.bucket.take(cost)

    def settle(self, taken: float, cost: float) -> None:
        """The work ``taken`` tokens were taken for cost ``cost`` in the end: charge or refund.

        A draft is loaded before its size is known, so its open takes the
        cost of the largest draft first; a smaller one gets the rest back,
        and a larger one (refused once loaded) leaves the budget in debt.
        """
        if self.bucket is not None:
            self.bucket.settle(cost - taken)


class DropCounter:
    """Counts the frames a rate limit dropped in the current one-second window."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """No drops yet."""
        self.clock = clock
        self.window_start = clock()
        self.in_the_last_second = 0

    def count(self) -> None:
        """One more frame dropped (a new window starts a second after the last one began)."""
        now = self.clock()
        if now - self.window_start >= 1.0:
            self.window_start, self.in_the_last_second = now, 0
        self.in_the_last_second += 1


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
        return game.restore(restore_state(json.loads(intent.payload)))
    raise ValueError(f"not a log entry: {intent!r}")


def restore_state(state: object) -> dict[str, Any]:
    """The part of a restore's state the engine reads: :data:`RESTORE_FIELDS`, bounded.

    Anything else the client sent (a ``history``, a 64 KB extra field) is
    dropped, so it is neither read nor stored. The engine checks the entities
    and automata against the level (ids, cells and phases are bounded by it).

    :raises ValueError: for a state that is not an object, or a ``moveCount``
        that is an integer past :data:`MAX_MOVE_COUNT`.
    """
    if not isinstance(state, dict):
        raise ValueError("state must be an object")
    kept = {key: state[key] for key in RESTORE_FIELDS if key in state}
    move_count = kept.get("moveCount")
    if type(move_count) is int and not 0 <= move_count <= MAX_MOVE_COUNT:
        raise ValueError(f"state.moveCount must be an integer from 0 to {MAX_MOVE_COUNT:,}")
    return kept


class UnreplayableGameError(ValueError):
    """A stored log that does not replay: an entry the engine refuses, or one that does not read."""


UNREPLAYABLE_NOTICE = (
    "Your saved game on this level could not be resumed (it no longer fits the level), "
    "so the level starts again from the beginning. Your wins are kept."
)
"""What ``opened`` says when a stored game that cannot be replayed was set aside."""

_REPLAY_THREADS = 2
"""How many long logs are replayed at once (each on a worker thread); more wait their turn."""

REPLAY_SWITCH_INTERVAL = 0.001
"""The interpreter's thread switch interval (s) once a long replay runs beside the event loop.

A replay thread holds the GIL until the interval passes; at Python's default
of 5 ms, two of them kept a 5 ms ticker on the loop late by 95 to 130 ms
(p99) on the loaded development machine, at 1 ms by under 20 ms.
"""

_replay_limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)


def _replay_limiter() -> anyio.CapacityLimiter:
    """The limiter of long replays on the running event loop (one per loop: tests run several).

    Also lowers the thread switch interval to :data:`REPLAY_SWITCH_INTERVAL`
    (never raises it), so that the loop gets the GIL back soon.
    """
    if sys.getswitchinterval() > REPLAY_SWITCH_INTERVAL:
        sys.setswitchinterval(REPLAY_SWITCH_INTERVAL)
    loop = asyncio.get_running_loop()
    limiter = _replay_limiters.get(loop)
    if limiter is None:
        limiter = _replay_limiters[loop] = anyio.CapacityLimiter(_REPLAY_THREADS)
    return limiter


_long_logs_of_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LongLogs] = (
    weakref.WeakKeyDictionary()
)


def _default_long_logs() -> LongLogs:
    """The long-log flights of sessions made without any: one per event loop, on threads."""
    loop = asyncio.get_running_loop()
    long_logs = _long_logs_of_loops.get(loop)
    if long_logs is None:
        long_logs = _long_logs_of_loops[loop] = LongLogs(shorten_on_a_thread)
    return long_logs


async def shorten_on_a_thread(
    level: PackLevel, intents: Sequence[StoredIntent], undo_kept: int
) -> list[StoredIntent] | None:
    """:func:`shortened_log` on a worker thread of this process (sessions made without a server)."""
    result: list[StoredIntent] | None = await anyio.to_thread.run_sync(
        shortened_log, level, intents, undo_kept, limiter=_replay_limiter()
    )
    return result


def _capped_log(
    level: PackLevel, head: Sequence[StoredIntent], moves: str
) -> tuple[list[StoredIntent], Game]:
    """A log of a restore of the board :data:`UNDO_KEPT` turns from the end, then those turns; and its game."""
    earlier = replay_log(level, [*head, *(StoredIntent(letter) for letter in moves[:-UNDO_KEPT])])
    state = json.dumps(restore_state(earlier.state.to_json()), separators=(",", ":"))
    log = [StoredIntent(RESTORE, state), *(StoredIntent(letter) for letter in moves[-UNDO_KEPT:])]
    return log, replay_log(level, log)


def shortened_log(
    level: PackLevel, intents: Sequence[StoredIntent], undo_kept: int
) -> list[StoredIntent] | None:
    """A shorter log that replays to the same game as ``intents``; None if there is none.

    The same log :meth:`PlaySession._compact` stores (the entry that began
    the board, then the letters of the turns that can be undone, capped at
    ``undo_kept`` turns behind a restore of the board before them), made
    from the log alone: this is how an over-long stored log is shortened,
    in :mod:`miau.server.long_logs`'s replay process.

    :raises UnreplayableGameError: when the log does not replay.
    """
    game = replay_log(level, intents)
    head = list(intents[:1]) if intents and intents[0].letter == RESTORE else []
    letters = [record.letter for record in history_records(game.state.last_turn)]
    if any(letter is None or letter not in _LETTER_STEPS for letter in letters):
        return None  # a history read from a restored state: no letters to store
    moves = "".join(letter for letter in letters if letter is not None)
    if len(head) + len(moves) > undo_kept:
        # The board undo_kept turns back: undo is exact, and this game is thrown away,
        # so undoing costs far less than the second replay _capped_log makes.
        for _ in range(undo_kept):
            game.undo()
        state = json.dumps(restore_state(game.state.to_json()), separators=(",", ":"))
        log = [
            StoredIntent(RESTORE, state),
            *(StoredIntent(letter) for letter in moves[-undo_kept:]),
        ]
    else:
        log = [*head, *(StoredIntent(letter) for letter in moves)]
    return log if len(log) < len(intents) else None


def replay_log(level: PackLevel, intents: Sequence[StoredIntent]) -> Game:
    """A fresh game on ``level`` with the stored ``intents`` applied, oldest first.

    :raises UnreplayableGameError: when an entry does not read or the engine
        refuses it (every stored entry was accepted when it was stored, so
        the level or the engine changed since, or the row was damaged).
    """
    game = Game(level.data)
    for index, entry in enumerate(intents):
        try:
            accepted = apply_stored(game, entry).accepted
        except (ValueError, TypeError, KeyError) as error:
            raise UnreplayableGameError(f"entry {index} {entry.letter!r}: {error}") from None
        if not accepted:
            raise UnreplayableGameError(f"entry {index} {entry.letter!r} is refused now")
    return game


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
    notice: str | None = None
    """Said to the player with ``opened`` when their stored game could not be resumed."""

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
        long_logs: LongLogs | None = None,
        heavy: HeavyWork | None = None,
    ) -> None:
        """A session for ``player`` on ``worlds`` and the player's ``library``, within ``limits``.

        Games and progress persist through ``store``. Without ``library``
        the session makes its own on ``worlds`` and ``store``. ``long_logs``
        shortens over-long stored logs, shared by every session of a server
        (default: one per event loop, shortening on a worker thread).
        ``heavy`` is the server's budget for heavy levels, shared by all its
        sessions (default: one of this session's own, from ``limits``).
        """
        self.player = player
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
        """Tokens a frame takes: more on the open level the more entities it has."""
        self.drops = DropCounter(self.limits.clock)
        self.heavy = heavy or HeavyWork(self.limits)

    @property
    def long_logs(self) -> LongLogs:
        """The shortener of over-long stored logs this session shares with others."""
        # Looked up when first needed: a session may be made before its event loop runs.
        if self._long_logs is None:
            self._long_logs = _default_long_logs()
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
            return await self.open(message)
        except ProtocolError as error:
            return error.reply()
        except StoreQuotaError:
            # Nothing was stored; the live game may be ahead of the store: drop it.
            self.current = None
            return ProtocolError(
                ErrorCode.QUOTA,
                "The server holds as many games in progress (or players) as it may; this "
                "move was not kept. Try again later.",
                seq,
            ).reply()
        except Exception:
            logger.exception("play session of %s failed", self.player)
            # The live game may be ahead of the store now: drop it; the client re-opens.
            self.current = None
            return ProtocolError(
                ErrorCode.SERVER_ERROR,
                "Something went wrong on the server; open the level again.",
                seq,
            ).reply()

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
        if isinstance(message, OpenShare):
            pack = await self._shared_pack(message)
            pack_id: str | None = share_content_key(pack)
            level = pack.levels[0]
        elif isinstance(message, OpenDraft):
            # Loading a draft is heavy work of its own, done before its size is known.
            if not self.heavy.take(DRAFT_OPEN_COST):
                self._refuse_heavy(message.seq)
            try:
                pack = await self._draft_pack(message)
            except ProtocolError:
                self.heavy.settle(DRAFT_OPEN_COST, 1)
                raise
            pack_id, level = None, pack.levels[0]
        else:
            pack, level = await self._world_level(message)
            pack_id = pack.manifest.id
        entities = len(level.data.get("objects", ()))
        if pack_id is None:
            self.heavy.settle(DRAFT_OPEN_COST, math.ceil(entities / ENTITIES_PER_TOKEN))
        if pack_id is None and entities > DRAFT_MAX_ENTITIES:
            # Refused before the engine builds its board: that alone is the heavy part.
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"This draft cannot be played: it has {entities:,} things and words; "
                f"a test-play takes at most {DRAFT_MAX_ENTITIES:,}.",
                message.seq,
            )
        opened = await self._load(pack, level, pack_id)
        state = state_json(opened.game)
        self.current = opened
        self.frame_cost = float(math.ceil(entities / ENTITIES_PER_TOKEN)) or 1.0
        reply: dict[str, Any] = {
            "type": "opened",
            "pack": pack_id,
            "level": level.id,
            "state": state,
            "resumed": opened.game_id is not None,
        }
        if pack_id is None:
            reply["draft"] = True
        if opened.notice is not None:
            reply["notice"] = opened.notice
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
            pack: Pack = await anyio.to_thread.run_sync(load_draft, message.pack)
        except DraftError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error), message.seq) from None
        return pack

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
        opened = OpenGame(pack, level, Game(level.data), pack_id)
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
        if opened.game.won and opened.log and opened.log[-1].letter in _LETTER_STEPS:
            # A winning step was stored but the win not recorded (the server stopped in
            # between): record it now. A board restored as won is no win of the player's.
            await self._record_win(opened)
            return OpenGame(pack, level, Game(level.data), pack_id)
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
                short = await self.long_logs.shortened(level, intents, UNDO_KEPT)
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
    ) -> tuple[StoredIntent, ...] | None:
        """The whole log of stored game ``game_id``, read :data:`LOG_READ_PART` entries at a time.

        None when it is no longer the player's game on the level. (A 50,000-entry
        log read in one call held the store, and every player's moves, for 70 ms.)
        """
        entries: list[StoredIntent] = []
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
            self.player,
            problem,
        )
        await self.store.abandon_game(game_id, self.player)

    async def _replay(self, level: PackLevel, intents: Sequence[StoredIntent]) -> Game:
        """:func:`replay_log` of a log under :data:`COMPACT_AT` entries: here, or on a thread."""
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
            replay_log, level, intents, limiter=_replay_limiter()
        )
        return game

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
                if not await self._catch_up(current, entry):
                    current = self.current = await self._load(
                        current.pack, current.level, current.pack_id
                    )
                event = current.apply(entry)
                if not event.accepted:
                    return current, event
        raise StaleGameError("the stored game kept changing under this session")

    async def _catch_up(self, current: OpenGame, entry: StoredIntent) -> bool:
        """Bring the live game level with a stored game that another page moved on; whether it could.

        The entry applied ahead of the store is taken back (a step or wait is
        undone exactly), then only the entries the other page stored since
        are applied: two pages taking turns never replay the whole game. A
        different stored game (the other page reset or won), an undo, reset
        or restore applied ahead, or a long tail, fall back to a full reload.
        """
        if current.game_id is None or current.pack_id is None or entry.letter not in _LETTER_STEPS:
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
        if len(current.log) >= COMPACT_AT:
            await self._compact_or_log(current)

    async def _compact_or_log(self, current: OpenGame) -> None:
        """:meth:`_compact`, with a failure logged: it only saves later resumes time."""
        try:
            await self._compact(current)
        except Exception:
            # The game and its stored log are as they were: nothing is lost.
            logger.exception("compacting game %s of %s failed", current.game_id, self.player)

    async def _compact(self, current: OpenGame) -> None:
        """Store a shorter log that replays to the same game; the cap on stored logs.

        The new log is the entry that began the game's board (a restore, if
        it began with one) and the letters of the turns that can be undone:
        replaying it gives the same board, counters and undo history (the
        engine's compact save), so steps taken back, undos and waits cost
        nothing on the next resume. When more than :data:`UNDO_KEPT` turns
        can be undone, the log begins instead with a restore of the board
        :data:`UNDO_KEPT` turns back, followed by those turns: the board and
        move count stay exact, undo reaches back that far (the live game is
        rebuilt from the same log, so it never undoes past what a resume
        could), and a later win keeps its move count but not its move
        string. So a stored log never holds more than :data:`COMPACT_AT`
        entries, and a resume never replays more.

        Nothing changes if another page moved the stored game on meanwhile.
        """
        if current.game_id is None or current.pack_id is None or not current.log:
            return
        head = current.log[:1] if current.log[0].letter == RESTORE else []
        letters = [record.letter for record in history_records(current.game.state.last_turn)]
        if any(letter is None or letter not in _LETTER_STEPS for letter in letters):
            return  # a history read from a restored state: no letters to store
        moves = "".join(letter for letter in letters if letter is not None)
        capped: Game | None = None
        if len(head) + len(moves) > UNDO_KEPT:
            log, capped = await anyio.to_thread.run_sync(
                _capped_log, current.level, head, moves, limiter=_replay_limiter()
            )
        else:
            log = [*head, *(StoredIntent(letter) for letter in moves)]
        if len(log) >= len(current.log):
            return
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
    try:
        state = restore_state(message.state)
    except ValueError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{error}.", message.seq) from None
    return StoredIntent(RESTORE, json.dumps(state, separators=(",", ":")))
