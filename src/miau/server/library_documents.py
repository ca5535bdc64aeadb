"""What a library does to pack documents, with the standard library only.

The server's library (``miau.server.library``) and the static site's
in-page backend (``miau.site.backend``, which runs under Pyodide) share
these: a pack's summary, version order and how an editor's level is merged
into a pack.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from miau.packs import Pack
from miau.server.worlds import PackSummary

__all__ = ["merge_level", "pack_summary", "version_key"]


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
