"""The depth profile of a level: what the solver can measure about how much of a puzzle it is.

``depth_profile(level)`` gathers, with the solver's own successor function:

- the shortest solution (``solve``), the states needed to prove it
  shortest, and the rules it forms and breaks on the way;
- whether the level can be won without pushing a word (``HANDS-OFF``);
- how many distinct shortest move strings win, counted up to a bound;
- the share of reachable states from which no win is reachable any more
  (dead ends), exact when the whole reachable space fits the budget, else
  estimated from a seeded sample of states reached by random walks;
- the static dead squares (``miau.solver.dead_squares``);
- a depth figure and its tier (the formula and why: ``docs/depth.md``).

Whether the random and greedy baselines of ``miau bench`` win needs the
Gymnasium extra (numpy), so it is not measured here: a caller that has it
passes ``baselines`` (``miau check --depth`` does), and the figures are
stored beside the rest; the depth figure never depends on them, so it is
the same with or without the extra.

Standard library only. No clock is read for any figure but ``seconds``,
and the sample is drawn from ``random.Random(seed)``, so a profile depends
only on the level and the options.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from miau.engine import Game
from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import MOVE_LETTERS
from miau.solver.dead_squares import DeadSquare, analysable, find_dead_squares
from miau.solver.ideas import Ideas, decision_states, level_ideas
from miau.solver.outcome import Outcome
from miau.solver.search import DEFAULT_MAX_EXPANSIONS, solve
from miau.solver.successors import DEAD, Expander
from miau.solver.winnable import Known, SearchBudget, search_win

DEFAULT_SPACE_BUDGET: Final = 20_000
"""States the exhaustive walk of the reachable space may expand before dead ends are sampled."""

DEFAULT_HANDS_OFF_EXPANSIONS: Final = 50_000
"""Expansions the search for a win without pushing a word may take."""

DEFAULT_SHORTEST_BOUND: Final = 10_000
"""Distinct shortest solutions are counted up to this many."""

DEFAULT_SAMPLE_SIZE: Final = 16
"""States drawn for the dead-end estimate when the reachable space is too large."""

DEFAULT_SAMPLE_EXPANSIONS: Final = 6_000
"""Expansions each sampled state's "can it still win?" search may take."""

MAX_COUNTED_RULE_CHANGES: Final = 6
"""Rule changes past this many add nothing more to the depth figure."""

MAX_COUNTED_IDEAS: Final = 5
"""Needed rule changes past this many add nothing more to the second depth figure."""

TRAP_WEIGHT: Final = 0.5
"""What the whole dead-end share adds to the second depth figure."""

MIN_DECIDED_SAMPLES: Final = 10
"""A sampled dead-end share counts in the second figure only when this many states decided it."""

HANDS_OFF_CEILING: Final = 3.96
"""A HANDS-OFF level's figure is capped here before it is quartered, so it stays below 1."""

TIER_THRESHOLDS: Final = (1.0, 2.5, 4.0, 5.5)
"""A depth of at least ``TIER_THRESHOLDS[i]`` is tier ``i + 1`` or more (tier 0 below the first)."""

TIER_NAMES: Final = ("walk", "warm-up", "puzzle", "deep", "very deep")
"""What each tier is called, by its number."""

Baselines = Callable[[Level], Mapping[str, bool]]
"""Plays the baselines on a level: whether each (by name) won within its limits."""


