"""The static site's studio, run here on CPython: the server studio's answers, with progress."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from miau.packs import load_pack
from miau.packs.share import single_level_pack
from miau.site.studio import run_job
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


def test_a_pack_the_loader_refuses_is_a_sentence_for_solve_and_problems_for_check() -> None:
    broken = json.dumps({"manifest": {"id": "x"}, "levels": []})
    refused = json.loads(run_job("solve", "job", broken, None, lambda *figures: None))
    assert refused["type"] == "error" and refused["message"].startswith(
        "This level cannot be solved"
    )
    checked = json.loads(run_job("check", "job", broken, None, lambda *figures: None))
    assert checked["report"]["level"] is None and checked["report"]["problems"]
