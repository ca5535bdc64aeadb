"""One turn, in order (engine contract, "One turn, in order"), for every level.

``resolve_turn`` runs steps 3 to 10 on a board; the caller has already done
steps 1 and 2 (rejecting intents the level cannot take, and being ready to
keep the board's journal as the pre-turn snapshot). Each step is a function
whose docstring names the clause it implements, and ``settle_turn`` reads
top to bottom as the turn runs.

The vocabulary-1 phases (``docs/vocabulary.md``, "The turn") stand where
that document puts them: MOVE (3a) and SHIFT (3b) after the player's move,
OPEN/SHUT, WEAK and HOT/MELT among the contacts (7), the HAS spawns (7a)
after them. Each runs only when the rule table gives its word, so a core
level, whose table gives none, runs the core turn and nothing else.
Properties come from a ``Reading`` of the board (``Board.read``), a table
lookup unless the table has conditions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from miau.engine.board import GONE, Board, Reading, applies, empty_cell_applies
from miau.engine.events import TurnLog
from miau.engine.level import Level
from miau.engine.movement import front_first, move_group, move_phase
from miau.engine.rules import Rule, RuleParser
from miau.engine.vocabulary import (
    ALL,
    DEFEAT,
    DEFEAT_CAUSE,
    EMPTY,
    EMPTY_CAUSE,
    FACING_OF_VECTOR,
    HOT,
    LEVEL,
    MELT,
    MELT_CAUSE,
    MOVE,
    OPEN,
    OPEN_CAUSE,
    SHIFT,
    SHUT,
    SINK,
    SINK_CAUSE,
    TEXT,
    WAIT_STEP,
    WEAK,
    WEAK_CAUSE,
    WIN,
    YOU,
    Direction,
)

Spawn = tuple[int, str, int, bool]
"""``(id, noun or text, cell, as a word)``: what a destroyed entity leaves, for the HAS phase."""


def start_board(level: Level, parser: RuleParser | None = None) -> Board:
    """The board of ``level`` as play starts: start-of-level transformations applied.

    The start is not a turn, so no contact pass or win check runs; the
    journal is empty. A thing that became a word (or a word a thing) changes
    the rules at once.
    """
    board = Board(level, parser)
    apply_transformations(board, set(), None)
    board.refresh_rules()
    board.take_journal()
    board.control_lost = not has_control(board)
    return board


def resolve_turn(board: Board, intent: Direction, log: TurnLog | None) -> bool:
    """Resolve one turn for an intent of the move alphabet: a move or the wait.

    Returns False, with the board unchanged and the blocks in ``log``, when
    the move moves nothing: then it is not a turn.
    """
    if intent.facing is not None:
        if not move_you(board, intent.facing, log):
            return False
        if log is not None:
            log.player_moves = len(log.moved)
    settle_turn(board, log)
    return True


def settle_turn(board: Board, log: TurnLog | None) -> None:
    """Steps 3a to 10, everything after the player's movement."""
    transformed: set[int] = set()
    given = board.rules.given  # the Tier-1 properties in play (none in a core table)
    if MOVE in given:
        run_move(board, log)
    if SHIFT in given:
        run_shift(board, log)
    board.refresh_rules()
    apply_transformations(board, transformed, log)
    board.refresh_rules()  # a thing that became a word, or a word a thing
    if board.level.automata:
        run_automata(board, log)
        board.refresh_rules()
        apply_transformations(board, transformed, log)
        board.refresh_rules()
    spawns: list[Spawn] = []
    resolve_contacts(board, log, spawns)
    if spawns:
        spawn_has(board, spawns, log)
    board.refresh_rules()
    board.won = evaluate_win(board)
    board.control_lost = not has_control(board)
    board.move_count += 1


def move_you(board: Board, facing: int, log: TurnLog | None) -> bool:
    """Step 3: every YOU entity moves along ``facing``; accepted when at least one moved."""
    reading = board.read()
    movers = reading.holders(YOU)
    if not movers:
        return False
    return move_group(board, reading, movers, facing, log)


