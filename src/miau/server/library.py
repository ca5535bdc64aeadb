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
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from miau.packs import Pack, PackError, load_pack, load_pack_text
from miau.packs.format import PACK_ID_PATTERN
from miau.server.problems import problems_json
from miau.server.store import (
    LibraryEntry,
    LibraryPack,
    LibraryPackExistsError,
    StoreRunner,
    text_digest,
)
from miau.server.worlds import Worlds

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_LIBRARY_PACKS",
    "MAX_PACK_BYTES",
    "RESERVED_PREFIX",
    "Library",
    "LibraryEndpoints",
    "Refusal",
    "json_response",
    "load_one_level_pack",
    "lone_surrogate",
    "merge_level",
    "pack_summary",
    "problems_refusal",
    "read_json_body",
    "version_key",
]

logger = logging.getLogger(__name__)

MAX_PACK_BYTES: Final = 1024 * 1024
"""The largest pack text taken, in bytes of UTF-8."""

MAX_BODY_BYTES: Final = MAX_PACK_BYTES * 3 // 2
"""The largest request body read: a pack's text inside JSON grows by its escapes."""

MAX_LIBRARY_PACKS: Final = 100
"""How many packs one player's library holds."""

RESERVED_PREFIX: Final = "share-"
"""Pack ids that shared levels' games are stored under; no library pack may take one."""

CACHE_PACKS: Final = 256
CACHE_TEXT_BYTES: Final = 32 * 1024 * 1024
"""The parsed-pack cache holds at most this many packs and this much source text."""

PLAIN_JSON = {"Cache-Control": "no-store"}


class Refusal(Exception):
    """A request turned down: the HTTP status and the JSON body that says why."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        """A refusal with ``status`` and ``body`` (which has at least ``"error"``)."""
        super().__init__(body.get("error", ""))
        self.status = status
        self.body = body

    def response(self) -> JSONResponse:
        """The refusal as a response."""
        return json_response(self.body, self.status)


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


async def load_one_level_pack(document: object, too_many: str) -> tuple[dict[str, Any], Pack]:
    """The one-level pack a request sent as ``{"pack": ...}``: the document, and as loaded.

    :raises Refusal: 400 when ``document`` is not an object, when the loader
        refuses it (with its problems), or when it holds other than one level
        (``too_many`` says so, its ``{count}`` filled in).
    """
    if not isinstance(document, dict):
        raise Refusal(400, {"error": 'Send {"pack": <a one-level pack>}.', "problems": []})
    try:
        pack: Pack = await anyio.to_thread.run_sync(load_pack, document)
    except PackError as error:
        raise problems_refusal(error, "This level") from None
    if len(pack.levels) != 1:
        message = too_many.format(count=len(pack.levels))
        raise Refusal(400, {"error": message, "problems": []})
    return document, pack


def problems_refusal(error: PackError, what: str = "This pack") -> Refusal:
    """400 with every issue of a pack the loader refused (warnings included)."""
    count = len(error.issues)
    return Refusal(
        400,
        {
            "error": f"{what} has {count} problem{'' if count == 1 else 's'}.",
            "problems": problems_json(error.issues),
        },
    )


def pack_summary(pack: Pack) -> dict[str, Any]:
    """A library pack as ``GET /api/library`` lists it."""
    manifest = pack.manifest
    return {
        "id": manifest.id,
        "name": manifest.name,
        "version": manifest.version,
        "description": manifest.description or "",
        "levels": len(pack.levels),
        "author": manifest.author,
    }


def version_key(version: str) -> tuple[int, ...]:
    """A ``MAJOR.MINOR.PATCH`` version as numbers, for comparing (the loader checked its form)."""
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return ()


def _too_large(what: str = "A pack") -> Refusal:
    if what == "A request":
        return Refusal(413, {"error": "This request is too large: a pack may be at most 1 MiB."})
    return Refusal(413, {"error": f"{what} may be at most 1 MiB; this one is larger."})


async def read_json_body(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The request's JSON object body, read no further than ``limit`` bytes.

    :raises Refusal: 413 past the limit (a declared ``Content-Length`` over it
        is refused before reading anything), 400 for a body that is not a
        UTF-8 JSON object.
    """
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _too_large("A request")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large("A request")
        chunks.append(chunk)
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


