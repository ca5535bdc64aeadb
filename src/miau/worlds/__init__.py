"""The worlds Miau ships: its packs, kept as package data (the ``*.json`` files beside this one).

They are found through :mod:`importlib.resources`, so an installed wheel
finds them exactly as a checkout does. The repository's ``packs/`` is a link
to this folder, so authors' commands such as ``miau check packs/*.json`` read
the same files. Like the loader, this module needs only the standard library.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["shipped_pack_path", "shipped_packs_dir"]


def shipped_packs_dir() -> Path:
    """The folder that holds the shipped packs.

    :raises RuntimeError: when Miau is imported from an archive rather than
        from files on disk (the packs are then not files with a path).
    """
    folder = resources.files(__name__)
    if not isinstance(folder, Path):
        raise RuntimeError(f"the shipped packs are inside an archive ({folder}), not in a folder")
    return folder


def shipped_pack_path(pack_id: str) -> Path:
    """The file of the shipped pack ``pack_id`` (which may not exist: the caller checks)."""
    return shipped_packs_dir() / f"{pack_id}.json"
