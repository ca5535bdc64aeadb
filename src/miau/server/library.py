"""Each player's library: the packs they imported or saved from the editor, and its HTTP API.

A library pack is kept through the :class:`~miau.server.store.Store` as the
JSON text it came as, and read back through the pack loader (the parsed pack
is cached in memory by its text's digest, so a pack is parsed once, not on
every request). The rules, with the exact replies, are in
``docs/protocol.md``:

- an import is validated by the loader: any error refuses it with every
  problem and its place, warnings included; warnings alone let it in and come
  back with the reply;
- a pack may not take the id of a shipped world, nor an id starting with
  ``share-`` (shared levels' games are stored under such ids);
- a pack whose id is in the library already is replaced only when asked to
  (the page shows the two versions and asks first);
- a level saved from the editor (a one-level pack) is merged into a library
  pack: its palette nouns and glossary words join the pack's (the incoming
  ones win), the level keeps its place if the pack had it, else it is
  appended; the merged pack must load;
- whenever a level's content changes, the player's unfinished game on it is
  finished (its log belongs to the old level); deleting a pack finishes them all.

Nothing changes on a refused request. Request bodies are capped
(:data:`MAX_BODY_BYTES`; a pack's text at :data:`MAX_PACK_BYTES`): past the
cap the answer is 413 and the rest of the body is not read.

What a library pack may cost once parsed is bounded too: at most
:data:`MAX_PACK_ENTITIES` entities across its levels, counted on the JSON
before the loader runs (413 past it). Every load of a stranger's document
(an upload, a level saved into a pack, and the shared levels' routes,
``miau.server.shared``) runs on the server's one pack-parsing thread, after
its cost (:class:`~miau.packs.sizes.DocumentSize`) has been taken from the
server's parse budget. Listings (``GET /api/library``,
``GET /api/worlds``) read the summary kept with each pack when it was saved
and never parse a pack; the parsed-pack cache is bounded by the entities it
holds. Libraries have quotas (:class:`LibraryQuota`): packs and bytes per
player, bytes and players in all, each refused with a 409 that says which.
Past a server-wide quota the libraries of the least recently active players
idle longer than the store's ``idle_after`` (30 days by default) are deleted
to make room; a save is refused 409 ``server-full`` only when nobody is idle
that long.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from miau.packs import Pack, PackError, load_pack, load_pack_text
from miau.packs.format import PACK_ID_PATTERN
from miau.packs.sizes import document_size, pack_entity_count
from miau.play.library_documents import (
    PUT_LEVEL_TOO_MANY,
    RESERVED_PREFIX,
    exists_refusal,
    import_reply,
    import_request,
    merged_pack_text,
    no_library_pack,
    put_reply,
    refuse_library_id,
    refuse_pack_address,
    refuse_unaddressed_level,
    require_one_level,
    require_one_level_document,
    utf8_size,
)
from miau.play.refusal import MAX_PACK_BYTES, Refusal, problems_refusal, too_large
from miau.play.worlds import PackSummary, Worlds
from miau.server.limits import TokenBucket
from miau.server.long_logs import ReplayBudgets
from miau.server.replays import pack_parse_limiter
from miau.server.shares import AddressShareError, AddressShares, address_key
from miau.server.store import (
    LibraryBounds,
    LibraryEntry,
    LibraryPack,
    LibraryPackExistsError,
    LibraryUsage,
    RoomCheck,
    StoreQuotaError,
    StoreRunner,
    stored_size,
    text_digest,
    text_size,
)

__all__ = [
    "DECODE_BYTES_PER_ENTITY",
    "LIBRARY_QUOTA",
    "MAX_BODY_BYTES",
    "MAX_LIBRARY_PACKS",
    "MAX_PACK_ENTITIES",
    "PARSE_ADDRESS_BURST",
    "PARSE_ADDRESS_PER_SECOND",
    "PARSE_STANDING_PER_SECOND",
    "Library",
    "LibraryEndpoints",
    "LibraryQuota",
    "client_address",
    "declared_length",
    "json_response",
    "lone_surrogate",
    "pack_entity_count",
    "parse_off_the_loop",
    "read_json_body",
    "refusal_response",
    "refuse_past_quota",
]

logger = logging.getLogger(__name__)

MAX_BODY_BYTES: Final = MAX_PACK_BYTES * 3 // 2

_BODY_FRAME_BYTES: Final = 64
"""More than a ``POST /api/library`` body holds besides its escaped text (the key, quotes,
braces, ``"replace": false`` and spaces)."""
"""The largest request body read: a pack's text inside JSON grows by its escapes."""

MAX_LIBRARY_PACKS: Final = 100
"""How many packs one player's library holds (:attr:`LibraryQuota.packs` by default)."""

