"""From a wheel, outside the clone: what a researcher who runs ``pip install 'miau-puzzle[gym]'`` gets.

The test builds the wheel from a copy of the sources, installs it with the
``gym`` and ``video`` extras in a fresh virtual environment in a temporary
folder, and there, away from the clone, runs the first example of
``docs/gym.md``, Gymnasium's checker, ``RecordVideo`` with ``rgb_array``,
a vector environment over a task family, ``miau bench`` on a family and
``miau import keke -o``. About a minute, most of it pip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

IN_THE_WHEEL = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    import gymnasium
    import numpy as np
    from gymnasium.utils.env_checker import check_env
    from gymnasium.vector import SyncVectorEnv
    from gymnasium.wrappers import RecordVideo

    import miau.gym

    assert "site-packages" in miau.gym.__file__, miau.gym.__file__
    for env_id in ("miau/Level-v0", "miau/Levels-v0", "miau/Family-v0", "miau/BreakStop-v0"):
        check_env(gymnasium.make(env_id).unwrapped)
    env = gymnasium.make("miau/Level-v0", pack="tutorial", render_mode="rgb_array")
    recorder = RecordVideo(env, "videos", episode_trigger=lambda n: True, disable_logger=True)
    recorder.reset(seed=0)
    for _ in range(8):
        recorder.step(3)
    recorder.close()
    videos = list(Path("videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0, videos
    vector = SyncVectorEnv([lambda: gymnasium.make("miau/MakeWin-v0")] * 2)
    observations, infos = vector.reset(seed=0)
    observations, rewards, terminated, truncated, infos = vector.step(np.array([0, 3]))
    assert observations.shape[0] == 2 and "shortest" in infos
    vector.close()
    print("wheel checks passed")
    """
)

KEKE_LEVELS = json.dumps(
    {
        "levels": [
            {
                "id": 1,
                "name": "",
                "author": "Test",
                "ascii": "_________\n_B12.F13_\n_......._\n_b....f._\n_________",
                "solution": "rrrrr",
            }
        ]
    }
)
"""One Keke level (the importer tests' first)."""


def documented_example() -> str:
    """The first Python block of docs/gym.md, the one a reader copies first."""
    text = (ROOT / "docs" / "gym.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert found, "docs/gym.md has no Python example"
    return found.group(1)


def run(command: list[str], cwd: Path, timeout: float = 600) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


@pytest.mark.slow
def test_the_wheel_with_the_gym_extra_runs_the_examples_outside_the_clone(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, sources / name)
    shutil.copytree(
        ROOT / "src", sources / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    wheels = tmp_path / "wheels"
    run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(wheels), str(sources)],
        tmp_path,
    )  # fmt: skip
    (wheel,) = wheels.glob("miau_puzzle-*.whl")
    # The licence travels in the wheel: named in METADATA, the file under dist-info/licenses.
    dist_info = "-".join(wheel.name.split("-")[:2]) + ".dist-info"
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"{dist_info}/METADATA").decode("utf-8")
        assert f"{dist_info}/licenses/LICENSE" in archive.namelist()
    assert "License-Expression: MIT" in metadata.splitlines()
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    python = str(venv / "bin" / "python")
    run(
        [python, "-m", "pip", "install", "-q", "--constraint", str(ROOT / "constraints.txt"),
         f"{wheel}[gym,video]"],
        tmp_path,
    )  # fmt: skip
    away = tmp_path / "elsewhere"
    away.mkdir()
    (away / "example.py").write_text(documented_example(), encoding="utf-8")
    run([python, "example.py"], away)
    (away / "checks.py").write_text(IN_THE_WHEEL, encoding="utf-8")
    assert "wheel checks passed" in run([python, "checks.py"], away)
    miau = str(venv / "bin" / "miau")
    bench = run([miau, "bench", "random", "family:goto-win:2", "--no-shortest"], away)
    assert bench.count("| goto-win/") == 2
    (away / "mine_LEVELS.json").write_text(KEKE_LEVELS, encoding="utf-8")
    said = run([miau, "import", "keke", "mine_LEVELS.json", "-o", "keke.json"], away)
    assert "written to keke.json" in said and (away / "keke.json").is_file()
