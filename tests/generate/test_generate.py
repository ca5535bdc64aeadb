"""A generation is repeatable: the same seed and options give the same pack, with any workers."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from miau.generate import Generation, build_pack, generate, pack_text, walks
from miau.generate.evolve import Verdict, judge
from miau.generate.mutate import canonical
from miau.packs import load_pack
from miau.worlds import shipped_pack_path
from tests.generate.helpers import small_options, small_source


# Seed 1: its first 24 candidates fill three cells (seed 0's are mostly near-copies of the
# seed's solution, which are no longer scored), so two runs have something to compare.
def run(seed: int = 1, executor: ProcessPoolExecutor | None = None) -> Generation:
    return generate(small_source(seed).seeds, small_options(seed), executor=executor)


def written(generation: Generation, seed: int = 1) -> str:
    elites = [elite for elite in generation.archive.matching() if elite.index >= 0]
    document = build_pack(
        elites, small_source(seed), pack_id="generated-test", name="Test", description="test"
    )
    return pack_text(document)


def test_the_same_seed_and_options_give_the_same_pack_byte_for_byte() -> None:
    first, second = run(), run()
    assert first.solved > 0 and len(first.archive) > 1, "the run found nothing to compare"
    assert written(first) == written(second)
    assert first.filling == second.filling


def test_another_seed_gives_another_pack() -> None:
    assert written(run(1)) != written(run(2), 2)


def test_one_worker_and_two_worker_processes_give_the_same_pack() -> None:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        parallel = run(executor=pool)
    assert written(parallel) == written(run())


def test_the_written_pack_loads_and_every_solution_is_stored() -> None:
    generation = run()
    pack = load_pack(
        build_pack(
            list(generation.archive),
            small_source(),
            pack_id="generated-test",
            name="T",
            description="t",
        )
    )
    assert len(pack.levels) == len(generation.archive)
    assert all(level.solution for level in pack.levels)
    assert len({level.id for level in pack.levels}) == len(pack.levels)


def test_the_floor_is_the_deepest_of_the_seed_and_the_walks() -> None:
    generation = generate(small_source().seeds, small_options(candidates=8), references=walks())
    depths = [elite.score.depth for elite in generation.seeds]
    assert generation.floor >= max(depths)
    assert all(elite.score.depth > generation.floor for elite in generation.deeper())


def test_a_candidate_whose_solution_changes_no_rule_is_a_walk_and_is_not_scored() -> None:
    level = canonical(dict(load_pack(shipped_pack_path("tutorial")).level("first-steps").data))
    walk = judge(0, level, 10_000, "solver")
    assert walk.verdict is Verdict.WALK
    assert walk.elite is None
    # A seed or a reference level is measured all the same.
    measured = judge(-1, level, 10_000, "solver", walks=True)
    assert measured.verdict is Verdict.SOLVED and measured.elite is not None
    assert measured.elite.analysis.changes == ()


def test_a_candidate_that_changes_a_rule_is_scored_with_its_changes() -> None:
    level = canonical(dict(load_pack(shipped_pack_path("tutorial")).level("break-the-wall").data))
    candidate = judge(0, level, 10_000, "solver")
    assert candidate.verdict is Verdict.SOLVED and candidate.elite is not None
    assert candidate.elite.analysis.changes == ("-[stop] IS STOP",)