MAX_PACK_ENTITIES: Final = 16_384
"""The most entities (map cells and objects) a library pack may hold across all its levels.

Four levels at the loader's per-level limit; every shipped pack holds under
2,000. A parsed entity costs about 200 bytes and 0.1 ms to load, so a pack
at this bound costs about 3 MB and 0.1 to 0.2 s once, where 64 full 64 x 64
levels (262,144 entities in 278 KiB of text) cost 50 MB and 1.7 s.
"""

CACHE_PACKS: Final = 256
CACHE_ENTITIES: Final = 16 * MAX_PACK_ENTITIES
"""The parsed-pack cache holds at most this many packs and this many entities (about 50 MB)."""


@dataclass(frozen=True, slots=True)
class LibraryQuota:
    """How much the libraries may hold: per player, and all players together."""

    packs: int = MAX_LIBRARY_PACKS
    """Packs in one player's library."""
    bytes: int = 8 * 1024 * 1024
    """Bytes of pack text in one player's library."""
    all_bytes: int = 512 * 1024 * 1024
    """Bytes of pack text in all libraries together (past it, idle players' packs make room)."""
    players: int = 10_000
    """Players with at least one pack (past it, idle players' libraries make room)."""


LIBRARY_QUOTA = LibraryQuota()
"""The quotas of a server: 100 packs and 8 MiB a player, 512 MiB and 10,000 players in all."""

PLAIN_JSON = {"Cache-Control": "no-store"}


class UnicodeSafeJSONResponse(JSONResponse):
    """Starlette's JSON response, able to write any string a pack may hold.

    A lone surrogate (a pack file may escape one: backslash, u, d800) cannot be
    UTF-8: it is written back as the same JSON escape instead of failing the
    response with a 500.
    """

    def render(self, content: Any) -> bytes:
        """The body: compact UTF-8 JSON, each lone surrogate as its JSON escape."""
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "backslashreplace")


def json_response(body: dict[str, Any], status: int = 200) -> JSONResponse:
    """A JSON response that no browser or proxy keeps (libraries and progress change)."""
    return UnicodeSafeJSONResponse(body, status, headers=PLAIN_JSON)


def refusal_response(refusal: Refusal) -> JSONResponse:
    """A refusal as a response: its status and its body."""
    return json_response(refusal.body, refusal.status)


PARSE_ENTITIES_PER_SECOND: Final = 16_384
"""The entities the server's library parses a second, all players together (a pack at the
entity bound takes the loader about 20 ms, on a worker thread that shares the interpreter
lock with the event loop); a parse past it waits its turn, it is never refused. A document's
cost in these units is the larger of its entities and its JSON values
(:attr:`~miau.packs.sizes.DocumentSize.cost`): a good value costs the loader about what an
entity does. The shared levels' routes draw from it too (:data:`DECODE_BYTES_PER_ENTITY`)."""

PARSE_ADDRESS_PER_SECOND: Final = PARSE_ENTITIES_PER_SECOND // 4
"""Each address's own share of the parse budget, a second: parses from an address past it wait
for their address's turn first, then for the server's, so one address's flood queues behind
itself. Shares are counted by :func:`~miau.server.shares.address_key` (an IPv6 /64)."""

PARSE_ADDRESS_BURST: Final = MAX_PACK_ENTITIES // 2
"""The parse work an address may ask for at once within its share."""

PARSE_STANDING_PER_SECOND: Final = PARSE_ENTITIES_PER_SECOND // 2
"""Room kept for small parses of addresses within their share, a second: such a parse (of at
most :data:`PARSE_STANDING_BURST`) does not wait behind the server's queue while this room
lasts, so an author's link or save is answered at once while other addresses flood the budget.
It is taken from the server's budget all the same (the others wait the longer)."""

PARSE_STANDING_BURST: Final = MAX_PACK_ENTITIES // 2
"""The most parse work kept room at once for addresses within their share."""

DECODE_BYTES_PER_ENTITY: Final = 16
"""Bytes of a share code's inflated JSON that cost what one entity's parse does: reading a
code's 256 KiB (the JSON, and its one spelling checked) takes about 20 ms, a pack at the
entity bound's parse."""

PARSE_BURST: Final = 2 * MAX_PACK_ENTITIES
"""The entities the library may parse at once before parses wait: two packs at the bound."""

UPLOAD_BYTES_PER_SECOND: Final = 2 * MAX_PACK_BYTES
"""The bytes of library uploads the server reads a second, all players together: a body of
1 MiB costs the event loop about 15 ms (read, JSON, sizes, digest) before any parse. An
upload past it waits its turn before its body is read; it is never refused for it."""

