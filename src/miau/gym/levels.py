"""Level sets for the environments and the benchmark: packs by path, by shipped id, or as data.

A pack is named by a file path (``packs/tutorial.json``), by the id of a
pack Miau ships (``tutorial``), by a share link (or its bare code), or
given already loaded (a ``Pack``) or as data: a pack dict (``{"manifest":
..., "levels": [...]}``), one level of the pack format (``{"id": ...,
"width": ..., "map": [...], "legend": {...}}``) or an engine-level dict
(``{"width": ..., "height": ..., "objects": [...]}``, what ``Game``
takes). A level is named by its id within its pack; on the command line
``PACK:LEVEL`` names one level and ``PACK`` all of a pack's levels.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from miau.engine import Level, LevelError
from miau.packs import Pack, load_pack
from miau.packs.share import SHARE_ROUTE, decode_share_code
from miau.worlds import shipped_pack_path

PackSource = str | os.PathLike[str] | Pack | Mapping[str, Any]
"""A pack file's path, a shipped pack's id, a share link or code, a loaded pack, or a dict.

The dict is a pack, one pack-format level or an engine-level dict (see the module docstring).
"""

DATA_PACK_ID: Final = "data"
"""The pack id of levels given as a level dict (``info["level"]`` is ``data/LEVEL_ID``)."""


@dataclass(frozen=True, slots=True)
class LevelEntry:
    """One playable level: where it comes from, the engine's level, and its stored solution."""

    pack_id: str
    level_id: str
    title: str
    level: Level
    solution: str | None
    shortest: int | None = None
    """The length of the proved shortest solution, when it is known: a level a family draws,
    or a level of a pack Miau ships (its stored solution, proved shortest)."""

    @property
    def name(self) -> str:
        """``pack/level``: how tables and ``info`` name the level."""
        return f"{self.pack_id}/{self.level_id}"


def resolve_pack(source: str | os.PathLike[str] | Pack) -> Pack:
    """Load the pack ``source`` names: an existing file first, else a shipped pack id, else a share link.

    :raises LookupError: when it is neither a file, a shipped pack nor a share link or code.
    :raises ValueError: (``PackError``, ``ShareLinkError``) when the pack or the link has errors.
    """
    if isinstance(source, Pack):
        return source
    if not isinstance(source, str | os.PathLike):
        raise TypeError(
            f"a pack is a path, a shipped pack id, a share link or a Pack, not {type(source).__name__}"
        )
    path = Path(source)
    if _is_file(path):
        return load_pack(path)
    text = str(source)
    shipped = shipped_pack_path(text)
    if os.path.sep not in text and _is_file(shipped):
        return load_pack(shipped)
    if isinstance(source, str) and _looks_like_share_link(text):
        return decode_share_code(text)
    raise LookupError(
        f"{source}: no such pack file, no shipped pack has that id, and it is no share link"
    )


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for text no file system takes as a name (a long code)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _looks_like_share_link(text: str) -> bool:
    """A whole link (its route is in it) or a bare code (a version digit, then base64url)."""
    if SHARE_ROUTE in text:
        return True
    stripped = text.strip()
    return (
        len(stripped) > 16
        and stripped[0].isdigit()
        and all(c.isalnum() or c in "-_" for c in stripped)
    )


def entries_from(source: PackSource) -> list[LevelEntry]:
    """Every level ``source`` gives: a pack by name, path or link, a ``Pack``, or a dict.

    :raises LookupError: when a named pack cannot be found.
    :raises ValueError: when the pack, the link or the level dict has errors
        (``PackError``, ``ShareLinkError``, ``LevelError``), with the reason.
    :raises TypeError: for anything that is none of these.
    """
    if isinstance(source, Mapping):
        return (
            [entry_from_dict(source)] if "levels" not in source else pack_entries(load_pack(source))
        )
    return pack_entries(resolve_pack(source))


