"""The static site's backend: the server's HTTP API and play protocol, answered in the page.

This module runs under Pyodide in a Web Worker (``js/site-worker.js``) and
needs only the standard library and Miau's own standard-library packages.
It answers the same requests and play frames as ``miau play`` does
(``docs/protocol.md``), for the one player of this browser:

- :meth:`SiteBackend.http` takes ``(method, path, body)`` and gives
  ``{"status", "body"}``;
- :meth:`SiteBackend.frame` takes one play frame's text and gives the reply
  frame.

It keeps its records in memory and never touches storage itself: every
answer carries ``"writes"``, the records (``[key, value]``, value None for
a deletion) that the worker stores in IndexedDB, in one transaction,
*before* it hands the answer to the page. So an intent is stored before its
result is shown, as on the server. :meth:`SiteBackend.restore` loads the
records back when the page opens.

Record keys (IndexedDB array keys): ``["game", pack, level]`` holds an
unfinished game's intent log (``U D L R W`` steps, ``Z`` undo, ``X`` reset,
``S`` + state JSON for a restore); ``["progress", pack, level]`` holds
``{"bestMoves", "bestSolution", "wins"}``; ``["library", pack]`` holds a
library pack's text. :func:`export_progress` and :meth:`SiteBackend.import_progress`
write and read the progress file ``miau progress`` shares with ``miau play``.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import unquote

from miau.engine import Event, Game
from miau.engine.vocabulary import MOVE_ALPHABET
from miau.packs import Pack, PackError, PackLevel, load_pack, load_pack_text
from miau.packs.format import PACK_ID_PATTERN
from miau.packs.share import (
    ShareLinkError,
    decode_share_code,
    share_content_key,
    share_link,
    single_level_pack,
)
from miau.server.library_documents import merge_level, pack_summary, version_key
from miau.server.problems import problems_json
from miau.server.protocol import (
    ErrorCode,
    Intent,
    OpenDraft,
    OpenShare,
    ProtocolError,
    parse_message,
)
from miau.server.share_requests import (
    ShareRequestRefused,
    code_of_shared_level,
    pack_of_share_request,
    shared_level_json,
)
from miau.server.studio_levels import DraftError, load_draft
from miau.server.worlds import (
    PackSummary,
    Worlds,
    level_json,
    next_in_pack,
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

PROGRESS_FORMAT: Final = "miau-progress"
"""The ``format`` field of a progress file (version 1)."""

MAX_PACK_BYTES: Final = 1024 * 1024
MAX_LIBRARY_PACKS: Final = 100
RESERVED_PREFIX: Final = "share-"

STEP_LETTERS: Final = {direction.name: direction.letter for direction in MOVE_ALPHABET}
LETTER_STEPS: Final = {letter: step for step, letter in STEP_LETTERS.items()}
UNDO, RESET, RESTORE = "Z", "X", "S"

Record = list[Any]
"""One ``[key, value]`` pair to store (value None: delete the key)."""


class ProgressFileError(ValueError):
    """A progress file that is not one, with a sentence saying why."""


class _Refusal(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("error", ""))
        self.status = status
        self.body = body


@dataclass(slots=True)
class _OpenGame:
    pack: Pack
    level: PackLevel
    game: Game
    pack_id: str | None
    log: list[str] = field(default_factory=list)


def _apply(game: Game, entry: str) -> Event:
    """Apply one log entry (a letter, or ``S`` and a state's JSON) to ``game``."""
    letter = entry[:1]
    if letter in LETTER_STEPS and len(entry) == 1:
        return game.step(LETTER_STEPS[letter])
    if entry == UNDO:
        return game.undo()
    if entry == RESET:
        return game.reset()
    if letter == RESTORE:
        return game.restore(json.loads(entry[1:]))
    raise ValueError(f"not a log entry: {entry[:40]!r}")


def _log_entry(message: Intent) -> str | None:
    """The log entry of an intent; None for a direction no engine knows."""
    if message.kind == "step":
        return STEP_LETTERS.get(message.direction or "")
    if message.kind == "wait":
        return "W"
    if message.kind == "undo":
        return UNDO
    if message.kind == "reset":
        return RESET
    return RESTORE + json.dumps(message.state, separators=(",", ":"))


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
            if stored != current.log:
                self._replay(current, stored)

    def _replay(self, current: _OpenGame, log: list[str]) -> None:
        current.game = Game(current.level.data)
        for entry in log:
            _apply(current.game, entry)
        current.log = list(log)

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

    def _frame(self, text: str) -> dict[str, Any]:
        seq: int | None = None
        try:
            message = parse_message(text)
            seq = message.seq
            if isinstance(message, Intent):
                return self._intent(message)
            return self._open(message)
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

    def _open(self, message: Any) -> dict[str, Any]:
        pack_id: str | None
        if isinstance(message, OpenShare):
            try:
                pack = decode_share_code(message.code)
            except ShareLinkError as error:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error), message.seq) from None
            pack_id, level = share_content_key(pack), pack.levels[0]
        elif isinstance(message, OpenDraft):
            try:
                pack = load_draft(message.pack)
            except DraftError as error:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error), message.seq) from None
            pack_id, level = None, pack.levels[0]
        else:
            found = self._find(message.pack)
            found_level = (
                None
                if found is None
                else next((each for each in found[0].levels if each.id == message.level), None)
            )
            if found is None or found_level is None:
                what, name = ("world", message.pack) if found is None else ("level", message.level)
                raise ProtocolError(
                    ErrorCode.NOT_FOUND, f"There is no {what} {name[:64]!r}.", message.seq
                )
            pack, level, pack_id = found[0], found_level, found[0].manifest.id
        opened = _OpenGame(pack, level, Game(level.data), pack_id)
        stored = None if pack_id is None else self.games.get((pack_id, level.id))
        if stored:
            for entry in stored:
                _apply(opened.game, entry)
            opened.log = list(stored)
        self.current = opened
        reply: dict[str, Any] = {
            "type": "opened",
            "pack": pack_id,
            "level": level.id,
            "state": opened.game.state.to_json(),
            "resumed": bool(opened.log),
        }
        if pack_id is None:
            reply["draft"] = True
        if message.seq is not None:
            reply["seq"] = message.seq
        return reply

    def _intent(self, message: Intent) -> dict[str, Any]:
        current = self.current
        if current is None:
            raise ProtocolError(
                ErrorCode.NO_GAME, 'Open a level first: send {"type": "open", ...}.', message.seq
            )
        entry = _log_entry(message)
        event = (
            current.game.step(message.direction or "")
            if entry is None
            else _apply(current.game, entry)
        )
        progress: dict[str, Any] | None = None
        if event.accepted and entry is not None and current.pack_id is not None:
            key = (current.pack_id, current.level.id)
            # After a reset or a restore nothing before it matters: the log starts again.
            current.log = [entry] if entry[:1] in (RESET, RESTORE) else [*current.log, entry]
            self.games[key] = list(current.log)
            self._write(["game", *key], current.log)
            if event.won and entry in LETTER_STEPS:
                progress = self._record_win(current)
        return {
            "type": "result",
            "seq": message.seq,
            "event": event.to_json(),
            "state": current.game.state.to_json(),
            "progress": progress,
        }

    def _record_win(self, current: _OpenGame) -> dict[str, Any]:
        assert current.pack_id is not None
        key = (current.pack_id, current.level.id)
        moves = current.game.state.move_count
        solution = current.game.moves
        best = self.progress.get(key)
        if best is None or moves < int(best["bestMoves"]):
            best = {
                "bestMoves": moves,
                "bestSolution": solution,
                "wins": (best or {}).get("wins", 0) + 1,
            }
        else:
            best = {**best, "wins": int(best.get("wins", 1)) + 1}
        self.progress[key] = best
        self._write(["progress", *key], best)
        # The won game is finished: a reload starts the level afresh. The board stays won
        # here, and a later intent starts a new stored game from this one's log, as on the server.
        self.games.pop(key, None)
        self._write(["game", *key], None)
        return {"won": True, "bestMoves": best["bestMoves"]}

    # -- the HTTP API -------------------------------------------------------------------

    def http(self, method: str, path: str, body_json: str | None = None) -> str:
        """The answer to one API request: ``{"status", "body", "writes"}`` as JSON."""
        self._writes = []
        try:
            body = None if body_json is None else json.loads(body_json)
            status, answer = 200, self._route(method, path, body)
        except _Refusal as refusal:
            self._writes = []
            status, answer = refusal.status, refusal.body
        return json.dumps(
            {"status": status, "body": answer, "writes": self._take_writes()},
            ensure_ascii=False,
        )

    def _route(self, method: str, path: str, body: Any) -> dict[str, Any]:
        parts = [unquote(part) for part in path.split("?", 1)[0].strip("/").split("/")]
        if parts[:1] != ["api"]:
            raise _Refusal(404, {"error": f"There is nothing at {path}."})
        route = parts[1:]
        match method, route:
            case "GET", ["worlds"]:
                library = [PackSummary.of(pack) for pack in self._library_packs()]
                return self.worlds.world_list(self._best().keys(), library)
            case "GET", ["worlds", pack_id]:
                pack, imported = self._found(pack_id)
                return world_json(pack.manifest.id, pack, self._best(), imported=imported)
            case "GET", ["worlds", pack_id, "levels", level_id]:
                pack, imported = self._found(pack_id)
                level = self._level(pack, level_id)
                if imported:
                    return level_json(pack_id, level, next_in_pack(pack, level))
                return self.worlds.level_detail(pack, level, self._best().keys())
            case "GET", ["worlds", pack_id, "levels", level_id, "pack"]:
                pack, _ = self._found(pack_id)
                self._level(pack, level_id)
                return {"pack": single_level_pack(pack, level_id)}
            case "GET", ["vocabularies"]:
                return vocabularies_json()
            case "GET", ["progress"]:
                return {"levels": self._progress_list()}
            case "GET", ["progress", "export"]:
                return export_progress(self.games, self.progress, self.library)
            case "POST", ["progress", "import"]:
                return self.import_progress(body)
            case "GET", ["library"]:
                return {"packs": [pack_summary(pack) for pack in self._library_packs()]}
            case "POST", ["library"]:
                return self._import_pack(_object(body))
            case "PUT", ["library", pack_id, "levels", level_id]:
                return self._put_level(pack_id, level_id, _object(body).get("pack"))
            case "DELETE", ["library", pack_id]:
                if pack_id not in self.library:
                    raise _Refusal(404, {"error": f"There is no pack {pack_id!r} in your library."})
                del self.library[pack_id]
                self._parsed.pop(pack_id, None)
                self._write(["library", pack_id], None)
                return {"deleted": pack_id}
            case "GET", ["library", pack_id, "export"]:
                if pack_id not in self.library:
                    raise _Refusal(404, {"error": f"There is no pack {pack_id!r} in your library."})
                return {"text": self.library[pack_id]}
            case "POST", ["shared"]:
                return self._open_shared(_object(body))
            case "POST", ["shared", "encode"]:
                return self._encode(_object(body))
        raise _Refusal(404, {"error": f"There is nothing at {path}."})

    def _best(self) -> dict[tuple[str, str], int]:
        return {key: int(entry["bestMoves"]) for key, entry in self.progress.items()}

    def _progress_list(self) -> list[dict[str, Any]]:
        return [
            {
                "pack": pack,
                "level": level,
                "won": True,
                "bestMoves": entry["bestMoves"],
                "bestSolution": entry.get("bestSolution"),
            }
            for (pack, level), entry in sorted(self.progress.items())
        ]

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
            raise _Refusal(404, {"error": f"There is no world {pack_id!r}."})
        return found

    def _level(self, pack: Pack, level_id: str) -> PackLevel:
        level = next((each for each in pack.levels if each.id == level_id), None)
        if level is None:
            raise _Refusal(
                404, {"error": f"The world {pack.manifest.id!r} has no level {level_id!r}."}
            )
        return level

    def _check_id(self, pack_id: str) -> None:
        shipped = self.worlds.pack(pack_id)
        if shipped is not None:
            raise _Refusal(
                409,
                {
                    "error": f"\u201c{shipped.manifest.name}\u201d ({pack_id}) comes with Miau; "
                    "give your pack another id.",
                    "code": "shipped",
                },
            )
        if pack_id.startswith(RESERVED_PREFIX):
            raise _Refusal(
                409,
                {
                    "error": f"Pack ids starting with {RESERVED_PREFIX!r} are kept for shared "
                    "levels; give your pack another id.",
                    "code": "reserved",
                },
            )

    def _check_room(self) -> None:
        if len(self.library) >= MAX_LIBRARY_PACKS:
            raise _Refusal(
                409,
                {
                    "error": f"Your library is full ({MAX_LIBRARY_PACKS} packs); "
                    "remove a pack first.",
                    "code": "full",
                },
            )

    def _import_pack(self, body: dict[str, Any]) -> dict[str, Any]:
        text, replace = body.get("text"), body.get("replace", False)
        if not isinstance(text, str) or not isinstance(replace, bool):
            raise _Refusal(400, {"error": 'Send {"text": <the pack file>, "replace": false}.'})
        if len(text.encode("utf-8", "surrogatepass")) > MAX_PACK_BYTES:
            raise _Refusal(413, {"error": "A pack may be at most 1 MiB; this one is larger."})
        try:
            pack = load_pack_text(text)
        except PackError as error:
            raise _problems(error, "This pack") from None
        pack_id = pack.manifest.id
        self._check_id(pack_id)
        stored = self._library_pack(pack_id) if pack_id in self.library else None
        if pack_id in self.library and not replace:
            old_version = stored.manifest.version if stored else "?"
            old_name = stored.manifest.name if stored else pack_id
            new = pack.manifest.version
            raise _Refusal(
                409,
                {
                    "error": f"You already have \u201c{old_name}\u201d version {old_version}. "
                    f"Replace it with version {new}?",
                    "code": "exists",
                    "existing": {"version": old_version},
                    "incoming": {"version": new},
                    "newer": version_key(new) > version_key(old_version),
                },
            )
        replaced = pack_id in self.library
        if not replaced:
            self._check_room()
        if stored is not None:
            self._finish_changed(pack_id, stored, pack)
        self._store_pack(pack_id, text, pack)
        return {
            "pack": pack_summary(pack),
            "replaced": replaced,
            "warnings": problems_json(pack.warnings),
        }

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

    def _one_level(self, document: object, too_many: str) -> tuple[dict[str, Any], Pack]:
        if not isinstance(document, dict):
            raise _Refusal(400, {"error": 'Send {"pack": <a one-level pack>}.', "problems": []})
        try:
            pack = load_pack(document)
        except PackError as error:
            raise _problems(error, "This level") from None
        if len(pack.levels) != 1:
            raise _Refusal(400, {"error": too_many.format(count=len(pack.levels)), "problems": []})
        return document, pack

    def _put_level(self, pack_id: str, level_id: str, document: object) -> dict[str, Any]:
        if not PACK_ID_PATTERN.fullmatch(pack_id):
            raise _Refusal(400, {"error": f"{pack_id[:64]!r} is not a pack id.", "problems": []})
        self._check_id(pack_id)
        document, incoming = self._one_level(
            document, "A level is saved as a pack of exactly one level; this one has {count}."
        )
        if incoming.levels[0].id != level_id:
            raise _Refusal(
                400,
                {
                    "error": f"The level's id is {incoming.levels[0].id!r}, "
                    f"not {level_id[:64]!r} as the address says.",
                    "problems": [],
                },
            )
        old = self._library_pack(pack_id)
        if pack_id not in self.library:
            self._check_room()
            base: dict[str, Any] = {
                "manifest": {**document["manifest"], "id": pack_id},
                "levels": [],
            }
        else:
            base = json.loads(self.library[pack_id])
        text = json.dumps(merge_level(base, document), indent=2, ensure_ascii=False) + "\n"
        if len(text.encode("utf-8", "surrogatepass")) > MAX_PACK_BYTES:
            raise _Refusal(413, {"error": "A pack may be at most 1 MiB; this one is larger."})
        try:
            merged = load_pack_text(text)
        except PackError as error:
            raise _problems(error, "The pack with this level") from None
        if old is not None:
            self._finish_changed(pack_id, old, merged)
        self._store_pack(pack_id, text, merged)
        return {"pack": pack_summary(merged), "level": level_id}

    def _open_shared(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            pack = pack_of_share_request(body)
        except ShareRequestRefused as refused:
            raise _Refusal(refused.status, refused.body) from None
        key = share_content_key(pack)
        best = {pair: moves for pair, moves in self._best().items() if pair[0] == key}
        return shared_level_json(pack, best)

    def _encode(self, body: dict[str, Any]) -> dict[str, Any]:
        document, _ = self._one_level(
            body.get("pack"), "A link carries exactly one level; this pack has {count}."
        )
        try:
            code = code_of_shared_level(document)
        except ShareRequestRefused as refused:
            raise _Refusal(refused.status, refused.body) from None
        base = body.get("base")
        if not (isinstance(base, str) and base):
            base = self.base
        link = share_link(code, base) if base else share_link(code)
        return {"code": code, "link": link}

    # -- progress files -----------------------------------------------------------------

    def import_progress(self, document: object) -> dict[str, Any]:
        """Merge a progress file into this browser's records; counts of what was taken.

        Games replace the unfinished game on the same level; best scores keep
        the fewer moves; library packs are added or replaced.
        """
        try:
            games, progress, library = read_progress_file(document)
        except ProgressFileError as error:
            raise _Refusal(400, {"error": str(error)}) from None
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


def _object(body: object) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise _Refusal(400, {"error": "The request must be a JSON object."})
    return body


def _problems(error: PackError, what: str) -> _Refusal:
    count = len(error.issues)
    return _Refusal(
        400,
        {
            "error": f"{what} has {count} problem{'' if count == 1 else 's'}.",
            "problems": problems_json(error.issues),
        },
    )


def export_progress(
    games: dict[tuple[str, str], list[str]],
    progress: dict[tuple[str, str], dict[str, Any]],
    library: dict[str, str],
) -> dict[str, Any]:
    """The progress file: unfinished games' intent logs, best scores and library packs."""
    return {
        "format": PROGRESS_FORMAT,
        "version": 1,
        "games": [
            {"pack": pack, "level": level, "intents": list(log)}
            for (pack, level), log in sorted(games.items())
        ],
        "progress": [
            {
                "pack": pack,
                "level": level,
                "bestMoves": int(entry["bestMoves"]),
                "bestSolution": entry.get("bestSolution"),
            }
            for (pack, level), entry in sorted(progress.items())
        ],
        "library": [{"id": pack_id, "text": text} for pack_id, text in sorted(library.items())],
    }


_ENTRY = re.compile(r"[UDLRWZX]|S\{.*\}", re.DOTALL)


def read_progress_file(
    document: object,
) -> tuple[
    dict[tuple[str, str], list[str]],
    dict[tuple[str, str], dict[str, Any]],
    dict[str, str],
]:
    """The games, best scores and library packs of a progress file.

    :raises ProgressFileError: for anything that is not a version 1 progress
        file, naming the first wrong place.
    """
    if not isinstance(document, dict) or document.get("format") != PROGRESS_FORMAT:
        raise ProgressFileError(
            f'This is not a Miau progress file (no "format": "{PROGRESS_FORMAT}").'
        )
    if document.get("version") != 1:
        raise ProgressFileError(
            f"This progress file is version {document.get('version')!r}; this Miau reads version 1."
        )
    games: dict[tuple[str, str], list[str]] = {}
    for index, game in enumerate(_list(document, "games")):
        key = _place(game, f"games[{index}]")
        intents = game.get("intents")
        if not isinstance(intents, list) or not all(
            isinstance(entry, str) and _ENTRY.fullmatch(entry) for entry in intents
        ):
            raise ProgressFileError(f"games[{index}].intents must be a list of log entries.")
        games[key] = list(intents)
    progress: dict[tuple[str, str], dict[str, Any]] = {}
    for index, entry in enumerate(_list(document, "progress")):
        key = _place(entry, f"progress[{index}]")
        moves, solution = entry.get("bestMoves"), entry.get("bestSolution")
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            raise ProgressFileError(f"progress[{index}].bestMoves must be a whole number.")
        if solution is not None and not (
            isinstance(solution, str) and re.fullmatch(r"[UDLRW]*", solution)
        ):
            raise ProgressFileError(f"progress[{index}].bestSolution must be a move string.")
        progress[key] = {"bestMoves": moves, "bestSolution": solution, "wins": 1}
    library: dict[str, str] = {}
    for index, pack in enumerate(_list(document, "library")):
        if not (
            isinstance(pack, dict)
            and isinstance(pack.get("id"), str)
            and isinstance(pack.get("text"), str)
        ):
            raise ProgressFileError(f"library[{index}] must be {{id, text}}.")
        library[pack["id"]] = pack["text"]
    return games, progress, library


def _list(document: dict[str, Any], name: str) -> list[Any]:
    value = document.get(name, [])
    if not isinstance(value, list):
        raise ProgressFileError(f"{name} must be a list.")
    return value


def _place(entry: object, where: str) -> tuple[str, str]:
    if not (
        isinstance(entry, dict)
        and isinstance(entry.get("pack"), str)
        and isinstance(entry.get("level"), str)
    ):
        raise ProgressFileError(f"{where} needs a string pack and level.")
    return entry["pack"], entry["level"]
