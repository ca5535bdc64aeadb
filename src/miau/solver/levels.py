"""Levels to solve or check, read from a pack or from a single engine-level file.

A pack goes through the pack loader (``miau.packs``), which reports every
problem at once; its warnings are handed to the level they point at. A file
without ``levels`` is taken as one engine-level dict (the shape ``Game``
accepts), named after the file: handy for fixtures and experiments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from miau.packs import load_pack
from miau.solver.search import DEFAULT_MAX_EXPANSIONS

_LEVEL_PLACE: Final = re.compile(r"levels\[(\d+)\]")


@dataclass(frozen=True)
class LevelSpec:
    """A level to solve or check: the engine dict and the author's extras."""

    id: str
    title: str
    data: Mapping[str, Any]
    solution: str | None = None
    solver_max: int | None = None
    warnings: tuple[str, ...] = ()
    """Loader warnings about this level, written for people."""

    def budget(self, max_expansions: int | None = None) -> int:
        """The expansion budget: the caller's, else the level's ``solverMax``, else the default."""
        if max_expansions is not None:
            return max_expansions
        return self.solver_max if self.solver_max is not None else DEFAULT_MAX_EXPANSIONS


@dataclass(frozen=True)
class LevelFile:
    """The levels of one file, and the loader warnings that concern the file as a whole."""

    path: str
    pack_id: str | None
    levels: tuple[LevelSpec, ...]
    warnings: tuple[str, ...] = ()


def read_levels(path: str | Path) -> LevelFile:
    """Read the levels of a pack file, or the single level of an engine-level file.

    :raises PackError: when the pack has errors (listing every issue).
    :raises OSError: when the file cannot be read.
    :raises ValueError: when the file is not JSON or not an object.
    """
    path = Path(path)
    document = json.loads(path.read_text(encoding="utf-8-sig"))
    if not isinstance(document, dict):
        raise ValueError(f"{path}: a pack or level file must hold a JSON object")
    if "levels" not in document:
        return LevelFile(str(path), None, (LevelSpec(path.stem, path.stem, document),))
    pack = load_pack(path)
    per_level: dict[int, list[str]] = {}
    general: list[str] = []
    for issue in pack.warnings:
        match = _LEVEL_PLACE.match(issue.place)
        if match is None:
            general.append(str(issue))
        else:
            per_level.setdefault(int(match.group(1)), []).append(str(issue))
    levels = tuple(
        LevelSpec(
            level.id,
            level.title,
            level.data,
            level.solution,
            level.solver_max,
            tuple(per_level.get(index, ())),
        )
        for index, level in enumerate(pack.levels)
    )
    return LevelFile(str(path), pack.manifest.id, levels, tuple(general))
