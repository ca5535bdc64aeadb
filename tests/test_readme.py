"""The README stays a newcomer's page: short, starting with the two commands that work."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_the_readme_is_under_250_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < 250


def test_the_readme_starts_with_the_play_command_and_the_test_command_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = text.split("```")[1].strip().splitlines()
    assert first_block[0].endswith(".venv/bin/miau play")
    assert first_block[1] == "bash scripts/test.sh"
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_document_the_readme_links_exists() -> None:
    text = README.read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(((?:docs|schema|benchmarks|scripts)/[^)#\s]+)", text))
    assert links, "the README links no document"
    missing = sorted(link for link in links if not (ROOT / link).exists())
    assert missing == []
