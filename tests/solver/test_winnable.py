"""Can I still win?: the replayed state, the answers along every stored solution, fatal moves."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game
from miau.engine.vocabulary import MOVE_LETTERS
from miau.solver import Expander, LevelSpec, read_levels, solve
from miau.solver.winnable import (
    MoveLogError,
    Verdict,
    WinnableAnswer,
    can_still_win,
    first_fatal_move,
    replay_history,
)
from tests.solver.builders import SHIPPED_PACKS, level, sentence, thing

SHIPPED = [spec for path in SHIPPED_PACKS for spec in read_levels(path).levels]
IDS = [spec.id for spec in SHIPPED]


@cache
def expander_for(spec_id: str) -> Expander:
    (spec,) = [spec for spec in SHIPPED if spec.id == spec_id]
    return Expander(spec.data)


@cache
def fatal_for(spec_id: str) -> str | None:
    """The first deliberately fatal move log of the level's stored solution, if any."""
    (spec,) = [spec for spec in SHIPPED if spec.id == spec_id]
    assert spec.solution is not None
    return first_fatal_move(spec.data, spec.solution, expander=expander_for(spec_id))


def ask(spec: LevelSpec, moves: str, *, witnessed: bool = False) -> WinnableAnswer:
    witness = spec.solution if witnessed else None
    return can_still_win(spec.data, moves, expander=expander_for(spec.id), witness=witness)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SHIPPED, ids=IDS)
def test_every_state_along_the_stored_solution_is_winnable(spec: LevelSpec) -> None:
    assert spec.solution is not None
    for played in range(len(spec.solution)):
        answer = ask(spec, spec.solution[:played])
        assert answer.verdict is Verdict.WINNABLE, (spec.id, played)
        assert not answer.won
    finished = ask(spec, spec.solution)
    assert finished.verdict is Verdict.WINNABLE and finished.won


@pytest.mark.slow
@pytest.mark.parametrize("spec", SHIPPED, ids=IDS)
def test_a_fatal_move_off_the_solution_is_not_winnable_one_undo_back(spec: LevelSpec) -> None:
    assert spec.solution is not None
    fatal = fatal_for(spec.id)
    if fatal is None:
        pytest.skip("no move off the stored solution loses this level")
    for witnessed in (False, True):  # as a level without a stored solution, and as the hosts ask
        answer = ask(spec, fatal, witnessed=witnessed)
        assert answer.verdict is Verdict.NOT_WINNABLE
        assert answer.undos_back == 1
        # Checked on its own: one undo after the fatal move is winnable again.
        assert ask(spec, fatal + "Z", witnessed=witnessed).verdict is Verdict.WINNABLE


@pytest.mark.slow
def test_fatal_moves_exist_on_some_shipped_levels() -> None:
    # The per-level test above skips levels without one; it must not skip them all.
    assert any(fatal_for(spec.id) is not None for spec in SHIPPED)


# MIAU IS YOU stands upright at x = 1; pushing its YOU right loses the cat for good.
LOSABLE = level(
    6,
    4,
    sentence("MIAU IS YOU", 1, 0, "v"),
    sentence("FLAG IS WIN", 3, 0),
    thing("MIAU", 0, 2),
    thing("FLAG", 5, 3),
)


def test_the_undo_count_is_the_fewest_undos_that_make_the_game_winnable_again() -> None:
    # U then R pushes YOU away (fatal); the waits after it are turns of their own.
    moves = "URWWW"
    answer = can_still_win(LOSABLE, moves)
    assert answer.verdict is Verdict.NOT_WINNABLE
    undos = [
        k
        for k in range(1, len(moves) + 1)
        if can_still_win(LOSABLE, moves + "Z" * k).verdict is Verdict.WINNABLE
    ]
    assert answer.undos_back == undos[0] == 4


def test_a_restart_makes_a_lost_game_winnable() -> None:
    assert can_still_win(LOSABLE, "UR").verdict is Verdict.NOT_WINNABLE
    assert can_still_win(LOSABLE, "URX").verdict is Verdict.WINNABLE
    assert can_still_win(LOSABLE, "URX").turns == 0


def test_a_large_space_and_a_tiny_budget_give_unknown() -> None:
    (spec,) = [spec for spec in SHIPPED if spec.id == "crossword"]
    answer = can_still_win(spec.data, "", max_expansions=5)
    assert answer.verdict is Verdict.UNKNOWN
    assert answer.undos_back is None and answer.expanded <= 5


def test_the_answer_carries_no_moves() -> None:
    answer = can_still_win(LOSABLE, "U")
    record = answer.to_json()
    assert set(record) == {"verdict", "undosBack", "won", "turns", "expanded", "seconds"}
    assert not any(
        isinstance(value, str) and set(value) <= set("UDLRW") for value in record.values() if value
    )


@cache
def losable_solution() -> str:
    moves = solve(LOSABLE).moves
    assert moves
    return moves


def test_a_game_on_the_witness_line_is_answered_winnable_without_searching() -> None:
    solution = losable_solution()
    for played in range(len(solution)):
        answer = can_still_win(LOSABLE, solution[:played], witness=solution)
        assert answer.verdict is Verdict.WINNABLE
        assert answer.expanded == 0, played


def test_a_witness_that_does_not_win_proves_nothing() -> None:
    # "UR" loses the cat for good: as a witness it must not make "UR" look winnable.
    for witness in ("UR", "UQ", ""):
        answer = can_still_win(LOSABLE, "UR", witness=witness)
        assert answer.verdict is Verdict.NOT_WINNABLE
        assert answer.undos_back == 1


@settings(max_examples=60, deadline=None)
@given(log=st.text(alphabet="UDLRWZX", max_size=12))
def test_a_winning_witness_never_changes_an_answer_only_its_cost(log: str) -> None:
    plain = can_still_win(LOSABLE, log)
    witnessed = can_still_win(LOSABLE, log, witness=losable_solution())
    assert (witnessed.verdict, witnessed.undos_back) == (plain.verdict, plain.undos_back)
    assert witnessed.expanded <= plain.expanded


def test_a_letter_that_is_not_a_log_letter_is_refused_clearly() -> None:
    with pytest.raises(MoveLogError, match="move 3 is 'Q'"):
        can_still_win(LOSABLE, "UUQ")


@settings(max_examples=40, deadline=None)
@given(
    index=st.integers(min_value=0, max_value=len(SHIPPED) - 1),
    log=st.text(alphabet="UDLRWZX", max_size=30),
)
def test_the_replayed_state_is_the_state_the_game_reaches(index: int, log: str) -> None:
    spec = SHIPPED[index]
    expander = expander_for(spec.id)
    history = replay_history(expander, log)
    game = Game(spec.data)
    for letter in log:
        if letter == "Z":
            game.undo()
        elif letter == "X":
            game.reset()
        else:
            game.step(MOVE_LETTERS[letter])
    key, won = history[-1]
    assert won == game.won
    assert len(history) - 1 == game.history_length
    assert key == expander.codec.encode(game._board)
