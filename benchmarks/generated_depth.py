"""Re-profile a generated pack with the depth profile's default budgets, beside its floor.

Run: ``.venv/bin/python benchmarks/generated_depth.py OUT.json --seed-level ID``.

``miau generate`` scores candidates with the depth profile under smaller
budgets (``docs/generate.md``); this prints, for every level of a written
pack, the depth and tier the full profile gives, with its length, rule
changes and dead-end share, and the floor under the same full profile: the
deepest of the seed level (from First Steps) and the four First Steps
walks. The last line counts the levels deeper than that floor.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.generate.seeds import WALKS
from miau.packs import load_pack
from miau.solver.depth import depth_profile
from miau.worlds import shipped_pack_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("pack", type=Path, help="the generated pack")
    parser.add_argument("--seed-level", required=True, help="the First Steps level it grew from")
    args = parser.parse_args(argv)
    tutorial = load_pack(shipped_pack_path("tutorial"))
    references = {name: depth_profile(tutorial.level(name).data).depth for name in WALKS}
    seed = depth_profile(tutorial.level(args.seed_level).data).depth
    floor = max([seed, *references.values()])
    walks = ", ".join(f"{name} {depth:.3f}" for name, depth in references.items())
    print(f"seed {args.seed_level}: {seed:.3f}; walks: {walks}; floor {floor:.3f}")
    deeper = 0
    pack = load_pack(args.pack)
    for level in pack.levels:
        profile = depth_profile(level.data)
        deeper += profile.depth > floor
        share = profile.dead_ends.share
        dead = "?" if share is None else f"{share:.2f}"
        print(
            f"{level.id}: depth {profile.depth:.3f} tier {profile.tier}, "
            f"{profile.length} moves, {profile.rule_changes} rule changes, dead ends {dead}, "
            f"hands-off {profile.hands_off}"
        )
    print(f"{deeper} of {len(pack.levels)} levels deeper than the floor {floor:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
