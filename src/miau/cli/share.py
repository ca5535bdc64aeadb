"""``miau share`` and ``miau open``: a level as a link, and a link back as a level.

``miau share FILE --level ID`` prints the link that carries one level of a
pack (or a single level file) as data; ``miau open LINK`` prints the
one-level pack a link carries, or plays it in the terminal game.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

from miau.packs import (
    MAX_CODE_LENGTH,
    Pack,
    ShareLinkError,
    decode_share_code,
    load_pack,
    load_pack_or_level,
    share_code_for,
)
from miau.packs.share import DEFAULT_SHARE_BASE, share_link

_NOT_ID: Final = re.compile(r"[^a-z0-9-]+")


def add_parser(subparsers: Any) -> None:
    """Register ``miau share`` and ``miau open``."""
    share = subparsers.add_parser(
        "share",
        help="print a link that carries one level",
        description=(
            "Print a link that carries one level as data (compressed into the URL), "
            "so anyone running Miau can open it. FILE is a pack or a single level file."
        ),
    )
    share.add_argument("file", type=Path, metavar="FILE", help="a pack, or a single level file")
    share.add_argument("--level", help="the level id (needed when the pack has several levels)")
    share.add_argument(
        "--base",
        default=DEFAULT_SHARE_BASE,
        metavar="URL",
        help=f"where the game is served (default: {DEFAULT_SHARE_BASE})",
    )
    share.set_defaults(run=run_share)

    opener = subparsers.add_parser(
        "open",
        help="print or play the level a share link carries",
        description=(
            "Open a share link (the whole link, its #/shared/... part or the bare code): "
            "print the one-level pack it carries as JSON, or play it in the terminal."
        ),
    )
    opener.add_argument("link", metavar="LINK", help="a share link or code")
    mode = opener.add_mutually_exclusive_group()
    mode.add_argument(
        "--print",
        dest="mode",
        action="store_const",
        const="print",
        help="write the level's one-level pack as JSON (the default when output is not a terminal)",
    )
    mode.add_argument(
        "--play",
        dest="mode",
        action="store_const",
        const="play",
        help="play the level in the terminal (the default in a terminal)",
    )
    opener.set_defaults(run=run_open)


def run_share(args: argparse.Namespace) -> int:
    """Print the link of the chosen level; 2 for a bad file or level choice, 1 if unshareable."""
    try:
        pack = _read_pack(args.file)
    except (OSError, ValueError) as error:
        print(f"miau share: {error}", file=sys.stderr)
        return 2
    level_id = args.level
    if level_id is None:
        if len(pack.levels) > 1:
            ids = "\n".join(f"  {level.id}" for level in pack.levels)
            print(
                f"miau share: {args.file} has {len(pack.levels)} levels; "
                f"choose one with --level:\n{ids}",
                file=sys.stderr,
            )
            return 2
        level_id = pack.levels[0].id
    try:
        code = share_code_for(pack, level_id)
    except KeyError as error:
        print(f"miau share: {error}", file=sys.stderr)
        return 2
    if len(code) > MAX_CODE_LENGTH:
        print(
            f"miau share: This level is too big to share as a link: its code would have "
            f"{len(code):,} characters, and a link holds at most {MAX_CODE_LENGTH:,}.",
            file=sys.stderr,
        )
        return 1
    try:
        # Refuse here whatever the game would refuse when the link is opened.
        decode_share_code(code)
    except ShareLinkError as error:
        _print_refusal("miau share", error)
        return 1
    print(share_link(code, args.base))
    return 0


def run_open(args: argparse.Namespace) -> int:
    """Print or play the level a link carries; 1 with the reason when the link is bad."""
    try:
        pack = decode_share_code(args.link)
    except ShareLinkError as error:
        _print_refusal("miau open", error)
        return 1
    mode = args.mode or ("print" if not sys.stdout.isatty() else "play")
    if mode == "print":
        print(json.dumps(pack.to_json(), indent=2, ensure_ascii=False))
        return 0
    return _play(pack)


def _print_refusal(command: str, error: ShareLinkError) -> None:
    print(f"{command}: {error}", file=sys.stderr)
    for issue in error.issues:
        print(f"  {issue}", file=sys.stderr)


def _play(pack: Pack) -> int:
    """Play the pack in the terminal game, which reads packs from files."""
    from miau.cli.tui import run as run_terminal_game

    with tempfile.TemporaryDirectory(prefix="miau-shared-") as folder:
        path = Path(folder) / "shared.json"
        path.write_text(json.dumps(pack.to_json(), ensure_ascii=False), encoding="utf-8")
        return run_terminal_game(argparse.Namespace(pack=path, level=None))


def _read_pack(path: Path) -> Pack:
    """The pack in ``path``; a single level file becomes a pack of that one level.

    :raises PackError: when the file, or the pack made around a level file, does not load.
    :raises ValueError: when the file does not hold a JSON object.
    :raises OSError: when it cannot be read.
    """
    loaded = load_pack_or_level(path)
    if isinstance(loaded, Pack):
        return loaded
    return load_pack(_pack_around_level(loaded, path))


def _pack_around_level(level: dict[str, Any], path: Path) -> dict[str, Any]:
    """A one-level pack for an engine-level dict, named after its file."""
    name = path.stem or "level"
    slug = _NOT_ID.sub("-", name.lower()).strip("-")
    level_id = slug if slug[:1].isalpha() else f"level-{slug}".rstrip("-")
    level_id = level_id[:64].rstrip("-")
    pack_id = level_id if len(level_id) >= 2 else f"{level_id}-level"
    features = [feature for feature in ("automata", "pairs") if level.get(feature)]
    manifest: dict[str, Any] = {"id": pack_id, "name": name[:80], "version": "1.0.0", "engine": 1}
    if features:
        manifest["features"] = features
    return {
        "manifest": manifest,
        "levels": [{"id": level_id, "title": name[:80], **level}],
    }