def move_player(board: Board, direction: tuple[int, int], log: TurnLog | None) -> bool:
    """Step 3 for a move given as its unit vector (the solver's form): see ``move_you``."""
    return move_you(board, FACING_OF_VECTOR[direction], log)


def run_move(board: Board, log: TurnLog | None) -> None:
    """Step 3a (vocabulary-1): each MOVE thing steps once along its facing.

    Movers go by facing (right, down, left, up), front-first, then by id; a
    blocked mover turns round and tries once the other way, and stays turned
    if that is blocked too.
    """
    reading = board.read()
    movers = reading.holders(MOVE) if MOVE in reading.rules.given else []
    facing_of = board.facing
    ordered: list[tuple[int, int]] = []
    for facing in range(4):
        group = [i for i in movers if facing_of[i] == facing]
        if group:
            ordered.extend(front_first(board, group, facing))
    if ordered:
        move_phase(board, reading, ordered, log, bounce=True)


def run_shift(board: Board, log: TurnLog | None) -> None:
    """Step 3b (vocabulary-1): everything else on a SHIFT thing's layer moves along its facing.

    Shifters go by id; a thing on two shifters moves for the first only.
    """
    reading = board.read()
    shifters = reading.holders(SHIFT) if SHIFT in reading.rules.given else []
    listed: set[int] = set()
    moves: list[tuple[int, int]] = []
    for shifter in shifters:
        facing = board.facing[shifter]
        for other in reading.layer(board.pos[shifter], shifter):
            if other != shifter and other not in listed:
                listed.add(other)
                moves.append((other, facing))
    move_phase(board, reading, moves, log)


def apply_transformations(board: Board, transformed: set[int], log: TurnLog | None) -> None:
    """Steps 4 and 6: things become what the first rule ``X IS NOUN`` that applies says.

    An entity transforms at most once per turn (``transformed`` remembers
    which did), so chains advance one link a turn and swaps alternate. Every
    target is decided before any change. ``X IS X`` locks X (and, in
    vocabulary-1, ``X IS NOT X``); ``X IS NOT Y`` blocks ``X IS Y``; ``X IS
    TEXT`` makes an X the word of its noun and ``TEXT IS X`` a word an X.
    ``X IS EMPTY`` removes every X (cause ``empty``, in id order with the
    other changes); ``EMPTY IS X`` then puts a new X in every cell that was
    empty when the phase began (``_empty_fills``).
    """
    rules = board.rules
    if not rules.noun_rules:
        return
    if rules.simple_transforms:
        transforms = rules.transforms
        changing: list[int] = []
        for noun in transforms:
            changing.extend(i for i in board.by_noun.get(noun, ()) if i not in transformed)
        changing.sort()
        for ident in changing:
            old = board.noun[ident]
            board.set_noun(ident, transforms[old])
            transformed.add(ident)
            if log is not None:
                log.transformed.append((ident, old, transforms[old], False, False))
        return
    changes = _targets(board, transformed)
    fills = _empty_fills(board, transformed) if rules.empty_rules else []
    for ident, target in changes:
        old, was_word = board.noun[ident], board.is_word[ident]
        transformed.add(ident)
        if target == EMPTY:
            if log is not None:
                log.destroyed.append((ident, old, board.pos[ident], EMPTY_CAUSE, was_word))
            board.destroy(ident)
            continue
        new, word = _becomes(board, ident, target)
        if word or was_word:
            board.set_kind(ident, word, new)
        else:
            board.set_noun(ident, new)
        if log is not None:
            log.transformed.append((ident, old, new, was_word, word))
    for ident, cell, noun in fills:
        board.create(ident, cell, noun)
        transformed.add(ident)
        if log is not None:
            if log.created is None:
                log.created = []
            log.created.append((ident, noun, cell, False))


