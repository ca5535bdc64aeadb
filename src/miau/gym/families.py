"""Procedural task families: a fresh small level per episode, in the style of BabaIsAI.

Each family draws a level from a seeded generator (``numpy.random.Generator``,
the environment's own, so ``reset(seed=s)`` repeats the level exactly),
asks the solver for a shortest solution, and draws again until the solver
proves one (up to ``max_draws`` draws): every level an agent is given can
be won, and ``info["shortest"]`` is the length of its shortest solution.

The families (``FAMILIES``), all on a ``width`` x ``height`` board with
``MIAU IS YOU`` formed and a goal object of a noun drawn from
``GOAL_NOUNS``:

- ``goto-win``: ``GOAL IS WIN`` is formed; walk to the goal.
- ``make-win``: ``GOAL IS`` is formed and the ``WIN`` word lies two or
  three cells above or below the gap after it; push it into place, then
  walk to the goal.
- ``break-stop``: a column of walls cuts the board, with ``WALL IS STOP``
  and the agent on one side and the goal on the other; break the rule,
  then cross.

``distractor_objects`` things of other nouns (from ``DISTRACTOR_NOUNS``)
lie about with no rule about them; ``distractor_rules`` formed rules name a
noun with no thing on the board (``KEY IS WIN``, ``BOX IS DEFEAT``...), so
they change nothing but what there is to read.

Standard library and numpy; the levels are engine-level dicts (what
``Game`` takes).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from miau.engine import Level
from miau.gym.env import DEFAULT_MAX_STEPS, Reward, _MiauEnv
from miau.gym.levels import LevelEntry, parse_level_spec
from miau.gym.render import DEFAULT_TILE
from miau.solver import Outcome, solve

YOU_NOUN: Final = "MIAU"
GOAL_NOUNS: Final = ("FLAG", "KEY", "BALL", "GEM", "DOOR")
"""The goal object's noun is drawn from these."""
DISTRACTOR_NOUNS: Final = ("ROCK", "BOX", "LOVE", "COG", "BELL", "GRASS")
"""Distractor things and distractor rules name these (never the goal's noun)."""
DISTRACTOR_PROPERTIES: Final = ("WIN", "PUSH", "STOP", "DEFEAT", "SINK")
"""The properties of distractor rules."""


class FamilyError(ValueError):
    """A family name or parameter that cannot be used, or a family that drew no winnable level."""


