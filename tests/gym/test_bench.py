"""``miau bench`` and the agents it plays: baselines, loading, limits and the table."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

from miau.cli import main
from miau.gym.agents import GreedyAgent, RandomAgent, SolverAgent, load_agent, move_name
from miau.gym.bench import TIME_LIMIT, score_agent
from miau.gym.levels import parse_level_spec
from tests.gym.sample_agents import StateCounter

ROOT = Path(__file__).resolve().parents[2]
KEKE_SAMPLE = ROOT / "tests" / "keke" / "sample.miau.json"


@pytest.mark.parametrize("agent", ["random", "greedy", "solver"])
def test_miau_bench_runs_each_baseline_on_a_tutorial_level(
    agent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", agent, "tutorial:first-steps", "--max-steps", "50"]) == 0
    out = capsys.readouterr().out
    assert "| level (" + agent + ") | solved | steps | shortest | time (s) | end |" in out
    row = next(line for line in out.splitlines() if line.startswith("| tutorial/first-steps"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[3] == "6"  # the solver's shortest solution
    if agent != "random":
        assert cells[1:3] == ["yes", "6"] and cells[5] == "won"


def test_the_solver_agent_solves_a_keke_sample_level_in_the_shortest_number_of_steps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "solver", f"{KEKE_SAMPLE}:keke-180"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "keke-180" in line)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == "yes" and cells[2] == cells[3]


def test_bench_json_lists_one_record_per_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "greedy", "proofs", "--json", "--no-shortest"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 10 and all('"shortest": null' in line for line in lines)


def test_an_agent_is_loaded_from_module_and_callable(capsys: pytest.CaptureFixture[str]) -> None:
    spec = "tests.gym.sample_agents:always_right"
    assert main(["bench", spec, "tutorial:first-steps", "--no-shortest"]) == 0
    assert "| tutorial/first-steps |" in capsys.readouterr().out


def test_a_class_is_instantiated_and_a_state_agent_is_shown_states() -> None:
    agent = load_agent("tests.gym.sample_agents:StateCounter")
    assert isinstance(agent, StateCounter)
    [score] = score_agent(agent, parse_level_spec("tutorial:first-steps"), max_steps=3)
    assert score.steps == 3 and score.moves == "RRR"
    assert [state.move_count for state in agent.seen] == [0, 1, 2]


def test_a_model_with_predict_is_played_through_it() -> None:
    agent = load_agent("tests.gym.sample_agents:PredictOnly")
    [score] = score_agent(agent, parse_level_spec("tutorial:first-steps"), max_steps=2)
    assert score.moves == "RR"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nothing", "give one of random, greedy, solver"),
        ("no_such_module_here:agent", "cannot import no_such_module_here"),
        ("tests.gym.sample_agents:missing", "has no missing"),
    ],
)
def test_an_agent_that_cannot_be_loaded_is_a_clear_error(
    spec: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", spec, "tutorial:first-steps"]) == 2
    assert message in capsys.readouterr().err


def test_an_agent_returning_no_move_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "tests.gym.sample_agents:nonsense", "tutorial:first-steps"]) == 2
    assert "an agent returned 'sideways'" in capsys.readouterr().err


def test_an_unknown_level_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "random", "tutorial:nowhere"]) == 2
    assert "no level 'nowhere'" in capsys.readouterr().err


def test_moves_are_read_as_indexes_names_or_letters() -> None:
    assert [move_name(m) for m in (0, np.int64(3), "left", "w", None)] == [
        "up",
        "right",
        "left",
        "wait",
        None,
    ]
    with pytest.raises(ValueError, match="a move is 0-4"):
        move_name(5)


def test_the_time_limit_stops_a_level_and_a_late_win_does_not_count() -> None:
    ticks = itertools.count()

    def clock() -> float:
        return float(next(ticks))

    entries = parse_level_spec("tutorial:first-steps")
    [slow] = score_agent(SolverAgent(), entries, time_limit=3.5, clock=clock, shortest_budget=None)
    assert not slow.solved and slow.ending == TIME_LIMIT and slow.steps == 3


def test_the_solver_agent_gives_up_when_its_budget_finds_nothing() -> None:
    entries = parse_level_spec("tutorial:crossword")
    [score] = score_agent(SolverAgent(max_expansions=1), entries, shortest_budget=None)
    assert score.ending == "gave up" and score.steps == 0


def test_random_and_greedy_agents_repeat_themselves_for_a_seed() -> None:
    entries = parse_level_spec("tutorial")[:4]
    for make in (RandomAgent, GreedyAgent):
        runs = [score_agent(make(), entries, seed=7, shortest_budget=None) for _ in range(2)]
        assert [s.moves for s in runs[0]] == [s.moves for s in runs[1]]


def test_the_solver_agent_stops_searching_at_its_deadline() -> None:
    entries = parse_level_spec("tutorial:crossword")  # about 33,000 states to expand
    [score] = score_agent(SolverAgent(seconds=0.0), entries, shortest_budget=None)
    assert score.ending == "gave up" and score.steps == 0


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_miau_bench_runs_the_other_baselines_on_a_keke_sample_level(
    agent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", agent, f"{KEKE_SAMPLE}:keke-10", "--max-steps", "30"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "keke-10 " in line)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[3] == "4" and cells[5] in {"won", "lost", "step limit"}


def test_miau_bench_without_the_gym_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "miau.gym", None)
    assert main(["bench", "random", "tutorial:first-steps"]) == 2
    assert "pip install 'miau-puzzle[gym]'" in capsys.readouterr().err
