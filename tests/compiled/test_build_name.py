"""``miau --version`` names the build that runs, in the pure and in the compiled pass."""

from __future__ import annotations

import pytest

import miau.engine.turn
import miau.solver.search
from miau.cli import main
from miau.compiled import COMPILED_NAME, PURE_NAME, build_name, is_compiled


def test_the_build_is_compiled_exactly_when_the_engine_is_an_extension_module() -> None:
    from_source = miau.engine.turn.__file__.endswith(".py")
    assert is_compiled() is not from_source
    assert build_name() == (PURE_NAME if from_source else COMPILED_NAME)


def test_the_engine_and_the_solver_come_from_the_same_build() -> None:
    assert miau.engine.turn.__file__.endswith(".py") == miau.solver.search.__file__.endswith(".py")


def test_miau_version_prints_the_version_and_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("miau ")
    assert printed.endswith(f"({build_name()})")