def _empty_fills(board: Board, transformed: set[int]) -> list[tuple[int, int, str]]:
    """``EMPTY IS X``: ``(new id, cell, noun)`` for each empty cell that gets a thing.

    The empty cells are those with no entity before any change of the
    phase, in row-major order; the first ``EMPTY IS X`` that applies to a
    cell (conditions read at the cell) gives its noun, unless ``EMPTY IS
    EMPTY`` locks the cell or ``EMPTY IS NOT X`` blocks X. ``TEXT``, ``ALL``
    and ``LEVEL`` make nothing. Each thing takes the lowest reserved id off
    the board that nothing used this turn (so an id is never both removed
    and made in one event); when none is left (the level's bound), the
    cells after stay empty.
    """
    level = board.level
    pos = board.pos
    free = [
        i
        for i in range(level.object_count, level.entity_count)
        if pos[i] == GONE and i not in transformed
    ]
    fills: list[tuple[int, int, str]] = []
    if not free:
        return fills
    rules = board.rules.empty_rules
    cells = board.cells
    for cell in range(len(cells)):
        if cells[cell]:
            continue
        applying = (rule for rule in rules if empty_cell_applies(board, rule, cell))
        target = _chosen_value(applying, EMPTY, _MAKES_NOTHING)
        if target is None:
            continue
        fills.append((free[len(fills)], cell, target))
        if len(fills) == len(free):
            break
    return fills


_MAKES_NOTHING: Final = frozenset({ALL, LEVEL, TEXT, EMPTY})
"""Values that name no thing an empty cell could become (``docs/vocabulary.md``)."""

_BECOMES_NOTHING: Final = frozenset({ALL, LEVEL})
"""Values that name no thing an entity could become (``X IS ALL``, ``X IS LEVEL``)."""


def _chosen_value(applying: Iterable[Rule], own: str, excluded: frozenset[str]) -> str | None:
    """What the noun rules that apply make of a thing (or an empty cell) named ``own``.

    The first value not blocked by a ``NOT`` rule and not ``excluded``; none
    when ``own IS own`` holds (the thing keeps what it is, as in Baba Is You).
    """
    targets: list[str] = []
    blocked: set[str] = set()
    for rule in applying:
        if rule.predicate == own:
            return None
        if rule.negated:
            blocked.add(rule.predicate)
        else:
            targets.append(rule.predicate)
    return next((t for t in targets if t not in blocked and t not in excluded), None)


def _targets(board: Board, transformed: set[int]) -> list[tuple[int, str]]:
    """Each entity that transforms now, in id order, with the value it becomes."""
    rules = board.rules
    floats = board.read().floats
    pos = board.pos
    changes: list[tuple[int, str]] = []
    for ident in range(len(pos)):
        if pos[ident] == GONE or ident in transformed:
            continue
        applying = (rule for rule in rules.noun_rules if applies(board, rule, ident, floats))
        target = _chosen_value(applying, _identity(board, ident), _BECOMES_NOTHING)
        if target is not None:
            changes.append((ident, target))
    return changes


def _identity(board: Board, ident: int) -> str:
    """What an entity is, as a rule's value names it: its noun, or ``TEXT`` for a word."""
    return TEXT if board.is_word[ident] else board.noun[ident]


def _becomes(board: Board, ident: int, target: str) -> tuple[str, bool]:
    """``(noun or text, as a word)`` of what ``ident`` becomes or leaves as ``target``.

    ``TEXT`` makes the word of the entity's identity: an object's noun word
    (a ROCK leaves the word ROCK), and for a word the word ``TEXT``.
    """
    if target == TEXT:
        return _identity(board, ident), True
    return target, False


def run_automata(board: Board, log: TurnLog | None) -> None:
    """Step 5: each active automaton with actors takes its current step, records by id.

    A record is active when some entity has its property (by a rule ``X IS
    <property>``, X being its subject when it names one); its actors are the
    entities with the property that match the subject. Each record is its
    own movement phase, a blocked actor waits, and the phase advances once
    per beat the record runs.
    """
    for index, record in enumerate(board.level.automata):
        reading = board.read()
        rules, subject = reading.rules, record.subject
        actors: Sequence[int]
        if subject is None:
            actors = reading.holders(record.property)
        elif rules.live:
            # Properties follow kind and noun: the subject's objects, or none of them.
            known = rules.known_props.get(subject)
            has_it = record.property in (rules.object_props(subject) if known is None else known)
            actors = board.by_noun.get(subject, ()) if has_it else ()
        else:
            noun, is_word = board.noun, board.is_word
            actors = [
                i for i in reading.holders(record.property) if noun[i] == subject and not is_word[i]
            ]
        if not actors:
            continue
        phase = board.phases[index]
        step = record.pattern[phase]
        if step != WAIT_STEP:
            move_group(board, reading, actors, FACING_OF_VECTOR[step], log)
        board.phases[index] = (phase + 1) % len(record.pattern)


