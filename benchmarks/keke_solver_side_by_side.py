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

The agent's winning moves are replayed in Miau first (a move Miau refuses
played as a wait, as Keke counts it). Where they do not win, the two
engines' rules differ on that level (Keke moves YOU things one after
another, so a YOU thing right behind another is blocked where Miau moves
them together); such a level is listed as a rules difference and left out
of the comparison of times, since the two searches solve different puzzles.

``--records FILE`` keeps the agent's records: the first run writes them,
later runs read them instead of running node again (the agent's times are
from the run that wrote them). For the comparison "in one run", leave it out.

Miau's breadth-first times are taken for each build in the same run, each
in a fresh interpreter: the pure sources (``src/``) and the compiled build
unpacked in ``--compiled`` (default ``.compiled/site``, which
``scripts/test_compiled.sh`` fills; left out when missing). The per-level
table shows the pure build's figures; the closing lines give each build's
sum and speed-up.

``--any`` also runs Miau's best-first search (``miau solve --any``) on the
same levels and prints its times and solution lengths beside the
breadth-first ones (its solutions win but are not proven shortest).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.solver_speed import keke_specs
from miau.cli.importer import KEKE_MOVES
from miau.engine.game import Game
from miau.engine.vocabulary import WAIT
from miau.solver import LevelSpec, Outcome, SearchResult, run_all, solve
from miau.solver.best_first import solve_any

ROOT = Path(__file__).resolve().parent.parent
COMPILED_SITE = ROOT / ".compiled" / "site"

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
  const letters = moves.map(m => m === 'space' ? 's' : m[0]).join('');
  console.log(JSON.stringify({id: String(level.id), won, steps, seconds, length: moves.length,
                              moves: won ? letters : ''}));
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


def agent_records(
    keke_js: Path, ids: list[str], iterations: int, timeout: float, records: Path | None
) -> list[dict[str, object]]:
    """The agent's records: read from ``records`` when it exists, else run (and saved there)."""
    if records is not None and records.exists():
        kept: list[dict[str, object]] = json.loads(records.read_text())
        return [record for record in kept if record["id"] in ids]
    found = run_agent(keke_js, ids, iterations, timeout)
    if records is not None:
        records.write_text(json.dumps(found, indent=1) + "\n")
    return found


def agent_moves_win(spec: LevelSpec, moves: str) -> bool:
    """Whether the agent's move string (Keke letters) wins the converted level in Miau.

    A move Miau refuses (nothing moved) is played as a wait, which is what
    Keke makes of it.
    """
    game = Game(spec.data)
    for char in moves:
        if game.won:
            break
        letter = KEKE_MOVES.get(char, WAIT.letter)
        if not game.play(letter)[0].accepted:
            game.play(WAIT.letter)
    return game.won


def _solve(spec: LevelSpec, budget: int, best_first: bool = False) -> tuple[SearchResult, float]:
    cpu = time.process_time()
    search = solve_any if best_first else solve
    result = search(spec.data, max_expansions=budget)
    return result, time.process_time() - cpu


def build_times(
    packs: Path, ids: list[str], budget: int, compiled: Path
) -> dict[str, tuple[float, float, int]]:
    """Each build's breadth-first figures on the levels ``ids``, from a fresh interpreter.

    For each build present: (solver seconds, CPU seconds, levels solved).
    """
    found: dict[str, tuple[float, float, int]] = {}
    for label, source in (("pure Python", ROOT / "src"), ("compiled (mypyc)", compiled)):
        if not source.is_dir():
            print(f"(no {label} build at {source}: left out)")
            continue
        out = subprocess.run(
            [
                *(sys.executable, __file__, "-", str(packs), "--max", str(budget)),
                *("--solve-only", "--only", json.dumps(ids)),
            ],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(source)},
            cwd=ROOT,
        ).stdout
        seconds, cpu, solved, build = json.loads(out)
        assert build == label, f"asked for the {label} build, measured the {build} one"
        found[label] = (seconds, cpu, solved)
    return found


