"""The generator's own depth puts the First Steps walks below the levels players called good."""

from __future__ import annotations

from typing import Any

from miau.generate import analyse, solver_score
from miau.generate.scoring import Score, profile_score
from miau.generate.seeds import WALKS, WALKS_PACK
from miau.packs import load_pack
from miau.solver import solve
from miau.worlds import shipped_pack_path

GOOD = ("borrow-a-word", "crossword", "through-the-wall")


def score(level_id: str) -> Score:
    pack = WALKS_PACK if level_id in WALKS else shipped_pack_path("tutorial")
    level = load_pack(pack).level(level_id)
    return solver_score(analyse(level.data, solve(level.data), 300_000))


def test_every_walk_scores_below_every_good_level() -> None:
    walks = {level: score(level) for level in WALKS}
    good = {level: score(level) for level in GOOD}
    assert max(walks.values()) < min(good.values()), (walks, good)
    assert max(s.tier for s in walks.values()) < min(s.tier for s in good.values())


def test_borrow_a_word_needs_its_words_and_changes_two_rules() -> None:
    level = load_pack(shipped_pack_path("tutorial")).level("borrow-a-word")
    analysis = analyse(level.data, solve(level.data), 300_000)
    assert analysis.needs_words is True
    assert analysis.rule_changes == 2
    assert analysis.mechanics == {"STOP", "WIN"}


def test_a_walk_needs_no_words_and_has_no_rule_mechanics() -> None:
    level = load_pack(WALKS_PACK).level("walls")
    analysis = analyse(level.data, solve(level.data), 300_000)
    assert analysis.needs_words is False
    assert analysis.rule_changes == 0
    assert analysis.mechanics == frozenset()


def test_water_is_read_as_push_and_sink() -> None:
    level = load_pack(WALKS_PACK).level("water")
    analysis = analyse(level.data, solve(level.data), 300_000)
    assert analysis.mechanics == {"PUSH", "SINK"}


def test_the_depth_profile_scorer_puts_every_walk_below_borrow_a_word() -> None:
    tutorial = load_pack(shipped_pack_path("tutorial"))
    old_walks = load_pack(WALKS_PACK)

    def profiled(data: Any) -> Score:
        return profile_score(analyse(data, solve(data), None))

    seed = profiled(tutorial.level("borrow-a-word").data)
    walks = [profiled(old_walks.level(level).data) for level in WALKS]
    assert all(walk.tier == 0 and walk.depth < seed.depth for walk in walks), (walks, seed)
    assert seed.needs_words is True
