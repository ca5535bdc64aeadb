"""Miau against the Keke AI Competition's own JavaScript simulator, on the same levels.

Run: ``.venv/bin/python benchmarks/keke_side_by_side.py KEKE [--set full_biy] [--repeats N]
[--compiled DIR]``

``KEKE`` is a checkout (or a bare git directory) of
github.com/MasterMilkX/KekeCompetition; its files are read from there at run
time and never copied into this repository. Both simulators replay every
stored solution of ``Keke_JS/json_levels/<set>_LEVELS.json`` from a fresh
state, one level after another, timing only the steps: Keke's
``simulation.js`` under Node (``newState(parseMap(ascii))`` then ``nextMove`` per move), and
Miau's engine on the pack ``miau import keke`` makes of the same file
(``Game`` then ``step(...).to_json()`` per move, events serialised as a
client gets them). Each figure is the best of ``--repeats`` runs (the
machines are shared and noisy), in steps per second of wall time and of the
process's CPU time (which other processes on a loaded machine disturb
less); the ratios in brackets are Miau's rate over Keke's.
Needs ``node`` on the PATH.

Miau is measured in a fresh interpreter per build, in the same run: the pure
sources (``src/``) and the compiled build unpacked in ``--compiled`` (default
``.compiled/site``, which ``scripts/test_compiled.sh`` fills; a build that is
missing is left out). Each side is measured on every level with a stored
solution and again on the core-word levels alone (the levels whose words
are all core words, ``miau.solver.reduction.uses_only_core_words``).

Miau's engine remembers the rule tables it parsed, by level and word
arrangement, across games in one process (``RuleParser``), so from the
second repeat on its replays find their tables parsed: that is the
"repeat" figure, the one a solver, an agent or a server replaying known
levels sees. The "first play" figure empties those caches before every
repeat, so every level is replayed as if for the first time in the
process. Keke's simulator keeps nothing between games; its repeats warm
up Node's compiler.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.cli.importer import convert_keke
from miau.compiled import build_name
from miau.engine import Game, Level, parse_moves
from miau.engine.rules import RuleParser
from miau.packs import load_pack
from miau.solver.reduction import uses_only_core_words

ROOT = Path(__file__).resolve().parent.parent
COMPILED_SITE = ROOT / ".compiled" / "site"

NODE_REPLAY = r"""
const sim = require(process.argv[2]);
const levels = JSON.parse(require('fs').readFileSync(process.argv[3], 'utf8')).levels;
const repeats = Number(process.argv[4]);
const names = {u: 'up', d: 'down', l: 'left', r: 'right', s: 'space'};
const only = process.argv[5] ? new Set(JSON.parse(process.argv[5])) : null;
const plays = levels.filter(l => l.solution && (!only || only.has(String(l.id)))).map(l => [l.ascii, [...l.solution.toLowerCase()].map(c => names[c])]);
let best = 0, bestCpu = 0, steps = 0;
for (let r = 0; r < repeats; r++) {
  let spent = 0n, cpu = 0; steps = 0;
  for (const [ascii, moves] of plays) {
    const state = sim.newState(sim.parseMap(ascii));
    const start = process.hrtime.bigint();
    const startCpu = process.cpuUsage();
    for (const move of moves) sim.nextMove(move, state);
    const used = process.cpuUsage(startCpu);
    spent += process.hrtime.bigint() - start;
    cpu += (used.user + used.system) / 1e6;
    steps += moves.length;
  }
  best = Math.max(best, steps / (Number(spent) / 1e9));
  bestCpu = Math.max(bestCpu, steps / cpu);
}
console.log(JSON.stringify({levels: plays.length, steps: steps, rate: best, cpu_rate: bestCpu}));
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


