"""What a library does to pack documents, with the standard library only.

The server's library (``miau.server.library``) and the static site's
in-page backend (``miau.site.backend``, which runs under Pyodide) share
these: a pack's summary, version order, how an editor's level is merged
into a pack, and the library's requests and refusals (the words and codes
of ``POST /api/library`` and ``PUT /api/library/{pack}/levels/{level}``).
Where the library is kept, and its quotas, are each host's own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from miau.packs import Pack
from miau.packs.format import PACK_ID_PATTERN
from miau.play.problems import problems_json
from miau.play.refusal import MAX_PACK_BYTES, Refusal, too_large
from miau.play.worlds import PackSummary, Worlds

__all__ = [
    "RESERVED_PREFIX",
    "exists_refusal",
    "import_reply",
    "import_request",
    "merge_level",
    "merged_pack_text",
    "no_library_pack",
    "pack_summary",
    "put_reply",
    "refuse_library_id",
    "refuse_many_levels",
    "refuse_pack_address",
    "refuse_unaddressed_level",
    "require_one_level",
    "require_one_level_document",
    "require_pack_document",
    "utf8_size",
    "version_key",
]

RESERVED_PREFIX: Final = "share-"
"""Pack ids that shared levels' games are stored under; no library pack may take one."""

PUT_LEVEL_TOO_MANY: Final = "A level is saved as a pack of exactly one level; this one has {count}."
ENCODE_TOO_MANY: Final = "A link carries exactly one level; this pack has {count}."
"""What a one-level request says of a pack with ``{count}`` levels (saving; sharing)."""


def utf8_size(text: str) -> int:
    """The text's size in UTF-8.

    :raises Refusal: 400 when it holds a character UTF-8 cannot carry (a lone surrogate).
    """
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        message = "The pack's text holds a character that is not Unicode text."
        raise Refusal(400, {"error": message}) from None


def import_request(body: dict[str, Any]) -> tuple[str, bool]:
    """The pack text and the ``replace`` flag of ``POST /api/library``.

    :raises Refusal: 400 when either is missing or of the wrong type.
    """
    text, replace = body.get("text"), body.get("replace", False)
    if not isinstance(text, str) or not isinstance(replace, bool):
        raise Refusal(
            400, {"error": 'Send {"text": <the pack file\'s text>, "replace": true or false}.'}
        )
    return text, replace


def refuse_library_id(worlds: Worlds, pack_id: str) -> None:
    """Refuse an id that a library pack may not take.

    :raises Refusal: 409 ``shipped`` for a shipped world's id, 409
        ``reserved`` for a ``share-`` id.
    """
    shipped = worlds.pack(pack_id)
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


def exists_refusal(name: str, version: str, incoming: Pack) -> Refusal:
    """409 ``exists``: the pack (``name``, ``version``) is in the library; the page asks to replace."""
    new = incoming.manifest.version
    return Refusal(
        409,
        {
            "error": f"You already have \u201c{name}\u201d version {version}. "
            f"Replace it with version {new}?",
            "code": "exists",
            "existing": {"version": version},
            "incoming": {"version": new},
            "newer": version_key(new) > version_key(version),
        },
    )


def no_library_pack(pack_id: str) -> Refusal:
    """404: the player's library has no such pack."""
    return Refusal(404, {"error": f"Your library has no pack {pack_id[:64]!r}."})


def require_pack_document(document: object) -> dict[str, Any]:
    """The ``pack`` of a one-level request, which must be an object.

    :raises Refusal: 400 otherwise.
    """
    if not isinstance(document, dict):
        raise Refusal(400, {"error": 'Send {"pack": <a one-level pack>}.', "problems": []})
    return document


def refuse_many_levels(levels: int | None, too_many: str) -> None:
    """Refuse a one-level request whose ``levels`` array holds ``levels`` (more than one) levels.

    Counted on the JSON, before the loader: a document of 64 big levels sent
    as one costs nothing to refuse. (None, no array, is the loader's to report.)

    :raises Refusal: 400 saying ``too_many`` (its ``{count}`` filled in).
    """
    if levels is not None and levels > 1:
        raise Refusal(400, {"error": too_many.format(count=levels), "problems": []})


def require_one_level_document(document: object, too_many: str) -> dict[str, Any]:
    """The ``pack`` of a one-level request, before loading: an object of at most one level.

    :raises Refusal: 400 as :func:`require_pack_document` and :func:`refuse_many_levels`.
    """
    document = require_pack_document(document)
    levels = document.get("levels")
    refuse_many_levels(len(levels) if isinstance(levels, list) else None, too_many)
    return document


def require_one_level(pack: Pack, too_many: str) -> Pack:
    """``pack``, which must hold exactly one level.

    :raises Refusal: 400 saying ``too_many`` (its ``{count}`` filled in) otherwise.
    """
    if len(pack.levels) != 1:
        raise Refusal(400, {"error": too_many.format(count=len(pack.levels)), "problems": []})
    return pack


def refuse_pack_address(worlds: Worlds, pack_id: str) -> None:
    """Refuse a ``PUT`` into ``pack_id`` before anything is read: not an id, or not one to take.

    :raises Refusal: 400 for a string that is no pack id; 409 as :func:`refuse_library_id`.
    """
    if not PACK_ID_PATTERN.fullmatch(pack_id):
        raise Refusal(400, {"error": f"{pack_id[:64]!r} is not a pack id.", "problems": []})
    refuse_library_id(worlds, pack_id)


def refuse_unaddressed_level(incoming: Pack, level_id: str) -> None:
    """Refuse a one-level pack whose level is not the one the address names.

    :raises Refusal: 400 naming both ids.
    """
    if incoming.levels[0].id != level_id:
        raise Refusal(
            400,
            {
                "error": f"The level's id is {incoming.levels[0].id!r}, "
                f"not {level_id[:64]!r} as the address says.",
                "problems": [],
            },
        )


def merged_pack_text(
    pack_id: str, stored_text: str | None, document: Mapping[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The text of library pack ``pack_id`` (``stored_text``, None: a new pack) with the level put in.

    A new pack takes the one-level pack's manifest under ``pack_id``.
    Returns the text and the merged document.

    :raises Refusal: 413 when the merged pack is past :data:`MAX_PACK_BYTES`.
    """
    if stored_text is None:
        base: dict[str, Any] = {"manifest": {**document["manifest"], "id": pack_id}, "levels": []}
    else:
        base = json.loads(stored_text)
    merged = merge_level(base, document)
    text = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    if utf8_size(text) > MAX_PACK_BYTES:
        raise too_large("A pack")
    return text, merged


def import_reply(pack: Pack, replaced: bool) -> dict[str, Any]:
    """The 200 reply of ``POST /api/library``: the pack's summary and its loader warnings."""
    return {
        "pack": pack_summary(pack),
        "replaced": replaced,
        "warnings": problems_json(pack.warnings),
    }


def put_reply(pack: Pack, level_id: str) -> dict[str, Any]:
    """The 200 reply of ``PUT /api/library/{pack}/levels/{level}``: the merged pack's summary."""
    return {"pack": pack_summary(pack), "level": level_id}


def pack_summary(pack: Pack) -> dict[str, Any]:
    """A library pack as ``GET /api/library`` lists it."""
    return PackSummary.of(pack).library_json()


def version_key(version: str) -> tuple[int, ...]:
    """A ``MAJOR.MINOR.PATCH`` version as numbers, for comparing (the loader checked its form)."""
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return ()


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
