"""Bad input to the engine API: a clear exception or a rejected event, never a half-changed state."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from miau.engine import Game, LevelError
from miau.engine.game import MAX_RESTORE_HISTORY
from tests.engine.builders import level, sentence, state_json, thing


def _good() -> dict[str, Any]:
    return level(4, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 1, 2))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("width"), "width must be an integer"),
        (lambda d: d.update(height=0), "height must be an integer"),
        (lambda d: d.update(width=True), "width must be an integer"),
        (lambda d: d.pop("objects"), "objects must be a list"),
        (
            lambda d: d["objects"][0].update(x=4),
            r"objects\[0\].x: is 4, outside the 4-wide grid \(0 to 3\)",
        ),
        (lambda d: d["objects"][3].update(y=-1), "outside"),
        (
            lambda d: d["objects"][1].pop("text"),
            r"objects\[1\].text: is missing; expected the word on the tile",
        ),
        (
            lambda d: d["objects"][3].update(noun="YOU"),
            r"objects\[3\].noun: YOU is a core property, not a noun",
        ),
        (
            lambda d: d["objects"][3].update(kind="ghost"),
            r"objects\[3\].kind: must be one of \"object\", \"word\"; found the string \"ghost\"",
        ),
        (
            lambda d: d["objects"][3].update(noun="miau cat"),
            r"objects\[3\].noun: must be the object's noun, such as \"ROCK\"",
        ),
        (
            lambda d: d["objects"][3].update(facing="north"),
            r"objects\[3\].facing: must be one of \"right\", \"down\"",
        ),
        (lambda d: d.update(automata=[{"id": "a", "property": "TICK", "pattern": []}]), "1 to 32"),
        (
            lambda d: d.update(automata=[{"id": "a", "property": "TICK", "pattern": ["X"]}]),
            r"pattern\[0\] is not a step",
        ),
        (
            lambda d: d.update(automata=[{"id": "a", "property": "YOU", "pattern": ["U"]}]),
            "core word",
        ),
        (
            lambda d: d.update(
                automata=[{"id": "a", "property": "TICK", "pattern": ["U"], "phase": 1}]
            ),
            "phase must be an index",
        ),
        (
            lambda d: d.update(
                automata=[{"id": str(i), "property": "TICK", "pattern": ["U"]} for i in range(33)]
            ),
            "at most 32 automata",
        ),
        (lambda d: d.update(pairs=[{"words": ["OPEN"], "effect": "destroy-both"}]), "two property"),
        (
            lambda d: d.update(pairs=[{"words": ["OPEN", "OPEN"], "effect": "destroy-both"}]),
            "already",
        ),
        (lambda d: d.update(pairs=[{"words": ["OPEN", "SHUT"], "effect": "explode"}]), "effect"),
        (lambda d: d.update(map=["...."]) or d.pop("objects"), "load it with miau.packs"),
    ],
)
def test_a_broken_level_dict_raises_a_clear_error(change: Any, message: str) -> None:
    data = _good()
    change(data)
    with pytest.raises(LevelError, match=message):
        Game(data)


def test_a_level_dict_is_never_modified() -> None:
    data = _good()
    kept = copy.deepcopy(data)
    game = Game(data)
    game.step("right")
    assert data == kept


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s["entities"][0].update(id=99),
        lambda s: s["entities"][0].update(text="ROCK"),
        lambda s: s["entities"][3].update(noun="YOU"),
        lambda s: s["entities"][3].update(x=40),
        lambda s: s["entities"].append(dict(s["entities"][0])),
        lambda s: s.update(moveCount=-1),
        lambda s: s.update(won="yes"),
        lambda s: s.update(entities="all of them"),
        lambda s: s.update(history=[{"entities": 1}]),
        lambda s: s.update(automata=[{"id": "ghost", "phase": 0}]),
    ],
)
def test_a_hostile_snapshot_is_rejected_and_changes_nothing(change: Any) -> None:
    game = Game(_good())
    game.step("right")
    snapshot = state_json(game)
    change(snapshot)
    before = state_json(game)
    event = game.restore(snapshot).to_json()
    assert event["kind"] == "restore"
    assert event["accepted"] is False
    assert state_json(game) == before


def test_a_rejected_restore_says_why() -> None:
    game = Game(_good())
    event = game.restore({"entities": "none", "moveCount": 0, "won": False}).to_json()
    assert event["accepted"] is False
    assert event["reason"] == "state.entities must be a list"


def test_a_restore_with_a_history_past_the_cap_is_refused_unread() -> None:
    game = Game(_good())
    game.step("right")
    snapshot = game.state.to_json(history=True)
    snapshot["history"] = snapshot["history"] * (MAX_RESTORE_HISTORY + 1)
    before = game.state.to_json(history=True)
    event = game.restore(snapshot).to_json()
    assert event["accepted"] is False
    assert f"at most {MAX_RESTORE_HISTORY}" in event["reason"]
    assert game.state.to_json(history=True) == before


def test_a_history_at_the_cap_restores() -> None:
    game = Game(_good())
    game.step("right")
    snapshot = game.state.to_json(history=True)
    snapshot["history"] = snapshot["history"] * MAX_RESTORE_HISTORY
    assert Game(_good()).restore(snapshot).accepted
