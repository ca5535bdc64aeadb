from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCENES: dict[str, tuple[int, int | None]] = {
    "01-title": (1280, 800),
    "02-world-select": (1280, 800),
    "03-level-select": (1280, 800),
    "04-play-start": (1280, 800),
    "05-play-mid-push": (1280, 800),
    "06-win": (1280, 800),
    "06-win-over-the-shortest": (1280, 800),
    "07-loss-banner": (1280, 800),
    "08-clockwork-glossary": (1280, 800),
    "09-phone-play": (390, 844),
    "10-phone-play-panels": (390, 844),
    "11-phone-hint": (390, 844),
    "12-locked-level": (1280, 800),
    "12-phone-locked-level": (390, 844),
    "13-world-complete": (1280, 800),
    "13-phone-world-complete": (390, 844),
    "14-world-progress": (1280, 800),
    "14-phone-world-progress": (390, 844),
    "15-sound-off": (1280, 800),
    "15-phone-sound-off": (390, 844),
    "16-double-time": (1280, 800),
    "16-phone-double-time": (390, 844),
    "17-stepping-stone": (1280, 800),
    "17-phone-stepping-stone": (390, 844),
    "18-stop-the-clock": (1280, 800),
    "18-phone-stop-the-clock": (390, 844),
    "19-can-i-still-win": (1280, 800),
    "19-phone-can-i-still-win": (390, 844),
    "16-starting": (1280, 800),
    "16-phone-starting": (390, 844),
    "17-phone-title": (390, 844),
    "17-phone-win-over-the-shortest": (390, 844),
    "17-phone-win-shortest-matched": (390, 844),
    "18-phone-loss-banner": (390, 844),
    "19-phone-dense-board": (390, 844),
    "16-deep-end-levels": (1280, 800),
    "16-phone-deep-end-levels": (390, 844),
    "17-deep-end-anyone-but-me": (1280, 800),
    "17-phone-deep-end-anyone-but-me": (390, 844),
    "18-deep-end-catch-the-mouse": (1280, 800),
    "18-phone-deep-end-catch-the-mouse": (390, 844),
    "16-hints": (1280, 800),
    "16-phone-hints": (390, 844),
    "21-library-import-report": (1280, 800),
    "21-phone-library-import-report": (390, 844),
    "22-world-select-library": (1280, 800),
    "22-phone-world-select-library": (390, 844),
    "23-shared-level": (1280, 800),
    "23-phone-shared-level": (390, 844),
    "24-share-dialog": (1280, 800),
    "24-phone-share-dialog": (390, 844),
    "25-shared-link-refused": (1280, 800),
    "25-phone-shared-link-refused": (390, 844),
    "31-editor": (1280, 800),
    "31-phone-editor": (390, None),
    "32-editor-automata": (1280, 800),
    "32-phone-editor-automata": (390, None),
    "33-editor-check": (1280, 800),
    "33-phone-editor-check": (390, None),
    "34-editor-solve": (1280, 800),
    "34-phone-editor-solve": (390, None),
    "35-editor-test-play": (1280, 800),
    "35-phone-editor-test-play": (390, None),
    "36-editor-depth": (1280, 800),
    "36-phone-editor-depth": (390, None),
    "37-editor-suggest": (1280, 800),
    "37-phone-editor-suggest": (390, None),
    "38-editor-save": (1280, 800),
    "38-phone-editor-save": (390, None),
    "40-static-loading": (1280, 800),
    "41-static-play": (1280, 800),
    "42-static-library-progress": (1280, None),
    "43-static-phone-play": (390, 844),
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
        timeout=480,  # every group, the static site built once; a loaded 2-core machine takes 3 to 4 minutes
        check=False,
    )

    assert run.returncode == 0, run.stderr
    printed = [Path(line) for line in run.stdout.splitlines()]
    assert sorted(path.stem for path in printed) == sorted(SCENES)
    for path in printed:
        assert path.parent == outdir
        width, height = png_size(path)
        expected_width, expected_height = SCENES[path.stem]
        assert width == expected_width, path.name
        # Whole-page shots (the phone editor, the static site's library) scroll, so only
        # their width is fixed and their height at least the viewport's.
        if expected_height is None:
            assert height >= (844 if expected_width == 390 else 800), path.name
        else:
            assert height == expected_height, path.name
    assert db_path.stat().st_size > 0, "the database given with --db is the one used, and kept"