def _lone_surrogate_in_text(text: str) -> tuple[str, int] | None:
    """:func:`lone_surrogate` of a JSON text the loader accepted (None if json cannot read it)."""
    try:
        return lone_surrogate(json.loads(text))
    except (ValueError, RecursionError):
        return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: Any) -> tuple[str, int] | None:
    """The place (``levels[0].title``) and code point of the first lone surrogate in a JSON value.

    ``json.loads`` joins an escaped surrogate pair into one character, so any
    surrogate left in a parsed string, key or value, stands alone. None when there is none.
    """
    pending: list[tuple[str, Any]] = [("the top", value)]
    while pending:
        where, item = pending.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found is not None:
                return where, ord(found.group())
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                place = key if where == "the top" else f"{where}.{key}"
                pending.append((place, inner))
                pending.append((f"a key of {where}", key))
        elif isinstance(item, list):
            for index in range(len(item) - 1, -1, -1):
                pending.append((f"{where}[{index}]", item[index]))
    return None


def _utf8_size(text: str) -> int:
    """The text's size in UTF-8.

    :raises Refusal: 400 when it holds a character UTF-8 cannot carry (a lone surrogate).
    """
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        message = "The pack's text holds a character that is not Unicode text."
        raise Refusal(400, {"error": message}) from None


def merge_level(base: Mapping[str, Any], one_level: Mapping[str, Any]) -> dict[str, Any]:
    """The pack document ``base`` with the one level of ``one_level`` put in.

    Both are pack documents as JSON (the loader accepted ``one_level``; ``base``
    was accepted when stored). Palette entries and glossary (``properties``)
    entries of ``one_level`` join ``base``'s, replacing those of the same
    name; its ``vocabulary`` words and manifest ``features`` are added to
    ``base``'s; its level replaces the level with the same id where that one
    stands, or is appended. ``base``'s manifest (id, name, version) is kept.
    """
    merged = json.loads(json.dumps(base))  # a deep copy: base stays as it was
    incoming = json.loads(json.dumps(one_level))
    level = incoming["levels"][0]
    for key in ("palette", "properties"):
        if incoming.get(key):
            merged[key] = {**merged.get(key, {}), **incoming[key]}
    words = [
        word for word in incoming.get("vocabulary", []) if word not in merged.get("vocabulary", [])
    ]
    if words:
        merged["vocabulary"] = [*merged.get("vocabulary", []), *words]
    features = [
        feature
        for feature in incoming["manifest"].get("features", [])
        if feature not in merged["manifest"].get("features", [])
    ]
    if features:
        merged["manifest"]["features"] = [*merged["manifest"].get("features", []), *features]
    levels = list(merged.get("levels", []))
    place = next(
        (index for index, each in enumerate(levels) if each.get("id") == level.get("id")), None
    )
    if place is None:
        levels.append(level)
    else:
        levels[place] = level
    # The key order of a pack file: manifest, palette, vocabulary, properties, levels.
    order = ("manifest", "palette", "vocabulary", "properties", "levels")
    merged["levels"] = levels
    ordered = {key: merged[key] for key in order if key in merged}
    ordered.update({key: value for key, value in merged.items() if key not in ordered})
    return ordered


def _changed_levels(old: Pack | None, new: Pack) -> list[str]:
    """The ids of ``old``'s levels that ``new`` drops or changes (all of them if ``old`` is None)."""
    if old is None:
        return []
    kept = {level.id: level for level in new.levels}
    return [level.id for level in old.levels if kept.get(level.id) != level]


class _ParsedPacks:
    """Parsed library packs by (player, id, version, text digest); least recently used go first."""

    def __init__(self, max_packs: int = CACHE_PACKS, max_bytes: int = CACHE_TEXT_BYTES) -> None:
        self.max_packs = max_packs
        self.max_bytes = max_bytes
        self._packs: OrderedDict[tuple[str, str, str, str], tuple[Pack, int]] = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple[str, str, str, str]) -> Pack | None:
        found = self._packs.get(key)
        if found is None:
            return None
        self._packs.move_to_end(key)
        return found[0]

    def put(self, key: tuple[str, str, str, str], pack: Pack, size: int) -> None:
        if key in self._packs:
            return
        self._packs[key] = (pack, size)
        self._bytes += size
        while len(self._packs) > self.max_packs or (
            self._bytes > self.max_bytes and len(self._packs) > 1
        ):
            _, (_, dropped) = self._packs.popitem(last=False)
            self._bytes -= dropped


