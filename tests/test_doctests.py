"""The examples in the docstrings of the main entry points run and show what they say."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import miau.engine.game
import miau.packs.load
import miau.solver.search

DOCUMENTED = (miau.engine.game, miau.packs.load, miau.solver.search)


@pytest.mark.parametrize("module", DOCUMENTED, ids=lambda module: module.__name__)
def test_the_docstring_examples_of_the_entry_points_hold(module: ModuleType) -> None:
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert outcome.attempted > 0, f"{module.__name__} has no examples"
    assert outcome.failed == 0