@dataclass(frozen=True, slots=True)
class DeadEnds:
    """How much of the reachable space can no longer be won."""

    share: float | None
    """Dead states over decided states (None when nothing was decided)."""
    exact: bool
    """True when the whole reachable space was walked (then ``sample`` is its size)."""
    sample: int
    """States the share is taken over: every reachable state, or the sample drawn."""
    undecided: int = 0
    """Sampled states whose own search ran out of budget (left out of the share)."""

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready record."""
        return {
            "share": None if self.share is None else round(self.share, 4),
            "exact": self.exact,
            "sample": self.sample,
            "undecided": self.undecided,
        }

    def __reduce__(self) -> tuple[type[DeadEnds], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class DepthProfile:
    """Everything ``depth_profile`` measured about one level, and the depth it makes of it."""

    outcome: Outcome
    """The shortest-solution search's outcome."""
    length: int | None
    """The shortest solution's length in moves (None unless solved)."""
    solution: str | None
    """A shortest solution (the first in move order), for authors; players never see it."""
    rules_formed: tuple[str, ...]
    """Rules the shortest solution forms, in the order it forms them (as ``ROCK IS YOU``)."""
    rules_broken: tuple[str, ...]
    """Rules the shortest solution breaks, in order."""
    rule_changes: int
    """Rule changes the player makes along it: formed plus broken, in turns in which the
    player's own move pushed a word (an automaton's changes are listed but not counted)."""
    hands_off: bool | None
    """Whether some solution never pushes a word (None when that search ran out of budget)."""
    expanded: int
    """States expanded to prove the shortest solution shortest."""
    seen: int
    """Distinct states reached by that search."""
    shortest_solutions: int | None
    """Distinct shortest move strings, up to ``shortest_bound`` (None when not counted)."""
    shortest_bound: int
    reachable: int | None
    """Reachable states that are not won (None when the space was too large to walk)."""
    dead_ends: DeadEnds
    dead_squares: tuple[DeadSquare, ...]
    dead_square_walls: str
    """What the dead-square analysis took as fixed walls: ``edge``, ``edge and fixed walls``,
    or ``not analysed`` (a level that reads the Tier-1 vocabulary)."""
    baselines: Mapping[str, bool] | None
    """Whether each ``miau bench`` baseline won within its limits (None when not played)."""
    depth: float
    """The depth figure (``docs/depth.md``); a lower bound when ``outcome`` is LIMIT."""
    tier: int
    seconds: float
    ideas: Ideas | None = None
    """The rule changes along the shortest solution judged needed or not, and the idea
    signature (``miau.solver.ideas``); None when not measured or not solved."""
    decisions: int | None = None
    """Walk regions the breadth-first search opens before its first win (``decision_states``),
    at most the states ``expanded``; None when not measured."""
    idea_depth: float | None = None
    """The second depth figure, built from the needed ideas (``idea_depth_figure``)."""
    idea_tier: int | None = None

    @property
    def tier_name(self) -> str:
        """The tier in words (``walk``, ``warm-up``, ``puzzle``, ``deep``, ``very deep``)."""
        return TIER_NAMES[self.tier]

    def to_json(self) -> dict[str, Any]:
        """The profile as a JSON-ready record."""
        return {
            "outcome": self.outcome.value,
            "length": self.length,
            "solution": self.solution,
            "rulesFormed": list(self.rules_formed),
            "rulesBroken": list(self.rules_broken),
            "ruleChanges": self.rule_changes,
            "handsOff": self.hands_off,
            "expanded": self.expanded,
            "seen": self.seen,
            "shortestSolutions": self.shortest_solutions,
            "shortestBound": self.shortest_bound,
            "reachable": self.reachable,
            "deadEnds": self.dead_ends.to_json(),
            "deadSquares": [square.to_json() for square in self.dead_squares],
            "deadSquareWalls": self.dead_square_walls,
            "baselines": None if self.baselines is None else dict(self.baselines),
            "depth": round(self.depth, 3),
            "tier": self.tier,
            "tierName": self.tier_name,
            "seconds": round(self.seconds, 3),
            "ideas": None if self.ideas is None else self.ideas.to_json(),
            "decisions": self.decisions,
            "ideaDepth": None if self.idea_depth is None else round(self.idea_depth, 3),
            "ideaTier": self.idea_tier,
            "ideaTierName": None if self.idea_tier is None else TIER_NAMES[self.idea_tier],
        }

    def __reduce__(self) -> tuple[type[DepthProfile], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def depth_profile(
    level: Level | Mapping[str, Any],
    *,
    max_expansions: int = DEFAULT_MAX_EXPANSIONS,
    hands_off_expansions: int = DEFAULT_HANDS_OFF_EXPANSIONS,
    space_budget: int = DEFAULT_SPACE_BUDGET,
    shortest_bound: int = DEFAULT_SHORTEST_BOUND,
    sample_size: int = DEFAULT_SAMPLE_SIZE,
    sample_expansions: int = DEFAULT_SAMPLE_EXPANSIONS,
    seed: int = 0,
    baselines: Baselines | None = None,
    ideas: bool = True,
) -> DepthProfile:
    """Measure the depth profile of ``level`` (see the module docstring).

    ``max_expansions`` bounds the shortest-solution search,
    ``hands_off_expansions`` the search for a win without pushing a word,
    ``space_budget`` the exhaustive walk of the reachable space (which goes
    on past it, up to the states the solver saw, only to finish counting
    shortest solutions); when that walk does not finish, ``sample_size`` states drawn by
    random walks from ``random.Random(seed)`` are each searched with
    ``sample_expansions``. ``baselines``, when given, plays the ``miau
    bench`` baselines (see :data:`Baselines`). With ``ideas`` (the default)
    the rule changes are judged (``miau.solver.ideas``) and the second
    depth figure is made; without, those fields are None (cheaper).

    :raises LevelError: when the level cannot be run.
    """
    started = time.perf_counter()
    given = level if isinstance(level, Level) else Level.from_dict(level)
    shortest = solve(given, max_expansions=max_expansions)
    moves = shortest.moves if shortest.outcome is Outcome.SOLVED else None
    changes = rule_changes_along(given, moves or "")
    hands_off: bool | None = None
    if moves is not None:
        if not changes.pushed_a_word:
            hands_off = True
        else:
            untouched = solve(given, max_expansions=hands_off_expansions, hands_off=True)
            hands_off = (
                None if untouched.outcome is Outcome.LIMIT else untouched.outcome is Outcome.SOLVED
            )
    expander = Expander(given)
    # Counting shortest solutions needs every state short of the shortest win,
    # which the solver has already seen: the walk may go that far past its budget.
    most = min(max_expansions, max(space_budget, shortest.seen + 1))
    space = walk_space(expander, space_budget, shortest_bound, most)
    if space.complete:
        dead_ends = DeadEnds(space.dead_share(), True, space.states)
    else:
        dead_ends = sample_dead_ends(
            expander, sample_size, sample_expansions, seed, walk_length=(shortest.length or 20)
        )
    squares = find_dead_squares(given, space.fixed_walls if space.complete else None)
    if not analysable(given):
        walls_used = "not analysed"
    elif space.fixed_walls:
        walls_used = "edge and fixed walls"
    else:
        walls_used = "edge"
    played = None if baselines is None else dict(baselines(given))
    judged: Ideas | None = None
    decisions: int | None = None
    second: float | None = None
    if ideas and moves is not None:
        judged = level_ideas(given, moves)
        regions = decision_states(given, max_expansions)
        decisions = shortest.expanded if regions is None else min(regions, shortest.expanded)
        second = idea_depth_figure(
            needed=len(judged.needed),
            decisions=decisions,
            dead_ends=dead_ends,
            hands_off=bool(hands_off),
        )
    elif ideas and shortest.outcome is Outcome.UNSOLVABLE:
        second = 0.0
    depth = depth_figure(
        length=shortest.length if moves is not None else None,
        rule_changes=changes.by_player,
        hands_off=hands_off,
        expanded=shortest.expanded,
        dead_share=dead_ends.share,
        gave_up=shortest.outcome is Outcome.LIMIT,
    )
    return DepthProfile(
        outcome=shortest.outcome,
        length=shortest.length if moves is not None else None,
        solution=moves,
        rules_formed=changes.formed,
        rules_broken=changes.broken,
        rule_changes=changes.by_player,
        hands_off=hands_off,
        expanded=shortest.expanded,
        seen=shortest.seen,
        shortest_solutions=space.shortest_count if space.shortest_known else None,
        shortest_bound=shortest_bound,
        reachable=space.states if space.complete else None,
        dead_ends=dead_ends,
        dead_squares=squares,
        dead_square_walls=walls_used,
        baselines=played,
        depth=depth,
        tier=tier_of(depth),
        seconds=time.perf_counter() - started,
        ideas=judged,
        decisions=decisions,
        idea_depth=second,
        idea_tier=None if second is None else tier_of(second),
    )


def depth_figure(
    *,
    length: int | None,
    rule_changes: int,
    hands_off: bool | None,
    expanded: int,
    dead_share: float | None,
    gave_up: bool = False,
) -> float:
    """The depth figure: see ``docs/depth.md`` for the formula and why.

    A level proved unsolvable has depth 0. When the search gave up
    (``gave_up``: a LIMIT, so no solution is known), the figure is its
    search term alone, ``log10(1 + expanded)``: a lower bound, since the
    shortest solution needs more states than that.
    """
    if length is None:
        return math.log10(1 + expanded) if gave_up else 0.0
    search = math.log10(1 + expanded)
    changes = 0.5 * min(rule_changes, MAX_COUNTED_RULE_CHANGES)
    traps = dead_share or 0.0
    figure = search + changes + traps
    if hands_off:
        # Won without touching a word: a walk (or a pure push puzzle), never past tier 0.
        return min(figure, HANDS_OFF_CEILING) / 4
    return figure


def idea_depth_figure(
    *, needed: int, decisions: int, dead_ends: DeadEnds, hands_off: bool = False
) -> float:
    """The second depth figure: the needed ideas first (see ``docs/depth.md``).

    ``ideas + search + traps``: one point per needed rule change (at most
    :data:`MAX_COUNTED_IDEAS`); half the log of the decision states (walk
    regions, so open floor adds nothing); the dead-end share only when at
    least :data:`MIN_DECIDED_SAMPLES` states decided it, and at half
    weight (it measures how hard a wrong idea is punished, not the ideas).
    A level that needs no rule change, or that can be won without pushing
    a word (``hands_off``: an automaton may form the rule it needs), is a
    walk: its figure is quartered below 1, as in the first figure.
    """
    decided = dead_ends.sample - dead_ends.undecided
    trusted = dead_ends.exact or decided >= MIN_DECIDED_SAMPLES
    traps = TRAP_WEIGHT * (dead_ends.share or 0.0) if trusted else 0.0
    figure = min(needed, MAX_COUNTED_IDEAS) + 0.5 * math.log10(1 + decisions) + traps
    if needed == 0 or hands_off:
        return min(figure, HANDS_OFF_CEILING) / 4
    return figure


def tier_of(depth: float) -> int:
    """The tier of a depth figure: how many of :data:`TIER_THRESHOLDS` it reaches."""
    return sum(depth >= threshold for threshold in TIER_THRESHOLDS)


@dataclass(frozen=True, slots=True)
class RuleChanges:
    """The rules a move string forms and breaks, and how many of the changes the player made."""

    formed: tuple[str, ...]
    broken: tuple[str, ...]
    by_player: int
    """Changes made in turns in which the player's own movement pushed a word.

    An automaton that carries a word across a sentence changes rules too,
    but the player did not have to think of it.
    """
    pushed_a_word: bool
    """Whether the player's own movement pushed a word at all."""

    def __reduce__(self) -> tuple[type[RuleChanges], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def rule_changes_along(level: Level, moves: str) -> RuleChanges:
    """The rules formed and the rules broken while ``moves`` is played, in order, as text."""
    game = Game(level)
    formed: list[str] = []
    broken: list[str] = []
    by_player = 0
    pushed = False
    is_word = level.is_word
    for letter in moves:
        event = game.step(MOVE_LETTERS[letter])
        added, removed = event.rules_added, event.rules_removed
        formed += [rule.text() for rule in added]
        broken += [rule.text() for rule in removed]
        if any(is_word[entry[0]] for entry in event.player_moved):
            pushed = True
            by_player += len(added) + len(removed)
    return RuleChanges(tuple(formed), tuple(broken), by_player, pushed)


@dataclass(slots=True)
class SpaceWalk:
    """What the exhaustive breadth-first walk of the reachable space found."""

    complete: bool
    states: int
    """States reached that are not won (all of them when ``complete``)."""
    winnable: int
    """Of those, how many can still reach a win (meaningful when ``complete``)."""
    shortest_known: bool
    shortest_count: int
    fixed_walls: frozenset[int]
    """Cells whose things are STOP, not PUSH or YOU, and unmoved in every expanded state.

    Only expanded states are looked at: a won state and one that can never
    move again are not expanded, and nothing is pushed from either.
    """

    def dead_share(self) -> float | None:
        """Dead states over reachable states (None when no state was reached)."""
        if not self.states:
            return None
        return (self.states - self.winnable) / self.states


def walk_space(expander: Expander, budget: int, shortest_bound: int, most: int) -> SpaceWalk:
    """Walk every state reachable from the start, up to ``budget`` expansions.

    Past ``budget`` (and up to ``most`` expansions), the walk goes on only
    while states short of the shortest win are left, so that the count of
    shortest solutions is finished whenever the solver could finish it.

    Breadth-first, every move kept (the way back included, since a dead
    end is a state with no way to a win, back or forward); won states are
    ends. Along the way it counts shortest winning move strings (the number
    of shortest paths to each state, layer by layer, capped at the bound)
    and keeps the candidate fixed walls that every expanded state agrees on.
    """
    index: dict[bytes, int] = {expander.root: 0}
    keys = [expander.root]
    edges: list[list[int]] = [[]]
    wins_now = [False]
    paths = [1]
    depth_of = [0]
    win_depth: int | None = None
    win_paths = 0
    walls = _wall_candidates(expander)
    queue = deque([0])
    expanded = 0
    while queue and expanded < most:
        state = queue.popleft()
        depth = depth_of[state]
        if expanded >= budget and (win_depth is not None and depth >= win_depth):
            # Past the budget the walk goes on only to finish counting shortest
            # solutions: every state short of the shortest win must be expanded.
            queue.appendleft(state)
            break
        expanded += 1
        children = expander.children(keys[state], None)
        if walls:
            # ``children`` leaves the board standing in the state it expanded.
            walls = _still_walls(expander, walls)
        targets = edges[state]
        for _, child, won, rating, _ in children:
            if won:
                wins_now[state] = True
                if win_depth is None:
                    win_depth = depth + 1
                if depth + 1 == win_depth:
                    win_paths = min(win_paths + paths[state], shortest_bound)
                continue
            slot = index.get(child)
            if slot is None:
                slot = index[child] = len(keys)
                keys.append(child)
                edges.append([])
                wins_now.append(False)
                paths.append(0)
                depth_of.append(depth + 1)
                if rating != DEAD:
                    queue.append(slot)
            if depth_of[slot] == depth + 1:
                paths[slot] = min(paths[slot] + paths[state], shortest_bound)
            targets.append(slot)
    complete = not queue
    winnable = _count_winnable(edges, wins_now) if complete else 0
    shortest_known = win_depth is not None and (complete or _layer_done(depth_of, queue, win_depth))
    return SpaceWalk(
        complete=complete,
        states=len(keys),
        winnable=winnable,
        shortest_known=shortest_known,
        shortest_count=win_paths,
        fixed_walls=_wall_cells(expander.level, walls) if complete else frozenset(),
    )


def _wall_cells(level: Level, walls: dict[int, int]) -> frozenset[int]:
    """The cells whose every entity at the start is one of the fixed ``walls``.

    Another thing sharing a wall's cell from the start could push a word
    from there, so such a cell is not a wall to the dead-square analysis.
    """
    cells: dict[int, bool] = {}
    for ident, cell in enumerate(level.start_positions):
        if cell >= 0:
            cells[cell] = cells.get(cell, True) and ident in walls
    return frozenset(cell for cell, fixed in cells.items() if fixed)


def _layer_done(depth_of: list[int], queue: deque[int], win_depth: int) -> bool:
    """Whether every state one move short of the shortest win was expanded."""
    return all(depth_of[state] >= win_depth for state in queue)


def _count_winnable(edges: list[list[int]], wins_now: list[bool]) -> int:
    """How many states reach a win: backwards from the states with a winning move."""
    incoming: list[list[int]] = [[] for _ in edges]
    for source, targets in enumerate(edges):
        for target in targets:
            incoming[target].append(source)
    good = [False] * len(edges)
    stack = [state for state, wins in enumerate(wins_now) if wins]
    for state in stack:
        good[state] = True
    while stack:
        state = stack.pop()
        for source in incoming[state]:
            if not good[source]:
                good[source] = True
                stack.append(source)
    return sum(good)


def _wall_candidates(expander: Expander) -> dict[int, int]:
    """Objects that are STOP and not PUSH (nor YOU) at the start, with their cells.

    Levels with Clockwork pairs get none (a mover with a pair word may enter
    a STOP thing's cell, so such a cell may hold a pusher), nor do levels
    with automata (an automaton pushes under the rules of the middle of a
    turn, which no settled state shows) or the Tier-1 vocabulary.
    """
    board = expander.board
    level = expander.level
    if level.pairs or level.automata or level.vocabulary:
        return {}
    return {
        ident: board.pos[ident]
        for ident in range(level.entity_count)
        if not level.is_word[ident] and _walls_here(expander, ident, board.pos[ident])
    }


def _walls_here(expander: Expander, ident: int, cell: int) -> bool:
    """Whether object ``ident`` stands in ``cell`` and blocks as a fixed wall on the board now."""
    board = expander.board
    if board.pos[ident] != cell:
        return False
    props = board.props(ident)
    return "STOP" in props and "PUSH" not in props and "YOU" not in props


def _still_walls(expander: Expander, walls: dict[int, int]) -> dict[int, int]:
    """The candidates that are still fixed walls on the board standing in the state just expanded."""
    return {ident: cell for ident, cell in walls.items() if _walls_here(expander, ident, cell)}


def sample_dead_ends(
    expander: Expander, size: int, expansions: int, seed: int, *, walk_length: int
) -> DeadEnds:
    """Estimate the dead-end share from ``size`` states drawn by seeded random walks.

    Each walk starts at the start and makes a number of random accepted
    moves drawn uniformly from 1 to ``3 * walk_length``; a walk that wins
    is drawn again (won states are not counted as states here either).
    Each drawn state gets a "can it still win?" search of ``expansions``.
    """
    rng = random.Random(seed)
    dead_found = decided = undecided = 0
    known = Known()
    for _ in range(size):
        key = _random_state(expander, rng, 3 * max(1, walk_length))
        found = search_win(expander, key, SearchBudget(expansions, None), known)
        if found is None:
            undecided += 1
            continue
        decided += 1
        dead_found += not found
    share = dead_found / decided if decided else None
    return DeadEnds(share, False, size, undecided)


def _random_state(expander: Expander, rng: random.Random, longest: int) -> bytes:
    """A state reached by a random walk of up to ``longest`` moves, none of them winning.

    A move that would win is never drawn; a walk with no other move left stops there.
    """
    key = expander.root
    for _ in range(rng.randint(1, longest)):
        children = [child for _, child, won in expander.successors(key) if not won]
        if not children:
            break
        key = children[rng.randrange(len(children))]
    return key
