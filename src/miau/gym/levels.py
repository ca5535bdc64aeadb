"""Level sets for the environments and the benchmark: packs by path or by shipped id.

A pack is named by a file path (``packs/tutorial.json``), by the id of a
pack Miau ships (``tutorial``), or given already loaded. A level is named
by its id within its pack; on the command line ``PACK:LEVEL`` names one
level and ``PACK`` all of a pack's levels.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from miau.engine import Level
from miau.packs import Pack, load_pack
from miau.worlds import shipped_pack_path

PackSource = str | os.PathLike[str] | Pack
"""A pack file's path, a shipped pack's id, or a loaded pack."""


@dataclass(frozen=True, slots=True)
class LevelEntry:
    """One playable level: where it comes from, the engine's level, and its stored solution."""

    pack_id: str
    level_id: str
    title: str
    level: Level
    solution: str | None

    @property
    def name(self) -> str:
        """``pack/level``: how tables and ``info`` name the level."""
        return f"{self.pack_id}/{self.level_id}"


def resolve_pack(source: PackSource) -> Pack:
    """Load the pack ``source`` names: an existing file first, else a shipped pack id.

    :raises LookupError: when it is neither a file nor a shipped pack.
    :raises ValueError: (``PackError``) when the pack has errors.
    """
    if isinstance(source, Pack):
        return source
    path = Path(source)
    if path.is_file():
        return load_pack(path)
    shipped = shipped_pack_path(str(source))
    if os.path.sep not in str(source) and shipped.is_file():
        return load_pack(shipped)
    raise LookupError(f"{source}: no such pack file, and no shipped pack has that id")


def pack_entries(pack: Pack, level_ids: Iterable[str] | None = None) -> list[LevelEntry]:
    """The levels of ``pack`` (all, or those named, in the order named).

    :raises LookupError: (``LevelNotFoundError``) for an id the pack lacks.
    """
    chosen = [level.id for level in pack.levels] if level_ids is None else list(level_ids)
    entries = []
    for level_id in chosen:
        record = pack.level(level_id)
        entries.append(
            LevelEntry(
                pack_id=pack.manifest.id,
                level_id=record.id,
                title=record.title,
                level=Level.from_dict(record.data),
                solution=record.solution,
            )
        )
    return entries


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
        [packs] if isinstance(packs, str | os.PathLike | Pack) else list(packs)
    )
    loaded = [resolve_pack(source) for source in sources]
    if levels is None:
        entries = [entry for pack in loaded for entry in pack_entries(pack)]
    else:
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
    colon is read whole.

    :raises LookupError: when the pack or the level cannot be found.
    :raises ValueError: when the pack has errors.
    """
    if Path(spec).is_file() or ":" not in spec:
        return level_entries(spec)
    pack, _, level_id = spec.rpartition(":")
    return pack_entries(resolve_pack(pack), [level_id])
