"""The built wheel is the whole game: installed away from the clone, it checks and plays every world.

The wheel is built by pip from the checkout's tracked files (what a clean
clone holds), installed with its ``cli`` extra into a new virtual
environment under a temporary folder, and run from a folder with no Miau in
it, so nothing can come from the source tree: ``miau check`` proves the
packs it carries, and ``miau play`` serves every level of every shipped world
to Chromium, where one level of each world is won by real key presses.

Every test runs twice: on the pure-Python wheel and on the compiled one
(``scripts/build_compiled.sh``, which reuses its wheel while the sources are
unchanged); the installed ``miau --version`` must name the build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from miau.compiled import COMPILED_NAME, PURE_NAME
from tests.browser.game_page import GamePage
from tests.support.local import PACKS, PlayProcess, shipped_solution, start_miau_play

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "constraints.txt"
"""The locked versions the test command installs; the wheel test installs the same ones."""
SHIPPED_WORLDS = sorted(path.stem for path in PACKS.glob("*.json"))


@dataclass(frozen=True, slots=True)
class Installed:
    """A fresh virtual environment with the built wheel installed, and a folder to run it in."""

    wheel: Path
    python: Path
    home: Path
    build: str
    """``pure Python`` or ``compiled (mypyc)``: what ``miau --version`` must say."""

    def run(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        """Run the installed ``miau`` with ``arguments`` in the empty folder."""
        return subprocess.run(
            [str(self.python.parent / "miau"), *arguments],
            cwd=self.home,
            env=outside_env(),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )


def outside_env() -> dict[str, str]:
    """This process's environment without anything that points Python at the checkout."""
    return {
        name: value
        for name, value in os.environ.items()
        if name not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
    }


def copy_tracked_files(destination: Path) -> None:
    """Copy the checkout's tracked files (as they stand) to ``destination``: a clean clone's tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is not there
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def compiled_wheel() -> Path:
    """The compiled wheel of the working tree, built (or reused) by the project's one command."""
    out = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build_compiled.sh")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return Path(ROOT / out.strip().splitlines()[-1])


@pytest.fixture(scope="module", params=[PURE_NAME, COMPILED_NAME])
def installed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Installed:
    build: str = request.param
    root = tmp_path_factory.mktemp("wheel")
    tree, dist, venv, home = root / "clone", root / "dist", root / "venv", root / "elsewhere"
    if build == PURE_NAME:
        copy_tracked_files(tree)
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "wheel", "--no-deps", "-w", str(dist), str(tree)], check=True)
        (wheel,) = dist.glob("miau_puzzle-*.whl")
    else:
        if "compiled" in os.environ.get("MIAU_SKIP", "").replace(" ", "").split(","):
            pytest.skip("the compiled build is left out by MIAU_SKIP")
        wheel = compiled_wheel()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "--disable-pip-version-check",
            "-q",
            "install",
            "--constraint",
            str(CONSTRAINTS),
            f"{wheel}[cli]",
        ],
        check=True,
        env=outside_env(),
    )
    home.mkdir()
    return Installed(wheel, python, home, build)


@pytest.fixture(scope="module")
def installed_server(installed: Installed) -> Iterator[PlayProcess]:
    server = start_miau_play(
        installed.home / "miau.db", python=installed.python, cwd=installed.home
    )
    yield server
    assert server.stop() == 0


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def test_the_wheel_carries_the_client_and_every_shipped_world_and_no_tests(
    installed: Installed,
) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert "miau/web/index.html" in names
    assert any(name.startswith("miau/web/js/") for name in names)
    assert {f"miau/worlds/{world}.json" for world in SHIPPED_WORLDS} <= names
    assert not any(name.startswith("tests/") for name in names)


def test_the_wheel_is_pure_python_or_compiled_for_this_platform(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    extensions = [name for name in names if name.endswith(".so")]
    if installed.build == PURE_NAME:
        assert installed.wheel.name.endswith("-py3-none-any.whl")
        assert extensions == []
    else:
        assert not installed.wheel.name.endswith("-none-any.whl")
        assert {"miau/engine/turn.py", "miau/solver/search.py"} <= set(names)
        assert any(name.startswith("miau/engine/turn.") for name in extensions)


def test_miau_version_names_the_build_installed(installed: Installed) -> None:
    result = installed.run("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith(f"({installed.build})")


def test_the_installed_miau_is_the_one_in_the_fresh_environment(installed: Installed) -> None:
    found = subprocess.run(
        [str(installed.python), "-c", "import miau; print(miau.__file__)"],
        cwd=installed.home,
        env=outside_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(found).is_relative_to(installed.python.parents[1])


def test_the_wheel_installs_under_the_distribution_name_that_is_ours(installed: Installed) -> None:
    assert installed.wheel.name.startswith("miau_puzzle-")
    shown = subprocess.run(
        [str(installed.python), "-m", "pip", "show", "miau-puzzle"],
        cwd=installed.home,
        env=outside_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Name: miau-puzzle" in shown
    assert "Location: " + str(installed.python.parents[1]) in shown


def test_miau_check_passes_over_the_packs_the_wheel_carries(installed: Installed) -> None:
    result = installed.run("check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"checked {len(SHIPPED_WORLDS)} packs" in result.stdout
    assert "0 failed" in result.stdout


def test_every_level_of_every_shipped_world_opens_from_the_installed_server(
    page: Page, installed_server: PlayProcess, installed: Installed
) -> None:
    if installed.build == COMPILED_NAME:
        pytest.skip("opening every level is the client's and server's work: the pure wheel does it")
    base = f"http://127.0.0.1:{installed_server.port}"
    worlds = get_json(f"{base}/api/worlds")["worlds"]
    assert sorted(world["id"] for world in worlds) == SHIPPED_WORLDS
    game = GamePage(page, base)
    opened = 0
    for world in worlds:
        levels = get_json(f"{base}/api/worlds/{world['id']}")["levels"]
        assert len(levels) == world["levels"]
        for level in levels:
            game.open_level(world["id"], level["id"])
            assert page.locator(".board > .entity").count() > 0
            opened += 1
    assert opened == sum(world["levels"] for world in worlds)


@pytest.mark.parametrize("world", SHIPPED_WORLDS)
def test_a_level_of_each_shipped_world_is_won_from_the_installed_server(
    page: Page, installed_server: PlayProcess, world: str
) -> None:
    base = f"http://127.0.0.1:{installed_server.port}"
    level, moves = shortest_stored_solution(world)
    game = GamePage(page, base)
    game.open_level(world, level)
    game.play(moves)
    page.wait_for_selector(".win-overlay")
    assert page.inner_text(".win-overlay [data-stat='moves']") == str(len(moves))


def shortest_stored_solution(world: str) -> tuple[str, str]:
    """The level of ``world`` with the shortest stored solution, and that solution."""
    data = json.loads((PACKS / f"{world}.json").read_text(encoding="utf-8"))
    solved = [entry["id"] for entry in data["levels"] if "solution" in entry]
    best = min(solved, key=lambda level: len(shipped_solution(world, level)))
    return best, shipped_solution(world, best)