def keke_rate(
    keke: Path, level_set: str, repeats: int, work: Path, only: list[str] | None = None
) -> dict[str, float]:
    """Keke's own simulator replaying the set's stored solutions (of the ``only`` ids), under Node."""
    simulation = work / "simulation.js"
    simulation.write_text(read_keke_file(keke, "Keke_JS/js/simulation.js"), encoding="utf-8")
    levels = work / "levels.json"
    levels.write_text(
        read_keke_file(keke, f"Keke_JS/json_levels/{level_set}_LEVELS.json"), encoding="utf-8"
    )
    script = work / "replay.js"
    script.write_text(NODE_REPLAY, encoding="utf-8")
    out = subprocess.run(
        [
            "node",
            str(script),
            str(simulation),
            str(levels),
            str(repeats),
            *([json.dumps(only)] if only is not None else []),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def converted_plays(keke: Path, level_set: str) -> list[tuple[str, Level, list[str]]]:
    """Each converted level with a stored solution: its Keke id, the level, the moves."""
    raw = json.loads(read_keke_file(keke, f"Keke_JS/json_levels/{level_set}_LEVELS.json"))
    conversion = convert_keke(raw, pack_id="keke", name="Keke", source=f"{level_set}_LEVELS.json")
    return [
        (level.id.removeprefix("keke-"), Level.from_dict(level.data), parse_moves(level.solution))
        for document in conversion.packs
        for level in load_pack(document).levels
        if level.solution
    ]


def core_ids(keke: Path, level_set: str) -> list[str]:
    """The Keke ids of the levels with a stored solution whose words are all core words."""
    return [
        ident for ident, level, _ in converted_plays(keke, level_set) if uses_only_core_words(level)
    ]


def miau_rate(
    keke: Path,
    level_set: str,
    repeats: int,
    only: list[str] | None = None,
    *,
    first_play: bool = False,
) -> dict[str, float]:
    """Miau replaying the same stored solutions on the converted levels, events serialised.

    With ``first_play`` the engine's shared parse caches are emptied before every repeat.
    """
    plays = [
        (level, intents)
        for ident, level, intents in converted_plays(keke, level_set)
        if only is None or ident in only
    ]
    best = best_cpu = 0.0
    steps = 0
    for _ in range(repeats):
        if first_play:
            RuleParser.clear_shared_caches()
        spent, cpu, steps = 0.0, 0.0, 0
        for level, intents in plays:
            game = Game(level)
            start, start_cpu = time.perf_counter(), time.process_time()
            for intent in intents:
                game.step(intent).to_json()
            spent += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            steps += len(intents)
        best = max(best, steps / spent)
        best_cpu = max(best_cpu, steps / cpu)
    return {"levels": len(plays), "steps": steps, "rate": best, "cpu_rate": best_cpu}


def measure_builds(
    keke: Path, level_set: str, repeats: int, compiled: Path
) -> dict[str, dict[str, Any]]:
    """Miau's rates for each build present, each measured by this script in a fresh interpreter."""
    sources = {"pure": ROOT / "src", "compiled": compiled}
    found: dict[str, dict[str, Any]] = {}
    for label, source in sources.items():
        if not source.is_dir():
            print(f"(no {label} build at {source}: left out)")
            continue
        command = [sys.executable, __file__, str(keke), "--set", level_set]
        command += ["--repeats", str(repeats), "--miau-only"]
        out = subprocess.run(
            command,
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(source)},
            cwd=ROOT,
        ).stdout
        found[label] = json.loads(out)
    return found


def main() -> None:
    """Print Keke's and each Miau build's best rates, and their ratios, on all and core levels."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("keke", type=Path, help="the KekeCompetition checkout or git directory")
    parser.add_argument("--set", default="full_biy", help="the level set (default full_biy)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--compiled", type=Path, default=COMPILED_SITE, help="the unpacked compiled build"
    )
    parser.add_argument("--miau-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    core = core_ids(args.keke, args.set)
    if args.miau_only:
        # One build's figures, as JSON, for the parent run.
        figures: dict[str, Any] = {"build": build_name()}
        for first_play, suffix in ((False, ""), (True, "_first")):
            figures["all" + suffix] = miau_rate(
                args.keke, args.set, args.repeats, first_play=first_play
            )
            figures["core" + suffix] = miau_rate(
                args.keke, args.set, args.repeats, core, first_play=first_play
            )
        print(json.dumps(figures))
        return
    with tempfile.TemporaryDirectory() as temp:
        keke = {
            "all": keke_rate(args.keke, args.set, args.repeats, Path(temp)),
            "core": keke_rate(args.keke, args.set, args.repeats, Path(temp), core),
        }
    builds = measure_builds(args.keke, args.set, args.repeats, args.compiled)
    for group, title in (("all", "every stored solution"), ("core", "core-word levels")):
        figures = keke[group]
        print(
            f"{args.set}, {title}: {int(figures['levels'])} levels, {int(figures['steps'])} steps"
        )
        print(f"  {'steps per second of':44} {'wall time':>20} {'CPU time':>20}")
        print(
            f"  {'Keke simulation.js (Node)':44} {figures['rate']:>20,.0f} {figures['cpu_rate']:>20,.0f}"
        )
        for measured in builds.values():
            for suffix, when in (("", "repeat"), ("_first", "first play")):
                rate = measured[group + suffix]["rate"]
                cpu_rate = measured[group + suffix]["cpu_rate"]
                wall = f"{rate:,.0f} ({rate / figures['rate']:.2f}x)"
                cpu = f"{cpu_rate:,.0f} ({cpu_rate / figures['cpu_rate']:.2f}x)"
                label = f"Miau {measured['build']}, {when}"
                print(f"  {label:44} {wall:>20} {cpu:>20}")


if __name__ == "__main__":
    main()
