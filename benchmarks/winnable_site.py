"""Can I still win? as the static site answers it: the in-page host under Pyodide.

Usage::

    .venv/bin/python -m benchmarks.winnable_site [PATH ...] [--max N] [--slowest N]

The questions are those of ``benchmarks/winnable.py`` (the states along
every stored solution and a deliberately fatal move, found here on
CPython, not timed). Each is then asked of the static site's own host,
``miau.site.backend.SiteBackend``, running in Pyodide (the release the site
ships, from the build's cache) under Node: a fresh backend opens the level,
plays the log as intents, and the ``winnable`` query's reply is timed,
which is what a page's worker does when the player asks. The same search
without a witness (``can_still_win`` with no stored solution, as for a
shared level) is timed beside it in the same runtime.

Node runs WebAssembly on V8, as Chromium does; the page's worker adds only
the message trip. Wall time and the Node process's CPU time are both shown:
on a shared machine the wall time also counts other processes' turns.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.winnable import ROOT, questions
from miau.site.build import EXTRACT_DIR, engine_zip, extract_runtime, pyodide_tarball
from miau.solver.winnable import DEFAULT_WINNABLE_EXPANSIONS

_NODE_SCRIPT = """
import { loadPyodide } from %(loader)s;
import fs from "node:fs";
const pyodide = await loadPyodide({ indexURL: %(index)s });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(%(zip)s)), "zip", { extractDir: %(extract)s });
pyodide.globals.set("QUESTIONS", fs.readFileSync(%(questions)s, "utf8"));
pyodide.runPython(%(python)s);
fs.writeFileSync(%(out)s, pyodide.globals.get("ANSWERS"));
"""

_PYTHON = """
import json, sys, time
sys.path.insert(0, %(extract)r)
import js
from miau.site.backend import SiteBackend
from miau.solver.winnable import can_still_win

LETTERS = {"U": "up", "D": "down", "L": "left", "R": "right"}

def cpu():
    used = js.process.cpuUsage()
    return (used.user + used.system) / 1e6

def timed(ask):
    wall, spent = time.perf_counter(), cpu()
    answer = ask()
    return answer, time.perf_counter() - wall, cpu() - spent

answers = []
for question in json.loads(QUESTIONS):
    backend = SiteBackend()
    opened = {"type": "open", "pack": question["pack"], "level": question["level"]}
    backend.frame_reply(json.dumps(opened))
    seq = 0
    for letter in question["log"]:
        seq += 1
        if letter == "W":
            intent = {"type": "intent", "seq": seq, "intent": "wait"}
        else:
            intent = {"type": "intent", "seq": seq, "intent": "step", "direction": LETTERS[letter]}
        backend.frame_reply(json.dumps(intent))
    query = json.dumps({"type": "winnable", "seq": seq + 1})
    reply, wall, spent = timed(lambda: json.loads(backend.frame_reply(query)))
    level = backend.current.game.level
    plain, plain_wall, plain_spent = timed(
        lambda: can_still_win(level, question["log"], max_expansions=%(budget)d)
    )
    answers.append({
        **question,
        "host": {"verdict": reply["verdict"], "wall": wall, "cpu": spent},
        "plain": {"verdict": plain.verdict.value, "wall": plain_wall, "cpu": plain_spent},
    })
ANSWERS = json.dumps(answers)
"""


def ask_in_pyodide(asked: list[dict[str, str]], budget: int) -> list[dict[str, Any]]:
    """Ask every question of the site's host under Pyodide in Node; the timed answers."""
    node = shutil.which("node")
    if node is None:
        sys.exit("Node is needed to run Pyodide outside a browser; it was not found.")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        runtime = folder / "pyodide"
        extract_runtime(pyodide_tarball(), runtime)
        (folder / "miau.zip").write_bytes(engine_zip())
        (folder / "questions.json").write_text(json.dumps(asked), encoding="utf-8")
        script = folder / "ask.mjs"
        script.write_text(
            _NODE_SCRIPT
            % {
                "loader": json.dumps((runtime / "pyodide.mjs").as_uri()),
                "index": json.dumps(str(runtime) + "/"),
                "zip": json.dumps(str(folder / "miau.zip")),
                "extract": json.dumps(EXTRACT_DIR),
                "questions": json.dumps(str(folder / "questions.json")),
                "python": json.dumps(_PYTHON % {"extract": EXTRACT_DIR, "budget": budget}),
                "out": json.dumps(str(folder / "answers.json")),
            },
            encoding="utf-8",
        )
        subprocess.run([node, str(script)], check=True)
        answers: list[dict[str, Any]] = json.loads(
            (folder / "answers.json").read_text(encoding="utf-8")
        )
        return answers


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def spread(name: str, values: list[float]) -> str:
    """One line: p50, p95 and max of ``values`` in seconds."""
    return (
        f"{name:>4} s: p50 {percentile(values, 0.5):.4f}  p95 {percentile(values, 0.95):.4f}"
        f"  max {max(values):.4f}"
    )


def main() -> None:
    """Find the questions on CPython, ask them under Pyodide, print both distributions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="packs (default: packs/*.json)")
    parser.add_argument(
        "--max", type=int, default=DEFAULT_WINNABLE_EXPANSIONS, help="expansions per answer"
    )
    parser.add_argument("--slowest", type=int, default=5, help="slowest answers to list")
    args = parser.parse_args()
    paths = args.paths or sorted((ROOT / "packs").glob("*.json"))
    asked = [
        {"pack": q.pack, "level": q.spec.id, "kind": q.kind, "log": q.log}
        for q in questions(paths, args.max)
    ]
    answers = ask_in_pyodide(asked, args.max)
    for label, side in (
        ("the site's host (the stored solution as witness)", "host"),
        ("the search alone (no witness)", "plain"),
    ):
        timed = [(answer, answer[side]) for answer in answers]
        print(f"{label}: {len(answers)} answers under Pyodide, budget {args.max}")
        print(spread("wall", [float(each["wall"]) for _, each in timed]))
        print(spread("cpu", [float(each["cpu"]) for _, each in timed]))
        for kind in ("along", "fatal"):
            verdicts: dict[str, int] = {}
            for question, each in timed:
                if question["kind"] == kind:
                    verdicts[each["verdict"]] = verdicts.get(each["verdict"], 0) + 1
            print(f"{kind}: {verdicts}")
        print("slowest:")
        for question, each in sorted(timed, key=lambda pair: -float(pair[1]["wall"]))[
            : args.slowest
        ]:
            print(
                f"  {question['level']} {question['kind']} after {len(question['log'])} moves: "
                f"{each['verdict']}, {each['wall']:.3f} s wall, {each['cpu']:.3f} s cpu"
            )


if __name__ == "__main__":
    main()
