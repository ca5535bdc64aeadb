"""Which build of the engine is running: the mypyc-compiled one or the pure-Python one.

Both builds come from the same ``.py`` files (``setup.py``, ``MIAU_COMPILE=1``,
``docs/compiled.md``); a compiled module is a C extension beside its source,
and Python imports the extension first. The answer is read from where the
engine's turn module was found, without importing it.
"""

from __future__ import annotations

import importlib.util
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

COMPILED_NAME: Final = "compiled (mypyc)"
PURE_NAME: Final = "pure Python"

_PROBE: Final = "miau.engine.turn"
"""A module every compiled build compiles; the others follow it (one build compiles them all)."""


def is_compiled() -> bool:
    """Whether the engine imported here is the compiled extension."""
    spec = importlib.util.find_spec(_PROBE)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))


def build_name() -> str:
    """``compiled (mypyc)`` or ``pure Python``, as ``miau --version`` prints it."""
    return COMPILED_NAME if is_compiled() else PURE_NAME
