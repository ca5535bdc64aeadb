"""The repetition audit on the shipped worlds: no two levels ask for the same idea by accident.

Each shipped level stores its idea signature (``ideas``, written by
``scripts/store_ideas.py``); the audit compares the stored signatures
across every shipped pack, so it runs in the quick test command. The slow
test below checks that each stored signature is still the one the solver
finds, so a level edited without storing its ideas again fails there.
"""

from __future__ import annotations

import pytest

from miau.packs import PackLevel, load_pack
from miau.solver.ideas import SignedLevel, level_ideas, repeated_ideas, repetition_warning
from miau.worlds import shipped_pack_path, shipped_packs_dir

PACKS = sorted(path.stem for path in shipped_packs_dir().glob("*.json"))


def shipped_levels() -> list[tuple[str, PackLevel]]:
    """Every shipped level with its pack's id, in campaign file order."""
    return [
        (pack.manifest.id, level)
        for name in PACKS
        for pack in [load_pack(shipped_pack_path(name))]
        for level in pack.levels
    ]


def test_every_shipped_level_stores_its_idea_signature() -> None:
    missing = [f"{pack}/{level.id}" for pack, level in shipped_levels() if level.ideas is None]
    assert missing == []


def test_no_two_shipped_levels_ask_for_the_same_idea_unless_listed_as_intended() -> None:
    signed = [
        SignedLevel(pack, level.id, level.ideas or (), level.repeats)
        for pack, level in shipped_levels()
    ]
    assert [repetition_warning(*pair) for pair in repeated_ideas(signed)] == []


def test_every_intended_repeat_names_a_shipped_level() -> None:
    ids = {level.id for _, level in shipped_levels()} | {
        f"{pack}/{level.id}" for pack, level in shipped_levels()
    }
    named = {name for _, level in shipped_levels() for name in level.repeats}
    assert named <= ids


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pack", "level"),
    [(pack, level) for pack, level in shipped_levels()],
    ids=[f"{pack}/{level.id}" for pack, level in shipped_levels()],
)
def test_each_stored_signature_is_the_one_the_solver_finds(pack: str, level: PackLevel) -> None:
    assert level.solution is not None
    assert level.ideas == level_ideas(level.data, level.solution).signature
