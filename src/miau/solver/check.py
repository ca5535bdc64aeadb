"""Everything an author needs to know about a level before publishing it.

``check_level`` plays the level with the engine and the solver: the rules
active at the start, which moves YOU can make from the start, the stored
solution replayed, a shortest solution, and whether the level can be won
without the player ever pushing a word (HANDS-OFF; a word an automaton
moves does not count). A level *fails* when it cannot
be run, its stored solution does not win, or the solver proves it
unsolvable; a LIMIT is only a warning. The report's :attr:`LevelReport.verdict`
sums it up in one of three words for the editor: ``passed``, ``problems`` or
``undecided`` (a search stopped by its cap, never ``passed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from miau.engine import Game, LevelError, MoveStringError, parse_moves
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import CARDINALS
from miau.packs.values import listing
from miau.solver.levels import LevelSpec
from miau.solver.outcome import Outcome, SearchResult
from miau.solver.search import Progress, solve

START_MOVES: Final = tuple(direction.letter for direction in CARDINALS)
"""The moves that show whether YOU can move from the start: ``U D L R``."""

Verdict = Literal["passed", "problems", "undecided"]
"""A check's outcome in one word (:attr:`LevelReport.verdict`)."""


@dataclass(frozen=True)
class SolutionCheck:
    """The stored solution replayed on a fresh game."""

    moves: str
    won: bool
    turns: int
    """Accepted turns up to the win (all of them when it does not win)."""
    rejected: int
    """Letters that were refused (a blocked move, or any move after the win)."""
    error: str | None = None
    """Why the move string could not be played at all."""

    def to_json(self) -> dict[str, Any]:
        """The replay as a JSON-ready record."""
        return {
            "moves": self.moves,
            "won": self.won,
            "turns": self.turns,
            "rejected": self.rejected,
            "error": self.error,
        }

    def __reduce__(self) -> tuple[type[SolutionCheck], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True)