def solve_only(packs: Path, ids: list[str], budget: int) -> None:
    """Print this interpreter's breadth-first sums on ``ids``, as JSON, for ``build_times``."""
    from miau.compiled import build_name

    named = dict(keke_specs(packs, False))
    timed = [_solve(named[f"keke-{ident}"], budget) for ident in ids]
    print(
        json.dumps(
            [
                sum(result.seconds for result, _ in timed),
                sum(cpu for _, cpu in timed),
                sum(result.outcome is Outcome.SOLVED for result, _ in timed),
                build_name(),
            ]
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keke_js", type=Path, help="the competition's Keke_JS folder")
    parser.add_argument("packs", type=Path, help="the packs miau import keke made")
    parser.add_argument("--core", action="store_true", help="core-word levels only")
    parser.add_argument("--jobs", type=int, default=1, help="levels Miau solves at once")
    parser.add_argument("--iterations", type=int, default=10_000, help="the agent's step cap")
    parser.add_argument("--timeout", type=float, default=10.0, help="the agent's seconds cap")
    parser.add_argument("--max", type=int, default=300_000, help="Miau's expansion cap")
    parser.add_argument("--records", type=Path, help="the agent's records: read, or written")
    parser.add_argument("--any", action="store_true", help="also run best-first search")
    parser.add_argument(
        "--compiled", type=Path, default=COMPILED_SITE, help="the unpacked compiled build"
    )
    parser.add_argument("--solve-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.solve_only:
        solve_only(args.packs, json.loads(args.only), args.max)
        return 0
    named = dict(keke_specs(args.packs, args.core))
    ids = [name.removeprefix("keke-") for name in named]
    records = agent_records(args.keke_js, ids, args.iterations, args.timeout, args.records)
    solved = [r for r in records if r["won"]]
    differ = [r for r in solved if not agent_moves_win(named[f"keke-{r['id']}"], str(r["moves"]))]
    compared = [r for r in solved if r not in differ]
    agent_seconds = sum(float(str(r["seconds"])) for r in compared)
    agent_all = sum(float(str(r["seconds"])) for r in records)
    specs = [named[f"keke-{r['id']}"] for r in solved]
    timed = run_all(functools.partial(_solve, budget=args.max), specs, jobs=args.jobs)
    greedy = (
        run_all(functools.partial(_solve, budget=args.max, best_first=True), specs, jobs=args.jobs)
        if args.any
        else []
    )
    print(
        f"{'level':<10} {'agent s':>8} {'agent len':>9} {'miau s':>8} {'miau CPU':>8} "
        f"{'miau len':>8}" + (f" {'any s':>8} {'any len':>7}" if args.any else "")
    )
    for index, (record, (result, cpu)) in enumerate(zip(solved, timed, strict=True)):
        note = "  rules differ: the agent's moves do not win in Miau" if record in differ else ""
        extra = f" {greedy[index][0].seconds:8.3f} {greedy[index][0].length!s:>7}" if greedy else ""
        print(
            f"keke-{record['id']:<5} {float(str(record['seconds'])):8.3f} {record['length']!s:>9} "
            f"{result.seconds:8.3f} {cpu:8.3f} {result.length!s:>8}{extra}{note}"
        )
    kept = [pair for record, pair in zip(solved, timed, strict=True) if record not in differ]
    miau_seconds = sum(result.seconds for result, _ in kept)
    miau_cpu = sum(cpu for _, cpu in kept)
    miau_solved = sum(result.outcome is Outcome.SOLVED for result, _ in kept)
    print(
        f"\nKeke's bfs_AGENT: {len(solved)}/{len(records)} solved, {agent_seconds:.1f} s on the "
        f"{len(compared)} compared ({agent_all:.1f} s on all {len(records)})"
    )
    if differ:
        names = ", ".join(f"keke-{r['id']}" for r in differ)
        print(f"rules differ (left out of the comparison): {names}")
    print(
        f"Miau (breadth-first, shortest): {miau_solved}/{len(compared)} of the compared levels "
        f"in {miau_seconds:.2f} s of solver time ({miau_cpu:.2f} CPU s)"
    )
    if miau_seconds > 0 and miau_cpu > 0:
        print(
            f"speed-up on the compared levels: {agent_seconds / miau_seconds:.1f}x by solver time, "
            f"{agent_seconds / miau_cpu:.1f}x by CPU time"
        )
    both = build_times(args.packs, [str(r["id"]) for r in compared], args.max, args.compiled)
    for label, (seconds, cpu, solved_here) in both.items():
        print(
            f"Miau {label}, breadth-first, fresh interpreter: {solved_here}/{len(compared)} in "
            f"{seconds:.2f} s ({cpu:.2f} CPU s): {agent_seconds / seconds:.1f}x the agent "
            f"by solver time, {agent_seconds / cpu:.1f}x by CPU time"
        )
    if greedy:
        quick = [pair for record, pair in zip(solved, greedy, strict=True) if record not in differ]
        any_seconds = sum(result.seconds for result, _ in quick)
        any_cpu = sum(cpu for _, cpu in quick)
        any_solved = sum(result.outcome is Outcome.SOLVED for result, _ in quick)
        longer = sum(
            1
            for (fast, _), (exact, _) in zip(quick, kept, strict=True)
            if fast.length is not None and exact.length is not None and fast.length > exact.length
        )
        print(
            f"Miau (best-first, --any): {any_solved}/{len(compared)} in {any_seconds:.2f} s of "
            f"solver time ({any_cpu:.2f} CPU s); {longer} solutions longer than the shortest"
        )
        if any_seconds > 0 and any_cpu > 0:
            print(
                f"speed-up of --any on the compared levels: {agent_seconds / any_seconds:.1f}x "
                f"by solver time, {agent_seconds / any_cpu:.1f}x by CPU time"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
