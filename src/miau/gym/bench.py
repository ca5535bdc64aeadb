"""Scoring an agent on a set of levels, as the Keke AI Competition scores its agents.

Each level is played from its start with a step limit and a time limit
(the competition's are 10,000 search iterations and 10 s per level); a
level counts as solved when the agent wins it within both. Each score is
set beside the solver's shortest solution, so "steps" reads against the
best possible.

The clock is a parameter, so tests can give one that they control.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from miau.engine import Game, Level
from miau.gym.agents import Agent, load_agent, move_name, observes
from miau.gym.env import control_can_return
from miau.gym.levels import LevelEntry
from miau.gym.observation import ChannelLayout, ObservationBuilder
from miau.solver import Outcome, solve

DEFAULT_BENCH_STEPS: Final = 200
"""Moves an agent may make on one level."""

DEFAULT_TIME_LIMIT: Final = 10.0
"""Seconds an agent may take on one level, planning included (the Keke competition's figure)."""

DEFAULT_SHORTEST_BUDGET: Final = 100_000
"""Expansions the solver may spend on each level's shortest solution, for the table."""

WON, LOST, STEP_LIMIT, TIME_LIMIT, GAVE_UP = "won", "lost", "step limit", "time limit", "gave up"


@dataclass(frozen=True, slots=True)
class Shortest:
    """What the solver says of a level: its shortest solution's length, or why there is none."""

    length: int | None
    outcome: str

    def text(self) -> str:
        """The length, ``none`` (proved unsolvable) or ``?`` (the budget ran out)."""
        if self.length is not None:
            return str(self.length)
        return "none" if self.outcome == Outcome.UNSOLVABLE.value else "?"


@dataclass(frozen=True, slots=True)
class LevelScore:
    """How an agent did on one level."""

    level: str
    solved: bool
    steps: int
    """Moves the agent made (accepted or not)."""
    seconds: float
    ending: str
    """``won``, ``lost``, ``step limit``, ``time limit`` or ``gave up``."""
    moves: str
    """The moves made, as letters ``U D L R W``."""
    shortest: Shortest | None

    def to_json(self) -> dict[str, Any]:
        """The score as a JSON-ready record."""
        return {
            "level": self.level,
            "solved": self.solved,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
            "ending": self.ending,
            "moves": self.moves,
            "shortest": None if self.shortest is None else self.shortest.length,
            "shortestOutcome": None if self.shortest is None else self.shortest.outcome,
        }


def shortest_solution(entry: LevelEntry, budget: int) -> Shortest:
    """The solver's answer for ``entry`` within ``budget`` expansions."""
    result = solve(entry.level, max_expansions=budget)
    return Shortest(result.length, result.outcome.value)


def play_level(
    agent: Agent,
    entry: LevelEntry,
    layout: ChannelLayout,
    *,
    max_steps: int = DEFAULT_BENCH_STEPS,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[bool, int, float, str, str]:
    """Play ``entry`` with ``agent``: (solved, steps, seconds, ending, move letters).

    :raises ValueError: when the agent returns something that is not a move.
    """
    game = Game(entry.level)
    wants_state = observes(agent) == "state"
    builder = None if wants_state else ObservationBuilder(layout, entry.level)
    observation = None if builder is None else builder.build(game.state)
    letters: list[str] = []
    started = clock()
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(entry.level, seed)
    ending = STEP_LIMIT
    while True:
        if clock() - started > time_limit:
            ending = TIME_LIMIT
            break
        if len(letters) >= max_steps:
            break
        move = move_name(agent(game.state if wants_state else observation))
        if move is None:
            ending = GAVE_UP
            break
        event = game.step(move)
        letters.append(move[0].upper())
        if event.accepted and builder is not None:
            observation = builder.update(event, lambda: game.state)
        if event.won:
            ending = WON
            break
        if event.control_lost and not control_can_return(game):
            ending = LOST
            break
    seconds = clock() - started
    if ending == WON and seconds > time_limit:
        ending = TIME_LIMIT
    return ending == WON, len(letters), seconds, ending, "".join(letters)


def score_agent(
    agent: Agent,
    entries: Sequence[LevelEntry],
    *,
    max_steps: int = DEFAULT_BENCH_STEPS,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    shortest_budget: int | None = DEFAULT_SHORTEST_BUDGET,
    clock: Callable[[], float] = time.perf_counter,
) -> list[LevelScore]:
    """Play every level of ``entries`` with ``agent``; ``shortest_budget=None`` skips the solver.

    Observation agents see every level in one layout, made from all of
    ``entries`` (``miau.gym.observation``).
    """
    layout = ChannelLayout.from_levels(entry.level for entry in entries)
    scores = []
    for entry in entries:
        solved, steps, seconds, ending, moves = play_level(
            agent,
            entry,
            layout,
            max_steps=max_steps,
            time_limit=time_limit,
            seed=seed,
            clock=clock,
        )
        shortest = None if shortest_budget is None else shortest_solution(entry, shortest_budget)
        scores.append(LevelScore(entry.name, solved, steps, seconds, ending, moves, shortest))
    return scores


def format_table(agent_name: str, scores: Sequence[LevelScore]) -> str:
    """The scores as a Markdown table, with a summary line under it."""
    lines = [
        f"| level ({agent_name}) | solved | steps | shortest | time (s) | end |",
        "| --- | :---: | ---: | ---: | ---: | --- |",
    ]
    for score in scores:
        shortest = "" if score.shortest is None else score.shortest.text()
        lines.append(
            f"| {score.level} | {'yes' if score.solved else 'no'} | {score.steps} | "
            f"{shortest} | {score.seconds:.3f} | {score.ending} |"
        )
    solved = [score for score in scores if score.solved]
    summary = f"solved {len(solved)}/{len(scores)}"
    ratios = [
        score.steps / score.shortest.length
        for score in solved
        if score.shortest is not None and score.shortest.length
    ]
    if ratios:
        summary += f"; steps / shortest on solved levels: {sum(ratios) / len(ratios):.2f}"
    summary += f"; time {sum(score.seconds for score in scores):.2f} s"
    return "\n".join([*lines, "", summary])


BASELINE_NAMES: Final = ("random", "greedy")
"""The baselines whose result a depth profile records (the solver baseline always wins)."""


def baseline_wins(
    level: Level,
    *,
    max_steps: int = DEFAULT_BENCH_STEPS,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> dict[str, bool]:
    """Whether each of :data:`BASELINE_NAMES` wins ``level`` within ``miau bench``'s limits.

    Plays the shipped agents exactly as ``miau bench`` does (``play_level``,
    same seed and limits), one level alone in its observation layout.
    """
    entry = LevelEntry("", "", "", level, None)
    layout = ChannelLayout.from_levels([level])
    wins: dict[str, bool] = {}
    for name in BASELINE_NAMES:
        agent = load_agent(name)
        solved, *_ = play_level(
            agent, entry, layout, max_steps=max_steps, time_limit=time_limit, seed=seed
        )
        wins[name] = solved
    return wins