@dataclass(frozen=True, slots=True)
class FamilyParameters:
    """What a family draws: the board's size, the distractors, and the solver's budget."""

    width: int = 8
    height: int = 8
    distractor_objects: int = 2
    distractor_rules: int = 1
    max_expansions: int = 5_000
    """The solver's budget per drawn level; a level it cannot solve within it is drawn again."""
    max_draws: int = 64
    """Draws before the family gives up with :class:`FamilyError`."""

    def check(self) -> None:
        """:raises FamilyError: naming the first parameter out of range."""
        for name, low, high in (
            ("width", 6, 24),
            ("height", 6, 24),
            ("distractor_objects", 0, 16),
            ("distractor_rules", 0, 4),
            ("max_expansions", 1, 10_000_000),
            ("max_draws", 1, 10_000),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise FamilyError(
                    f"{name} must be a whole number from {low} to {high}, not {value!r}"
                )


class _Board:
    """A level being drawn: which cells are taken, and the entities placed so far."""

    def __init__(self, width: int, height: int, rng: np.random.Generator) -> None:
        self.width, self.height, self.rng = width, height, rng
        self.taken: set[tuple[int, int]] = set()
        self.objects: list[dict[str, Any]] = []

    def free_cell(self, columns: range, rows: range) -> tuple[int, int]:
        cells = [(x, y) for y in rows for x in columns if (x, y) not in self.taken]
        if not cells:
            raise FamilyError("the board is too small for what this family places")
        x, y = cells[int(self.rng.integers(len(cells)))]
        return x, y

    def thing(self, noun: str, columns: range | None = None, rows: range | None = None) -> None:
        x, y = self.free_cell(columns or range(self.width), rows or range(self.height))
        self.taken.add((x, y))
        self.objects.append({"kind": "object", "noun": noun, "x": x, "y": y})

    def word(self, text: str, x: int, y: int) -> None:
        self.taken.add((x, y))
        self.objects.append({"kind": "word", "text": text, "x": x, "y": y})

    def sentence(self, words: tuple[str, ...], columns: range, rows: range) -> None:
        """Words in a row left to right, on free cells of ``columns`` x ``rows``."""
        span = len(words)
        starts = [
            (x, y)
            for y in rows
            for x in columns
            if x + span - 1 in columns and all((x + i, y) not in self.taken for i in range(span))
        ]
        if not starts:
            raise FamilyError("the board is too small for what this family places")
        x, y = starts[int(self.rng.integers(len(starts)))]
        for offset, text in enumerate(words):
            self.word(text, x + offset, y)

    def distractors(self, goal: str, parameters: FamilyParameters, columns: range) -> None:
        nouns = [noun for noun in DISTRACTOR_NOUNS if noun != goal]
        order = [nouns[i] for i in self.rng.permutation(len(nouns))]
        ruled, placed = order[: parameters.distractor_rules], order[parameters.distractor_rules :]
        for noun in ruled:
            prop = DISTRACTOR_PROPERTIES[int(self.rng.integers(len(DISTRACTOR_PROPERTIES)))]
            self.sentence((noun, "IS", prop), columns, range(self.height))
        for number in range(parameters.distractor_objects):
            self.thing(placed[number % len(placed)])

    def level(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "objects": self.objects,
            "automata": [],
            "pairs": [],
        }


def _goal(rng: np.random.Generator) -> str:
    return GOAL_NOUNS[int(rng.integers(len(GOAL_NOUNS)))]


def goto_win(rng: np.random.Generator, parameters: FamilyParameters) -> dict[str, Any]:
    """``goto-win``: both rules formed; the goal is somewhere on the board."""
    board = _Board(parameters.width, parameters.height, rng)
    goal = _goal(rng)
    everywhere = range(parameters.width)
    board.sentence((YOU_NOUN, "IS", "YOU"), everywhere, range(parameters.height))
    board.sentence((goal, "IS", "WIN"), everywhere, range(parameters.height))
    board.distractors(goal, parameters, everywhere)
    board.thing(YOU_NOUN)
    board.thing(goal)
    return board.level()


def make_win(rng: np.random.Generator, parameters: FamilyParameters) -> dict[str, Any]:
    """``make-win``: ``GOAL IS`` formed, ``WIN`` two or three cells above or below the gap after it."""
    width, height = parameters.width, parameters.height
    board = _Board(width, height, rng)
    goal = _goal(rng)
    everywhere = range(width)
    board.sentence((goal, "IS"), range(width - 1), range(height))
    last = board.objects[-1]
    gap_x, gap_y = last["x"] + 1, last["y"]
    # WIN lies in the gap's column, so one straight push completes the rule; the cell
    # behind it (where the pusher stands) is on the board and stays free.
    rows = [
        y
        for distance in (2, 3)
        for y in (gap_y - distance, gap_y + distance)
        if 0 <= y < height and 0 <= y + (1 if y > gap_y else -1) < height
    ]
    win_y = rows[int(rng.integers(len(rows)))]
    behind = win_y + (1 if win_y > gap_y else -1)
    board.word("WIN", gap_x, win_y)
    board.taken |= {(gap_x, y) for y in range(min(gap_y, behind), max(gap_y, behind) + 1)}
    board.sentence((YOU_NOUN, "IS", "YOU"), everywhere, range(height))
    board.distractors(goal, parameters, everywhere)
    board.thing(YOU_NOUN)
    board.thing(goal)
    return board.level()


def break_stop(rng: np.random.Generator, parameters: FamilyParameters) -> dict[str, Any]:
    """``break-stop``: a wall column with ``WALL IS STOP``; the goal is on the far side."""
    width, height = parameters.width, parameters.height
    board = _Board(width, height, rng)
    goal = _goal(rng)
    wall_x = int(rng.integers(4, width - 1))
    near, far = range(wall_x), range(wall_x + 1, width)
    for y in range(height):
        board.taken.add((wall_x, y))
        board.objects.append({"kind": "object", "noun": "WALL", "x": wall_x, "y": y})
    rows = range(height)
    board.sentence((YOU_NOUN, "IS", "YOU"), near, rows)
    board.sentence((goal, "IS", "WIN"), near, rows)
    board.sentence(("WALL", "IS", "STOP"), near, rows)
    board.distractors(goal, parameters, near)
    board.thing(YOU_NOUN, near)
    board.thing(goal, far)
    return board.level()


FAMILIES: Final[dict[str, Callable[[np.random.Generator, FamilyParameters], dict[str, Any]]]] = {
    "goto-win": goto_win,
    "make-win": make_win,
    "break-stop": break_stop,
}
"""Each family's name and the function that draws one of its levels (not yet proved winnable)."""


def family_named(name: str) -> Callable[[np.random.Generator, FamilyParameters], dict[str, Any]]:
    """The draw function of the family ``name``.

    :raises FamilyError: for a name that is not a family, listing them.
    """
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):
        raise FamilyError(
            f"no task family {name!r}; the families are {', '.join(FAMILIES)}"
        ) from None