UPLOAD_BURST: Final = 4 * MAX_PACK_BYTES
"""The upload bytes the library may read at once before uploads wait: four packs at the bound."""

UPLOAD_UNMETERED_BYTES: Final = 64 * 1024
"""Bodies up to this size (a pack of a few dozen levels) never wait for the upload budget:
they cost the event loop under a millisecond, and an author's save must not queue behind
a flood of big uploads."""


def _check_cost(document: object) -> int:
    """What loading the pack costs, in the parse budget's units (at most :data:`PARSE_BURST`).

    Counted on the JSON: call it off the event loop (a pack of 1 MiB holds
    up to hundreds of thousands of values; the count stops at the burst).

    :raises Refusal: 413 when the pack holds more than :data:`MAX_PACK_ENTITIES` entities.
    """
    size = document_size(document, PARSE_BURST)
    count = size.entities
    if count > MAX_PACK_ENTITIES:
        raise Refusal(
            413,
            {
                "error": f"This pack holds {count:,} entities (map cells and objects) across "
                f"its levels; a library pack may hold at most {MAX_PACK_ENTITIES:,}.",
                "code": "too-costly",
            },
        )
    return min(size.cost, PARSE_BURST)


def _parsed_entities(pack: Pack) -> int:
    """The entities of a loaded pack: what it costs in the cache."""
    return sum(len(level.data["objects"]) for level in pack.levels)


def _document(text: str) -> object:
    """The pack text as JSON, or None when it is not JSON (the loader then says why)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _upload_cost_and_lone_surrogate(text: str) -> tuple[int, tuple[str, int] | None]:
    """What loading the pack text costs (:func:`_check_cost`) and its first lone surrogate, if any.

    One parse for both: an upload's text is parsed here and once more by the loader.

    :raises Refusal: 413 as :func:`_check_cost`.
    """
    document = _document(text)
    return _check_cost(document), None if document is None else lone_surrogate(document)


def _stored_cost(text: str) -> int:
    """What loading a stored pack's text costs (:func:`_check_cost`); 413 past the bound."""
    return _check_cost(_document(text))


def _merged_and_cost(
    pack_id: str, stored_text: str | None, document: dict[str, Any]
) -> tuple[str, int]:
    """The text of the library pack with the level put in (:func:`merged_pack_text`), and its cost.

    :raises Refusal: 413 past 1 MiB or :data:`MAX_PACK_ENTITIES`.
    """
    text, merged_document = merged_pack_text(pack_id, stored_text, document)
    return text, _check_cost(merged_document)


Result = TypeVar("Result")


async def parse_off_the_loop(work: Callable[..., Result], *arguments: Any) -> Result:
    """``work(*arguments)`` on the server's one pack-parsing thread (:func:`pack_parse_limiter`).

    Every read, count and load of a pack document runs there, one at a time
    for the whole server, so at most one such thread contends with the event
    loop for the interpreter lock.
    """
    return await anyio.to_thread.run_sync(work, *arguments, limiter=pack_parse_limiter())


def refuse_past_quota(
    quota: LibraryQuota,
    usage: LibraryUsage,
    size: int,
    replacing: int | None,
    *,
    server_wide: bool = True,
) -> None:
    """Refuse a save that would take a library past its quota.

    ``size`` is the new text's size in bytes; ``replacing`` the size of
    the pack it replaces, or None for a new pack. Without ``server_wide``
    only the player's own quotas are looked at (a full server may still
    make room by evicting idle players' packs, inside the save).

    :raises Refusal: 409 ``full`` when the player's library holds its
        most packs or bytes, 409 ``server-full`` when all libraries hold
        their most bytes or players.
    """
    if replacing is None and usage.packs >= quota.packs:
        raise Refusal(
            409,
            {
                "error": f"Your library is full ({quota.packs} packs); remove a pack first.",
                "code": "full",
            },
        )
    growth = size - (replacing or 0)
    if growth > 0 and usage.bytes + growth > quota.bytes:
        raise Refusal(
            409,
            {
                "error": f"Your library is full: its packs may take {_mebibytes(quota.bytes)} "
                f"in all, and this one would take it to {_mebibytes(usage.bytes + growth)}; "
                "remove a pack first.",
                "code": "full",
            },
        )
    if not server_wide:
        return
    if growth > 0 and usage.all_bytes + growth > quota.all_bytes:
        raise Refusal(
            409,
            {
                "error": "This server's libraries are full; no pack can be added now.",
                "code": "server-full",
            },
        )
    if usage.packs == 0 and usage.players >= quota.players:
        raise Refusal(
            409,
            {
                "error": f"This server keeps libraries for {quota.players:,} players, its "
                "most; no new library can be started now.",
                "code": "server-full",
            },
        )


