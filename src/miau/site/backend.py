"""The static site's host of the play service: the HTTP API and play protocol, answered in the page.

This module runs under Pyodide in a Web Worker (``js/site-worker.js``) and
needs only the standard library and Miau's own standard-library packages.
What it answers, and every word of it, is :mod:`miau.play`'s (the same as
``miau play`` answers, ``docs/protocol.md``); this module is where the one
player of this browser keeps things:

- :meth:`SiteBackend.http` takes ``(method, path, body)`` and gives
  ``{"status", "body"}``, each request routed by :data:`miau.play.routes.ROUTES`
  to the method ``api_<name>``;
- :meth:`SiteBackend.frame` takes one play frame's text and gives the reply
  frame.

It keeps its records in memory and never touches storage itself: every
answer carries ``"writes"``, the records (``[key, value]``, value None for
a deletion) that the worker stores in IndexedDB, in one transaction,
*before* it hands the answer to the page. So an intent is stored before its
result is shown, as on the server. :meth:`SiteBackend.restore` loads the
records back when the page opens.

Record keys (IndexedDB array keys): ``["game", pack, level]`` holds an
unfinished game's play log, each entry as its text
(:attr:`miau.play.log.LogEntry.text`: ``U D L R W`` steps, ``Z`` undo,
``X`` reset, ``S`` + state JSON for a restore); ``["progress", pack,
level]`` holds ``{"bestMoves", "bestSolution", "wins"}``; ``["library",
pack]`` holds a library pack's text. The progress file
(:mod:`miau.play.progress`) is what ``miau progress`` shares with ``miau play``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from miau.engine import Game
from miau.packs import Pack, PackError, PackLevel, load_pack, load_pack_text
from miau.packs.share import share_content_key, share_link, single_level_pack
from miau.play import library_documents as documents
from miau.play import service
from miau.play.log import LogEntry, UnreplayableGameError, play_intent, replay_log
from miau.play.progress import (
    PROGRESS_FORMAT,
    ProgressFileError,
    export_progress,
    read_progress_file,
)
from miau.play.protocol import (
    ErrorCode,
    Intent,
    Open,
    OpenDraft,
    OpenShare,
    ProtocolError,
    Query,
    parse_message,
)
from miau.play.refusal import (
    MAX_PACK_BYTES,
    Refusal,
    no_level,
    no_world,
    nothing_at,
    problems_refusal,
    request_object,
    too_large,
)
from miau.play.routes import find_route
from miau.play.share_requests import (
    code_of_shared_level,
    pack_of_share_request,
    shareable_level_cost,
    shared_level_json,
)
from miau.play.worlds import (
    PackSummary,
    Worlds,
    vocabularies_json,
    world_json,
)

__all__ = [
    "PROGRESS_FORMAT",
    "ProgressFileError",
    "SiteBackend",
    "export_progress",
    "read_progress_file",
    "shipped_worlds",
]

MAX_LIBRARY_PACKS: Final = 100
"""How many packs this browser's library holds."""

Record = list[Any]
"""One ``[key, value]`` pair to store (value None: delete the key)."""


@dataclass(slots=True)
class _OpenGame:
    pack: Pack
    level: PackLevel
    game: Game
    pack_id: str | None
    log: list[LogEntry] = field(default_factory=list)
    notice: str | None = None


def _texts(log: list[LogEntry]) -> list[str]:
    """A log as it is stored: each entry's text."""
    return [entry.text for entry in log]


@functools.cache
def shipped_worlds() -> Worlds:
    """The shipped worlds, loaded once (the site's build snapshot holds them loaded)."""
    return Worlds.load()


