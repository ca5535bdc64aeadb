"""Content checks for ``packs/clockwork.json`` and ``packs/clockwork-pairs.json``.

Every stored solution wins and is a shortest win; no level but the first can
be won without a word tile moving; level 1 is the proof level of
``clockwork-api.md`` entity for entity; and each level shows the engine
behaviour its idea rests on (double time, the transform that lands before
contacts, the handed-over and the resumed phase, the OPEN/SHUT pair).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Event, Game
from miau.packs import PackLevel, load_pack
from miau.solver import Outcome, solve

PACKS = Path(__file__).resolve().parents[2] / "packs"
CLOCKWORK = PACKS / "clockwork.json"
PAIRS = PACKS / "clockwork-pairs.json"

ALL_LEVELS = [level for path in (CLOCKWORK, PAIRS) for level in load_pack(path).levels]
LEVEL_IDS = [level.id for level in ALL_LEVELS]

SHOWN_BY_THE_MOUSE = {"mouse-keeps-time"}
"""Levels whose point is that an automaton, not the player, moves the word."""


def level(level_id: str) -> PackLevel:
    return next(found for found in ALL_LEVELS if found.id == level_id)


def played(level_id: str) -> tuple[Game, list[Event]]:
    """A fresh game of the level after its stored solution."""
    found = level(level_id)
    assert found.solution is not None
    game = Game(found.data)
    return game, game.play(found.solution)


def ids_of(found: PackLevel, noun: str, kind: str = "object") -> list[int]:
    key = "noun" if kind == "object" else "text"
    objects: Sequence[Mapping[str, object]] = found.data["objects"]
    return [index for index, entity in enumerate(objects) if entity.get(key) == noun]


def phase_of(game: Game, automaton_id: str) -> int:
    records: list[dict[str, Any]] = game.state.to_json()["automata"]
    return next(int(record["phase"]) for record in records if record["id"] == automaton_id)


def rule_keys(rules: Sequence[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(rule["subject"], rule["predicate"]) for rule in rules}


# Every level.


def test_the_packs_load_without_warnings_and_declare_their_features() -> None:
    clockwork, pairs = load_pack(CLOCKWORK), load_pack(PAIRS)
    assert clockwork.warnings == () and pairs.warnings == ()
    assert len(clockwork.levels) == 6 and len(pairs.levels) == 3
    assert set(clockwork.manifest.features) == {"automata"}
    assert set(pairs.manifest.features) == {"automata", "pairs"}
    assert all(found.data["automata"] for found in clockwork.levels)
    assert all(found.data["pairs"] for found in pairs.levels)
    assert set(clockwork.glossary) == {"TICK"}
    assert set(pairs.glossary) == {"OPEN", "SHUT", "TICK"}


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_stored_solution_wins_on_its_last_move(level_id: str) -> None:
    game, events = played(level_id)
    assert all(event.accepted for event in events)
    assert game.won
    assert not any(event.won for event in events[:-1])


@pytest.mark.slow
@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_stored_solution_is_a_shortest_win(level_id: str) -> None:
    found = level(level_id)
    assert found.solution is not None
    result = solve(found.data, max_expansions=found.solver_max or 300_000)
    assert result.outcome is Outcome.SOLVED
    assert result.moves is not None
    assert len(result.moves) == len(found.solution)


@pytest.mark.parametrize("level_id", [i for i in LEVEL_IDS if i not in SHOWN_BY_THE_MOUSE])
def test_no_level_can_be_won_without_a_word_moving(level_id: str) -> None:
    found = level(level_id)
    result = solve(found.data, max_expansions=found.solver_max or 300_000, hands_off=True)
    assert result.outcome is Outcome.UNSOLVABLE


# Clockwork.


def doc_mouse_keeps_time() -> dict[str, Any]:
    """Level 1 built exactly as clockwork-api.md builds it (its JS, line for line)."""

    def w(text: str, x: int, y: int) -> dict[str, Any]:
        return {"kind": "word", "text": text, "x": x, "y": y}

    def o(noun: str, x: int, y: int) -> dict[str, Any]:
        return {"kind": "object", "noun": noun, "x": x, "y": y}

    def row(noun: str, y: int) -> list[dict[str, Any]]:
        return [o(noun, x, y) for x in range(11)]

    return {
        "width": 11,
        "height": 7,
        "automata": [
            {
                "id": "mouse-shuttle",
                "subject": "MOUSE",
                "property": "TICK",
                "phase": 0,
                "pattern": ["L"] * 5 + ["R"] * 5,
            }
        ],
        "objects": [
            *(w("MIAU", 0, 0), w("IS", 1, 0), w("YOU", 2, 0)),
            *(w("WALL", 4, 0), w("IS", 5, 0), w("STOP", 6, 0)),
            *(w("MOUSE", 8, 0), w("IS", 9, 0), w("TICK", 10, 0)),
            *row("WALL", 2),
            *(o("WALL", 0, 3), w("BELL", 1, 3), w("IS", 2, 3), w("WIN", 5, 3)),
            *(o("MOUSE", 9, 3), o("WALL", 10, 3)),
            *row("WALL", 4),
            o("MIAU", 0, 5),
            o("BELL", 10, 6),
        ],
    }


def test_mouse_keeps_time_is_the_documented_proof_level() -> None:
    found, doc = level("mouse-keeps-time"), doc_mouse_keeps_time()
    assert (found.width, found.height) == (doc["width"], doc["height"])
    assert found.title == "The mouse keeps time"
    assert found.hint == "The mouse takes one step for every step you take."
    assert found.solution == "DRRRRRRRRRR"
    positions = [(e["kind"], e.get("noun") or e["text"], e["x"], e["y"]) for e in doc["objects"]]
    assert [
        (e["kind"], e.get("noun") or e.get("text"), e["x"], e["y"]) for e in found.data["objects"]
    ] == positions
    assert Game(found.data).state.to_json() == Game(doc).state.to_json()


def test_mouse_keeps_time_the_mouse_pushes_win_into_place_on_beat_five() -> None:
    found = level("mouse-keeps-time")
    (mouse,) = ids_of(found, "MOUSE")
    (win,) = ids_of(found, "WIN", kind="word")
    game = Game(found.data)
    events = [event.to_json() for event in game.play("DRRRRRRRRRR")]
    assert game.won and events[-1]["won"] is True
    accepted = [event for event in events if event["accepted"]]
    fifth = accepted[4]
    assert ("BELL", "WIN") in rule_keys(fifth["rulesAdded"])
    assert any(
        move["id"] == win and move["pushedBy"] == mouse and move["to"] == [3, 3]
        for move in fifth["moved"]
    )
    assert not any(("BELL", "WIN") in rule_keys(event["rulesAdded"]) for event in accepted[:4])


def test_double_time_a_ticking_cat_steps_over_the_fire_in_one_turn() -> None:
    found = level("double-time")
    (cat,) = ids_of(found, "MIAU")
    fire_x = {entity["x"] for entity in found.data["objects"] if entity.get("noun") == "FIRE"}
    assert len(fire_x) == 1
    (line,) = fire_x
    _, events = played("double-time")
    crossings = []
    for event in events:
        record = event.to_json()
        steps = [m for m in record["moved"] if m["id"] == cat]
        if steps and steps[0]["from"][0] < line < steps[-1]["to"][0]:
            crossings.append(record)
    assert len(crossings) == 1, "the cat should cross the fire line once"
    crossing = crossings[0]
    assert [m["to"][0] for m in crossing["moved"] if m["id"] == cat] == [line, line + 1]
    assert crossing["destroyed"] == [] and not crossing["controlLost"]


def test_ring_for_service_the_bell_takes_over_the_mouse_phase() -> None:
    found = level("ring-for-service")
    assert found.solution is not None
    assert "subject" not in found.data["automata"][0]
    game = Game(found.data)
    for letter in found.solution:
        before = game.state.to_json()
        event = game.play(letter)[0].to_json()
        if ("BELL", "TICK") in rule_keys(event["rulesAdded"]):
            assert ("MOUSE", "TICK") in rule_keys(event["rulesRemoved"])
            (record,) = before["automata"]
            assert phase_of(game, record["id"]) == (record["phase"] + 1) % 8
            break
    else:
        pytest.fail("TICK was never handed to the bell")


def test_escapement_the_cogs_become_bells_before_contacts_bite() -> None:
    found = level("escapement")
    (cat,) = ids_of(found, "MIAU")
    _, events = played("escapement")
    last = events[-1].to_json()
    cat_move = [m for m in last["moved"] if m["id"] == cat]
    assert len(cat_move) == 1
    stepped_on = cat_move[0]["to"]
    cogs_there = [
        i
        for i in ids_of(found, "COG")
        if [found.data["objects"][i]["x"], found.data["objects"][i]["y"]] == stepped_on
    ]
    assert cogs_there, "the cat did not step onto a cog"
    assert {t["id"] for t in last["transformed"]} >= set(cogs_there)
    assert all(t["from"] == "COG" and t["to"] == "BELL" for t in last["transformed"])
    assert last["destroyed"] == [] and last["won"]


def test_stop_the_clock_a_stopped_clock_resumes_where_it_stopped() -> None:
    found = level("stop-the-clock")
    assert found.solution is not None
    game = Game(found.data)
    phases: list[tuple[bool, int]] = []
    for letter in found.solution:
        game.play(letter)
        state = game.state.to_json()
        (record,) = state["automata"]
        phases.append((bool(record["active"]), int(record["phase"])))
    paused = [phase for active, phase in phases if not active]
    assert paused, "the clock was never stopped"
    assert len(set(paused)) == 1
    resumed = next(
        i for i, (active, _) in enumerate(phases) if i and active and not phases[i - 1][0]
    )
    assert phases[resumed][1] == paused[0] + 1
    assert game.won


def test_mouse_hole_the_mouse_carries_miau_into_the_winning_sentence() -> None:
    found = level("mouse-hole")
    (mouse,) = ids_of(found, "MOUSE")
    spare = max(ids_of(found, "MIAU", kind="word"))
    _, events = played("mouse-hole")
    last = events[-1].to_json()
    assert ("MIAU", "WIN") in rule_keys(last["rulesAdded"])
    assert any(m["id"] == spare and m["pushedBy"] == mouse for m in last["moved"])


# Clockwork pairs.


@pytest.mark.parametrize("level_id", ["key-and-door", "any-wall-will-do", "let-the-mouse-in"])
def test_a_pair_level_is_won_after_an_open_thing_and_a_shut_thing_destroy_each_other(
    level_id: str,
) -> None:
    game, events = played(level_id)
    opened = [d for event in events for d in event.to_json()["destroyed"] if d["cause"] == "open"]
    assert len(opened) == 2
    assert game.won


def test_key_and_door_loads_and_plays_to_a_win() -> None:
    pack = load_pack(PAIRS)
    found = pack.level("key-and-door")
    assert pack.warnings == ()
    assert found.data["pairs"] == [
        {"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": True}
    ]
    assert found.solution is not None
    game = Game(found.data)
    game.play(found.solution)
    assert game.won


def test_key_and_door_without_its_pairs_falls_into_the_noun_trap() -> None:
    data: dict[str, Any] = json.loads(PAIRS.read_text(encoding="utf-8"))
    trapped = copy.deepcopy(next(lv for lv in data["levels"] if lv["id"] == "key-and-door"))
    del trapped["pairs"]
    data["levels"] = [trapped]
    data["manifest"]["features"] = [f for f in data["manifest"]["features"] if f != "pairs"]
    pack = load_pack(data)
    messages = [str(warning) for warning in pack.warnings]
    for word in ("OPEN", "SHUT"):
        assert any(word in message for message in messages), messages
    # What the warning is about: DOOR IS SHUT now turns the door into a SHUT thing.
    start = Game(pack.levels[0].data).state.to_json()["entities"]
    assert not any(entity.get("noun") == "DOOR" for entity in start)
    assert any(entity.get("noun") == "SHUT" for entity in start)
