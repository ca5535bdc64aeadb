"""The project's licence and citation agree with each other: LICENSE, pyproject.toml and CITATION.cff.

The wheel's METADATA is checked where the wheel is built (``tests/gym/test_wheel.py``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
    return project


def _citation_fields() -> dict[str, str]:
    """The top-level ``key: value`` lines of CITATION.cff (enough for the scalars checked here)."""
    found = {}
    for line in (ROOT / "CITATION.cff").read_text(encoding="utf-8").splitlines():
        if line[:1].isalpha() and ":" in line:
            key, _, value = line.partition(":")
            found[key] = value.strip().strip("\"'")
    return found


def test_the_licence_file_is_the_mit_licence_of_the_miau_authors() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the Miau authors" in text
    assert "Permission is hereby granted, free of charge" in text


def test_pyproject_declares_the_same_licence_and_ships_the_file() -> None:
    project = _pyproject()
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    # A licence classifier beside an SPDX expression is refused by setuptools (PEP 639).
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))


def test_the_citation_names_the_licence_and_the_version_of_pyproject() -> None:
    fields = _citation_fields()
    assert fields["cff-version"] == "1.2.0"
    assert fields["title"] == "Miau"
    assert fields["type"] == "software"
    assert fields["license"] == "MIT"
    assert fields["version"] == _pyproject()["version"]
    assert fields["message"]


def test_the_citation_file_parses_as_yaml_with_the_authors_as_one_entity() -> None:
    yaml = pytest.importorskip("yaml")  # PyYAML comes with the dev extra (through dask)
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert data["authors"] == [{"name": "The Miau authors"}]
    assert data["license"] == "MIT"
    assert str(data["version"]) == _pyproject()["version"]
    # What CFF 1.2.0 requires of every file.
    assert {"cff-version", "message", "title", "authors"} <= set(data)
