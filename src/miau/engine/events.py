"""Settled turn events: what a step, undo, reset or restore changed.

Entries are kept as plain tuples while a turn runs (the turn is on the hot
path) and become the wire records of the engine contract in ``to_json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from miau.engine.level import Level
from miau.engine.rules import Rule

Moved = tuple[int, int, int, int | None]
"""``(id, from cell, to cell, pushedBy)``."""
Blocked = tuple[int, tuple[int, int], int | None, str]
"""``(mover id, (dx, dy), blockerId, reason)``."""
Transformed = tuple[int, str, str]
"""``(id, from noun, to noun)``."""
Destroyed = tuple[int, str, int, str]
"""``(id, noun or text, cell, cause)``."""
Restored = tuple[int, str, int]
"""``(id, noun or text, cell)``: an entity that comes back on undo, reset or restore."""


@dataclass(slots=True)
class TurnLog:
    """The ordered entries one action produces, filled in resolution order."""

    moved: list[Moved] = field(default_factory=list)
    blocked: list[Blocked] = field(default_factory=list)
    transformed: list[Transformed] = field(default_factory=list)
    destroyed: list[Destroyed] = field(default_factory=list)
    restored: list[Restored] = field(default_factory=list)
    player_moves: int = 0
    """How many leading ``moved`` entries the player's own movement phase made."""


@dataclass(frozen=True, slots=True)
class Event:
    """The settled record of one action (``kind`` is step, undo, reset or restore)."""

    level: Level
    kind: str
    accepted: bool
    log: TurnLog
    rules_added: tuple[Rule, ...]
    rules_removed: tuple[Rule, ...]
    control_lost: bool
    won: bool
    move_count: int

    @property
    def moved(self) -> list[Moved]:
        """Movement entries in resolution order."""
        return self.log.moved

    @property
    def player_moved(self) -> list[Moved]:
        """The movement entries of the player's own move (step 3), before any automaton's."""
        return self.log.moved[: self.log.player_moves]

    @property
    def destroyed(self) -> list[Destroyed]:
        """Destruction entries in contact order."""
        return self.log.destroyed

    def to_json(self) -> dict[str, Any]:
        """The event as the contract's JSON record."""
        level, log = self.level, self.log
        return {
            "kind": self.kind,
            "accepted": self.accepted,
            "moved": [
                {"id": i, "from": list(level.xy(a)), "to": list(level.xy(b)), "pushedBy": p}
                for i, a, b, p in log.moved
            ],
            "blocked": [
                {"id": i, "dir": list(d), "blockerId": b, "reason": r} for i, d, b, r in log.blocked
            ],
            "rulesAdded": [rule.to_json() for rule in self.rules_added],
            "rulesRemoved": [rule.to_json() for rule in self.rules_removed],
            "transformed": [{"id": i, "from": a, "to": b} for i, a, b in log.transformed],
            "destroyed": [
                {"id": i, _name_key(level, i): n, "at": list(level.xy(c)), "cause": cause}
                for i, n, c, cause in log.destroyed
            ],
            "restored": [
                {"id": i, _name_key(level, i): n, "at": list(level.xy(c))}
                for i, n, c in log.restored
            ],
            "controlLost": self.control_lost,
            "won": self.won,
            "moveCount": self.move_count,
        }


def _name_key(level: Level, ident: int) -> str:
    return "text" if level.is_word[ident] else "noun"
