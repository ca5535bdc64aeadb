"""``miau progress export`` and ``miau progress import FILE``: a player's progress as a file.

The file is the one the static site's Progress buttons write and read
(``miau.play.progress``): unfinished games with their intent logs, the best
score and moves of every level won, and the library's packs. So progress
moves from the static site into ``miau play``'s database and back, with the
same intents and scores.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from miau.cli.play import default_db_path
from miau.packs import Pack, PackError, load_pack_text
from miau.play.log import LogEntry
from miau.play.progress import ProgressFileError, export_progress, read_progress_file
from miau.server.store import open_store
from miau.server.store.records import StoreError
from miau.server.store.sql import SqlStore


def add_parser(subparsers: Any) -> None:
    """Register ``miau progress export`` and ``miau progress import``."""
    progress = subparsers.add_parser(
        "progress",
        help="export or import a player's progress as a file",
        description=(
            "Move progress between miau play's database and the static site: "
            "unfinished games (with undo), best scores and library packs."
        ),
    )
    actions = progress.add_subparsers(dest="action", required=True, metavar="ACTION")
    exporter = actions.add_parser("export", help="write the player's progress as JSON")
    exporter.add_argument("-o", "--output", type=Path, help="the file to write (default: stdout)")
    importer = actions.add_parser("import", help="merge a progress file into the database")
    importer.add_argument("file", type=Path, metavar="FILE", help="a progress file")
    for each in (exporter, importer):
        each.add_argument("--db", help="the SQLite database (default: miau play's)")
        each.add_argument(
            "--player", help="the player's token (needed when the database has several players)"
        )
    exporter.set_defaults(run=run_export)
    importer.set_defaults(run=run_import)


class _Refused(Exception):
    """A sentence for stderr; nothing was changed."""


def _open(args: argparse.Namespace, *, create: bool = False) -> tuple[SqlStore, str]:
    """The store and the player to read or write.

    With ``create``, a ``--player`` token the database has not seen yet (a
    browser that opened the game but never played) is recorded.
    """
    path = Path(args.db) if args.db else default_db_path()
    if not path.exists():
        raise _Refused(f"there is no database at {path}: play with `miau play` first.")
    store = open_store(path)
    if not isinstance(store, SqlStore):
        raise _Refused("progress files work with a SQLite database.")
    players = store.players()
    if args.player is not None:
        if create and args.player not in players:
            store.ensure_player(args.player)
        elif args.player not in players:
            raise _Refused(f"the database has no player {args.player!r}.")
        return store, str(args.player)
    if not players:
        raise _Refused("the database has no player yet: open the game once with `miau play`.")
    if len(players) > 1:
        shown = ", ".join(players[:10])
        raise _Refused(
            f"the database has {len(players)} players; name one with --player ({shown})."
        )
    return store, players[0]


def run_export(args: argparse.Namespace) -> int:
    """Write the player's progress file; 0, or 1 with a sentence on stderr."""
    try:
        store, player = _open(args)
    except (_Refused, StoreError) as error:
        print(f"miau progress export: {error}", file=sys.stderr)
        return 1
    games: dict[tuple[str, str], list[str]] = {}
    for pack, level in store.unfinished_levels(player):
        game = store.current_game(player, pack, level)
        if game is not None and game.intents:
            games[(pack, level)] = [intent.text for intent in game.intents]
    progress = {
        (entry.pack, entry.level): {
            "bestMoves": entry.best_moves,
            "bestSolution": entry.best_solution,
        }
        for entry in store.progress(player)
        if entry.best_moves is not None
    }
    library: dict[str, str] = {}
    for summary in store.library_packs(player):
        stored = store.library_pack(player, summary.pack)
        if stored is not None:
            library[summary.pack] = stored.text
    text = (
        json.dumps(export_progress(games, progress, library), indent=1, ensure_ascii=False) + "\n"
    )
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Merge a progress file into the player's records; 0, or 1 with a sentence (nothing changed)."""
    try:
        document = json.loads(args.file.read_text(encoding="utf-8"))
        games, progress, library = read_progress_file(document)
        packs: dict[str, Pack] = {}
        for pack_id, text in library.items():
            try:
                packs[pack_id] = load_pack_text(text)
            except PackError as error:
                raise _Refused(f"the library pack {pack_id!r} does not load: {error}") from None
        store, player = _open(args, create=True)
    except (OSError, ValueError, ProgressFileError, _Refused, StoreError) as error:
        print(f"miau progress import: {error}", file=sys.stderr)
        return 1
    for (pack_id, level), entry in progress.items():
        # A win is kept through a game that is finished at once; the level's unfinished
        # game, if any, is put back after it.
        waiting = store.current_game(player, pack_id, level)
        game_id = store.start_game(player, pack_id, level, (), replace=True)
        store.record_win(game_id, player, pack_id, level, entry["bestMoves"], entry["bestSolution"])
        if waiting is not None and waiting.intents:
            store.start_game(player, pack_id, level, waiting.intents, replace=True)
    for (pack_id, level), log in games.items():
        store.start_game(
            player, pack_id, level, [LogEntry.from_text(entry) for entry in log], replace=True
        )
    for pack_id, loaded in packs.items():
        store.save_library_pack(
            player, pack_id, loaded.manifest.version, loaded.manifest.name, library[pack_id]
        )
    print(
        f"Imported {len(games)} unfinished games, {len(progress)} levels won "
        f"and {len(library)} library packs for player {player[:6]}…"
    )
    return 0
