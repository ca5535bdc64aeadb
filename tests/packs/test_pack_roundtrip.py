"""A good pack written out with to_json reads back as an equal pack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from miau.packs import Pack, load_pack

GOOD = sorted((Path(__file__).parent / "good").glob("*.json"))


@pytest.fixture(params=GOOD, ids=lambda path: path.stem)
def pack(request: pytest.FixtureRequest) -> Pack:
    path: Path = request.param
    return load_pack(path)


def test_good_packs_load_without_warnings(pack: Pack) -> None:
    assert pack.warnings == ()


def test_to_json_loads_back_to_an_equal_pack(pack: Pack) -> None:
    assert load_pack(pack.to_json()) == pack


def test_to_json_survives_json_text(pack: Pack) -> None:
    text = json.dumps(pack.to_json(), ensure_ascii=False)
    assert load_pack(json.loads(text)) == pack


def test_to_json_is_stable_after_one_round(pack: Pack) -> None:
    once = pack.to_json()
    assert load_pack(once).to_json() == once


def test_to_json_keeps_entity_order_so_ids_do_not_change(pack: Pack) -> None:
    again = load_pack(pack.to_json())
    for before, after in zip(pack.levels, again.levels, strict=True):
        assert before.data["objects"] == after.data["objects"]


def test_changing_to_json_output_leaves_the_pack_alone(pack: Pack) -> None:
    before = pack.to_json()
    out = pack.to_json()
    out["levels"][0]["objects"].clear()
    out["manifest"]["name"] = "Changed"
    assert pack.to_json() == before


def test_packs_differing_in_one_level_are_not_equal(pack: Pack) -> None:
    data = pack.to_json()
    data["levels"][0]["title"] = "Another title"
    assert load_pack(data) != pack
