"""Engine invariants checked after every action of long mixed sequences on larger levels.

``test_properties.py`` checks undo, reset, determinism and restore on small
levels and short move lists. This file adds what it does not: levels up to
16 x 16 with up to 60 entities, the shipped levels, and sequences of up to
120 actions mixing steps, waits, undos, resets and restores of earlier
settled states, with every invariant checked after every action:

- no action raises;
- every entity stays inside the grid;
- ids never change: no new id appears, and an id keeps its kind (and a
  word its text);
- the rules describe only surviving words: every source id of a rule or a
  sentence is a word on the board, and a rule's words are its source words;
- undo restores exactly the state before the turn it undoes, all the way
  down the history, and a rejected action changes nothing;
- replay is deterministic: the same actions give byte-identical events;
- a restore of any settled state (history included) plays on identically.

Example counts come from the hypothesis profile (``tests/engine/conftest.py``):
``HYPOTHESIS_PROFILE=long`` for a long run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Event, Game
from miau.packs import load_pack
from tests.engine.strategies import NOUNS, WORD_TEXTS, levels

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_LEVELS = [
    dict(level.data)
    for path in sorted((ROOT / "packs").glob("*.json"))
    for level in load_pack(path).levels
]


@st.composite
def larger_levels(draw: st.DrawFn) -> dict[str, Any]:
    """A level up to 16 x 16 with up to 60 entities, usually with a MIAU IS YOU sentence."""
    width, height = draw(st.integers(4, 16)), draw(st.integers(4, 16))
    cell = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    objects: list[dict[str, Any]] = []
    if draw(st.integers(0, 9)) > 0:
        x, y = draw(st.tuples(st.integers(0, width - 3), st.integers(0, height - 1)))
        objects += [
            {"kind": "word", "text": text, "x": x + index, "y": y}
            for index, text in enumerate(("MIAU", "IS", "YOU"))
        ]
    for _ in range(draw(st.integers(0, 30))):
        x, y = draw(cell)
        objects.append({"kind": "word", "text": draw(st.sampled_from(WORD_TEXTS)), "x": x, "y": y})
    for _ in range(draw(st.integers(1, 27))):
        x, y = draw(cell)
        facing = draw(st.sampled_from(["right", "down", "left", "up"]))
        noun = draw(st.sampled_from(NOUNS))
        objects.append({"kind": "object", "noun": noun, "x": x, "y": y, "facing": facing})
    data: dict[str, Any] = {"width": width, "height": height, "objects": objects}
    if draw(st.booleans()):
        pattern = draw(st.lists(st.sampled_from(list("UDLRW")), min_size=1, max_size=8))
        data["automata"] = [{"id": "clock", "property": "TICK", "pattern": pattern}]
    if draw(st.booleans()):
        data["pairs"] = [{"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": True}]
    return data


any_level = st.one_of(levels(), larger_levels(), st.sampled_from(SHIPPED_LEVELS))

ACTION = st.one_of(
    st.sampled_from(["up", "down", "left", "right", "wait"]),
    st.sampled_from(["up", "down", "left", "right", "wait", "undo", "undo", "reset"]),
    st.integers(0, 1000).map(lambda pick: f"restore:{pick}"),
)
action_lists = st.lists(ACTION, min_size=1, max_size=120)


def settled(game: Game) -> dict[str, Any]:
    return game.state.to_json(history=True)


@dataclass
class Checked:
    """A game driven action by action, with the model of its undo stack."""

    data: dict[str, Any]
    game: Game = field(init=False)
    identities: dict[int, tuple[str, str | None]] = field(init=False)
    undo_stack: list[dict[str, Any]] = field(default_factory=list)
    captured: list[tuple[dict[str, Any], list[dict[str, Any]]]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(json.loads(json.dumps(self.data)))
        self.identities = {
            entity["id"]: identity(entity) for entity in self.game.state.to_json()["entities"]
        }
        self.check()

    def act(self, action: str) -> Event:
        game = self.game
        before = settled(game)
        if action == "undo":
            event = game.undo()
        elif action == "reset":
            event = game.reset()
        elif action.startswith("restore:"):
            if not self.captured:
                event = game.reset()
                action = "reset"
            else:
                state, stack = self.captured[int(action.split(":")[1]) % len(self.captured)]
                event = game.restore(json.loads(json.dumps(state)))
                if event.accepted:
                    self.undo_stack = list(stack)
        else:
            event = game.step(action)
        self.events.append(json.dumps(event.to_json(), sort_keys=True))
        if not event.accepted:
            assert settled(game) == before, f"rejected {action} changed the state"
        elif action == "undo":
            assert settled(game) == self.undo_stack.pop(), "undo did not restore the state before"
        elif action == "reset":
            self.undo_stack = []
        elif not action.startswith("restore:"):
            self.undo_stack.append(before)
        assert game.history_length == len(self.undo_stack)
        self.check()
        if event.accepted and len(self.captured) < 20:
            self.captured.append((settled(game), list(self.undo_stack)))
        return event

    def check(self) -> None:
        """Grid bounds, stable ids, and rules made only of surviving words."""
        state = self.game.state.to_json()
        width, height = state["width"], state["height"]
        words: dict[int, str] = {}
        for entity in state["entities"]:
            assert 0 <= entity["x"] < width and 0 <= entity["y"] < height, entity
            kind, text = self.identities[entity["id"]]  # KeyError: an id appeared from nowhere
            assert entity["kind"] == kind, entity
            if kind == "word":
                assert entity["text"] == text, entity
                words[entity["id"]] = entity["text"]
        ids = [entity["id"] for entity in state["entities"]]
        assert len(ids) == len(set(ids)), "an id is on the board twice"
        for rule in state["rules"]:
            sources = rule["sourceIds"]
            assert all(source in words for source in sources), (rule, words)
            texts = [words[source] for source in sources]
            assert rule["subject"] == texts[0] and rule["predicate"] == texts[-1], (rule, texts)
        for sentence in state["sentences"]:
            assert all(word in words for word in sentence["ids"]), sentence


def identity(entity: dict[str, Any]) -> tuple[str, str | None]:
    return entity["kind"], entity.get("text")


def play(data: dict[str, Any], actions: list[str]) -> Checked:
    checked = Checked(data)
    for action in actions:
        checked.act(action)
    return checked


@settings(deadline=None)
@given(any_level, action_lists)
def test_every_invariant_holds_after_every_action_of_a_long_mixed_sequence(
    data: dict[str, Any], actions: list[str]
) -> None:
    play(data, actions)


@settings(deadline=None)
@given(any_level, action_lists)
def test_the_same_actions_on_the_same_level_give_byte_identical_events(
    data: dict[str, Any], actions: list[str]
) -> None:
    assert play(data, actions).events == play(data, actions).events


@settings(deadline=None)
@given(any_level, action_lists, action_lists, st.data())
def test_a_restore_of_any_settled_state_plays_on_identically(
    data: dict[str, Any], before: list[str], after: list[str], choose: st.DataObject
) -> None:
    original = play(data, before)
    if not original.captured:
        return
    state, stack = choose.draw(st.sampled_from(original.captured))
    original.game.restore(json.loads(json.dumps(state)))
    original.undo_stack = list(stack)
    copy = Checked(data)
    assert copy.game.restore(json.loads(json.dumps(state))).accepted
    copy.undo_stack = list(stack)
    assert settled(copy.game) == settled(original.game)
    for action in after:
        if action.startswith("restore:"):
            continue  # the two games captured different states
        assert copy.act(action).to_json() == original.act(action).to_json(), action
    assert settled(copy.game) == settled(original.game)
