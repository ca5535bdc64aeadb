"""``suggest_variations``: what the editor's "Suggest a variation" will call."""

from __future__ import annotations

import pytest

from miau.generate import suggest_variations
from miau.packs import load_pack
from miau.solver import solve
from tests.generate.helpers import small_source


def draft() -> dict[str, object]:
    level = small_source().seeds[0].level
    return {"width": level["width"], "height": level["height"], "objects": level["objects"]}


@pytest.mark.slow
def test_each_variation_is_a_level_entry_whose_stored_solution_is_shortest() -> None:
    variations = suggest_variations(draft(), seconds=1.0, count=3, seed=0)
    assert 1 <= len(variations) <= 3
    document = {
        "manifest": {"id": "variations", "name": "V", "version": "1.0.0", "engine": 1},
        "levels": variations,
    }
    for level in load_pack(document).levels:
        assert level.solution is not None
        assert solve(level.data).moves == level.solution
        assert level.data["objects"] != draft()["objects"]


def test_a_draft_that_does_not_load_is_refused_with_its_problems() -> None:
    with pytest.raises(ValueError, match="the draft does not load"):
        suggest_variations({"width": 0, "height": 3, "objects": []}, seconds=1, count=1, seed=0)
