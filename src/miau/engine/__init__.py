"""The Miau rule engine: deterministic, standard library only.

``Game(level)`` runs one level; see ``miau.engine.game``. The turn order and
every open decision follow the engine contract; ``miau.engine.turn`` reads
top to bottom like its "One turn, in order".

Decisions the contract leaves open, each pinned by a test:

- The start of a level is not a turn: start-of-level transformations apply,
  but no contact pass or win check runs until the first accepted turn (a
  wait counts). A level that starts with YOU on WIN is won by that turn.
- When a pushed stack enters a cell, the immediate pusher reported for the
  entities it pushes there is the lowest-id entity of the stack (the mover
  itself for the first cell).
- Pair entry: an occupant is passed through only when every entity entering
  its cell may enter it; otherwise it pushes or blocks as usual.
- ``restore`` returns an event of kind ``restore``; an entity that the
  restored state lacks is listed as destroyed with cause ``restore``.
- Events also carry ``restored`` (entities that come back on undo, reset or
  restore), and ``Event.player_moved`` tells the player's own movement
  entries from the automata's that follow them.
- Rule parsing is bounded (``miau.engine.rules.MAX_SPANS``) so that a hostile
  stack of words cannot hang it.
"""

from miau.engine.events import Event
from miau.engine.game import Game, MoveStringError, Replay, parse_moves, replay
from miau.engine.level import Level, LevelError
from miau.engine.rules import Rule, RuleSet, Sentence
from miau.engine.state import SnapshotError, State

__all__ = [
    "Event",
    "Game",
    "Level",
    "LevelError",
    "MoveStringError",
    "Replay",
    "Rule",
    "RuleSet",
    "Sentence",
    "SnapshotError",
    "State",
    "parse_moves",
    "replay",
]
