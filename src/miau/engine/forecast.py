"""What a player can read off the board before moving: the coming beats and the facings that matter.

A board drawn from the settled state alone hides two things the rules use:
where a TICK thing (an automaton's actor, the Clockwork contract) goes on
its next beats, and which things' facing a rule in force reads (MOVE and
SHIFT move along it, a ``FACING`` condition looks along it). A client must
not guess either from the rules, so the engine says both:

- ``ticks``: for each actor of an automaton that runs now (none when there
  are more than ``MAX_TICK_PATHS``), its cell after each of the next beats
  **if the player waits**, found by playing those
  waits on the board and rewinding them (the engine's own turn, so blocking,
  pushes, transformations and contacts are exactly the engine's). The path
  stops early when the actor is destroyed or the level is won.
- ``facing``: the ids of the things whose facing a rule in force reads.

Nothing here changes the board: the waits are journalled and rewound, as
undo and the solver rewind turns. No randomness, no wall clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from miau.engine.board import GONE, Board
from miau.engine.pickling import init_arguments
from miau.engine.rules import subject_matches
from miau.engine.turn import resolve_turn
from miau.engine.vocabulary import FACING, MOVE, SHIFT, WAIT

FORECAST_BEATS: Final = 3
"""How many beats ahead a TICK thing's path is shown."""

MAX_FORECAST_BEATS: Final = 32
"""The most beats one forecast plays (a pattern has at most 32 steps)."""

MAX_TICK_PATHS: Final = 32
"""The most TICK things a forecast follows: on a board with more, it follows none.

So a forecast costs at most a few turns of a few movers on any level (a
hostile draft with thousands of TICK things would otherwise multiply every
reply's cost and size), and a board that busy would be unreadable anyway.
"""


@dataclass(frozen=True, slots=True)
class TickPath:
    """One TICK thing's coming beats if the player waits.

    ``beat`` is the index of the pattern step its next beat takes (the
    automaton's phase now) and ``beats`` the pattern's length; ``path`` the
    thing's cell ``(x, y)`` after each of the next beats, shorter than asked
    when it is destroyed (``gone``: on the beat after its path ends) or the
    level is won on the way.
    """

    id: int
    automaton: str
    beat: int
    beats: int
    path: tuple[tuple[int, int], ...]
    gone: bool = False

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{id, automaton, beat, beats, path: [[x, y], ...]}``, ``gone: true`` if so."""
        out: dict[str, Any] = {
            "id": self.id,
            "automaton": self.automaton,
            "beat": self.beat,
            "beats": self.beats,
            "path": [list(cell) for cell in self.path],
        }
        if self.gone:
            out["gone"] = True
        return out

    def __reduce__(self) -> tuple[type[TickPath], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class Forecast:
    """The coming beats of every TICK thing and the ids whose facing matters, in id order."""

    ticks: tuple[TickPath, ...]
    facing: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The optional state fields: ``ticks`` and ``facingMatters``, each only when not empty."""
        out: dict[str, Any] = {}
        if self.ticks:
            out["ticks"] = [tick.to_json() for tick in self.ticks]
        if self.facing:
            out["facingMatters"] = list(self.facing)
        return out

    def __reduce__(self) -> tuple[type[Forecast], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def tick_actors(board: Board) -> list[tuple[int, Sequence[int]]]:
    """Each automaton that would run now, by record index, with its actors (ids, ascending).

    A record runs when some entity holds its property and matches its
    subject (the Clockwork contract's "Activation"); the same definition
    as ``turn.run_automata``, read through the board's reading.
    """
    reading = board.read()
    noun, is_word = board.noun, board.is_word
    running: list[tuple[int, Sequence[int]]] = []
    for index, record in enumerate(board.level.automata):
        holders = reading.holders(record.property)
        if record.subject is not None:
            holders = [i for i in holders if noun[i] == record.subject and not is_word[i]]
        if holders:
            running.append((index, sorted(holders)))
    return running


def facing_matters(board: Board) -> tuple[int, ...]:
    """The ids of the surviving things whose facing a rule in force reads, ascending.

    MOVE and SHIFT things move along their facing; a rule with a ``FACING``
    condition reads the facing of every entity its subject means.
    """
    rules = board.rules
    found: set[int] = set()
    given = rules.given
    if MOVE in given or SHIFT in given:
        reading = board.read()
        for prop in (MOVE, SHIFT):
            if prop in given:
                found.update(reading.holders(prop))
    looking = [rule for rule in rules.rules if any(c.word == FACING for c in rule.conditions)]
    if looking:
        pos, noun, is_word = board.pos, board.noun, board.is_word
        for ident in range(len(pos)):
            if pos[ident] == GONE or ident in found:
                continue
            if any(subject_matches(rule, is_word[ident], noun[ident]) for rule in looking):
                found.add(ident)
    return tuple(sorted(found))


def forecast(board: Board, beats: int = FORECAST_BEATS) -> Forecast:
    """What the board shows ahead of the player's move (see the module docstring).

    ``board`` must have no journal pending (as between a ``Game``'s
    actions); it is left exactly as it was.

    :raises ValueError: when ``beats`` is not between 0 and ``MAX_FORECAST_BEATS``.
    """
    if not 0 <= beats <= MAX_FORECAST_BEATS:
        raise ValueError(f"beats must be between 0 and {MAX_FORECAST_BEATS}, not {beats!r}")
    if board.journal:
        raise ValueError("the board has a turn in progress: forecast between turns only")
    facing = facing_matters(board)
    running = tick_actors(board)
    following = sum(len(actors) for _, actors in running)
    if not following or following > MAX_TICK_PATHS or beats == 0 or board.won:
        return Forecast((), facing)
    automata = board.level.automata
    start_phase = tuple(board.phases)
    cells: dict[int, list[tuple[int, int]]] = {
        ident: [] for _, actors in running for ident in actors
    }
    width = board.level.width
    # An id that is gone stays out of its path, even if HAS gives it to a new thing.
    gone: set[int] = set()
    before = board.checkpoint()
    try:
        for _ in range(beats):
            resolve_turn(board, WAIT, None)
            for ident, path in cells.items():
                cell = board.pos[ident]
                if cell == GONE or ident in gone:
                    gone.add(ident)
                    continue
                path.append((cell % width, cell // width))
            if board.won:
                break
    finally:
        board.rewind(before, board.take_journal())
    ticks: list[TickPath] = []
    for index, actors in running:
        record = automata[index]
        for ident in actors:
            ticks.append(
                TickPath(
                    ident,
                    record.id,
                    start_phase[index],
                    len(record.pattern),
                    tuple(cells[ident]),
                    ident in gone,
                )
            )
    ticks.sort(key=lambda tick: (tick.id, tick.automaton))
    return Forecast(tuple(ticks), facing)