class SiteBackend:
    """One browser's Miau: the shipped worlds, its library, games and progress."""

    def __init__(self, worlds: Worlds | None = None, base: str | None = None) -> None:
        """A backend on ``worlds`` (default: the shipped ones) with nothing stored yet.

        ``base`` is the site's own address, where share links lead (default:
        ``miau play``'s address, as ``miau share`` prints).
        """
        self.worlds = worlds or shipped_worlds()
        self.base = base
        self.games: dict[tuple[str, str], list[str]] = {}
        self.progress: dict[tuple[str, str], dict[str, Any]] = {}
        self.library: dict[str, str] = {}
        self._parsed: dict[str, tuple[str, Pack]] = {}
        self.current: _OpenGame | None = None
        self._writes: list[Record] = []

    # -- records ------------------------------------------------------------------------

    def restore(self, records_json: str) -> int:
        """Load stored records (``[[key, value], ...]`` as JSON); how many were taken.

        A record this version does not know is left alone (it stays stored).
        """
        taken = 0
        for key, value in json.loads(records_json):
            if not isinstance(key, list) or not key:
                continue
            if key[0] == "game" and len(key) == 3 and isinstance(value, list):
                self.games[(key[1], key[2])] = [str(entry) for entry in value]
            elif key[0] == "progress" and len(key) == 3 and isinstance(value, dict):
                self.progress[(key[1], key[2])] = value
            elif key[0] == "library" and len(key) == 2 and isinstance(value, str):
                self.library[key[1]] = value
            else:
                continue
            taken += 1
        return taken

    def apply_records(self, writes_json: str) -> None:
        """Take the records another tab of this browser stored (``[[key, value or None], ...]``).

        As the server does when another page moved a stored game on: if the
        open game's log changed, the next intent is applied to that log,
        replayed, not to this tab's board.
        """
        for key, value in json.loads(writes_json):
            if not isinstance(key, list) or not key:
                continue
            if value is not None:
                self.restore(json.dumps([[key, value]]))
            elif key[0] in ("game", "progress") and len(key) == 3:
                (self.games if key[0] == "game" else self.progress).pop((key[1], key[2]), None)
            elif key[0] == "library" and len(key) == 2:
                self.library.pop(key[1], None)
        current = self.current
        if current is not None and current.pack_id is not None:
            stored = self.games.get((current.pack_id, current.level.id), [])
            if stored != _texts(current.log):
                self._resume(current)

    def _resume(self, opened: _OpenGame) -> None:
        """Replay the stored game on ``opened``'s level; one that no longer replays is set aside."""
        assert opened.pack_id is not None
        key = (opened.pack_id, opened.level.id)
        try:
            log = [LogEntry.from_text(text) for text in self.games.get(key, [])]
            opened.game = replay_log(opened.level, log)
        except (ValueError, UnreplayableGameError):
            self.games.pop(key, None)
            self._write(["game", *key], None)
            opened.game, log = Game(opened.level.data), []
            opened.notice = service.UNREPLAYABLE_NOTICE
        opened.log = log

    def _write(self, key: list[str], value: Any) -> None:
        self._writes.append([key, value])

    def _take_writes(self) -> list[Record]:
        writes, self._writes = self._writes, []
        return writes

    # -- the play protocol --------------------------------------------------------------

    def frame(self, text: str) -> str:
        """The reply to one play frame, with the records to store: ``{"reply", "writes"}`` as JSON."""
        self._writes = []
        reply = self._frame(text)
        return json.dumps({"reply": reply, "writes": self._take_writes()}, ensure_ascii=False)

    def frame_reply(self, text: str) -> str:
        """The reply frame to one play frame, as the server sends it (compact JSON).

        The records it stores wait in :meth:`take_writes`, which the worker
        stores before it hands the reply to the page: so the reply is
        encoded once, here, and read once, by the page.
        """
        self._writes = []
        return json.dumps(self._frame(text), separators=(",", ":"))

    def saved_game(self) -> str:
        """The open game's level and its stored log as JSON: ``{"pack", "level", "log"}``, or ``null``.

        ``log`` is the ``game`` record's value (null when none is stored: a
        new or a won game); a draft has no place and gives ``null``. The
        worker stores the board each reply shows beside this log, and the
        page draws that board at its next start, before the engine runs,
        only while the stored log is still this one.
        """
        current = self.current
        if current is None or current.pack_id is None:
            return "null"
        key = (current.pack_id, current.level.id)
        saved = {"pack": key[0], "level": key[1], "log": self.games.get(key)}
        return json.dumps(saved, ensure_ascii=False)

    def take_writes(self) -> str:
        """The records the last answer stores (``[[key, value or None], ...]``) as JSON; forgotten here."""
        return json.dumps(self._take_writes(), ensure_ascii=False)

    def _frame(self, text: str) -> dict[str, Any]:
        seq: int | None = None
        try:
            message = parse_message(text)
            seq = message.seq
            if isinstance(message, Intent):
                return self.intent(message)
            if isinstance(message, Query):
                return service.answer_query(self.current, message)
            return self.open(message)
        except ProtocolError as error:
            return error.reply()
        except Exception as error:
            self.current = None
            self._writes = []
            return ProtocolError(
                ErrorCode.SERVER_ERROR,
                f"Something went wrong in the page's engine ({type(error).__name__}); "
                "open the level again.",
                seq,
            ).reply()

    def open(self, message: Open) -> dict[str, Any]:
        """Resume this browser's game on a level or a shared level, or start one; or play a draft."""
        pack_id: str | None
        if isinstance(message, OpenShare):
            pack = service.shared_pack(message)
            pack_id, level = share_content_key(pack), pack.levels[0]
        elif isinstance(message, OpenDraft):
            pack = service.draft_pack(message)
            pack_id, level = None, pack.levels[0]
        else:
            found = self._find(message.pack)
            pack, level = service.level_of(None if found is None else found[0], message)
            pack_id = pack.manifest.id
        opened = _OpenGame(pack, level, Game(level.data), pack_id)
        if pack_id is not None and self.games.get((pack_id, level.id)):
            self._resume(opened)
        self.current = opened
        return service.opened_reply(
            message, pack_id, level, opened.game, resumed=bool(opened.log), notice=opened.notice
        )

    def intent(self, message: Intent) -> dict[str, Any]:
        """Apply one intent to the open game; store it if the engine accepted it."""
        current, entry, event = play_intent(self.current, message)
        progress: dict[str, Any] | None = None
        if entry is not None and current.pack_id is not None:
            key = (current.pack_id, current.level.id)
            # After a reset or a restore nothing before it matters: the log starts again.
            current.log = [entry] if entry.starts_afresh else [*current.log, entry]
            self.games[key] = _texts(current.log)
            self._write(["game", *key], self.games[key])
            if service.is_a_win(event, entry):
                progress = self._record_win(current)
        return service.result_reply(message, event, current.game, progress)

    def _record_win(self, current: _OpenGame) -> dict[str, Any]:
        assert current.pack_id is not None
        key = (current.pack_id, current.level.id)
        best = service.best_after_win(
            self.progress.get(key), current.game.state.move_count, current.game.moves
        )
        self.progress[key] = best
        self._write(["progress", *key], best)
        # The won game is finished: a reload starts the level afresh. The board stays won
        # here, and a later intent starts a new stored game from this one's log, as on the server.
        self.games.pop(key, None)
        self._write(["game", *key], None)
        return service.win_reply(best["bestMoves"])

    # -- the HTTP API -------------------------------------------------------------------

    def http(self, method: str, path: str, body_json: str | None = None) -> str:
        """The answer to one API request: ``{"status", "body", "writes"}`` as JSON."""
        self._writes = []
        try:
            body = None if body_json is None else json.loads(body_json)
            found = find_route(method, path, host="site")
            if found is None:
                raise nothing_at(path)
            route, params = found
            status, answer = 200, getattr(self, f"api_{route.name}")(body, **params)
        except Refusal as refusal:
            self._writes = []
            status, answer = refusal.status, refusal.body
        return json.dumps(
            {"status": status, "body": answer, "writes": self._take_writes()},
            ensure_ascii=False,
        )

    def api_list_worlds(self, body: object) -> dict[str, Any]:
        """``GET /api/worlds``: the shipped worlds and this browser's library packs."""
        library = [PackSummary.of(pack) for pack in self._library_packs()]
        return self.worlds.world_list(self._best().keys(), library)

    def api_show_world(self, body: object, pack: str) -> dict[str, Any]:
        """``GET /api/worlds/{pack}``: a world's levels, with this browser's scores."""
        found, imported = self._found(pack)
        return world_json(found.manifest.id, found, self._best(), imported=imported)

    def api_show_level(self, body: object, pack: str, level: str) -> dict[str, Any]:
        """``GET /api/worlds/{pack}/levels/{level}``: a level's detail."""
        found, imported = self._found(pack)
        found_level = self._level(found, level)
        return self.worlds.any_level_detail(
            found, found_level, self._best().keys(), imported=imported
        )

    def api_show_level_pack(self, body: object, pack: str, level: str) -> dict[str, Any]:
        """``GET /api/worlds/{pack}/levels/{level}/pack``: the level as a one-level pack."""
        found, _ = self._found(pack)
        self._level(found, level)
        return {"pack": single_level_pack(found, level)}

    def api_show_vocabularies(self, body: object) -> dict[str, Any]:
        """``GET /api/vocabularies``: the built-in words."""
        return vocabularies_json()

    def api_show_progress(self, body: object) -> dict[str, Any]:
        """``GET /api/progress``: every level won, with its best score."""
        return {
            "levels": [
                {
                    "pack": pack,
                    "level": level,
                    "won": True,
                    "bestMoves": entry["bestMoves"],
                    "bestSolution": entry.get("bestSolution"),
                }
                for (pack, level), entry in sorted(self.progress.items())
            ]
        }

    def api_export_progress(self, body: object) -> dict[str, Any]:
        """``GET /api/progress/export``: the progress file."""
        return export_progress(self.games, self.progress, self.library)

    def api_import_progress(self, body: object) -> dict[str, Any]:
        """``POST /api/progress/import``: merge a progress file (:meth:`import_progress`)."""
        return self.import_progress(body)

    def api_list_packs(self, body: object) -> dict[str, Any]:
        """``GET /api/library``: this browser's library packs."""
        return {"packs": [documents.pack_summary(pack) for pack in self._library_packs()]}

    def api_import_pack(self, body: object) -> dict[str, Any]:
        """``POST /api/library``: add a pack's text to the library."""
        text, replace = documents.import_request(request_object(body))
        if documents.utf8_size(text) > MAX_PACK_BYTES:
            raise too_large()
        try:
            pack = load_pack_text(text)
        except PackError as error:
            raise problems_refusal(error) from None
        pack_id = pack.manifest.id
        documents.refuse_library_id(self.worlds, pack_id)
        stored = self._library_pack(pack_id) if pack_id in self.library else None
        if pack_id in self.library and not replace:
            raise documents.exists_refusal(
                stored.manifest.name if stored else pack_id,
                stored.manifest.version if stored else "?",
                pack,
            )
        replaced = pack_id in self.library
        if not replaced:
            self._check_room()
        if stored is not None:
            self._finish_changed(pack_id, stored, pack)
        self._store_pack(pack_id, text, pack)
        return documents.import_reply(pack, replaced)

    def api_put_level(self, body: object, pack: str, level: str) -> dict[str, Any]:
        """``PUT /api/library/{pack}/levels/{level}``: save an editor's level into a library pack."""
        documents.refuse_pack_address(self.worlds, pack)
        document, incoming = self._one_level(
            request_object(body).get("pack"), documents.PUT_LEVEL_TOO_MANY
        )
        documents.refuse_unaddressed_level(incoming, level)
        old = self._library_pack(pack)
        if pack not in self.library:
            self._check_room()
        text, _ = documents.merged_pack_text(pack, self.library.get(pack), document)
        try:
            merged = load_pack_text(text)
        except PackError as error:
            raise problems_refusal(error, "The pack with this level") from None
        if old is not None:
            self._finish_changed(pack, old, merged)
        self._store_pack(pack, text, merged)
        return documents.put_reply(merged, level)

    def api_delete_pack(self, body: object, pack: str) -> dict[str, Any]:
        """``DELETE /api/library/{pack}``."""
        if pack not in self.library:
            raise documents.no_library_pack(pack)
        del self.library[pack]
        self._parsed.pop(pack, None)
        self._write(["library", pack], None)
        return {"deleted": pack}

    def api_export_pack(self, body: object, pack: str) -> dict[str, Any]:
        """``GET /api/library/{pack}/export``: the pack's text (the page saves it as a file)."""
        if pack not in self.library:
            raise documents.no_library_pack(pack)
        return {"text": self.library[pack]}

    def api_open_shared(self, body: object) -> dict[str, Any]:
        """``POST /api/shared``: what the page shows of a shared level."""
        pack = pack_of_share_request(request_object(body))
        key = share_content_key(pack)
        best = {pair: moves for pair, moves in self._best().items() if pair[0] == key}
        return shared_level_json(pack, best)

    def api_encode(self, body: object) -> dict[str, Any]:
        """``POST /api/shared/encode``: the code and link of a one-level pack."""
        request = request_object(body)
        document, _ = self._one_level(
            request.get("pack"), documents.ENCODE_TOO_MANY, shareable_level_cost
        )
        code = code_of_shared_level(document)
        base = request.get("base")
        if not (isinstance(base, str) and base):
            base = self.base
        link = share_link(code, base) if base else share_link(code)
        return {"code": code, "link": link}

    def _best(self) -> dict[tuple[str, str], int]:
        return {key: int(entry["bestMoves"]) for key, entry in self.progress.items()}

    def _library_pack(self, pack_id: str) -> Pack | None:
        text = self.library.get(pack_id)
        if text is None:
            return None
        cached = self._parsed.get(pack_id)
        if cached is not None and cached[0] == text:
            return cached[1]
        try:
            pack = load_pack_text(text)
        except PackError:
            return None
        self._parsed[pack_id] = (text, pack)
        return pack

    def _library_packs(self) -> list[Pack]:
        packs = (self._library_pack(pack_id) for pack_id in sorted(self.library))
        return [pack for pack in packs if pack is not None]

    def _find(self, pack_id: str) -> tuple[Pack, bool] | None:
        shipped = self.worlds.pack(pack_id)
        if shipped is not None:
            return shipped, False
        pack = self._library_pack(pack_id)
        return None if pack is None else (pack, True)

    def _found(self, pack_id: str) -> tuple[Pack, bool]:
        found = self._find(pack_id)
        if found is None:
            raise no_world(pack_id)
        return found

    def _level(self, pack: Pack, level_id: str) -> PackLevel:
        level = next((each for each in pack.levels if each.id == level_id), None)
        if level is None:
            raise no_level(pack.manifest.id, level_id)
        return level

    def _check_room(self) -> None:
        if len(self.library) >= MAX_LIBRARY_PACKS:
            raise Refusal(
                409,
                {
                    "error": f"Your library is full ({MAX_LIBRARY_PACKS} packs); "
                    "remove a pack first.",
                    "code": "full",
                },
            )

    def _one_level(
        self,
        document: object,
        too_many: str,
        cost_of: Callable[[dict[str, Any]], int] | None = None,
    ) -> tuple[dict[str, Any], Pack]:
        """A one-level request's pack, refused as ``miau play`` refuses it: counted, then loaded."""
        document = documents.require_one_level_document(document, too_many)
        if cost_of is not None:
            cost_of(document)
        try:
            pack = load_pack(document)
        except PackError as error:
            raise problems_refusal(error, "This level") from None
        return document, documents.require_one_level(pack, too_many)

    def _finish_changed(self, pack_id: str, old: Pack, new: Pack) -> None:
        """Drop the games on levels the new version changes or drops: their logs are the old level's."""
        kept = {level.id: level for level in new.levels}
        for level in old.levels:
            if kept.get(level.id) != level and (pack_id, level.id) in self.games:
                del self.games[(pack_id, level.id)]
                self._write(["game", pack_id, level.id], None)

    def _store_pack(self, pack_id: str, text: str, pack: Pack) -> None:
        self.library[pack_id] = text
        self._parsed[pack_id] = (text, pack)
        self._write(["library", pack_id], text)

    # -- progress files -----------------------------------------------------------------

    def import_progress(self, document: object) -> dict[str, Any]:
        """Merge a progress file into this browser's records; counts of what was taken.

        Games replace the unfinished game on the same level; best scores keep
        the fewer moves; library packs are added or replaced.
        """
        try:
            games, progress, library = read_progress_file(document)
        except ProgressFileError as error:
            raise Refusal(400, {"error": str(error)}) from None
        for key, log in games.items():
            self.games[key] = log
            self._write(["game", *key], log)
        for key, entry in progress.items():
            best = self.progress.get(key)
            if best is None or int(entry["bestMoves"]) < int(best["bestMoves"]):
                self.progress[key] = entry
                self._write(["progress", *key], entry)
        for pack_id, text in library.items():
            try:
                pack = load_pack_text(text)
            except PackError:
                continue
            if pack.manifest.id == pack_id and self.worlds.pack(pack_id) is None:
                self._store_pack(pack_id, text, pack)
        self.current = None
        return {"games": len(games), "progress": len(progress), "library": len(library)}
