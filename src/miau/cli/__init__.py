"""The ``miau`` command: one subcommand per module of this package.

Each command module offers ``add_parser(subparsers)`` (which registers the
subcommand and sets its handler with ``set_defaults(run=...)``); the handler
takes the parsed arguments and returns the exit status.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from types import ModuleType

from miau import DISTRIBUTION
from miau.cli import (
    bench,
    check,
    generate,
    importer,
    play,
    progress_file,
    replay,
    share,
    site,
    solve,
    tui,
)
from miau.compiled import build_name

_COMMAND_MODULES: tuple[ModuleType, ...] = (
    play,
    tui,
    replay,
    solve,
    check,
    generate,
    share,
    site,
    progress_file,
    importer,
    bench,
)
"""The subcommands, in the order ``miau --help`` lists them."""


def version_line() -> str:
    """``miau 0.1.0 (pure Python)``: the installed version and which engine build runs."""
    try:
        version = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        # Run from a source tree that was never installed.
        version = "unknown version"
    return f"miau {version} ({build_name()})"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``miau`` and all its subcommands."""
    parser = argparse.ArgumentParser(
        prog="miau", description="Miau: push the words, change the rules."
    )
    parser.add_argument("--version", action="version", version=version_line())
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _COMMAND_MODULES:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``miau`` with ``argv`` (default: the process arguments); return the exit status."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:
        # The reader went away (``miau solve ... | head``): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
