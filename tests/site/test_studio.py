"""The static site's studio, run here on CPython: the server studio's answers, with progress."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from miau.packs import load_pack
from miau.packs.share import single_level_pack
from miau.site.studio import run_job
from miau.solver import solve
from miau.solver.depth import depth_profile
from tests.support.local import PACKS

SLOW_LEVEL = Path(__file__).resolve().parents[1] / "browser" / "levels" / "open-room.json"
"""No WIN and six rocks to push: a search that runs to any cap."""


def one_level(pack: str, level: str) -> dict[str, Any]:
    return single_level_pack(load_pack(PACKS / f"{pack}.json"), level)


def test_a_solve_finds_the_shortest_solution_and_a_check_reports_the_level() -> None:
    document = json.dumps(one_level("tutorial", "first-steps"))
    solved = json.loads(run_job("solve", "job-1", document, None, lambda *figures: None))
    assert solved["type"] == "solved" and solved["job"] == "job-1"
    assert solved["result"]["outcome"] == "solved" and solved["result"]["moves"] == "RRRRRR"
    checked = json.loads(run_job("check", "job-2", document, None, lambda *figures: None))
    assert checked["type"] == "checked" and checked["report"]["level"] is not None


def test_the_cap_bounds_a_search_and_progress_is_reported_while_it_runs() -> None:
    slow = SLOW_LEVEL.read_text(encoding="utf-8")
    reports: list[tuple[int, ...]] = []
    answer = json.loads(
        run_job("solve", "job", slow, 30_000, lambda *figures: reports.append(figures))
    )
    assert answer["result"]["outcome"] == "limit"
    assert answer["result"]["expanded"] <= 30_000
    assert reports and all(expanded <= 30_000 for expanded, *_ in reports)


def test_a_check_runs_under_the_cap_it_is_given_and_a_limit_is_undecided() -> None:
    slow = SLOW_LEVEL.read_text(encoding="utf-8")
    answer = json.loads(run_job("check", "job", slow, 500, lambda *figures: None))
    level = answer["report"]["level"]
    assert level["solver"]["limit"] == 500 and level["solver"]["outcome"] == "limit"
    assert level["verdict"] == "undecided"


def test_a_pack_the_loader_refuses_is_a_sentence_for_solve_and_problems_for_check() -> None:
    broken = json.dumps({"manifest": {"id": "x"}, "levels": []})
    refused = json.loads(run_job("solve", "job", broken, None, lambda *figures: None))
    assert refused["type"] == "error" and refused["message"].startswith(
        "This level cannot be solved"
    )
    checked = json.loads(run_job("check", "job", broken, None, lambda *figures: None))
    assert checked["report"]["level"] is None and checked["report"]["problems"]


def test_a_depth_job_answers_with_the_profile_the_solver_computes() -> None:
    pack = one_level("tutorial", "sunken-word")
    answer = json.loads(run_job("depth", "d", json.dumps(pack), None, lambda *figures: None))
    assert (answer["type"], answer["job"]) == ("profiled", "d"), answer
    profile = answer["profile"]
    expected = depth_profile(load_pack(pack).levels[0].data, ideas=False).to_json()
    for figures in (profile, expected):
        del figures["seconds"]
    assert profile == expected
    assert profile["baselines"] is None, "the page has no numpy: baselines are not measured"


@pytest.mark.slow
def test_a_suggest_job_reports_progress_and_each_variation_and_ends_within_its_budget() -> None:
    pack = one_level("tutorial", "sunken-word")
    heard: list[tuple[int, int, float, float]] = []
    streamed: list[dict[str, Any]] = []
    options = json.dumps({"seconds": 5, "count": 3, "seed": 3})
    began = time.monotonic()
    answer = json.loads(
        run_job(
            "suggest",
            "s",
            json.dumps(pack),
            None,
            lambda *figures: None,
            options,
            lambda *figures: heard.append(figures),
            lambda text: streamed.append(json.loads(text)),
        )
    )
    assert time.monotonic() - began <= 5.5
    assert (answer["type"], answer["job"]) == ("suggested", "s"), answer
    assert answer["variations"] == streamed
    assert heard and all(candidates >= solved for candidates, solved, _, _ in heard)
    for variation in answer["variations"]:
        level = load_pack({**pack, "levels": [variation["level"]]}).levels[0].data
        assert len(variation["level"]["solution"]) == solve(level).length
        assert variation["idea"] != answer["draftIdea"]


@pytest.mark.parametrize("options", [{"seconds": 0}, {"count": 99}, {"seed": "x"}])
def test_a_suggest_with_a_bad_option_is_the_servers_bad_message(options: dict[str, Any]) -> None:
    pack = json.dumps(one_level("tutorial", "first-steps"))
    answer = json.loads(
        run_job("suggest", "s", pack, None, lambda *figures: None, json.dumps(options))
    )
    assert (answer["type"], answer["code"]) == ("error", "bad-message")
    assert f'"{next(iter(options))}"' in answer["message"]
