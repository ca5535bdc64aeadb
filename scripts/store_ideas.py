"""Store each level's idea signature in its pack file, as the level's ``ideas`` field.

    .venv/bin/python scripts/store_ideas.py packs/tutorial.json [PACK ...]

For every level with a stored ``solution``, the needed rule changes along
it are judged (``miau.solver.ideas.level_ideas``) and the signature is
written on one line after the solution, replacing an ``ideas`` line that
is there. The rest of the file is left as it was written, byte for byte,
so a diff shows only the signatures. ``miau check`` reads the stored
signatures for its repetition audit, and ``miau check --depth --json``
says whether each is still current (``storedIdeasCurrent``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from miau.packs import load_pack
from miau.solver.ideas import level_ideas

SOLUTION_LINE = re.compile(r'^(?P<indent>\s*)"solution": "[UDLRWudlrw]+"(?P<comma>,?)$')
IDEAS_LINE = re.compile(r'^\s*"ideas": \[.*\],?$')


def store(path: Path) -> int:
    """Write the signatures into the pack at ``path``; return how many levels got one."""
    pack = load_pack(path)
    signatures = {
        level.id: list(level_ideas(level.data, level.solution).signature)
        for level in pack.levels
        if level.solution is not None
    }
    lines = path.read_text(encoding="utf-8").split("\n")
    out: list[str] = []
    level_id: str | None = None
    written = 0
    for line in lines:
        if IDEAS_LINE.match(line):
            if not line.endswith(",") and out:
                # It closed its level: the line before it closes it again.
                out[-1] = out[-1].removesuffix(",")
            continue
        found = re.match(r'^\s*"id": "(?P<id>[^"]+)",?$', line)
        if found and found["id"] in signatures:
            level_id = found["id"]
        solution = SOLUTION_LINE.match(line)
        if solution and level_id is not None:
            ideas = json.dumps(signatures[level_id], ensure_ascii=False)
            out.append(line if solution["comma"] else line + ",")
            out.append(f'{solution["indent"]}"ideas": {ideas}{solution["comma"]}')
            written += 1
            level_id = None
            continue
        out.append(line)
    text = "\n".join(out)
    load_pack(json.loads(text))  # the file must still be a valid pack
    path.write_text(text, encoding="utf-8")
    return written


def main(arguments: list[str]) -> int:
    """Store the signatures of every pack named on the command line."""
    if not arguments:
        print(__doc__, file=sys.stderr)
        return 2
    for name in arguments:
        print(f"{name}: {store(Path(name))} levels")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
