"""The build's one switch: ``MIAU_COMPILE=1`` compiles the hot modules with mypyc.

Without it this file adds nothing: the wheel is the pure-Python one and the
editable install is unchanged. With it, the same ``.py`` files are compiled
to C extension modules (``docs/compiled.md`` says why mypyc and how to
build). The ``.py`` sources stay in the wheel beside the extensions; Python
imports the extension first.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

SOURCE = Path(__file__).resolve().parent / "src"

COMPILED_PACKAGES = ("miau/engine", "miau/solver", "miau/packs", "miau/gym")
"""Every module of these packages is compiled, but the ones below and the ``__init__`` files."""

LEFT_INTERPRETED = frozenset(
    {
        # A command-line tool that writes the client's tables; never on a hot path.
        "miau/engine/client_tables.py",
        # Subclassed by the server and the studio: interpreted code cannot subclass a compiled class.
        "miau/solver/progress.py",
        # Parses JSON text with a dict subclass that takes attributes; runs once per file.
        "miau/packs/load.py",
        # Share codes: compression and hashing in C already; runs once per code.
        "miau/packs/share.py",
        # The pack's data classes and its KeyError subclass (mypyc cannot subclass most builtins).
        "miau/packs/model.py",
        # The Gymnasium environments subclass gymnasium.Env, which a compiled class cannot; each
        # step's work is in miau/gym/stepping.py, which is compiled.
        "miau/gym/env.py",
        # Subclasses the environment above; a reset runs the (compiled) solver.
        "miau/gym/families.py",
        # Levels as data: LevelEntry travels in pickled snapshots; runs once per level.
        "miau/gym/levels.py",
        # Pictures: the per-pixel work is numpy's; not the default observation.
        "miau/gym/render.py",
        # The baseline agents and the agent benchmark: they call the environment, not its step's work.
        "miau/gym/agents.py",
        "miau/gym/bench.py",
    }
)


def compiled_sources() -> list[str]:
    """The module files mypyc compiles, relative to this folder, in a stable order."""
    found = []
    for package in COMPILED_PACKAGES:
        for path in sorted((SOURCE / package).glob("*.py")):
            module = path.relative_to(SOURCE).as_posix()
            if path.name != "__init__.py" and module not in LEFT_INTERPRETED:
                found.append(f"src/{module}")
    return found


COMPILED_BUILD_DIR = "build/compiled"
"""Where a compiled build works, apart from ``build/``: a pure wheel built after it must not
pick up its extension modules."""


def compiling() -> bool:
    """Whether this build compiles (``MIAU_COMPILE=1``)."""
    return os.environ.get("MIAU_COMPILE", "") == "1"


def extensions() -> list[object]:
    """The compiled extension modules when compiling, otherwise none."""
    if not compiling():
        return []
    from mypyc.build import mypycify

    return list(
        mypycify(compiled_sources(), opt_level="3", target_dir=f"{COMPILED_BUILD_DIR}/c")
    )


setup(
    ext_modules=extensions(),
    options={"build": {"build_base": COMPILED_BUILD_DIR}} if compiling() else {},
)
