"""The event digests of every stored solution: one build's answer, to compare with another's.

Run: ``.venv/bin/python benchmarks/event_digests.py [--keke KEKE [--set full_biy]]``

For every shipped pack (``packs/*.json``), the Keke sample kept in
``tests/keke`` and, with ``--keke``, every level of a Keke set converted by
``miau import keke`` (``KEKE`` is a checkout or git directory of
github.com/MasterMilkX/KekeCompetition, as for ``keke_side_by_side.py``),
each level's stored solution is replayed from a fresh game and hashed:
the start state, every event, the settled state with its history, then an
undo and a reset, all serialised as a client gets them. It prints one JSON
object, each corpus's SHA-256 digest and event count, and the build that
made them (``pure Python`` or ``compiled (mypyc)``). Run it under both builds
(``PYTHONPATH=.compiled/site`` for the compiled one) and the digests must be
equal byte for byte; ``tests/compiled/test_same_events.py`` does so.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.compiled import build_name
from miau.engine import Game
from miau.packs import load_pack

ROOT = Path(__file__).resolve().parent.parent
KEKE_SAMPLE = ROOT / "tests" / "keke" / "sample.miau.json"


def digest_of(plays: Iterable[tuple[Mapping[str, Any], str]]) -> dict[str, Any]:
    """The SHA-256 of every play's serialised states and events, and how many events it covers."""
    digest = hashlib.sha256()
    events = 0
    for level, moves in plays:
        game = Game(level)
        digest.update(json.dumps(game.state.to_json(), sort_keys=True).encode())
        for event in game.play(moves):
            digest.update(json.dumps(event.to_json(), sort_keys=True).encode())
            events += 1
        digest.update(json.dumps(game.state.to_json(history=True), sort_keys=True).encode())
        for event in (game.undo(), game.reset()):
            digest.update(json.dumps(event.to_json(), sort_keys=True).encode())
            events += 1
    return {"sha256": digest.hexdigest(), "events": events}


def pack_plays(documents: Iterable[Any]) -> list[tuple[Mapping[str, Any], str]]:
    """Each level with a stored solution in the packs, as (engine level, moves)."""
    return [
        (level.data, level.solution)
        for document in documents
        for level in load_pack(document).levels
        if level.solution
    ]


def keke_plays(keke: Path, level_set: str) -> list[tuple[Mapping[str, Any], str]]:
    """The stored solutions of a whole Keke set, on the levels ``miau import keke`` makes."""
    from benchmarks.keke_side_by_side import read_keke_file
    from miau.cli.importer import convert_keke

    raw = json.loads(read_keke_file(keke, f"Keke_JS/json_levels/{level_set}_LEVELS.json"))
    conversion = convert_keke(raw, pack_id="keke", name="Keke", source=f"{level_set}_LEVELS.json")
    return pack_plays(conversion.packs)


def all_digests(keke: Path | None = None, level_set: str = "full_biy") -> dict[str, Any]:
    """Every corpus's digest, keyed by its name, with the build that computed them."""
    found: dict[str, Any] = {"build": build_name()}
    for path in sorted((ROOT / "packs").glob("*.json")):
        found[f"packs/{path.name}"] = digest_of(pack_plays([path]))
    found["tests/keke/sample.miau.json"] = digest_of(pack_plays([KEKE_SAMPLE]))
    if keke is not None:
        found[f"keke/{level_set}"] = digest_of(keke_plays(keke, level_set))
    return found


def digests_in_a_child(**environment: str) -> dict[str, Any]:
    """The digests as a fresh interpreter computes them, with ``environment`` added to ours.

    For comparing what two interpreters make of the same plays: the pure
    sources against the compiled build (``PYTHONPATH``), or two hash seeds
    (``PYTHONHASHSEED``).
    """
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve())],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
        cwd=ROOT,
    ).stdout
    found: dict[str, Any] = json.loads(out)
    return found


def main() -> None:
    """Print the digests as one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keke", type=Path, help="a KekeCompetition checkout or git directory")
    parser.add_argument("--set", default="full_biy", help="the Keke level set (default full_biy)")
    args = parser.parse_args()
    print(json.dumps(all_digests(args.keke, args.set), indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