def draw_level(
    family: str, rng: np.random.Generator, parameters: FamilyParameters | None = None
) -> LevelEntry:
    """A level of ``family`` the solver proved winnable, with its shortest solution.

    Draws from ``rng`` until the solver solves a level within
    ``parameters.max_expansions`` (the draws it could not solve, or proved
    unwinnable, are dropped). The entry's pack id is the family's name and
    its level id a hash of the level, so equal levels have equal names.

    :raises FamilyError: for an unknown family or parameter, or when
        ``parameters.max_draws`` draws gave no winnable level.
    """
    parameters = parameters or FamilyParameters()
    parameters.check()
    make = family_named(family)
    for _ in range(parameters.max_draws):
        data = make(rng, parameters)
        result = solve(data, max_expansions=parameters.max_expansions)
        if result.outcome is Outcome.SOLVED and result.moves is not None:
            digest = zlib.crc32(json.dumps(data, sort_keys=True).encode("ascii"))
            return LevelEntry(
                pack_id=family,
                level_id=f"{digest:08x}",
                title=f"{family} {digest:08x}",
                level=Level.from_dict(data),
                solution=result.moves,
                shortest=len(result.moves),
            )
    raise FamilyError(
        f"{family}: no winnable level in {parameters.max_draws} draws "
        f"(each solved within {parameters.max_expansions:,} expansions); "
        "make the board larger or the distractors fewer"
    )


class MiauFamilyEnv(_MiauEnv):
    """A task family: ``gymnasium.make("miau/Family-v0", family="make-win")``, a new level per episode.

    Each reset draws a winnable level of ``family`` (one of
    :data:`FAMILIES`) from the environment's generator, so ``reset(seed=s)``
    gives the same level for the same ``s``, and reset without a seed
    draws the next one. ``info["shortest"]`` is its shortest solution's
    length; ``env.unwrapped.entry.solution`` the solution itself. The
    observation uses the global channel layout at ``width`` x ``height``.
    ``width``, ``height``, ``distractor_objects``, ``distractor_rules``,
    ``max_expansions`` and ``max_draws`` are :class:`FamilyParameters`; the
    other arguments are those of ``miau.gym.MiauLevelEnv``.
    """

    def __init__(
        self,
        family: str = "goto-win",
        *,
        width: int = 8,
        height: int = 8,
        distractor_objects: int = 2,
        distractor_rules: int = 1,
        max_expansions: int = 5_000,
        max_draws: int = 64,
        max_steps: int = DEFAULT_MAX_STEPS,
        reward: Reward | Mapping[str, float] | None = None,
        undo_actions: bool = False,
        render_mode: str | None = None,
        observation: str = "channels",
        tile: int = DEFAULT_TILE,
    ) -> None:
        """Check the family and its parameters; see the class docstring.

        :raises FamilyError: (a ``ValueError``) for an unknown family or a parameter out of range.
        """
        family_named(family)
        self.family = family
        self.parameters = FamilyParameters(
            width=width,
            height=height,
            distractor_objects=distractor_objects,
            distractor_rules=distractor_rules,
            max_expansions=max_expansions,
            max_draws=max_draws,
        )
        self.parameters.check()
        super().__init__(
            (),
            draw=self._draw_level,
            max_steps=max_steps,
            reward=reward,
            undo_actions=undo_actions,
            size=(height, width),
            render_mode=render_mode,
            observation=observation,
            channels="global",
            tile=tile,
        )

    def _draw_level(self, rng: np.random.Generator) -> LevelEntry:
        return draw_level(self.family, rng, self.parameters)

    def _choose_level(self, seeded: bool) -> int:
        raise AssertionError("a family draws every level")  # never called: _draw is set


FAMILY_IDS: Final = {
    "miau/GotoWin-v0": "goto-win",
    "miau/MakeWin-v0": "make-win",
    "miau/BreakStop-v0": "break-stop",
}
"""The registered id of each family (``miau/Family-v0`` takes ``family=`` instead)."""


FAMILY_PREFIX: Final = "family:"
DEFAULT_FAMILY_LEVELS: Final = 10
"""How many levels ``family:NAME`` names on the command line."""


def level_spec_entries(spec: str) -> list[LevelEntry]:
    """The levels a ``miau bench`` argument names: ``PACK``, ``PACK:LEVEL`` or ``family:NAME[:COUNT]``.

    ``family:NAME:COUNT`` is ``COUNT`` levels (default 10) of a task family,
    drawn with seed 0, so the same argument always names the same levels; a
    file of that name is read as a pack instead.

    :raises LookupError: when the pack or the level cannot be found.
    :raises ValueError: when the pack has errors, or for a bad family or count.
    """
    if not spec.startswith(FAMILY_PREFIX) or Path(spec).is_file():
        return parse_level_spec(spec)
    name, _, count_text = spec[len(FAMILY_PREFIX) :].partition(":")
    count = DEFAULT_FAMILY_LEVELS
    if count_text:
        if not count_text.isdigit() or not 1 <= int(count_text) <= 1000:
            raise FamilyError(f"{spec}: the count must be a whole number from 1 to 1000")
        count = int(count_text)
    generator = np.random.default_rng(0)
    return [draw_level(name, generator) for _ in range(count)]
