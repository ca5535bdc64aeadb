"""Levels to solve or check, read from a pack or from a single engine-level file.

A pack goes through the pack loader (``miau.packs``), which reports every
problem at once; its warnings are handed to the level they point at. A file
without ``levels`` is taken as one engine-level dict (the shape ``Game``
accepts), named after the file: handy for fixtures and experiments.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miau.engine.pickling import init_arguments
from miau.packs import Pack, PackIssue, load_pack_or_level
from miau.solver.search import DEFAULT_MAX_EXPANSIONS


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
    ideas: tuple[str, ...] | None = None
    """The idea signature the pack stores for the level (None when it stores none)."""
    repeats: tuple[str, ...] = ()
    """Levels whose idea this one repeats on purpose (the pack's ``repeats``)."""

    def budget(self, max_expansions: int | None = None) -> int:
        """The expansion budget: the caller's, else the level's ``solverMax``, else the default."""
        if max_expansions is not None:
            return max_expansions
        return self.solver_max if self.solver_max is not None else DEFAULT_MAX_EXPANSIONS

    def __reduce__(self) -> tuple[type[LevelSpec], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True)
class LevelFile:
    """The levels of one file, and the loader warnings that concern the file as a whole."""

    path: str
    pack_id: str | None
    levels: tuple[LevelSpec, ...]
    warnings: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[LevelFile], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def read_levels(path: str | Path) -> LevelFile:
    """Read the levels of a pack file, or the single level of an engine-level file.

    The file is read once, and told apart by ``miau.packs.load_pack_or_level``.

    :raises PackError: when the file is not JSON or is a pack with errors
        (listing every issue).
    :raises OSError: when the file cannot be read.
    :raises ValueError: when the JSON is not an object.
    """
    path = Path(path)
    loaded = load_pack_or_level(path)
    if not isinstance(loaded, Pack):
        return LevelFile(str(path), None, (LevelSpec(path.stem, path.stem, loaded),))
    per_level: dict[int, list[str]] = {}
    general: list[str] = []
    for issue in loaded.warnings:
        index = _level_index(issue)
        if index is None:
            general.append(str(issue))
        else:
            per_level.setdefault(index, []).append(str(issue))
    levels = tuple(
        LevelSpec(
            level.id,
            level.title,
            level.data,
            level.solution,
            level.solver_max,
            tuple(per_level.get(index, ())),
            level.ideas,
            level.repeats,
        )
        for index, level in enumerate(loaded.levels)
    )
    return LevelFile(str(path), loaded.manifest.id, levels, tuple(general))


def _level_index(issue: PackIssue) -> int | None:
    """The index of the level an issue is about, or None when it concerns the pack."""
    match issue.location:
        case ("levels", int(index), *_):
            return index
    return None
