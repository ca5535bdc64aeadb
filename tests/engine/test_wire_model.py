"""A client can follow the game from its first state and the events alone.

``WireModel`` is what a browser client keeps: the first settled state (wire
form, no history), then every event applied as a delta. After every action
it must equal the engine's own settled state, facing included; that is the
promise the wire format makes (``docs/wire-format.md``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game, parse_moves
from miau.packs import load_pack
from tests.engine.strategies import INTENTS, levels
from tests.engine.vocabulary.strategies import tier1_levels

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [
    (path.stem, level.id, dict(level.data), level.solution)
    for path in sorted((ROOT / "packs").glob("*.json"))
    for level in load_pack(path).levels
    if level.solution
]


_NAME = {"object": "noun", "word": "text"}


def _placed(entry: dict[str, Any], facing: str) -> dict[str, Any]:
    """The entity an event entry with ``at`` and a noun or text puts on the board."""
    name = "text" if "text" in entry else "noun"
    x, y = entry["at"]
    return {
        "id": entry["id"],
        "kind": "word" if name == "text" else "object",
        name: entry[name],
        "x": x,
        "y": y,
        "facing": facing,
    }


class WireModel:
    """A client-side copy of the game, built only from wire records."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = copy.deepcopy(state)
        self.entities = {entity["id"]: entity for entity in self.state.pop("entities")}

    def apply(self, event: dict[str, Any]) -> None:
        """Apply one event's deltas, in the order a client would animate them."""
        entities = self.entities
        for entry in event.get("created", ()):
            # EMPTY IS X makes a thing (facing right) in a cell that was empty; its id was
            # off the board all turn, so it may move or go later in the same event.
            assert entry["id"] not in entities, entry
            entities[entry["id"]] = _placed(entry, "right")
        for entry in event["moved"]:
            entity = entities[entry["id"]]
            assert [entity["x"], entity["y"]] == entry["from"], entry
            entity["x"], entity["y"] = entry["to"]
            entity["facing"] = entry["facing"]
        for entry in event["transformed"]:
            entity = entities[entry["id"]]
            # vocabulary-1 says the kinds (IS TEXT turns a thing into its word).
            old_kind = entry.get("fromKind", "object")
            new_kind = entry.get("toKind", "object")
            assert entity["kind"] == old_kind, entry
            assert entity.pop(_NAME[old_kind]) == entry["from"], entry
            entity["kind"] = new_kind
            entity[_NAME[new_kind]] = entry["to"]
        gone = {}
        for entry in event["destroyed"]:
            gone[entry["id"]] = entities.pop(entry["id"])
        for entry in event.get("spawned", ()):
            # What HAS leaves takes over the destroyed entity's id and facing.
            entities[entry["id"]] = _placed(entry, gone[entry["id"]]["facing"])
        for entry in event["restored"]:
            entities[entry["id"]] = _placed(entry, entry["facing"])
        if event["rules"] is not None:
            self.state["rules"] = event["rules"]
        broken = {_sentence_key(s) for s in event["sentencesBroken"]}
        sentences = [s for s in self.state["sentences"] if _sentence_key(s) not in broken]
        sentences.extend(event["sentencesFormed"])
        sentences.sort(key=self._span_order)
        self.state["sentences"] = sentences
        records = {record["id"]: record for record in self.state["automata"]}
        for change in event["automata"]:
            records[change["id"]].update(phase=change["phase"], active=change["active"])
        for key in ("moveCount", "won", "controlLost", "historyLength"):
            self.state[key] = event[key]

    def _span_order(self, sentence: dict[str, Any]) -> tuple[Any, ...]:
        """The contract's span order: axis h first, then the first word's cell, then ids."""
        first = self.entities[sentence["ids"][0]]
        cell = (first["y"], first["x"]) if sentence["axis"] == "h" else (first["x"], first["y"])
        return (sentence["axis"] != "h", *cell, sentence["ids"])

    def as_state(self) -> dict[str, Any]:
        """The model in the engine's wire form."""
        state = dict(self.state)
        state["entities"] = [self.entities[ident] for ident in sorted(self.entities)]
        return state


def _sentence_key(sentence: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    return sentence["axis"], tuple(sentence["ids"])


def _follow(game: Game, model: WireModel, action: str, where: str) -> dict[str, Any]:
    event = (
        game.undo()
        if action == "undo"
        else game.reset()
        if action == "reset"
        else game.step(action)
    )
    wire = event.to_json()
    model.apply(wire)
    assert model.as_state() == game.state.to_json(), f"{where}: {action} (event {wire})"
    return wire


@pytest.mark.parametrize(
    ("pack", "level_id", "data", "solution"),
    SHIPPED,
    ids=[f"{pack}/{ident}" for pack, ident, _, _ in SHIPPED],
)
def test_a_client_model_follows_every_shipped_solution_and_its_undo(
    pack: str, level_id: str, data: dict[str, Any], solution: str
) -> None:
    game = Game(data)
    model = WireModel(game.state.to_json())
    intents = parse_moves(solution)
    for number, intent in enumerate(intents, start=1):
        _follow(game, model, intent, f"{pack}/{level_id} move {number}")
    assert game.won
    for number in range(len(intents), 0, -1):
        assert _follow(game, model, "undo", f"{pack}/{level_id} undo {number}")["accepted"]
    assert model.as_state() == Game(data).state.to_json()


@settings(max_examples=150, deadline=None)
@given(levels(), st.lists(st.sampled_from([*INTENTS, "undo", "undo", "reset"]), max_size=30))
def test_a_client_model_follows_any_play_with_undo_and_reset(
    data: dict[str, Any], actions: list[str]
) -> None:
    _follow_all(data, actions)


@settings(max_examples=150, deadline=None)
@given(tier1_levels(), st.lists(st.sampled_from([*INTENTS, "undo", "undo", "reset"]), max_size=30))
def test_a_client_model_follows_vocabulary_1_play_with_kind_changes(
    data: dict[str, Any], actions: list[str]
) -> None:
    """Generated vocabulary-1 levels hold IS TEXT, HAS TEXT, TEXT IS and TEXT HAS sentences."""
    _follow_all(data, actions)


def _follow_all(data: dict[str, Any], actions: list[str]) -> None:
    """Play ``actions`` on a fresh game and its wire model, checking them equal at every step."""
    game = Game(data)
    model = WireModel(game.state.to_json())
    for number, action in enumerate(actions, start=1):
        _follow(game, model, action, f"action {number}")
