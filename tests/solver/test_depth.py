"""The depth profile: each figure on small hand-made levels, and the ranking players gave."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game
from miau.engine.level import Level
from miau.engine.vocabulary import MOVE_LETTERS
from miau.generate.seeds import WALKS_PACK
from miau.solver import read_levels
from miau.solver.dead_squares import NOUN, OPERATOR, PROPERTY, find_dead_squares, word_kind
from miau.solver.depth import TIER_THRESHOLDS, DepthProfile, depth_profile, tier_of
from miau.solver.winnable import Verdict, can_still_win
from tests.solver.builders import level, sentence, thing, word
from tests.solver.naive import naive_key

PACKS = Path(__file__).parent.parent.parent / "packs"
OLD_WALKS = WALKS_PACK
"""The walks First Steps had before its rework (Walls, Rocks, Water, Skulls), kept as a pack."""

# The cat walks to the flag; no word is in its way.
WALK = level(
    6,
    5,
    sentence("MIAU IS YOU", 0, 0),
    sentence("FLAG IS WIN", 0, 1),
    thing("MIAU", 3, 2),
    thing("FLAG", 5, 4),
)

# MIAU IS YOU stands upright at x = 1; the cat can push its YOU aside and lose itself.
LOSABLE = level(
    5,
    4,
    sentence("MIAU IS YOU", 1, 0, "v"),
    sentence("FLAG IS WIN", 2, 0),
    thing("MIAU", 0, 2),
    thing("FLAG", 4, 3),
)


# Each IS starts on an edge no push can take it off (the top row, the right-hand column).
TOP_EDGE = level(
    5,
    4,
    sentence("MIAU IS YOU", 0, 0),
    sentence("FLAG IS WIN", 4, 0, "v"),
    thing("MIAU", 1, 2),
    thing("FLAG", 2, 3),
)


def walled_room(*, rule_reachable: bool) -> dict[str, Any]:
    """A room of WALL at x = 0..4, y = 2..6, the cat inside; WALL IS STOP at the top.

    With ``rule_reachable`` the room's top wall has a gap under the WALL word, so the
    cat can walk out and push WALL IS STOP apart; otherwise the rule is out of reach.
    An IS and a PUSH word in the room can reach its corners (a dead square is only
    listed for a kind whose words can get there).
    """
    walls = [
        thing("WALL", x, y)
        for y in range(2, 7)
        for x in range(5)
        if (x in (0, 4) or y in (2, 6)) and not (rule_reachable and (x, y) == (1, 2))
    ]
    return level(
        8,
        7,
        sentence("WALL IS STOP", 0, 0),
        sentence("MIAU IS YOU", 5, 2, "v"),
        sentence("FLAG IS WIN", 6, 2, "v"),
        word("IS", 2, 4),
        word("PUSH", 2, 3),
        walls,
        thing("MIAU", 1, 5),
        thing("FLAG", 3, 5),
    )


def profile_of(data: dict[str, Any]) -> DepthProfile:
    return depth_profile(data, max_expansions=50_000)


def test_a_walk_has_no_rule_change_and_is_hands_off_in_tier_zero() -> None:
    profile = profile_of(WALK)
    assert profile.length == 4
    assert profile.rule_changes == 0 and not profile.rules_formed and not profile.rules_broken
    assert profile.hands_off is True
    assert profile.tier == 0


def test_shortest_solutions_are_counted_as_distinct_move_strings() -> None:
    # Two steps right and two down, in any order: 4 choose 2 ways.
    profile = profile_of(WALK)
    assert profile.shortest_solutions == 6
    for moves in ("RRDD", "RDRD", "RDDR", "DRRD", "DRDR", "DDRR"):
        assert Game(WALK).play(moves)[-1].won


def test_the_count_of_shortest_solutions_stops_at_its_bound() -> None:
    profile = depth_profile(WALK, shortest_bound=4)
    assert profile.shortest_solutions == 4 and profile.shortest_bound == 4


def test_pushing_a_word_of_the_solution_counts_as_a_rule_change() -> None:
    # The cat must form FLAG IS WIN before it can win.
    data = level(
        6,
        5,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS", 0, 1),
        word("WIN", 4, 2),
        thing("MIAU", 5, 1),
        thing("FLAG", 0, 4),
    )
    profile = profile_of(data)
    assert profile.rules_formed == ("FLAG IS WIN",)
    assert profile.rule_changes == 1
    assert profile.hands_off is False


def plain_dead_ends(data: dict[str, Any]) -> tuple[int, int]:
    """(dead states, reachable states) by a plain search over ``Game``, sharing nothing
    with the solver (won states are ends and not counted)."""
    game = Game(data)
    start = naive_key(game)
    snapshots = {start: game.state.to_json()}
    moves: dict[str, list[str]] = {}
    winning: set[str] = set()
    queue = [start]
    while queue:
        current = queue.pop()
        moves[current] = []
        for intent in MOVE_LETTERS.values():
            assert game.restore(snapshots[current]).accepted
            event = game.step(intent)
            if not event.accepted:
                continue
            if event.won:
                winning.add(current)
                continue
            child = naive_key(game)
            moves[current].append(child)
            if child not in snapshots:
                snapshots[child] = {**game.state.to_json(), "history": []}
                queue.append(child)
    can_win = set(winning)
    changed = True
    while changed:
        changed = False
        for state, children in moves.items():
            if state not in can_win and any(child in can_win for child in children):
                can_win.add(state)
                changed = True
    return len(moves) - len(can_win), len(moves)


def test_a_known_dead_end_is_counted_exactly() -> None:
    profile = profile_of(LOSABLE)
    assert profile.dead_ends.exact
    assert profile.dead_ends.share is not None and profile.dead_ends.share > 0
    dead, reachable = plain_dead_ends(LOSABLE)
    assert dead > 0
    assert profile.reachable == profile.dead_ends.sample == reachable
    assert round(profile.dead_ends.share * reachable) == dead
    # Pushing YOU out of MIAU IS YOU from the left loses the cat for good.
    assert can_still_win(LOSABLE, "URR").verdict is Verdict.NOT_WINNABLE
    assert can_still_win(LOSABLE, "").verdict is Verdict.WINNABLE


def test_a_corner_of_the_board_is_dead_for_operators_and_properties_but_not_nouns() -> None:
    squares = {(s.x, s.y): s.kinds for s in find_dead_squares(Level.from_dict(WALK))}
    assert squares[(0, 0)] == (OPERATOR, PROPERTY)
    assert squares[(5, 4)] == (OPERATOR,)  # X IS YOU can still end here, read downwards
    assert all(NOUN not in kinds for kinds in squares.values())
    assert (2, 2) not in squares


def test_a_cell_no_word_of_a_kind_can_reach_is_never_dead_for_that_kind() -> None:
    squares = {(s.x, s.y): s.kinds for s in find_dead_squares(Level.from_dict(TOP_EDGE))}
    # The bottom-left corner is no place for an operator, but neither IS can ever get there.
    assert (0, 3) not in squares
    assert squares == {(0, 0): (OPERATOR, PROPERTY), (4, 0): (OPERATOR,), (4, 3): (OPERATOR,)}


def test_a_sealed_room_no_word_can_enter_has_no_dead_square_inside() -> None:
    sealed = walled_room(rule_reachable=False)
    sealed["objects"] = [o for o in sealed["objects"] if (o["x"], o["y"]) not in ((2, 4), (2, 3))]
    profile = profile_of(sealed)
    assert profile.dead_square_walls == "edge and fixed walls"
    inside = {(x, y) for x in range(1, 4) for y in range(3, 6)}
    assert not inside & {(s.x, s.y) for s in profile.dead_squares}


def test_a_corner_of_fixed_walls_is_dead_when_no_rule_can_open_them() -> None:
    sealed = profile_of(walled_room(rule_reachable=False))
    assert sealed.dead_square_walls == "edge and fixed walls"
    corners = {(s.x, s.y): s.kinds for s in sealed.dead_squares}
    assert corners[(1, 3)] == (OPERATOR, PROPERTY)  # the room's top-left inner corner
    assert OPERATOR in corners[(3, 5)]  # its bottom-right inner corner


def test_a_corner_of_walls_is_not_dead_when_a_rule_can_make_them_passable() -> None:
    opened = profile_of(walled_room(rule_reachable=True))
    # The cat can walk out through the gap and push WALL IS STOP apart.
    assert can_still_win(walled_room(rule_reachable=True), "UUUR").verdict is Verdict.WINNABLE
    assert opened.dead_square_walls == "edge"
    cells = {(s.x, s.y) for s in opened.dead_squares}
    assert (1, 3) not in cells and (3, 5) not in cells


def test_tiers_follow_the_thresholds() -> None:
    assert tier_of(0.0) == 0
    for index, threshold in enumerate(TIER_THRESHOLDS):
        assert tier_of(threshold) == index + 1
        assert tier_of(threshold - 0.01) == index


@cache
def shipped_profile(pack: str | Path, level_id: str) -> DepthProfile:
    path = pack if isinstance(pack, Path) else PACKS / f"{pack}.json"
    (spec,) = [spec for spec in read_levels(path).levels if spec.id == level_id]
    return depth_profile(spec.data)


@pytest.mark.slow
def test_the_first_steps_walks_rank_below_the_levels_players_named_as_good() -> None:
    tutorial = json.loads((PACKS / "tutorial.json").read_text(encoding="utf-8"))
    titles = {entry["title"]: entry["id"] for entry in tutorial["levels"]}
    old = json.loads(OLD_WALKS.read_text(encoding="utf-8"))
    old_titles = {entry["title"]: entry["id"] for entry in old["levels"]}
    walks = [(OLD_WALKS, old_titles[t]) for t in ("Walls", "Rocks", "Water", "Skulls")]
    good = [
        ("tutorial", titles["Borrow a Word"]),
        ("tutorial", titles["Crossword"]),
        ("tutorial", titles["Through the Wall"]),
        ("clockwork", "double-time"),
    ]
    walk_depths = [shipped_profile(*key) for key in walks]
    good_depths = [shipped_profile(*key) for key in good]
    assert len(walk_depths) == 4 and all(p.hands_off for p in walk_depths)
    assert max(p.depth for p in walk_depths) < min(p.depth for p in good_depths)
    assert max(p.tier for p in walk_depths) < min(p.tier for p in good_depths)


@cache
def shipped_profile_by_title(pack: str, title: str) -> DepthProfile:
    """The depth profile of the shipped level with this title."""
    document = json.loads((PACKS / f"{pack}.json").read_text(encoding="utf-8"))
    (level_id,) = [entry["id"] for entry in document["levels"] if entry["title"] == title]
    return shipped_profile(pack, level_id)


# A new player, from the screen only, called these four First Steps levels walks...
PLAYER_WALKS = ("Spell It", "Miau Is Win", "Rock Is Flag", "Skull Gate")
# ...named these Deep End levels among the best...
PLAYER_BEST = ("Breaking point", "Head in the clouds", "Anyone but me", "Heirloom")


@pytest.mark.slow
@pytest.mark.parametrize("title", PLAYER_WALKS)
def test_the_second_figure_puts_what_a_player_called_a_walk_no_higher_than_warm_up(
    title: str,
) -> None:
    profile = shipped_profile_by_title("tutorial", title)
    assert profile.idea_tier is not None and profile.idea_tier <= 1


@pytest.mark.slow
def test_the_second_figure_puts_be_the_rock_above_every_level_a_player_called_a_walk() -> None:
    # ...and Be the Rock took that player the most thought in First Steps.
    rock = shipped_profile_by_title("tutorial", "Be the Rock").idea_depth
    walks = [shipped_profile_by_title("tutorial", title).idea_depth for title in PLAYER_WALKS]
    assert rock is not None and all(depth is not None and depth < rock for depth in walks)


@pytest.mark.slow
@pytest.mark.parametrize("title", PLAYER_BEST)
def test_the_second_figure_puts_the_levels_a_player_named_best_above_the_walks(title: str) -> None:
    best = shipped_profile_by_title("deep-end", title)
    walks = [shipped_profile_by_title("tutorial", walk).idea_depth or 0.0 for walk in PLAYER_WALKS]
    assert best.idea_depth is not None and best.idea_depth > max(walks)
    assert best.idea_tier is not None and best.idea_tier >= 2
    assert best.ideas is not None and len(best.ideas.needed) >= 2


@settings(max_examples=30, deadline=None)
@given(
    pack=st.sampled_from(["tutorial", "clockwork", "proofs"]),
    index=st.integers(min_value=0, max_value=16),
    moves=st.text(alphabet="UDLRW", max_size=40),
)
def test_a_word_in_a_square_dead_for_its_kind_never_leaves_the_dead_squares_nor_forms_a_rule(
    pack: str, index: int, moves: str
) -> None:
    specs = read_levels(PACKS / f"{pack}.json").levels
    spec = specs[index % len(specs)]
    engine_level = Level.from_dict(spec.data)
    dead = {(s.x, s.y): s.kinds for s in find_dead_squares(engine_level)}
    game = Game(spec.data)
    stuck: set[int] = set()
    for letter in moves:
        game.step(MOVE_LETTERS[letter])
        state = game.state.to_json()
        in_rules = {ident for rule in state["rules"] for ident in rule["sourceIds"]}
        for entity in state["entities"]:
            if entity["kind"] != "word":
                continue
            kind = word_kind(engine_level, entity["text"])
            here = kind in dead.get((entity["x"], entity["y"]), ())
            if entity["id"] in stuck:
                assert here
            if here:
                stuck.add(entity["id"])
                assert entity["id"] not in in_rules