def _no_new_players() -> Refusal:
    """The refusal of a first save when the database holds its most players."""
    return Refusal(
        409,
        {
            "error": "This server keeps as many players as it may; no new library can be "
            "started now.",
            "code": "server-full",
        },
    )


async def read_json_body(
    request: Request,
    limit: int = MAX_BODY_BYTES,
    too_big: Callable[[], Refusal] | None = None,
) -> dict[str, Any]:
    """The request's JSON object body, read no further than ``limit`` bytes.

    :raises Refusal: 413 past the limit (``too_big()``, by default the
        sentence of a pack's 1 MiB; a declared ``Content-Length`` over it is refused
        before reading anything), 400 for a body that is not a UTF-8 JSON
        object, 408 for one that did not arrive whole.
    """
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large("A request") if too_big is None else too_big()
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large("A request") if too_big is None else too_big()
            chunks.append(chunk)
    except ClientDisconnect:
        # The client went away, or its body came too slowly and the server closed the
        # connection (miau.server.serving): nobody reads this answer, and nothing is stored.
        raise Refusal(408, {"error": "The request's body did not arrive whole."}) from None
    try:
        body = json.loads(b"".join(chunks).decode("utf-8"))
    except UnicodeDecodeError:
        raise Refusal(400, {"error": "The request is not UTF-8 text."}) from None
    except (ValueError, RecursionError) as error:
        detail = str(error) if isinstance(error, ValueError) else "nested too deeply"
        raise Refusal(400, {"error": f"The request is not JSON ({detail})."}) from None
    if not isinstance(body, dict):
        raise Refusal(400, {"error": "The request must be a JSON object."})
    lone = lone_surrogate(body)
    if lone is not None:
        # An escape such as \ud800 alone parses, but is no character: nothing can store it.
        where, code_point = lone
        raise Refusal(
            400,
            {
                "error": f"The request holds a lone surrogate (\\u{code_point:04x}) at {where}: "
                "text must be valid Unicode."
            },
        )
    return body


def lone_surrogate(value: Any) -> tuple[str, int] | None:
    """The place (``levels[0].title``) and code point of the first lone surrogate in a JSON value.

    ``json.loads`` joins an escaped surrogate pair into one character, so any
    surrogate left in a parsed string, key or value, stands alone. None when there is none.
    """
    pending: list[tuple[str, Any]] = [("the top", value)]
    while pending:
        where, item = pending.pop()
        if isinstance(item, str):
            # An ASCII string holds none (a flag CPython keeps: no scan); otherwise UTF-8
            # encoding, in C, stops at the first surrogate: a megabyte costs a millisecond.
            if item.isascii():
                continue
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                return where, ord(item[error.start])
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                place = key if where == "the top" else f"{where}.{key}"
                pending.append((place, inner))
                pending.append((f"a key of {where}", key))
        elif isinstance(item, list):
            for index in range(len(item) - 1, -1, -1):
                pending.append((f"{where}[{index}]", item[index]))
    return None


def _changed_levels(old: Pack | None, new: Pack) -> list[str]:
    """The ids of ``old``'s levels that ``new`` drops or changes (all of them if ``old`` is None)."""
    if old is None:
        return []
    kept = {level.id: level for level in new.levels}
    return [level.id for level in old.levels if kept.get(level.id) != level]


class _ParsedPacks:
    """Parsed library packs by (player, id, version, text digest); least recently used go first.

    Bounded by count and by what the packs cost parsed (their entities), not by their text.
    """

    def __init__(self, max_packs: int = CACHE_PACKS, max_cost: int = CACHE_ENTITIES) -> None:
        self.max_packs = max_packs
        self.max_cost = max_cost
        self._packs: OrderedDict[tuple[str, str, str, str], tuple[Pack, int]] = OrderedDict()
        self._cost = 0

    @property
    def cost(self) -> int:
        """The entities of every pack held."""
        return self._cost

    def get(self, key: tuple[str, str, str, str]) -> Pack | None:
        found = self._packs.get(key)
        if found is None:
            return None
        self._packs.move_to_end(key)
        return found[0]

    def put(self, key: tuple[str, str, str, str], pack: Pack) -> None:
        if key in self._packs:
            return
        cost = _parsed_entities(pack)
        self._packs[key] = (pack, cost)
        self._cost += cost
        while len(self._packs) > self.max_packs or (
            self._cost > self.max_cost and len(self._packs) > 1
        ):
            _, (_, dropped) = self._packs.popitem(last=False)
            self._cost -= dropped


