from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCENES = {
    "01-title": (1280, 800),
    "02-world-select": (1280, 800),
    "03-level-select": (1280, 800),
    "04-play-start": (1280, 800),
    "05-play-mid-push": (1280, 800),
    "06-win": (1280, 800),
    "07-loss-banner": (1280, 800),
    "08-clockwork-glossary": (1280, 800),
    "09-phone-play": (390, 844),
    "10-phone-play-panels": (390, 844),
}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_script_writes_every_scene_at_its_viewport_size_and_the_page_reports_no_problem(
    tmp_path: Path,
) -> None:
    outdir = tmp_path / "shots"
    db_path = tmp_path / "kept.db"
    script = ROOT / "scripts" / "screenshots.py"

    run = subprocess.run(
        [sys.executable, str(script), str(outdir), "--db", str(db_path)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )

    assert run.returncode == 0, run.stderr
    printed = [Path(line) for line in run.stdout.splitlines()]
    assert sorted(path.stem for path in printed) == sorted(SCENES)
    for path in printed:
        assert path.parent == outdir
        assert png_size(path) == SCENES[path.stem], path.name
    assert db_path.stat().st_size > 0, "the database given with --db is the one used, and kept"
