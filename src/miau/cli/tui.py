"""``miau tui``: play a pack in the terminal (the browser game is ``miau play``).

Keys: arrows or WASD move, space waits, Z undoes, R restarts, N goes to the
next level once this one is won, Q quits. Without a terminal (input from a
pipe) each input line is read as a move string, so a session can be scripted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from miau.cli.render import describe_event, describe_rules, render_board
from miau.engine import Event, Game
from miau.engine.vocabulary import DOWN, LEFT, MOVE_LETTERS, RIGHT, UP, WAIT
from miau.worlds import shipped_pack_path

_KEYS = {
    "w": UP.name,
    "a": LEFT.name,
    "s": DOWN.name,
    "d": RIGHT.name,
    " ": WAIT.name,
    "\x1b[A": UP.name,
    "\x1b[B": DOWN.name,
    "\x1b[C": RIGHT.name,
    "\x1b[D": LEFT.name,
    "z": "undo",
    "r": "restart",
    "n": "next",
    "q": "quit",
}


def add_parser(subparsers: Any) -> None:
    """Register ``miau tui``."""
    parser = subparsers.add_parser(
        "tui",
        help="play a pack in the terminal",
        description="Play a pack in the terminal: arrows/WASD move, space waits, "
        "Z undoes, R restarts, N next level, Q quits.",
    )
    parser.add_argument(
        "pack", type=Path, nargs="?", default=shipped_pack_path("tutorial"), help="a pack file"
    )
    parser.add_argument("--level", help="start at this level id (default: the first)")
    parser.set_defaults(run=run)


def _terminal_actions(stream: TextIO) -> Iterator[str]:
    """Actions from single key presses in a terminal (arrows arrive as escape sequences)."""
    import termios
    import tty

    descriptor = stream.fileno()
    saved = termios.tcgetattr(descriptor)
    try:
        tty.setcbreak(descriptor)
        while True:
            key = stream.read(1)
            if key == "\x1b":
                key += stream.read(2)
            action = _KEYS.get(key.lower() if len(key) == 1 else key)
            if action is not None:
                yield action
    finally:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)


_LETTERS = {**MOVE_LETTERS, "Z": "undo", "X": "restart", "N": "next", "Q": "quit"}


def _scripted_actions(stream: TextIO) -> Iterator[str]:
    """Actions from lines of letters: U D L R W moves, Z undo, X restart, N next, Q quit."""
    for line in stream:
        for letter in line.upper():
            if letter in _LETTERS:
                yield _LETTERS[letter]


def run(args: argparse.Namespace) -> int:
    """Play until the player quits or finishes the pack."""
    from miau.packs import PackError, load_pack

    try:
        pack = load_pack(args.pack)
        index = 0 if args.level is None else [lv.id for lv in pack.levels].index(args.level)
    except (OSError, PackError) as error:
        print(f"miau tui: {error}", file=sys.stderr)
        return 2
    except ValueError:
        print(f"miau tui: no level {args.level!r} in {args.pack}", file=sys.stderr)
        return 2
    glyphs = {noun: glyph.glyph for noun, glyph in pack.palette.items()}
    actions = _terminal_actions(sys.stdin) if sys.stdin.isatty() else _scripted_actions(sys.stdin)
    level = pack.levels[index]
    game = Game(level.data)
    _show(game, level.title, level.hint, glyphs, None)
    for action in actions:
        if action == "quit":
            break
        if action == "next" and game.won:
            if index + 1 == len(pack.levels):
                print(f"You finished {pack.manifest.name}!")
                break
            index += 1
            level = pack.levels[index]
            game = Game(level.data)
            _show(game, level.title, level.hint, glyphs, None)
            continue
        if action == "undo":
            event = game.undo()
        elif action == "restart":
            event = game.reset()
        elif action == "next":
            continue
        else:
            event = game.step(action)
        _show(game, level.title, level.hint, glyphs, event)
    return 0


def _show(
    game: Game, title: str, hint: str | None, glyphs: dict[str, str], event: Event | None
) -> None:
    state = game.state
    print(f"\n== {title} ==  moves: {state.move_count}")
    if hint and event is None:
        print(f"   {hint}")
    if event is not None:
        for line in describe_event(event):
            print(line)
    print(render_board(state, glyphs))
    print(f"rules:\n{describe_rules(state)}")
    if state.won:
        print("*** You win! N: next level, R: play again, Q: quit ***")
    print("arrows/WASD move, space wait, Z undo, R restart, Q quit")
