"""``miau replay``: play a move string on a level and show every turn."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from miau.cli.render import describe_event, describe_rules, render_board
from miau.engine import Game, parse_moves
from miau.engine.vocabulary import CARDINALS, MOVE_LETTER_STRING, WAIT
from miau.packs import Pack, load_pack_or_level


def add_parser(subparsers: Any) -> None:
    """Register ``miau replay``."""
    parser = subparsers.add_parser(
        "replay",
        help="play a move string on a level and print each turn",
        description=(
            f"Play MOVES (letters {' '.join(MOVE_LETTER_STRING)}) on a level file or on one "
            "level of a pack, printing the board after each move, rule changes and "
            "destructions, and the result."
        ),
    )
    parser.add_argument("file", type=Path, help="a pack (.json with levels) or a single level")
    parser.add_argument("--level", help="the level id, when FILE is a pack")
    cardinals = " ".join(direction.letter for direction in CARDINALS)
    parser.add_argument(
        "--moves", default="", help=f"moves: {cardinals}, {WAIT.letter} to wait (any case)"
    )
    parser.add_argument("--json", action="store_true", help="print events and final state as JSON")
    parser.set_defaults(run=run)


def _load_level(args: argparse.Namespace) -> tuple[Mapping[str, Any], dict[str, str], str]:
    """The engine-level dict, glyphs and title for the requested level."""
    loaded = load_pack_or_level(args.file)
    if not isinstance(loaded, Pack):
        return loaded, {}, args.file.stem
    if args.level is None:
        ids = ", ".join(level.id for level in loaded.levels)
        raise LookupError(f"{args.file} is a pack; choose a level with --level ({ids})")
    level = loaded.level(args.level)
    glyphs = {noun: glyph.glyph for noun, glyph in loaded.palette.items()}
    return level.data, glyphs, level.title


def run(args: argparse.Namespace) -> int:
    """Replay the moves; exit 0 when the replay ran (whether or not it won)."""
    try:
        level, glyphs, title = _load_level(args)
        game = Game(level)
        intents = parse_moves(args.moves)
    except (OSError, ValueError, LookupError) as error:
        print(f"miau replay: {error}", file=sys.stderr)
        return 2
    if args.json:
        for intent in intents:
            print(json.dumps(game.step(intent).to_json(), sort_keys=True))
        print(json.dumps(game.state.to_json(), sort_keys=True))
        return 0
    print(f"{title}\n{render_board(game.state, glyphs)}\nrules:\n{describe_rules(game.state)}\n")
    for number, intent in enumerate(intents, start=1):
        event = game.step(intent)
        verdict = "" if event.accepted else "  (blocked: nothing moved)"
        print(f"move {number}: {intent}{verdict}")
        for line in describe_event(event):
            print(line)
        print(render_board(game.state, glyphs) + "\n")
    state = game.state
    print(f"rules:\n{describe_rules(state)}")
    outcome = "WON" if state.won else "not won"
    print(f"{outcome} after {state.move_count} moves")
    return 0