def resolve_contacts(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """Step 7: one contact pass, each phase on the survivors of the last.

    Clockwork pairs, OPEN/SHUT, SINK, WEAK, HOT/MELT, then DEFEAT. Things
    touch only on the same layer (FLOAT or not); cells are visited in
    row-major order and entities in id order, so the destruction order is
    phase, then cell, then id. A destroyed entity that HAS something is
    noted in ``spawns`` for step 7a.
    """
    for pair in board.level.pairs:
        _resolve_opposites(board, pair.words, pair.words[0].lower(), False, log, spawns)
    rules = board.rules
    given, givable = rules.given, rules.givable
    if OPEN in given and SHUT in given:
        _resolve_opposites(board, (OPEN, SHUT), OPEN_CAUSE, True, log, spawns)
    if SINK in givable:
        _resolve_sink(board, log, spawns)
    if WEAK in given:
        _resolve_weak(board, log, spawns)
    if MELT in given and HOT in given:
        _destroy_touching(board, log, spawns, victim=MELT, killer=HOT, cause=MELT_CAUSE)
    if DEFEAT in givable and YOU in givable:
        _destroy_touching(board, log, spawns, victim=YOU, killer=DEFEAT, cause=DEFEAT_CAUSE)
    if DEFEAT in rules.level_props:
        _level_defeat(board, log, spawns)


def _destroy(
    board: Board, reading: Reading, ident: int, cause: str, log: TurnLog | None, spawns: list[Spawn]
) -> None:
    """Destroy ``ident``, noting what it HAS (read just before it goes) for the spawn phase."""
    cell = board.pos[ident]
    target = has_target(board, reading, ident) if board.rules.has_rules else None
    if log is not None:
        log.destroyed.append((ident, board.noun[ident], cell, cause, board.is_word[ident]))
    left = None if target is None else _becomes(board, ident, target)
    board.destroy(ident)
    if left is not None:
        spawns.append((ident, left[0], cell, left[1]))


def _resolve_opposites(
    board: Board,
    words: tuple[str, str],
    cause: str,
    self_destroys: bool,
    log: TurnLog | None,
    spawns: list[Spawn],
) -> None:
    """Things with the first word and things with the second destroy each other one for one.

    For OPEN/SHUT (``self_destroys``) a thing that is both destroys itself first.
    """
    first, second = words
    reading = board.read()
    if not reading.any_holder(first) or not reading.any_holder(second):
        return
    for cell in reading.cells_holding(first):
        gone: set[int] = set()
        for layer in reading.layers(cell):
            firsts = [i for i in layer if first in reading.props(i)]
            seconds = [i for i in layer if second in reading.props(i)]
            matched: set[int] = set()
            if self_destroys:
                matched.update(i for i in firsts if second in reading.props(i))
            for a in firsts:
                if a in matched:
                    continue
                partner = next((b for b in seconds if b != a and b not in matched), None)
                if partner is not None:
                    matched.update((a, partner))
            gone.update(matched)
        for ident in sorted(gone):
            _destroy(board, reading, ident, cause, log, spawns)


def _resolve_sink(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """A layer of a cell with a SINK thing and something else loses every thing on it."""
    reading = board.read()
    cells, pos, layered = board.cells, board.pos, reading.floats is not None
    # Only a cell with two things or more can sink anything: most turns have none.
    crowded = [pos[i] for i in reading.holders(SINK) if len(cells[pos[i]]) >= 2]
    if not crowded:
        return
    for cell in sorted(set(crowded)):
        occupants = cells[cell]
        if layered:
            gone = [
                i
                for layer in reading.layers(cell)
                if len(layer) >= 2 and any(SINK in reading.props(o) for o in layer)
                for i in layer
            ]
            gone.sort()
        else:
            gone = list(occupants)
        for ident in gone:
            _destroy(board, reading, ident, SINK_CAUSE, log, spawns)


def _resolve_weak(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """A WEAK thing sharing its cell's layer with anything else is destroyed."""
    reading = board.read()
    for cell in reading.cells_holding(WEAK):
        gone = [
            i
            for layer in reading.layers(cell)
            if len(layer) >= 2
            for i in layer
            if WEAK in reading.props(i)
        ]
        for ident in sorted(gone):
            _destroy(board, reading, ident, WEAK_CAUSE, log, spawns)


def _destroy_touching(
    board: Board,
    log: TurnLog | None,
    spawns: list[Spawn],
    *,
    victim: str,
    killer: str,
    cause: str,
) -> None:
    """Destroy every ``victim`` thing on the layer of a ``killer`` thing in its cell, by id.

    DEFEAT destroys YOU, HOT melts MELT; a thing that is both destroys itself.
    """
    reading = board.read()
    if not reading.any_holder(killer) or not reading.any_holder(victim):
        return
    pos = board.pos
    # From the victims (few: what is YOU or MELT), each looking at its own layer (its
    # cell, without FLOAT), not from the killers, who may be many; all are found before
    # any goes, then destroyed by cell and id.
    gone: list[tuple[int, int]] = []
    for ident in reading.holders(victim):
        cell = pos[ident]
        for other in reading.layer(cell, ident):
            if killer in reading.props(other):
                gone.append((cell, ident))
                break
    if len(gone) > 1:
        gone.sort()
    for _, ident in gone:
        _destroy(board, reading, ident, cause, log, spawns)


def _level_defeat(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """LEVEL IS DEFEAT: every YOU thing left is destroyed, by cell and id."""
    reading = board.read()
    pos = board.pos
    for _, ident in sorted((pos[i], i) for i in reading.holders(YOU)):
        _destroy(board, reading, ident, DEFEAT_CAUSE, log, spawns)


def has_target(board: Board, reading: Reading, ident: int) -> str | None:
    """What a destroyed entity leaves: the value of the first ``X HAS Y`` that applies to it.

    ``HAS TEXT`` leaves the word of the entity's identity (``_becomes``);
    ``HAS ALL``, ``HAS LEVEL`` and ``HAS EMPTY`` leave nothing (``docs/vocabulary.md``).
    """
    for rule in board.rules.has_rules:
        if rule.predicate not in (ALL, LEVEL, EMPTY) and applies(
            board, rule, ident, reading.floats
        ):
            return rule.predicate
    return None


def spawn_has(board: Board, spawns: list[Spawn], log: TurnLog | None) -> None:
    """Step 7a: each destroyed entity that has something leaves it where it was, facing as it did."""
    for ident, noun, cell, word in spawns:
        board.revive(ident, cell, noun, word)
        if log is not None:
            if log.spawned is None:
                log.spawned = []
            log.spawned.append((ident, noun, cell, word))


def evaluate_win(board: Board) -> bool:
    """Step 9: LEVEL IS WIN, a YOU that is also WIN, or a YOU sharing its layer with a WIN."""
    rules = board.rules
    if WIN in rules.level_props:
        return True
    if WIN not in rules.givable:
        return False
    if rules.live:
        # One layer, properties by kind and noun: the cell is the layer.
        cells, pos = board.cells, board.pos
        for ident in board.holders(YOU):
            if WIN in board.props(ident):
                return True
            for other in cells[pos[ident]]:
                if other != ident and WIN in board.props(other):
                    return True
        return False
    reading = board.read()
    if not reading.any_holder(WIN):
        return False
    pos = board.pos
    for ident in reading.holders(YOU):
        if WIN in reading.props(ident):
            return True
        for other in reading.layer(pos[ident], ident):
            if other != ident and WIN in reading.props(other):
                return True
    return False


def has_control(board: Board) -> bool:
    """Step 10: whether anything surviving is YOU."""
    return YOU in board.rules.givable and board.read().any_holder(YOU)