class LevelReport:
    """The findings for one level."""

    id: str
    title: str
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    """The rules active at the start, as ``MIAU IS YOU``."""
    start_moves: str = ""
    """Which of ``START_MOVES`` the start accepts; empty when no YOU can move."""
    solution: SolutionCheck | None = None
    solver: SearchResult | None = None
    hands_off: SearchResult | None = None
    """The search restricted to turns that move no word; solved means HANDS-OFF."""

    @property
    def is_hands_off(self) -> bool:
        """Whether the level can be won without the player ever pushing a word tile."""
        return self.hands_off is not None and self.hands_off.outcome is Outcome.SOLVED

    @property
    def failed(self) -> bool:
        """An error, a stored solution that does not win, or a proof of unsolvability."""
        return bool(
            self.errors
            or (self.solution is not None and not self.solution.won)
            or (self.solver is not None and self.solver.outcome is Outcome.UNSOLVABLE)
        )

    @property
    def winnable(self) -> bool:
        """Whether some search or the stored solution has shown a win."""
        return (
            (self.solution is not None and self.solution.won)
            or (self.solver is not None and self.solver.outcome is Outcome.SOLVED)
            or self.is_hands_off
        )

    @property
    def verdict(self) -> Verdict:
        """``problems``, ``undecided`` or ``passed``, in that order of precedence.

        ``problems``: :attr:`failed`, no rule at the start, or no YOU can move
        from the start and nothing has shown a win. ``undecided``: a search
        stopped at its cap, so an answer is missing (whether the level can be
        won at all, or without pushing a word). Only then ``passed``: a LIMIT
        is never a pass.
        """
        if (
            self.failed
            or not self.rules
            or (not self.start_moves and not self.winnable)
            # A level that cannot be opened leaves no solver result to read: a problem, not a pass.
            or self.solver is None
        ):
            return "problems"
        limits = (self.solver, self.hands_off)
        if any(result is not None and result.outcome is Outcome.LIMIT for result in limits):
            return "undecided"
        return "passed"

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready record."""
        return {
            "id": self.id,
            "title": self.title,
            "failed": self.failed,
            "verdict": self.verdict,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "rules": list(self.rules),
            "startMoves": self.start_moves,
            "solution": None if self.solution is None else self.solution.to_json(),
            "solver": None if self.solver is None else self.solver.to_json(),
            "handsOff": self.is_hands_off,
            "handsOffSearch": None if self.hands_off is None else self.hands_off.to_json(),
        }

    def __reduce__(self) -> tuple[type[LevelReport], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True)
class PackReport:
    """The findings for one pack file: loader problems and one report per level."""

    path: str
    pack_id: str | None
    errors: tuple[str, ...] = ()
    """Problems that stopped the pack from loading (then there are no levels)."""
    warnings: tuple[str, ...] = ()
    """Loader warnings that concern the pack as a whole."""
    levels: tuple[LevelReport, ...] = field(default=())

    @property
    def failed(self) -> bool:
        """Whether the pack did not load or any of its levels failed."""
        return bool(self.errors) or any(level.failed for level in self.levels)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready record."""
        return {
            "path": self.path,
            "pack": self.pack_id,
            "failed": self.failed,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "levels": [level.to_json() for level in self.levels],
        }

    def __reduce__(self) -> tuple[type[PackReport], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def check_level(
    spec: LevelSpec, *, max_expansions: int | None = None, progress: Progress | None = None
) -> LevelReport:
    """Check one level: start rules and moves, stored solution, solver, HANDS-OFF.

    ``max_expansions`` overrides the level's ``solverMax`` and the default.
    """
    try:
        game = Game(spec.data)
    except LevelError as error:
        return LevelReport(spec.id, spec.title, errors=(str(error),), warnings=spec.warnings)
    warnings = list(spec.warnings)
    rules = tuple(rule.text() for rule in game.state.rules)
    start_moves = _start_moves(spec.data)
    if not start_moves:
        refused = listing(START_MOVES)
        warnings.append(f"no YOU can move from the start ({refused} are all refused)")
    budget = spec.budget(max_expansions)
    result = solve(spec.data, max_expansions=budget, progress=progress)
    if result.outcome is Outcome.LIMIT:
        warnings.append(
            f"the solver gave up after {result.expanded:,} states; "
            "raise solverMax or --max to get an answer"
        )
    solution = None if spec.solution is None else replay_solution(spec.data, spec.solution)
    if solution is not None and solution.won:
        if result.length is not None and solution.turns > result.length:
            warnings.append(
                f"the stored solution takes {solution.turns} moves; "
                f"the shortest takes {result.length} ({result.moves})"
            )
        if solution.rejected:
            warnings.append(f"{solution.rejected} letters of the stored solution are refused")
    hands_off = _hands_off(spec.data, result, budget)
    return LevelReport(
        spec.id,
        spec.title,
        warnings=tuple(warnings),
        rules=rules,
        start_moves=start_moves,
        solution=solution,
        solver=result,
        hands_off=hands_off,
    )


def replay_solution(data: Mapping[str, Any], moves: str) -> SolutionCheck:
    """Play ``moves`` on a fresh game of ``data`` and say whether, and when, it wins."""
    try:
        intents = parse_moves(moves)
    except MoveStringError as error:
        return SolutionCheck(moves, False, 0, 0, str(error))
    game = Game(data)
    rejected = 0
    for intent in intents:
        if not game.step(intent).accepted:
            rejected += 1
    return SolutionCheck(moves, game.won, game.state.move_count, rejected)


def word_moves(data: Mapping[str, Any], moves: str) -> bool:
    """Whether the player pushes a word tile in any turn of ``moves`` (a valid move string).

    Words an automaton moves do not count: HANDS-OFF asks whether the
    player ever has to change a rule.
    """
    game = Game(data)
    for intent in parse_moves(moves):
        # The kinds before the turn: vocabulary-1 may make a thing a word.
        is_word = game.state.now.kinds
        event = game.step(intent)
        if any(is_word[entry[0]] for entry in event.player_moved):
            return True
    return False


def _start_moves(data: Mapping[str, Any]) -> str:
    accepted = []
    for letter in START_MOVES:
        game = Game(data)
        if game.play(letter)[0].accepted:
            accepted.append(letter)
    return "".join(accepted)


def _hands_off(data: Mapping[str, Any], full: SearchResult, budget: int) -> SearchResult | None:
    """The HANDS-OFF search, skipped when the answer follows from the full search.

    A shortest solution that moves no word is also a shortest hands-off one;
    a level with no solution at all has no hands-off one either.
    """
    if full.outcome is Outcome.UNSOLVABLE:
        return None
    if full.moves is not None and not word_moves(data, full.moves):
        return full
    return solve(data, max_expansions=budget, hands_off=True)