class Library:
    """The players' libraries: reading, importing, saving levels into and deleting packs.

    Every method takes the player's token; one player never sees another's packs.
    """

    def __init__(self, worlds: Worlds, store: StoreRunner) -> None:
        """Libraries kept in ``store``, beside the shipped ``worlds`` (whose ids they may not take)."""
        self.worlds = worlds
        self.store = store
        self._parsed = _ParsedPacks()
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

    async def _load(self, player: str, entry: LibraryEntry) -> Pack | None:
        """The parsed pack of a library entry (cached), or None if it no longer loads."""
        key = (player, entry.pack, entry.version, entry.digest)
        cached = self._parsed.get(key)
        if cached is not None:
            return cached
        stored = await self.store.library_pack(player, entry.pack)
        if stored is None:
            return None
        return await self._parse(player, stored)

    async def _parse(self, player: str, stored: LibraryPack) -> Pack | None:
        key = (player, stored.pack, stored.version, stored.digest)
        cached = self._parsed.get(key)
        if cached is not None:
            return cached
        try:
            pack = await anyio.to_thread.run_sync(load_pack_text, stored.text)
        except PackError as error:
            # A stored pack that a later loader refuses: leave it out, keep the others.
            logger.warning("library pack %s of %s no longer loads: %s", stored.pack, player, error)
            return None
        self._parsed.put(key, pack, len(stored.text))
        return pack

    async def packs(self, player: str) -> list[Pack]:
        """The player's library packs that load, by id."""
        entries = await self.store.library_packs(player)
        packs = [await self._load(player, entry) for entry in entries]
        return [pack for pack in packs if pack is not None]

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
        """Refuse an id that a library pack may not take.

        :raises Refusal: 409 ``shipped`` for a shipped world's id, 409
            ``reserved`` for a ``share-`` id.
        """
        shipped = self.worlds.pack(pack_id)
        if shipped is not None:
            raise Refusal(
                409,
                {
                    "error": f"\u201c{shipped.manifest.name}\u201d ({pack_id}) comes with Miau; "
                    "give your pack another id.",
                    "code": "shipped",
                },
            )
        if pack_id.startswith(RESERVED_PREFIX):
            raise Refusal(
                409,
                {
                    "error": f"Pack ids starting with {RESERVED_PREFIX!r} are kept for shared "
                    "levels; give your pack another id.",
                    "code": "reserved",
                },
            )

    async def _check_room(self, player: str) -> None:
        """:raises Refusal: 409 ``full`` when the player's library holds its most packs."""
        entries = await self.store.library_packs(player)
        if len(entries) >= MAX_LIBRARY_PACKS:
            raise Refusal(
                409,
                {
                    "error": f"Your library is full ({MAX_LIBRARY_PACKS} packs); "
                    "remove a pack first.",
                    "code": "full",
                },
            )

    async def import_text(self, player: str, text: str, *, replace: bool) -> dict[str, Any]:
        """``POST /api/library``: add the pack ``text`` to the library; the 200 reply's body.

        :raises Refusal: 413, 400 with the problems, or 409 (``shipped``,
            ``reserved``, ``exists``, ``full``); nothing is stored then.
        """
        size = _utf8_size(text)
        if size > MAX_PACK_BYTES:
            raise _too_large()
        try:
            pack = await anyio.to_thread.run_sync(load_pack_text, text)
        except PackError as error:
            raise problems_refusal(error) from None
        lone = await anyio.to_thread.run_sync(_lone_surrogate_in_text, text)
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
        if stored is None:
            await self._check_room(player)
        else:
            old = await self._parse(player, stored)
        # (An old pack that no longer loads has no games that can be opened: nothing is stale.)
        stale = _changed_levels(old, pack)
        try:
            replaced = await self.store.save_library_pack(
                player,
                pack_id,
                pack.manifest.version,
                pack.manifest.name,
                text,
                replace=replace,
                stale_levels=stale,
            )
        except LibraryPackExistsError:
            # Another page imported it in between: ask, as if it had been there all along.
            now = await self.store.library_pack(player, pack_id)
            if now is None:
                raise
            raise _exists(now, pack) from None
        self._parsed.put((player, pack_id, pack.manifest.version, text_digest(text)), pack, size)
        return {
            "pack": pack_summary(pack),
            "replaced": replaced,
            "warnings": problems_json(pack.warnings),
        }

    async def put_level(
        self, player: str, pack_id: str, level_id: str, document: object
    ) -> dict[str, Any]:
        """``PUT /api/library/{pack}/levels/{level}``: save a one-level pack's level into a library pack.

        Saves into one pack are taken one at a time (see :meth:`_put_level`).
        """
        async with self._writer(player, pack_id):
            return await self._put_level(player, pack_id, level_id, document)

    async def _put_level(
        self, player: str, pack_id: str, level_id: str, document: object
    ) -> dict[str, Any]:
        """``PUT /api/library/{pack}/levels/{level}``: save a one-level pack's level into a library pack.

        :raises Refusal: 400 (not a one-level pack of that level, or the
            merged pack does not load, with its problems), 409 (an id the
            library may not take, or a full library), 413 (the merged pack is
            too big); nothing is stored then.
        """
        if not PACK_ID_PATTERN.fullmatch(pack_id):
            raise Refusal(400, {"error": f"{pack_id[:64]!r} is not a pack id.", "problems": []})
        self._check_id(pack_id)
        document, incoming = await load_one_level_pack(
            document, "A level is saved as a pack of exactly one level; this one has {count}."
        )
        if incoming.levels[0].id != level_id:
            raise Refusal(
                400,
                {
                    "error": f"The level's id is {incoming.levels[0].id!r}, "
                    f"not {level_id[:64]!r} as the address says.",
                    "problems": [],
                },
            )
        stored = await self.store.library_pack(player, pack_id)
        if stored is None:
            await self._check_room(player)
            manifest = {**document["manifest"], "id": pack_id}
            base: dict[str, Any] = {"manifest": manifest, "levels": []}
            old = None
        else:
            base = json.loads(stored.text)
            old = await self._parse(player, stored)
        text = json.dumps(merge_level(base, document), indent=2, ensure_ascii=False) + "\n"
        size = _utf8_size(text)
        if size > MAX_PACK_BYTES:
            raise _too_large("A pack")
        try:
            merged = await anyio.to_thread.run_sync(load_pack_text, text)
        except PackError as error:
            raise problems_refusal(error, "The pack with this level") from None
        stale = [level_id] if old is not None and level_id in _changed_levels(old, merged) else []
        await self.store.save_library_pack(
            player,
            pack_id,
            merged.manifest.version,
            merged.manifest.name,
            text,
            replace=True,
            stale_levels=stale,
        )
        self._parsed.put(
            (player, pack_id, merged.manifest.version, text_digest(text)), merged, size
        )
        return {"pack": pack_summary(merged), "level": level_id}

    async def delete(self, player: str, pack_id: str) -> bool:
        """Remove the pack from the player's library; whether it was there."""
        deleted: bool = await self.store.delete_library_pack(player, pack_id)
        return deleted


