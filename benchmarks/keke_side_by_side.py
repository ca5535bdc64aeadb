"""Miau against the Keke AI Competition's own JavaScript simulator, on the same levels.

Run: ``.venv/bin/python benchmarks/keke_side_by_side.py KEKE [--set full_biy] [--repeats N]``

``KEKE`` is a checkout (or a bare git directory) of
github.com/MasterMilkX/KekeCompetition; its files are read from there at run
time and never copied into this repository. Both simulators replay every
stored solution of ``Keke_JS/json_levels/<set>_LEVELS.json`` from a fresh
state, one level after another, timing only the steps: Keke's
``simulation.js`` under Node (``newState(parseMap(ascii))`` then ``nextMove`` per move), and
Miau's engine on the pack ``miau import keke`` makes of the same file
(``Game`` then ``step(...).to_json()`` per move, events serialised as a
client gets them). Each figure is the best of ``--repeats`` runs (the
machines are shared and noisy); the last line is Miau's rate over Keke's.
Needs ``node`` on the PATH.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.cli.importer import convert_keke
from miau.engine import Game, parse_moves
from miau.packs import load_pack

NODE_REPLAY = r"""
const sim = require(process.argv[2]);
const levels = JSON.parse(require('fs').readFileSync(process.argv[3], 'utf8')).levels;
const repeats = Number(process.argv[4]);
const names = {u: 'up', d: 'down', l: 'left', r: 'right', s: 'space'};
const plays = levels.filter(l => l.solution).map(l => [l.ascii, [...l.solution.toLowerCase()].map(c => names[c])]);
let best = 0, steps = 0;
for (let r = 0; r < repeats; r++) {
  let spent = 0n; steps = 0;
  for (const [ascii, moves] of plays) {
    const state = sim.newState(sim.parseMap(ascii));
    const start = process.hrtime.bigint();
    for (const move of moves) sim.nextMove(move, state);
    spent += process.hrtime.bigint() - start;
    steps += moves.length;
  }
  best = Math.max(best, steps / (Number(spent) / 1e9));
}
console.log(JSON.stringify({levels: plays.length, steps: steps, rate: best}));
"""


def read_keke_file(keke: Path, path: str) -> str:
    """One file of the Keke repository, from a checkout or a bare git directory."""
    if (keke / path).is_file():
        return (keke / path).read_text(encoding="utf-8")
    return subprocess.run(
        ["git", f"--git-dir={keke}", "show", f"HEAD:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def keke_rate(keke: Path, level_set: str, repeats: int, work: Path) -> dict[str, float]:
    """Keke's own simulator replaying the set's stored solutions, under Node."""
    simulation = work / "simulation.js"
    simulation.write_text(read_keke_file(keke, "Keke_JS/js/simulation.js"), encoding="utf-8")
    levels = work / "levels.json"
    levels.write_text(
        read_keke_file(keke, f"Keke_JS/json_levels/{level_set}_LEVELS.json"), encoding="utf-8"
    )
    script = work / "replay.js"
    script.write_text(NODE_REPLAY, encoding="utf-8")
    out = subprocess.run(
        ["node", str(script), str(simulation), str(levels), str(repeats)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def miau_rate(keke: Path, level_set: str, repeats: int) -> dict[str, float]:
    """Miau replaying the same stored solutions on the converted levels, events serialised."""
    raw = json.loads(read_keke_file(keke, f"Keke_JS/json_levels/{level_set}_LEVELS.json"))
    conversion = convert_keke(raw, pack_id="keke", name="Keke", source=f"{level_set}_LEVELS.json")
    plays = [
        (level.data, parse_moves(level.solution))
        for document in conversion.packs
        for level in load_pack(document).levels
        if level.solution
    ]
    best = 0.0
    steps = 0
    for _ in range(repeats):
        spent, steps = 0.0, 0
        for level, intents in plays:
            game = Game(level)
            start = time.perf_counter()
            for intent in intents:
                game.step(intent).to_json()
            spent += time.perf_counter() - start
            steps += len(intents)
        best = max(best, steps / spent)
    return {"levels": len(plays), "steps": steps, "rate": best}


def main() -> None:
    """Print both simulators' best rates and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("keke", type=Path, help="the KekeCompetition checkout or git directory")
    parser.add_argument("--set", default="full_biy", help="the level set (default full_biy)")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        keke = keke_rate(args.keke, args.set, args.repeats, Path(temp))
    miau = miau_rate(args.keke, args.set, args.repeats)
    print(f"{args.set}: {int(keke['levels'])} stored solutions, {int(keke['steps'])} steps")
    print(f"{'Keke simulation.js (Node), steps/s':44} {keke['rate']:>10,.0f}")
    print(f"{'Miau engine, events serialised, steps/s':44} {miau['rate']:>10,.0f}")
    print(f"{'Miau / Keke':44} {miau['rate'] / keke['rate']:>10.2f}x")


if __name__ == "__main__":
    main()
