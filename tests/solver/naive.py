"""A deliberately plain breadth-first search over ``Game``, to check the solver against.

It shares nothing with the solver but the engine's public API: states are
told apart by ``game.state.to_json()`` without ``history``, ``moveCount``
and the entities' ``facing`` (drawing only, never part of play), every
intent including ``wait`` is tried from every state, and branching uses
``Game.restore`` and ``Game.undo``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from miau.engine import Game
from miau.engine.vocabulary import MOVE_ALPHABET

INTENTS = tuple(direction.name for direction in MOVE_ALPHABET)


@dataclass(frozen=True)
class NaiveAnswer:
    """``length`` is the shortest win (None: none exists) unless ``exhausted_budget``."""

    length: int | None
    exhausted_budget: bool
    states: int


def naive_key(game: Game) -> str:
    state = game.state.to_json()
    # The history (a list, or the wire's count) and the move count say how a
    # state was reached, not what it is.
    for name in ("history", "historyLength", "moveCount"):
        state.pop(name, None)
    for entity in state["entities"]:
        del entity["facing"]
    return json.dumps(state, sort_keys=True)


def naive_shortest(data: Mapping[str, Any], *, budget: int, hands_off: bool = False) -> NaiveAnswer:
    game = Game(data)
    is_word = game.level.is_word
    seen = {naive_key(game)}
    frontier = [game.state.to_json()]
    depth = 0
    while frontier:
        depth += 1
        layer: list[dict[str, Any]] = []
        for snapshot in frontier:
            assert game.restore(snapshot).accepted
            for intent in INTENTS:
                event = game.step(intent)
                if not event.accepted:
                    continue
                word_moved = any(is_word[entry[0]] for entry in event.player_moved)
                if not (hands_off and word_moved):
                    if event.won:
                        return NaiveAnswer(depth, False, len(seen))
                    key = naive_key(game)
                    if key not in seen:
                        seen.add(key)
                        if len(seen) > budget:
                            return NaiveAnswer(None, True, len(seen))
                        after = game.state.to_json()
                        after["history"] = []
                        layer.append(after)
                assert game.undo().accepted
        frontier = layer
    return NaiveAnswer(None, False, len(seen))