def _exists(stored: LibraryPack, incoming: Pack) -> Refusal:
    """409 ``exists``: the pack is in the library; the page asks whether to replace it."""
    new = incoming.manifest.version
    return Refusal(
        409,
        {
            "error": f"You already have \u201c{stored.name}\u201d version {stored.version}. "
            f"Replace it with version {new}?",
            "code": "exists",
            "existing": {"version": stored.version},
            "incoming": {"version": new},
            "newer": version_key(new) > version_key(stored.version),
        },
    )


def _player(request: Request) -> str:
    # The cookie middleware (miau.server.app) leaves the token here.
    token: str = request.scope["miau.player"]
    return token


class LibraryEndpoints:
    """The ``/api/library`` routes of one app (``docs/protocol.md``)."""

    def __init__(self, library: Library) -> None:
        """Serve ``library``."""
        self.library = library

    async def list_packs(self, request: Request) -> Response:
        """``GET /api/library``: the player's packs, by id."""
        packs = await self.library.packs(_player(request))
        return json_response({"packs": [pack_summary(pack) for pack in packs]})

    async def import_pack(self, request: Request) -> Response:
        """``POST /api/library`` with ``{"text": ..., "replace": bool}``."""
        try:
            body = await read_json_body(request)
            text, replace = body.get("text"), body.get("replace", False)
            if not isinstance(text, str) or not isinstance(replace, bool):
                raise Refusal(
                    400,
                    {"error": 'Send {"text": <the pack file\'s text>, "replace": true or false}.'},
                )
            return json_response(
                await self.library.import_text(_player(request), text, replace=replace)
            )
        except Refusal as refusal:
            return refusal.response()

    async def put_level(self, request: Request) -> Response:
        """``PUT /api/library/{pack}/levels/{level}`` with ``{"pack": <one-level pack>}``."""
        try:
            body = await read_json_body(request)
            reply = await self.library.put_level(
                _player(request),
                request.path_params["pack"],
                request.path_params["level"],
                body.get("pack"),
            )
            return json_response(reply)
        except Refusal as refusal:
            return refusal.response()

    async def delete_pack(self, request: Request) -> Response:
        """``DELETE /api/library/{pack}``."""
        pack_id = request.path_params["pack"]
        if await self.library.delete(_player(request), pack_id):
            return json_response({"deleted": pack_id})
        return json_response({"error": f"Your library has no pack {pack_id[:64]!r}."}, 404)

    async def export_pack(self, request: Request) -> Response:
        """``GET /api/library/{pack}/export``: the pack as a file to download."""
        pack_id = request.path_params["pack"]
        pack = await self.library.pack(_player(request), pack_id)
        if pack is None:
            return json_response({"error": f"Your library has no pack {pack_id[:64]!r}."}, 404)
        text = json.dumps(pack.to_json(), indent=2, ensure_ascii=False) + "\n"
        return Response(
            text.encode("utf-8"),
            media_type="application/json",
            headers={
                **PLAIN_JSON,
                "Content-Disposition": f'attachment; filename="{pack_id}.json"',
            },
        )
