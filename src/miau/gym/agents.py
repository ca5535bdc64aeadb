"""Agents for ``miau bench``: the protocol, the loader and the three shipped baselines.

An agent is a callable that takes what it observes and returns a move:

- what it observes is the observation array (``miau.gym.observation``) or,
  when the callable has ``observes = "state"``, the engine's ``State``;
- a move is an action index (0 to 4, see ``miau.gym.ACTIONS``), an intent
  name (``"up"``) or a move letter (``"U"``); ``None`` gives up the level;
- an optional ``reset(level, seed)`` method hears each new level before the
  first move (a planner plans there; the time counts).

A model with ``predict(observation, deterministic=True)`` returning
``(action, state)`` (a Stable-Baselines3 policy, say) is an agent as it
is. ``load_agent("module:name")`` imports one; a class is instantiated
without arguments. ``random``, ``greedy`` and ``solver`` name the baselines.
"""

from __future__ import annotations

import importlib
import numbers
import random
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Final, Literal, Protocol, runtime_checkable

from miau.engine import Level, State
from miau.engine.vocabulary import (
    CARDINALS,
    DEFEAT,
    MOVE_LETTERS,
    SINK,
    STOP,
    WIN,
    YOU,
)
from miau.gym.env import ACTIONS
from miau.solver import DEFAULT_MAX_EXPANSIONS, solve

Move = int | str | None
"""An action index, an intent name or a move letter; None gives up."""

Observes = Literal["observation", "state"]


@runtime_checkable
class Agent(Protocol):
    """What ``miau bench`` plays: a callable from an observation (or a state) to a move."""

    def __call__(self, view: Any, /) -> Move:
        """The next move for what the agent sees now."""


def observes(agent: object) -> Observes:
    """What ``agent`` wants to see: ``"state"`` when it says so, else ``"observation"``."""
    return "state" if getattr(agent, "observes", "observation") == "state" else "observation"


def move_name(move: object) -> str | None:
    """The intent a move names, or None when it names none (a give-up or nonsense).

    :raises ValueError: for a move that is neither None nor an index, name or letter.
    """
    if move is None:
        return None
    if isinstance(move, str):
        if move in ACTIONS:
            return move
        if move.upper() in MOVE_LETTERS:
            return MOVE_LETTERS[move.upper()]
    elif isinstance(move, numbers.Integral) and 0 <= int(move) < len(ACTIONS):
        return ACTIONS[int(move)]
    raise ValueError(
        f"an agent returned {move!r}; a move is 0-4, {', '.join(ACTIONS)}, "
        "a letter U D L R W, or None to give up"
    )


class RandomAgent:
    """Uniformly random moves from a generator seeded for each level: the floor to beat."""

    observes: Final = "observation"

    def __init__(self, seed: int = 0) -> None:
        """Seed the generator (again reseeded by ``reset``)."""
        self._random = random.Random(seed)

    def reset(self, level: Level, seed: int) -> None:
        """Reseed for a new level, so a run depends only on the seed."""
        self._random.seed(seed)

    def __call__(self, view: object, /) -> Move:
        """Any of the five moves."""
        return self._random.randrange(len(ACTIONS))