def entry_from_dict(data: Mapping[str, Any]) -> LevelEntry:
    """One level given as a dict: pack-format (with ``map`` or ``id``) or an engine-level dict.

    A pack-format level is loaded as the only level of a pack with no
    palette (so its nouns are those its map uses); a ``"features"`` list
    beside it (``["vocabulary-1"]``) goes into that pack's manifest.

    :raises ValueError: (``PackError`` or ``LevelError``) naming what is wrong.
    """
    if "levels" in data:
        raise ValueError("this dict is a pack (it has 'levels'); give it as a pack")
    if "map" in data or "id" in data:
        level = {key: value for key, value in data.items() if key != "features"}
        level.setdefault("id", "level")
        level.setdefault("title", str(level["id"]))
        manifest: dict[str, Any] = {
            "id": DATA_PACK_ID,
            "name": "Levels given as data",
            "version": "1.0.0",
            "engine": 1,
        }
        features = data.get("features")
        if features:
            manifest["features"] = features
        pack = load_pack({"manifest": manifest, "levels": [level]})
        return pack_entries(pack)[0]
    try:
        engine_level = Level.from_dict(data)
    except LevelError as error:
        raise LevelError(f"this level dict cannot be played: {error}") from None
    return LevelEntry(DATA_PACK_ID, "level", "level", engine_level, None)


def pack_entries(pack: Pack, level_ids: Iterable[str] | None = None) -> list[LevelEntry]:
    """The levels of ``pack`` (all, or those named, in the order named).

    :raises LookupError: (``LevelNotFoundError``) for an id the pack lacks.
    """
    chosen = [level.id for level in pack.levels] if level_ids is None else list(level_ids)
    proved = is_shipped(pack)
    entries = []
    for level_id in chosen:
        record = pack.level(level_id)
        solution = record.solution
        entries.append(
            LevelEntry(
                pack_id=pack.manifest.id,
                level_id=record.id,
                title=record.title,
                level=Level.from_dict(record.data),
                solution=solution,
                shortest=len(solution) if proved and solution else None,
            )
        )
    return entries


def is_shipped(pack: Pack) -> bool:
    """Whether ``pack`` is one of the packs Miau ships, unchanged (equal in content).

    Their stored solutions are proved shortest (``miau check`` over every
    shipped pack, and the content tests), so a shipped level's ``shortest``
    is its solution's length: known without running the solver. Any other
    pack's stored solution is only a solution, and an edited copy of a
    shipped pack is another pack.
    """
    shipped = _shipped_pack(pack.manifest.id)
    return shipped is not None and shipped == pack


@functools.cache
def _shipped_pack(pack_id: str) -> Pack | None:
    """The shipped pack ``pack_id``, loaded once per process; None when Miau ships no such pack."""
    try:
        path = shipped_pack_path(pack_id)
    except RuntimeError:  # the packs are inside an archive: nothing to compare with
        return None
    if os.path.sep in pack_id or not _is_file(path):
        return None
    return load_pack(path)


def level_entries(
    packs: PackSource | Sequence[PackSource], levels: Iterable[str] | None = None
) -> list[LevelEntry]:
    """Every level of one pack or of a list of packs, optionally only the ids in ``levels``.

    With ``levels``, each id is looked up in every pack and must be found in
    at least one.

    :raises LookupError: for a pack that cannot be found or an id no pack has.
    :raises ValueError: when there is no level at all, or a pack has errors.
    """
    sources: list[PackSource] = (
        [packs] if isinstance(packs, str | os.PathLike | Pack | Mapping) else list(packs)
    )
    if levels is None:
        entries = [entry for source in sources for entry in entries_from(source)]
    else:
        loaded = [
            load_pack(source) if isinstance(source, Mapping) else resolve_pack(source)
            for source in sources
        ]
        wanted = list(levels)
        entries = []
        for level_id in wanted:
            found = [pack for pack in loaded if any(lv.id == level_id for lv in pack.levels)]
            if not found:
                names = ", ".join(pack.manifest.id for pack in loaded)
                raise LookupError(f"no level {level_id!r} in {names}")
            entries += [pack_entries(pack, [level_id])[0] for pack in found]
    if not entries:
        raise ValueError("the level set is empty")
    return entries


def parse_level_spec(spec: str) -> list[LevelEntry]:
    """The levels a command-line argument names: ``PACK`` or ``PACK:LEVEL``.

    ``PACK`` is a pack file or a shipped pack id; a file whose name holds a
    colon is read whole. (``miau bench`` also takes task families:
    ``miau.gym.families.level_spec_entries``.)

    :raises LookupError: when the pack or the level cannot be found.
    :raises ValueError: when the pack has errors.
    """
    if _is_file(Path(spec)) or ":" not in spec:
        return level_entries(spec)
    pack, _, level_id = spec.rpartition(":")
    return pack_entries(resolve_pack(pack), [level_id])
