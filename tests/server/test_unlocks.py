"""Unlock rules: a required level opens with either of the two before it, optional ones with
their required level, challenge ones after the required level before them, and worlds one
after another."""

from __future__ import annotations

from typing import Any

from miau.packs import LevelData, PackLevel
from miau.packs.format import Tier
from miau.play.worlds import LevelLock, level_locks, naming_levels
from tests.server.conftest import Player, TestClient, pack_json

EMPTY: LevelData = {"width": 1, "height": 1, "objects": [], "automata": [], "pairs": []}


def level(level_id: str, tier: Tier = "required") -> PackLevel:
    return PackLevel(id=level_id, title=level_id.title(), tier=tier, width=1, height=1, data=EMPTY)


WORLD = [
    level("opening", "optional"),
    level("a"),
    level("b"),
    level("b-side", "optional"),
    level("hard", "challenge"),
    level("c"),
    level("c-side", "optional"),
]


def locks(*won: str) -> dict[str, LevelLock]:
    return {each.id: lock for each, lock in zip(WORLD, level_locks(WORLD, set(won)), strict=True)}


def test_with_nothing_won_the_first_two_required_levels_and_their_optional_ones_are_open() -> None:
    state = locks()
    assert {name for name, lock in state.items() if not lock.locked} == {
        "opening",
        "a",
        "b",
        "b-side",
    }
    assert state["c"].unlocked_by == "Win \u201cB\u201d or \u201cA\u201d first"
    assert state["c-side"] == state["c"]
    assert state["hard"].unlocked_by == "Win \u201cB\u201d first"


def test_a_world_lock_names_at_most_three_levels_and_counts_the_rest() -> None:
    world = [level(name) for name in "abcde"]
    assert naming_levels(world[:1]) == "\u201cA\u201d"
    assert naming_levels(world[:2]) == "\u201cA\u201d and \u201cB\u201d"
    assert naming_levels(world[:3]) == "\u201cA\u201d, \u201cB\u201d and \u201cC\u201d"
    assert naming_levels(world) == "\u201cA\u201d, \u201cB\u201d, \u201cC\u201d and 2 more"


def test_a_required_level_opens_when_either_of_the_two_required_levels_before_it_is_won() -> None:
    assert not locks("a")["c"].locked
    assert not locks("b")["c"].locked
    assert not locks("a")["c-side"].locked


def test_an_optional_level_opens_once_the_required_level_before_it_is_won() -> None:
    assert not locks("c")[
        "c-side"
    ].locked  # won out of order, as an author who opens everything may


def test_optional_and_challenge_levels_never_block_a_required_one() -> None:
    state = locks("a", "b")
    assert not state["c"].locked
    assert not state["c-side"].locked


def test_a_challenge_level_opens_when_the_required_level_before_it_is_won() -> None:
    assert locks("a", "c")["hard"].locked
    assert not locks("b")["hard"].locked
    assert locks("b", "c")["b"].locked is False  # what is won stays open


def test_shipped_tutorial_locks_as_the_rules_say(client: TestClient) -> None:
    levels = {each["id"]: each for each in client.get("/api/worlds/tutorial").json()["levels"]}
    assert not levels["first-steps"]["locked"]
    assert not levels["walls"]["locked"]
    assert levels["break-the-wall"]["locked"]
    assert (
        levels["break-the-wall"]["unlockedBy"]
        == "Win \u201cWalls and Rocks\u201d or \u201cFirst Steps\u201d first"
    )
    assert levels["sunken-word"]["locked"]
    assert levels["crossword"]["locked"]


def win(player: Player, pack: str, level_data: dict[str, Any]) -> None:
    player.open(pack, level_data["id"])
    assert player.moves(level_data["solution"])[-1]["state"]["won"] is True


def test_winning_every_required_level_of_a_world_opens_its_challenges_and_the_next_world(
    client: TestClient,
) -> None:
    tutorial = pack_json("tutorial")["levels"]
    required = [each for each in tutorial if each.get("tier", "required") == "required"]
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        for each in required[:-1]:
            win(player, "tutorial", each)
        worlds = client.get("/api/worlds").json()["worlds"]
        assert worlds[0]["won"] == len(required) - 1
        assert worlds[1]["unlocked"] is False
        last = required[-1]["title"]
        assert worlds[1]["unlockedBy"] == f"Win \u201c{last}\u201d in First Steps first"
        win(player, "tutorial", required[-1])
    worlds = client.get("/api/worlds").json()["worlds"]
    assert worlds[0]["requiredWon"] == worlds[0]["required"] == len(required)
    assert worlds[1]["unlocked"] is True
    assert worlds[2]["unlocked"] is False
    levels = client.get("/api/worlds/tutorial").json()["levels"]
    assert not any(each["locked"] for each in levels)


def test_proofs_opens_with_first_steps_not_behind_lexicon(client: TestClient) -> None:
    tutorial = pack_json("tutorial")["levels"]
    required = [each for each in tutorial if each.get("tier", "required") == "required"]
    proofs = next(w for w in client.get("/api/worlds").json()["worlds"] if w["id"] == "proofs")
    assert proofs["unlockedBy"] == "Win every required level of First Steps first"
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        for each in required:
            win(player, "tutorial", each)
    worlds = {w["id"]: w for w in client.get("/api/worlds").json()["worlds"]}
    assert worlds["proofs"]["unlocked"] is True
    assert worlds["lexicon"]["unlocked"] is False


def test_a_level_asked_for_by_its_address_says_whether_it_is_locked_and_why(
    client: TestClient,
) -> None:
    first = client.get("/api/worlds/tutorial/levels/first-steps").json()
    assert (first["locked"], first["unlockedBy"]) == (False, None)
    break_the_wall = client.get("/api/worlds/tutorial/levels/break-the-wall").json()
    assert (break_the_wall["locked"], break_the_wall["unlockedBy"]) == (
        True,
        "Win \u201cWalls and Rocks\u201d or \u201cFirst Steps\u201d first",
    )
    proof = client.get("/api/worlds/proofs/levels/proof-05").json()
    assert proof["locked"] is True
    assert proof["unlockedBy"] == "Win every required level of First Steps first"
    with client.websocket_connect("/ws") as socket:
        win(Player(socket), "tutorial", tutorial_level("first-steps"))
    break_the_wall = client.get("/api/worlds/tutorial/levels/break-the-wall").json()
    assert (break_the_wall["locked"], break_the_wall["unlockedBy"]) == (False, None)


def tutorial_level(level_id: str) -> dict[str, Any]:
    levels: list[dict[str, Any]] = pack_json("tutorial")["levels"]
    return next(each for each in levels if each["id"] == level_id)