class GreedyAgent:
    """Walks a shortest free path from a YOU to a WIN, as the rules stand; otherwise a random move.

    Free cells hold nothing STOP, DEFEAT or SINK (things that are PUSH
    count as free: pushing them may or may not work). It never rewrites a
    rule on purpose, so it solves the levels whose rules already allow a
    win, and now and then others by chance.
    """

    observes: Final = "state"

    def __init__(self, seed: int = 0, explore: float = 0.1) -> None:
        """``explore``: the chance of a random move instead of the path's next step."""
        self._random = random.Random(seed)
        self._explore = explore
        self._last: tuple[tuple[int, ...], str] | None = None

    def reset(self, level: Level, seed: int) -> None:
        """Reseed for a new level."""
        self._random.seed(seed)
        self._last = None

    def __call__(self, state: State, /) -> Move:
        """The first step of a shortest free path to a WIN, or a random move."""
        positions = state.now.positions
        blocked_again = self._last is not None and self._last[0] == positions
        move = None
        if not blocked_again and self._random.random() >= self._explore:
            move = self._toward_win(state)
        if move is None:
            move = ACTIONS[self._random.randrange(4)]
        self._last = (positions, move)
        return move

    def _toward_win(self, state: State) -> str | None:
        level = state.level
        props = state.rules_table.props
        width = level.width
        you: list[int] = []
        goals: set[int] = set()
        walls: set[int] = set()
        for ident, cell in enumerate(state.now.positions):
            if cell < 0 or state.is_word(ident):
                continue
            held = props.get(state.noun(ident), frozenset())
            if YOU in held:
                you.append(cell)
            if WIN in held:
                goals.add(cell)
            if held & {STOP, DEFEAT, SINK} and YOU not in held:
                walls.add(cell)
        if not you or not goals:
            return None
        if any(cell in goals for cell in you):
            return "wait"
        first: dict[int, str] = {cell: "" for cell in you}
        queue = deque(you)
        while queue:
            cell = queue.popleft()
            y, x = divmod(cell, width)
            for direction in CARDINALS:
                assert direction.vector is not None
                nx, ny = x + direction.vector[0], y + direction.vector[1]
                if not (0 <= nx < width and 0 <= ny < level.height):
                    continue
                target = ny * width + nx
                if target in first or target in walls:
                    continue
                first[target] = first[cell] or direction.name
                if target in goals:
                    return first[target]
                queue.append(target)
        return None


class _OutOfTime(Exception):
    """Raised from the solver's progress callback to stop a search at its deadline."""


class SolverAgent:
    """Plays the solver's shortest solution: the ceiling, at the solver's cost in time.

    Plans in ``reset`` with ``miau.solver.solve`` under ``max_expansions``
    and ``seconds`` (the search stops at whichever comes first), and gives
    up (returns None) when the search found no solution.
    """

    observes: Final = "state"

    def __init__(self, max_expansions: int = DEFAULT_MAX_EXPANSIONS, seconds: float = 10.0) -> None:
        """``max_expansions`` and ``seconds``: the search budget for each level."""
        self.max_expansions = max_expansions
        self.seconds = seconds
        self._plan: list[str] = []

    def reset(self, level: Level, seed: int) -> None:
        """Search a shortest solution from the level's start."""
        deadline = time.perf_counter() + self.seconds

        def stop_at_deadline(expanded: int) -> None:
            if time.perf_counter() > deadline:
                raise _OutOfTime

        try:
            result = solve(level, max_expansions=self.max_expansions, progress=stop_at_deadline)
        except _OutOfTime:
            self._plan = []
            return
        self._plan = list(reversed(result.moves or ""))

    def __call__(self, state: State, /) -> Move:
        """The plan's next letter, or None when it has none left."""
        return self._plan.pop() if self._plan else None


BASELINES: Final[dict[str, Callable[[], object]]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "solver": SolverAgent,
}
"""The shipped agents, by the name ``miau bench`` takes."""


class _Predictor:
    """A model with ``predict(observation, deterministic=True)`` as an agent."""

    observes: Final = "observation"

    def __init__(self, model: Any) -> None:
        self._model = model

    def __call__(self, view: Any, /) -> Move:
        action, _ = self._model.predict(view, deterministic=True)
        return int(action)


def load_agent(spec: str) -> Agent:
    """The agent ``spec`` names: a baseline's name, or ``module:attribute`` (a dotted path).

    A class (or any type) is called without arguments; an object with
    ``predict`` is wrapped. The current directory is searched for the
    module, as ``python -m`` would.

    :raises LookupError: when the module or attribute cannot be found.
    :raises TypeError: when what it names is not callable.
    """
    if spec in BASELINES:
        made: Any = BASELINES[spec]()
        return made  # type: ignore[no-any-return]
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        names = ", ".join(BASELINES)
        raise LookupError(f"agent {spec!r}: give one of {names}, or module:callable")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise LookupError(f"agent {spec!r}: cannot import {module_name}: {error}") from error
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise LookupError(f"agent {spec!r}: {module_name} has no {attribute}") from None
    if isinstance(target, type):
        target = target()
    if callable(getattr(target, "predict", None)):
        target = _Predictor(target)
    if not callable(target):
        raise TypeError(f"agent {spec!r} is not callable")
    return target  # type: ignore[no-any-return]
