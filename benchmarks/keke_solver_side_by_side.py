"""Keke's own BFS agent against Miau's solver, on the levels that agent solves.

Usage::

    .venv/bin/python benchmarks/keke_solver_side_by_side.py KEKE_JS PACKS [--core] [--jobs N]

``KEKE_JS`` is the ``Keke_JS`` folder of the Keke AI Competition repository
(kept outside this repository); ``PACKS`` holds the packs ``miau import
keke`` made of its ``full_biy_LEVELS.json``. Node runs the competition's
``agents/bfs_AGENT.js`` on every level under the competition's own limits
(10,000 iterations or 10 s a level), each level with a freshly loaded agent
(the agent keeps its visited set in module globals). Miau's breadth-first
solver then solves the levels the agent solved, and the closing lines
compare the two sums of solver time.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.solver_speed import keke_specs
from miau.solver import LevelSpec, Outcome, SearchResult, run_all, solve

# Runs the agent the way the competition's harness does: step until a move
# list comes back, check it wins by replaying it, stop at the limits.
DRIVER = r"""
const path = require('path');
const root = process.argv[1];
const ids = JSON.parse(process.argv[2]);
const iterations = Number(process.argv[3]);
const timeout = Number(process.argv[4]) * 1000;
const sim = require(path.join(root, 'js', 'simulation'));
const levels = JSON.parse(require('fs').readFileSync(
  path.join(root, 'json_levels', 'full_biy_LEVELS.json'))).levels;
const agentPath = require.resolve(path.join(root, 'agents', 'bfs_AGENT'));
function wins(moves, ascii) {
  sim.setupLevel(sim.parseMap(ascii));
  let state = sim.getGamestate();
  for (const move of moves) {
    const result = sim.nextMove(move, state);
    state = result.next_state;
    if (result.won) return true;
  }
  return false;
}
for (const level of levels) {
  if (!ids.includes(String(level.id))) continue;
  delete require.cache[agentPath];
  const agent = require(agentPath);
  sim.setupLevel(sim.parseMap(level.ascii));
  const state = sim.getGamestate();
  agent.init(state);
  const start = Date.now();
  let won = false, steps = 0, moves = [];
  for (; steps < iterations; steps++) {
    if (Date.now() - start > timeout) break;
    moves = agent.step(state);
    if (moves.length > 0) {
      if (Date.now() - start > timeout) break;
      if (wins(moves, level.ascii)) { won = true; break; }
    }
  }
  const seconds = (Date.now() - start) / 1000;
  console.log(JSON.stringify({id: String(level.id), won, steps, seconds, length: moves.length}));
}
"""


def run_agent(
    keke_js: Path, ids: list[str], iterations: int, timeout: float
) -> list[dict[str, object]]:
    """The agent's record for each level id: won, iterations, seconds, solution length."""
    completed = subprocess.run(
        [
            "node",
            "-e",
            DRIVER,
            str(keke_js.resolve()),
            json.dumps(ids),
            str(iterations),
            str(timeout),
        ],
        cwd=keke_js,
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in completed.stdout.splitlines() if line.startswith("{")]


def _solve(spec: LevelSpec, budget: int) -> SearchResult:
    return solve(spec.data, max_expansions=budget)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keke_js", type=Path, help="the competition's Keke_JS folder")
    parser.add_argument("packs", type=Path, help="the packs miau import keke made")
    parser.add_argument("--core", action="store_true", help="core-word levels only")
    parser.add_argument("--jobs", type=int, default=1, help="levels Miau solves at once")
    parser.add_argument("--iterations", type=int, default=10_000, help="the agent's step cap")
    parser.add_argument("--timeout", type=float, default=10.0, help="the agent's seconds cap")
    parser.add_argument("--max", type=int, default=300_000, help="Miau's expansion cap")
    args = parser.parse_args(argv)
    named = dict(keke_specs(args.packs, args.core))
    ids = [name.removeprefix("keke-") for name in named]
    records = run_agent(args.keke_js, ids, args.iterations, args.timeout)
    solved = [r for r in records if r["won"]]
    agent_seconds = sum(float(str(r["seconds"])) for r in solved)
    agent_all = sum(float(str(r["seconds"])) for r in records)
    specs = [named[f"keke-{r['id']}"] for r in solved]
    results = run_all(functools.partial(_solve, budget=args.max), specs, jobs=args.jobs)
    print(f"{'level':<10} {'agent s':>8} {'agent len':>9} {'miau s':>8} {'miau len':>8}")
    for record, result in zip(solved, results, strict=True):
        print(
            f"keke-{record['id']:<5} {float(str(record['seconds'])):8.3f} {record['length']!s:>9} "
            f"{result.seconds:8.3f} {result.length!s:>8}"
        )
    miau_seconds = sum(r.seconds for r in results)
    miau_solved = sum(r.outcome is Outcome.SOLVED for r in results)
    print(
        f"\nKeke's bfs_AGENT: {len(solved)}/{len(records)} solved, {agent_seconds:.1f} s on those "
        f"({agent_all:.1f} s on all {len(records)})"
    )
    print(
        f"Miau (breadth-first, shortest): {miau_solved}/{len(solved)} of the agent's solved set "
        f"in {miau_seconds:.2f} s of solver time"
    )
    if miau_seconds > 0:
        print(f"speed-up on the agent's solved set: {agent_seconds / miau_seconds:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
