"""``baseline_wins``: the baselines ``miau check --depth`` reports, played as ``miau bench`` plays them."""

from __future__ import annotations

from miau.engine.level import Level
from miau.gym.bench import BASELINE_NAMES, baseline_wins
from tests.engine.builders import level, sentence, thing

# The flag is in plain view of the cat, nothing in the way.
OPEN_FIELD = level(
    7,
    5,
    sentence("MIAU IS YOU", 0, 0),
    sentence("FLAG IS WIN", 0, 1),
    thing("MIAU", 1, 3),
    thing("FLAG", 5, 3),
)

# No WIN word anywhere: nothing can ever win.
NO_WIN = level(5, 4, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 1, 2), thing("FLAG", 3, 2))


def test_the_greedy_baseline_wins_a_level_whose_rules_already_allow_a_win() -> None:
    wins = baseline_wins(Level.from_dict(OPEN_FIELD))
    assert set(wins) == set(BASELINE_NAMES)
    assert wins["greedy"] is True


def test_no_baseline_wins_a_level_without_a_win_word() -> None:
    assert baseline_wins(Level.from_dict(NO_WIN)) == {"random": False, "greedy": False}
