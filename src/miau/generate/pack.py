"""The generator's output: a pack of the chosen elites, each with its proven-shortest solution.

Levels come in play order, shallowest first; ids are the seed's id and a
number (``borrow-a-word-03``), titles the seed's title, the number and the
mechanics. The pack carries the seed pack's palette, glossary and features,
and, as vocabulary, every noun a word tile names that no thing has, so it
loads alone without noun-trap warnings. Nothing in it depends on time or on
the machine, so equal runs write equal files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from miau.engine.vocabulary import CORE_PROPERTIES, OPERATORS
from miau.generate.archive import Elite
from miau.generate.seeds import Source

MAX_LEVELS: Final = 64
"""The most levels a pack holds (the pack format's limit)."""
MAX_ID: Final = 64
MAX_TITLE: Final = 80


def build_pack(
    elites: Sequence[Elite],
    source: Source,
    *,
    pack_id: str,
    name: str,
    description: str,
) -> dict[str, Any]:
    """The pack document for ``elites`` (at most ``MAX_LEVELS`` of them, deepest kept).

    ``elites`` should come deepest first (as ``Archive.matching`` gives
    them); the pack lists the kept ones shallowest first.
    """
    kept = list(elites[:MAX_LEVELS])
    ordered = sorted(kept, key=lambda e: (e.score.depth, e.fitness, -e.index))
    prefix = source.seeds[0].id if len(source.seeds) == 1 else "generated"
    base_title = source.seeds[0].title if len(source.seeds) == 1 else name
    levels = [
        level_entry(elite, number, prefix, base_title)
        for number, elite in enumerate(ordered, start=1)
    ]
    manifest: dict[str, Any] = {
        "id": pack_id,
        "name": name[:MAX_TITLE],
        "version": "1.0.0",
        "engine": 1,
    }
    if source.features:
        manifest["features"] = list(source.features)
    manifest["author"] = "miau generate"
    manifest["description"] = description
    document: dict[str, Any] = {"manifest": manifest}
    if source.palette:
        document["palette"] = source.palette
    vocabulary = _vocabulary(levels, source)
    if vocabulary:
        document["vocabulary"] = vocabulary
    if source.glossary:
        document["properties"] = source.glossary
    document["levels"] = levels
    return document


def pack_text(document: dict[str, Any]) -> str:
    """The pack as the file's text: indented JSON, keys in the order built, a final newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def level_entry(elite: Elite, number: int, prefix: str, base_title: str) -> dict[str, Any]:
    """One level of the pack: id ``PREFIX-NN``, a title naming its mechanics, its solution."""
    level = elite.analysis.level
    suffix = f"-{number:02d}"
    mechanics = " + ".join(sorted(elite.analysis.mechanics)) or "a walk"
    title = f"{base_title} {number}: {mechanics}"
    entry: dict[str, Any] = {
        "id": prefix[: MAX_ID - len(suffix)].rstrip("-") + suffix,
        "title": title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1] + "…",
        "width": level["width"],
        "height": level["height"],
        "objects": level["objects"],
    }
    if level.get("automata"):
        entry["automata"] = level["automata"]
    if level.get("pairs"):
        entry["pairs"] = level["pairs"]
    entry["solution"] = elite.analysis.solution
    return entry


def _vocabulary(levels: Sequence[dict[str, Any]], source: Source) -> list[str]:
    """The seed pack's vocabulary and every noun a word tile names that no thing or glyph has."""
    things = {e["noun"] for level in levels for e in level["objects"] if e["kind"] == "object"}
    declared = set(source.glossary)
    for level in levels:
        declared |= {a["property"] for a in level.get("automata", ())}
        declared |= {w for p in level.get("pairs", ()) for w in p["words"]}
    known = things | set(source.palette) | set(source.vocabulary) | declared
    named = {
        e["text"]
        for level in levels
        for e in level["objects"]
        if e["kind"] == "word" and e["text"] not in OPERATORS and e["text"] not in CORE_PROPERTIES
    }
    return [*source.vocabulary, *sorted(named - known)]
