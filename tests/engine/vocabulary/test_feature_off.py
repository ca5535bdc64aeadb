"""With the feature off the engine is exactly the core one.

The digest covers every event (and the settled states around them) of every
stored solution in the packs shipped before vocabulary-1 existed, computed
on the engine of main before the feature was written. First Steps has been
reworked since: the digest reads the tutorial as it was then, kept under
``tests/engine/old_packs/`` (the content the digest was taken on).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from miau.engine import Game, Level
from miau.packs import load_pack

PACKS = Path(__file__).resolve().parents[3] / "packs"
OLD_TUTORIAL = Path(__file__).resolve().parents[1] / "old_packs" / "tutorial-before-rework.json"
CORE_PACKS = (
    PACKS / "clockwork-pairs.json",
    PACKS / "clockwork.json",
    PACKS / "proofs.json",
    OLD_TUTORIAL,
)
CORE_DIGEST = "60c661f348c7b619f5acffd2193ff3a29a9b63ebd9a48490c136bae2eca566b2"
CORE_EVENTS = 378


def test_shipped_solutions_give_byte_identical_events() -> None:
    digest = hashlib.sha256()
    events = 0
    for path in CORE_PACKS:
        for found in load_pack(path).levels:
            if found.solution is None:
                continue
            assert "features" not in found.data
            game = Game(found.data)
            digest.update(json.dumps(game.state.to_json(), sort_keys=True).encode())
            for event in game.play(found.solution):
                digest.update(json.dumps(event.to_json(), sort_keys=True).encode())
                events += 1
            digest.update(json.dumps(game.state.to_json(history=True), sort_keys=True).encode())
            for event in (game.undo(), game.reset()):
                digest.update(json.dumps(event.to_json(), sort_keys=True).encode())
    assert events == CORE_EVENTS
    assert digest.hexdigest() == CORE_DIGEST


def test_tier1_words_are_nouns_without_the_feature() -> None:
    from tests.engine.vocabulary.grid import board_level

    level = Level.from_dict(board_level(["BABA IS NOT", "ROCK IS MOVE"], feature=False))
    assert not level.vocabulary
    assert "MOVE" not in level.properties
    game = Game(level)
    assert [(r.subject, r.predicate) for r in game.state.rules] == [
        ("BABA", "NOT"),
        ("ROCK", "MOVE"),
    ]
    assert "spawned" not in game.wait().to_json()
