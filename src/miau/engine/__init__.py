"""The Miau rule engine: deterministic, standard library only.

``Game(level)`` runs one level; see ``miau.engine.game``. The turn order and
every open decision follow the engine contract; ``miau.engine.turn`` reads
top to bottom like its "One turn, in order".
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