class Library:
    """The players' libraries: reading, importing, saving levels into and deleting packs.

    Every method takes the player's token; one player never sees another's packs.
    """

    def __init__(
        self,
        worlds: Worlds,
        store: StoreRunner,
        quota: LibraryQuota = LIBRARY_QUOTA,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
        shares: AddressShares | None = None,
    ) -> None:
        """Libraries kept in ``store`` within ``quota``, beside the shipped ``worlds`` (whose ids they may not take).

        ``clock`` and ``sleep`` pace the parses (:data:`PARSE_ENTITIES_PER_SECOND`;
        injectable for tests). ``shares`` bound what each address adds (new
        players, library bytes; ``miau.server.shares``); None: no bound.
        """
        self.shares = shares
        self.worlds = worlds
        self.store = store
        self.quota = quota
        self._bounds = LibraryBounds(quota.all_bytes, quota.players)
        self._parsed = _ParsedPacks()
        self._parses = ReplayBudgets()
        self._address_parses = ReplayBudgets()
        """Each address's share of the parse budget (apart: addresses never push the server's
        buckets out of the least recently used)."""
        self._standing_room = TokenBucket(PARSE_STANDING_PER_SECOND, PARSE_STANDING_BURST, clock)
        self._clock = clock
        self._sleep = sleep
        # One writer at a time per library pack: saving a level reads the pack, merges and
        # writes it back, and two saves interleaved would lose one. (Across several server
        # processes the last writer still wins; one author edits from one page.)
        self._writing: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def _writer(self, player: str, pack_id: str) -> asyncio.Lock:
        """The lock that orders writes to one library pack in this process."""
        key = (player, pack_id)
        lock = self._writing.get(key)
        if lock is None:
            lock = self._writing[key] = asyncio.Lock()
        return lock

    async def wait_to_read(self, declared: int) -> None:
        """Wait until the server's upload budget has room for a body of ``declared`` bytes.

        Like the parse budget (:meth:`wait_to_parse`), for the work before
        it: big uploads from many addresses at once take their turns. Small
        bodies (:data:`UPLOAD_UNMETERED_BYTES`) pass at once.
        """
        if declared > UPLOAD_UNMETERED_BYTES:
            await self._wait_for("uploads", declared, UPLOAD_BYTES_PER_SECOND, UPLOAD_BURST)

    async def wait_to_parse(self, cost: int, address: str | None = None) -> None:
        """Wait until the server's parse budget has room for work of ``cost`` (entities or values).

        One budget for all players: uploads from many players (or from new
        ones each time), levels saved, and share links read and made cannot
        take more of the interpreter lock, which the loader's thread shares
        with the event loop, than the budget allows. Work for a client at
        ``address`` (None: the server's own, such as a stored pack's parse)
        waits first for that address's share (:data:`PARSE_ADDRESS_PER_SECOND`)
        when it is past it; small work of an address within its share is
        let through at once while the room kept for it lasts
        (:data:`PARSE_STANDING_PER_SECOND`), still taken from the budget.
        """
        if address is not None:
            key = address_key(address)
            delay = self._address_parses.reserve(
                key, cost, PARSE_ADDRESS_PER_SECOND, PARSE_ADDRESS_BURST, self._clock()
            )
            if delay > 0:
                await self._sleep(delay)
            elif cost <= PARSE_STANDING_BURST and self._standing_room.take(cost):
                self._parses.reserve(
                    "library", cost, PARSE_ENTITIES_PER_SECOND, PARSE_BURST, self._clock()
                )
                return
        await self._wait_for("library", cost, PARSE_ENTITIES_PER_SECOND, PARSE_BURST)

    async def load_one_level(
        self,
        document: object,
        too_many: str,
        cost_of: Callable[[dict[str, Any]], int],
        address: str | None = None,
    ) -> tuple[dict[str, Any], Pack]:
        """The one-level pack a request sent as ``{"pack": ...}``: the document, and as loaded.

        Bounded before the loader runs: a document of more than one level is
        refused as it is; ``cost_of`` counts the rest on the pack-parsing
        thread (and refuses what is past its bounds); the load waits for the
        parse budget to have room for that cost (``address``'s share first),
        and runs on that thread.

        :raises Refusal: 400 when ``document`` is not an object, holds more
            than one level (``too_many`` says so, its ``{count}`` filled in),
            or the loader refuses it (with its first problems); whatever
            ``cost_of`` raises.
        """
        document = require_one_level_document(document, too_many)
        cost = await parse_off_the_loop(cost_of, document)
        await self.wait_to_parse(cost, address)
        try:
            pack: Pack = await parse_off_the_loop(load_pack, document)
        except PackError as error:
            raise problems_refusal(error, "This level") from None
        return document, require_one_level(pack, too_many)

    async def _wait_for(self, budget: str, amount: int, per_second: float, burst: float) -> None:
        """Take ``amount`` from the server-wide ``budget`` and wait until it is due."""
        delay = self._parses.reserve(budget, amount, per_second, burst, self._clock())
        if delay > 0:
            await self._sleep(delay)

    async def _parse(self, player: str, stored: LibraryPack) -> Pack | None:
        key = (player, stored.pack, stored.version, stored.digest)
        cached = self._parsed.get(key)
        if cached is not None:
            return cached
        try:
            # A pack stored before the entity bound, past it, is not loaded at all.
            cost = await parse_off_the_loop(_stored_cost, stored.text)
            await self.wait_to_parse(cost)
            pack = await parse_off_the_loop(load_pack_text, stored.text)
        except (PackError, Refusal) as error:
            # A stored pack that a later loader refuses: leave it out, keep the others.
            logger.warning("library pack %s of %s no longer loads: %s", stored.pack, player, error)
            return None
        self._parsed.put(key, pack)
        return pack

    async def summaries(self, player: str) -> list[PackSummary]:
        """What listings show of the player's library packs, by id, without parsing them.

        Each pack's summary was kept when it was saved. A pack saved before
        summaries were kept is parsed once here and its summary stored; one
        that no longer loads is left out.
        """
        summaries: list[PackSummary] = []
        for entry in await self.store.library_packs(player):
            summary = PackSummary.from_text(entry.summary)
            if summary is None:
                summary = await self._backfill(player, entry)
            if summary is not None:
                summaries.append(summary)
        return summaries

    async def _backfill(self, player: str, entry: LibraryEntry) -> PackSummary | None:
        """Parse a pack saved without a summary and keep its summary; None if it does not load."""
        stored = await self.store.library_pack(player, entry.pack)
        if stored is None:
            return None
        pack = await self._parse(player, stored)
        if pack is None:
            return None
        summary = PackSummary.of(pack)
        await self.store.set_library_summary(
            player,
            stored.pack,
            stored.digest,
            summary.to_text(),
            _stored_size(stored, summary.to_text()),
        )
        return summary

    async def pack(self, player: str, pack_id: str) -> Pack | None:
        """The player's library pack ``pack_id``, or None."""
        stored = await self.store.library_pack(player, pack_id)
        return None if stored is None else await self._parse(player, stored)

    async def find(self, player: str, pack_id: str) -> tuple[Pack, bool] | None:
        """The world ``pack_id`` this player can play, shipped or theirs, and whether it is imported."""
        shipped = self.worlds.pack(pack_id)
        if shipped is not None:
            return shipped, False
        if pack_id.startswith(RESERVED_PREFIX) or not PACK_ID_PATTERN.fullmatch(pack_id):
            return None
        pack = await self.pack(player, pack_id)
        return None if pack is None else (pack, True)

    def _check_id(self, pack_id: str) -> None:
        """Refuse an id that a library pack may not take (:func:`refuse_library_id`)."""
        refuse_library_id(self.worlds, pack_id)

    async def _check_room(self, player: str, size: int, replacing: int | None) -> None:
        """Refuse early a save that would take a library past its quota (:func:`refuse_past_quota`).

        Only a first look, before the pack is parsed, and only at the
        player's own quotas: the save itself checks again in its transaction
        (:meth:`_room`), where no other save can slip in between, after
        evicting idle players' packs if the server's quotas are reached.
        """
        usage = await self.store.library_usage(player)
        refuse_past_quota(self.quota, usage, size, replacing, server_wide=False)

    def _room(self, size: int) -> RoomCheck:
        """The quota check a save of ``size`` bytes runs in its transaction."""
        quota = self.quota

        def check(usage: LibraryUsage, replacing: int | None) -> None:
            refuse_past_quota(quota, usage, size, replacing)

        return check

    async def _take_share(
        self, player: str, address: str | None, size: int, stored: LibraryPack | None
    ) -> None:
        """Count the save against its address's share (:class:`AddressShares`).

        :raises Refusal: 429 ``address-share`` past it.
        """
        if self.shares is None:
            return
        growth = size - (0 if stored is None else text_size(stored.text))
        try:
            await self.shares.take(player, address, growth)
        except AddressShareError as error:
            raise _share_refusal(error) from None

    async def first_look_share(self, player: str, address: str | None, size: int) -> None:
        """Refuse a save of at least ``size`` bytes that cannot fit its address's share.

        What the save adds is at least ``size`` less all the player's
        library holds (the most a replacement frees), so this needs no
        parse; nothing is taken from the share (:meth:`_take_share` does).

        :raises Refusal: 429 ``address-share``.
        """
        if self.shares is None or size <= 0:
            return
        held = (await self.store.library_usage(player)).bytes
        try:
            await self.shares.first_look(player, address, size - held)
        except AddressShareError as error:
            raise _share_refusal(error) from None

    async def import_text(
        self, player: str, text: str, *, replace: bool, address: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/library``: add the pack ``text`` to the library; the 200 reply's body.

        ``address`` is the client's, for its share of the server's quotas.

        :raises Refusal: 413, 400 with the problems, 409 (``shipped``,
            ``reserved``, ``exists``, ``full``) or 429 (``address-share``);
            nothing is stored then.
        """
        size = utf8_size(text)
        if size > MAX_PACK_BYTES:
            raise too_large()
        # Before the parse: a flood of saves past their share must not cost one each.
        await self.first_look_share(player, address, size)
        cost, lone = await parse_off_the_loop(_upload_cost_and_lone_surrogate, text)
        await self.wait_to_parse(cost, address)
        try:
            pack = await parse_off_the_loop(load_pack_text, text)
        except PackError as error:
            raise problems_refusal(error) from None
        if lone is not None:
            where, code_point = lone
            raise Refusal(
                400,
                {
                    "error": f"The pack holds a lone surrogate (\\u{code_point:04x}) at {where}: "
                    "text must be valid Unicode.",
                    "problems": [],
                },
            )
        pack_id = pack.manifest.id
        self._check_id(pack_id)
        stored = await self.store.library_pack(player, pack_id)
        if stored is not None and not replace:
            raise _exists(stored, pack)
        old = None
        await self._check_room(player, size, None if stored is None else text_size(stored.text))
        if stored is not None:
            old = await self._parse(player, stored)
        # (An old pack that no longer loads has no games that can be opened: nothing is stale.)
        stale = _changed_levels(old, pack)
        await self._take_share(player, address, size, stored)
        summary = PackSummary.of(pack).to_text()
        try:
            replaced = await self.store.save_library_pack(
                player,
                pack_id,
                pack.manifest.version,
                pack.manifest.name,
                text,
                replace=replace,
                stale_levels=stale,
                summary=summary,
                check_room=self._room(
                    stored_size(pack_id, pack.manifest.version, pack.manifest.name, text, summary)
                ),
                bounds=self._bounds,
            )
        except StoreQuotaError:
            raise _no_new_players() from None
        except LibraryPackExistsError:
            # Another page imported it in between: ask, as if it had been there all along.
            now = await self.store.library_pack(player, pack_id)
            if now is None:
                raise
            raise _exists(now, pack) from None
        self._parsed.put((player, pack_id, pack.manifest.version, text_digest(text)), pack)
        return import_reply(pack, replaced)

    async def put_level(
        self,
        player: str,
        pack_id: str,
        level_id: str,
        document: object,
        address: str | None = None,
    ) -> dict[str, Any]:
        """``PUT /api/library/{pack}/levels/{level}``: save a one-level pack's level into a library pack.

        Saves into one pack are taken one at a time (see :meth:`_put_level`).
        """
        async with self._writer(player, pack_id):
            return await self._put_level(player, pack_id, level_id, document, address)

    async def _put_level(
        self,
        player: str,
        pack_id: str,
        level_id: str,
        document: object,
        address: str | None = None,
    ) -> dict[str, Any]:
        """``PUT /api/library/{pack}/levels/{level}``: save a one-level pack's level into a library pack.

        :raises Refusal: 400 (not a one-level pack of that level, or the
            merged pack does not load, with its problems), 409 (an id the
            library may not take, or a full library), 413 (the merged pack is
            too big); nothing is stored then.
        """
        refuse_pack_address(self.worlds, pack_id)
        document, incoming = await self.load_one_level(
            document, PUT_LEVEL_TOO_MANY, _check_cost, address
        )
        refuse_unaddressed_level(incoming, level_id)
        stored = await self.store.library_pack(player, pack_id)
        old = None if stored is None else await self._parse(player, stored)
        text, cost = await parse_off_the_loop(
            _merged_and_cost, pack_id, None if stored is None else stored.text, document
        )
        size = utf8_size(text)
        await self._check_room(player, size, None if stored is None else text_size(stored.text))
        await self.wait_to_parse(cost, address)
        try:
            merged = await parse_off_the_loop(load_pack_text, text)
        except PackError as error:
            raise problems_refusal(error, "The pack with this level") from None
        stale = [level_id] if old is not None and level_id in _changed_levels(old, merged) else []
        await self._take_share(player, address, size, stored)
        summary = PackSummary.of(merged).to_text()
        try:
            await self.store.save_library_pack(
                player,
                pack_id,
                merged.manifest.version,
                merged.manifest.name,
                text,
                replace=True,
                stale_levels=stale,
                summary=summary,
                check_room=self._room(
                    stored_size(
                        pack_id, merged.manifest.version, merged.manifest.name, text, summary
                    )
                ),
                bounds=self._bounds,
            )
        except StoreQuotaError:
            raise _no_new_players() from None
        self._parsed.put((player, pack_id, merged.manifest.version, text_digest(text)), merged)
        return put_reply(merged, level_id)

    async def delete(self, player: str, pack_id: str) -> bool:
        """Remove the pack from the player's library; whether it was there."""
        deleted: bool = await self.store.delete_library_pack(player, pack_id)
        return deleted


def _stored_size(stored: LibraryPack, summary: str) -> int:
    """The size the quotas count for ``stored`` with ``summary`` (:func:`stored_size`)."""
    return stored_size(stored.pack, stored.version, stored.name, stored.text, summary)


def _mebibytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def _exists(stored: LibraryPack, incoming: Pack) -> Refusal:
    """409 ``exists``: the pack is in the library; the page asks whether to replace it."""
    return exists_refusal(stored.name, stored.version, incoming)


def _player(request: Request) -> str:
    # The cookie middleware (miau.server.app) leaves the token here.
    token: str = request.scope["miau.player"]
    return token


def client_address(request: Request) -> str | None:
    """The client's address, as the server sees it (a proxy's, unless uvicorn trusts it)."""
    return None if request.client is None else request.client.host


class LibraryEndpoints:
    """The ``/api/library`` routes of one app (``docs/protocol.md``)."""

    def __init__(self, library: Library) -> None:
        """Serve ``library``."""
        self.library = library

    async def list_packs(self, request: Request) -> Response:
        """``GET /api/library``: the player's packs, by id (from their summaries: nothing is parsed)."""
        summaries = await self.library.summaries(_player(request))
        return json_response({"packs": [summary.library_json() for summary in summaries]})

    async def import_pack(self, request: Request) -> Response:
        """``POST /api/library`` with ``{"text": ..., "replace": bool}``."""
        try:
            await self.library.first_look_share(
                _player(request), client_address(request), _least_text_bytes(request)
            )
            await self.library.wait_to_read(declared_length(request))
            body = await read_json_body(request)
            text, replace = import_request(body)
            return json_response(
                await self.library.import_text(
                    _player(request), text, replace=replace, address=client_address(request)
                )
            )
        except Refusal as refusal:
            return refusal_response(refusal)

    async def put_level(self, request: Request) -> Response:
        """``PUT /api/library/{pack}/levels/{level}`` with ``{"pack": <one-level pack>}``."""
        try:
            # Big bodies take turns before they are read, as uploads do.
            await self.library.wait_to_read(declared_length(request))
            body = await read_json_body(request)
            reply = await self.library.put_level(
                _player(request),
                request.path_params["pack"],
                request.path_params["level"],
                body.get("pack"),
                client_address(request),
            )
            return json_response(reply)
        except Refusal as refusal:
            return refusal_response(refusal)

    async def delete_pack(self, request: Request) -> Response:
        """``DELETE /api/library/{pack}``."""
        pack_id = request.path_params["pack"]
        if await self.library.delete(_player(request), pack_id):
            return json_response({"deleted": pack_id})
        return refusal_response(no_library_pack(pack_id))

    async def export_pack(self, request: Request) -> Response:
        """``GET /api/library/{pack}/export``: the pack as a file to download."""
        pack_id = request.path_params["pack"]
        pack = await self.library.pack(_player(request), pack_id)
        if pack is None:
            return refusal_response(no_library_pack(pack_id))
        text = json.dumps(pack.to_json(), indent=2, ensure_ascii=False) + "\n"
        return Response(
            text.encode("utf-8"),
            media_type="application/json",
            headers={
                **PLAIN_JSON,
                "Content-Disposition": f'attachment; filename="{pack_id}.json"',
            },
        )


def _share_refusal(error: AddressShareError) -> Refusal:
    """The 429 ``address-share`` a save past its address's share is answered."""
    return Refusal(429, {"error": str(error), "code": "address-share"})


def declared_length(request: Request) -> int:
    """The body length a request declares, up to the most a body may hold (0 when undeclared)."""
    declared = request.headers.get("content-length")
    if declared is None or not declared.isdigit():
        return 0
    return min(int(declared), MAX_BODY_BYTES)


def _least_text_bytes(request: Request) -> int:
    r"""The fewest bytes the pack text of a ``POST /api/library`` body can hold, from its length.

    The body is ``{"text": "...", "replace": ...}``: past a few bytes of
    frame, it is the text JSON-escaped, and escaping makes no character
    more than six times longer (``\u0001``). So a body's declared length
    bounds its text from below before a byte of it is read. (A body padded
    with whitespace breaks the bound; it can only be refused early, and
    only when its address's share is spent.) 0 when no length is declared.
    """
    return (declared_length(request) - _BODY_FRAME_BYTES) // 6
