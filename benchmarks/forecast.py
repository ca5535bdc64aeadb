"""What the board's forecast (TICK paths, facings) adds to a play reply: time and bytes.

Run: ``.venv/bin/python benchmarks/forecast.py [--repeats N]``.

For every shipped level with automata, at every state along its stored
solution, prints the median time of one ``game.forecast()`` next to the
median time of the turn that led there (``game.step``, played on a copy),
and the wire state's size with and without the forecast's fields
(``miau.play.service.state_on_the_wire``). Then the same on a 64 x 64 board
with 1,984 TICK mice, past ``MAX_TICK_PATHS``, where the forecast follows
none of them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.engine import Game
from miau.packs import load_pack
from miau.play.service import state_on_the_wire
from miau.worlds import shipped_pack_path

PACKS = ("clockwork", "clockwork-pairs")


def median_us(action: Any, repeats: int) -> float:
    """Median microseconds of ``action()`` over ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def crowded_level() -> dict[str, Any]:
    """A 64 x 64 board with 1,984 mice that are TICK."""
    objects: list[dict[str, Any]] = [
        {"kind": "word", "text": text, "x": x, "y": 0}
        for x, text in enumerate(["MOUSE", "IS", "TICK", "MIAU", "IS", "YOU"])
    ]
    objects.append({"kind": "object", "noun": "MIAU", "x": 10, "y": 1})
    objects += [
        {"kind": "object", "noun": "MOUSE", "x": x, "y": y}
        for y in range(3, 64, 2)
        for x in range(64)
    ]
    return {
        "width": 64,
        "height": 64,
        "objects": objects,
        "automata": [{"id": "run", "property": "TICK", "pattern": ["L", "R", "D", "U"]}],
    }


def main() -> None:
    """Print the forecast's cost per level and on the crowded board."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    print(
        f"{'level':<22} {'states':>6} {'forecast us':>12} {'turn us':>9} {'bytes':>7} {'+bytes':>7}"
    )
    for pack_id in PACKS:
        for level in load_pack(shipped_pack_path(pack_id)).levels:
            if not level.data.get("automata") or not level.solution:
                continue
            forecasts, turns, sizes, added = [], [], [], []
            for index in range(len(level.solution)):
                game = Game(level.data)
                game.play(level.solution[:index])
                forecasts.append(median_us(game.forecast, args.repeats))
                runs = []
                for _ in range(max(3, args.repeats // 3)):
                    copy = Game(level.data)
                    copy.play(level.solution[:index])
                    start = time.perf_counter()
                    copy.play(level.solution[index])
                    runs.append((time.perf_counter() - start) * 1e6)
                turns.append(statistics.median(runs))
                plain = len(json.dumps(game.state.to_json(), separators=(",", ":")))
                wire = len(json.dumps(state_on_the_wire(game), separators=(",", ":")))
                sizes.append(plain)
                added.append(wire - plain)
            print(
                f"{level.id:<22} {len(forecasts):>6} {statistics.median(forecasts):>12.1f}"
                f" {statistics.median(turns):>9.1f} {statistics.median(sizes):>7.0f}"
                f" {statistics.median(added):>7.0f}"
            )
    game = Game(crowded_level())
    crowded = median_us(game.forecast, max(3, args.repeats // 3))
    waited = median_us(game.wait, max(3, args.repeats // 3))
    print(
        f"crowded 64x64, 1,984 TICK mice: forecast {crowded:.1f} us (follows none), "
        f"one wait {waited:.1f} us"
    )


if __name__ == "__main__":
    main()
