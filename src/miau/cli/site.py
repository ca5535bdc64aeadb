"""``miau build-site OUT``: write the game as a static site (see :mod:`miau.site.build`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from miau.site.build import PYODIDE_VERSION, SiteBuildError, build_site, cache_dir


def add_parser(subparsers: Any) -> None:
    """Register ``miau build-site``."""
    parser = subparsers.add_parser(
        "build-site",
        help="write the game as a static site for any web host",
        description=(
            "Write the web game, the shipped worlds, the engine and the Pyodide runtime "
            f"({PYODIDE_VERSION}) into OUT: a site any static file server can publish, "
            "with the engine running in the player's browser and progress kept there. "
            f"The runtime is fetched once with npm and kept in {cache_dir()}."
        ),
    )
    parser.add_argument("out", type=Path, metavar="OUT", help="the folder to write the site into")
    parser.set_defaults(run=run_build_site)


def run_build_site(args: argparse.Namespace) -> int:
    """Build the site; 0 when written, 1 with a sentence on stderr when it cannot be."""
    try:
        record = build_site(args.out)
    except (SiteBuildError, OSError) as error:
        print(f"miau build-site: {error}", file=sys.stderr)
        return 1
    megabytes = record["bytes"] / 1e6
    print(f"Wrote the static site to {args.out} ({megabytes:.1f} MB, Pyodide {PYODIDE_VERSION}).")
    print(f"Try it: python -m http.server -d {args.out} 8000, then open http://127.0.0.1:8000/")
    return 0
