"""One turn of a ``vocabulary-1`` level, in order (``docs/vocabulary.md``, "The turn").

``miau.engine.turn`` hands a vocabulary-1 board here once per turn; the
functions below read top to bottom as the turn runs: the player's move, MOVE,
SHIFT (PULL rides with every move), the rule re-parse and transformations,
the contacts (pairs, OPEN/SHUT, SINK, WEAK, HOT/MELT, DEFEAT), the HAS
spawns, then the win and the control check.

Properties here depend on the board (NOT, conditions, FLOAT layers), so each
phase takes a ``Reading``: every entity's properties at the moment the phase
starts, a pure function of the board and the rule table. Nothing read is
kept between phases, so undo, restore and the solver need nothing beyond the
journal.
"""

from __future__ import annotations

from typing import Final

from miau.engine.board import GONE, Board, Board1
from miau.engine.events import TurnLog
from miau.engine.movement import BOUNDS_REASON, STOP_REASON
from miau.engine.rules import RuleSet
from miau.engine.rules1 import Rule1, RuleSet1, subject_matches, term_matches
from miau.engine.vocabulary import (
    ALL,
    DEFEAT,
    FACING,
    FACING_OF_VECTOR,
    FLOAT,
    HOT,
    LONELY,
    MELT,
    MOVE,
    ON,
    OPEN,
    PULL,
    PUSH,
    SHIFT,
    SHUT,
    SINK,
    STOP,
    TEXT,
    WEAK,
    WIN,
    YOU,
)

OPEN_CAUSE: Final = "open"
SINK_CAUSE: Final = "sink"
WEAK_CAUSE: Final = "weak"
MELT_CAUSE: Final = "melt"
DEFEAT_CAUSE: Final = "defeat"

VECTORS: Final[tuple[tuple[int, int], ...]] = ((1, 0), (0, 1), (-1, 0), (0, -1))
"""The unit vector of each facing index (right, down, left, up)."""

_NOTHING: Final[frozenset[str]] = frozenset()

Spawn = tuple[int, str, int, bool]
"""``(id, noun or text, cell, as a word)``: what a destroyed entity leaves, for the HAS phase."""


def _table(board: Board) -> RuleSet1:
    rules: RuleSet = board.rules
    assert isinstance(rules, RuleSet1)  # a vocabulary-1 level is parsed by Tier1Parser
    return rules


def _kinds(board: Board) -> Board1:
    assert isinstance(board, Board1)  # a vocabulary-1 level is played on a Board1
    return board


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


class Reading:
    """Every entity's properties at one moment: the rules applied to the board.

    Conditions are evaluated on the board as it stands. FLOAT is settled
    first (its own conditions reading ``ON`` across layers), then every other
    property with ``ON`` limited to the thing's own layer.
    """

    __slots__ = ("_holders", "_with_prop", "board", "floats", "props")

    def __init__(self, board: Board) -> None:
        """Read the properties of every surviving entity of ``board``."""
        self.board = board
        rules = _table(board)
        pos, noun, is_word = board.pos, board.noun, board.is_word
        count = len(pos)
        props: list[frozenset[str]] = [_NOTHING] * count
        static = rules.static_props
        conditional = rules.conditional
        if not conditional:
            for ident in range(count):
                if pos[ident] != GONE:
                    given, taken = static(is_word[ident], noun[ident])
                    props[ident] = given - taken if taken else given
            self.floats = [FLOAT in p for p in props]
        else:
            floats = [False] * count
            for ident in range(count):
                if pos[ident] == GONE:
                    continue
                given, taken = static(is_word[ident], noun[ident])
                floating, sunk = FLOAT in given, FLOAT in taken
                for rule in conditional:
                    if rule.predicate == FLOAT and _applies(board, rule, ident, None):
                        if rule.negated:
                            sunk = True
                        else:
                            floating = True
                floats[ident] = floating and not sunk
            for ident in range(count):
                if pos[ident] == GONE:
                    continue
                given, taken = static(is_word[ident], noun[ident])
                more: set[str] = set(given)
                less: set[str] = set(taken)
                for rule in conditional:
                    if rule.predicate != FLOAT and _applies(board, rule, ident, floats):
                        (less if rule.negated else more).add(rule.predicate)
                more.discard(FLOAT)
                if floats[ident]:
                    more.add(FLOAT)
                props[ident] = frozenset(more - less)
            self.floats = floats
        self.props = props
        # Each property's entities in one pass (in id order); the copies of this reading
        # share it, since props never change.
        with_prop: dict[str, list[int]] = {}
        for ident, held in enumerate(props):
            for prop in held:
                with_prop.setdefault(prop, []).append(ident)
        self._with_prop = with_prop
        self._holders: dict[str, list[int]] = {}

    @classmethod
    def of(cls, board: Board) -> Reading:
        """The reading of ``board`` now: the last one again if nothing it reads has changed.

        Most phases of a turn find the board as the previous phase left it
        (nobody was pushed, nothing melted), so their readings are the same.
        What a reading is computed from (the rule table, and every entity's
        cell, noun, facing and kind) is compared in full, so a reused
        reading is exactly the one that would be computed. The one reused is
        a fresh copy: its holders are found anew, on the board as it is when
        asked, as with a new reading.
        """
        kinds = _kinds(board)
        state = (tuple(board.pos), tuple(board.noun), tuple(board.facing), tuple(kinds.kinds))
        last = kinds.last_reading
        if last is not None and last[0] is board.rules and last[1] == state:
            again: Reading = cls.__new__(cls)
            first: Reading = last[2]
            again.board, again.props, again.floats = board, first.props, first.floats
            again._with_prop, again._holders = first._with_prop, {}
            return again
        reading = cls(board)
        kinds.last_reading = (board.rules, state, reading)
        return reading

    def holders(self, prop: str) -> list[int]:
        """Surviving entities with ``prop``, in id order."""
        found = self._holders.get(prop)
        if found is None:
            pos = self.board.pos
            # Survivors on the board as it is when first asked, as a new reading would find.
            found = [i for i in self._with_prop.get(prop, ()) if pos[i] != GONE]
            self._holders[prop] = found
        return found

    def cells_holding(self, prop: str) -> list[int]:
        """Row-major list of the cells that hold an entity with ``prop``."""
        pos = self.board.pos
        return sorted({pos[i] for i in self.holders(prop)})

    def layer(self, cell: int, ident: int) -> list[int]:
        """The entities in ``cell`` on ``ident``'s layer (FLOAT or not), in id order."""
        floats = self.floats
        mine = floats[ident]
        return [o for o in self.board.cells[cell] if floats[o] == mine]


def _applies(board: Board, rule: Rule1, ident: int, floats: list[bool] | None) -> bool:
    """Whether ``rule`` applies to entity ``ident`` now: subject and every condition."""
    if not subject_matches(rule, board.is_word[ident], board.noun[ident]):
        return False
    return all(
        _condition_holds(board, c.word, c.negated, c.args, ident, floats) for c in rule.conditions
    )


def _condition_holds(
    board: Board,
    word: str,
    negated: bool,
    args: tuple[tuple[bool, str], ...],
    ident: int,
    floats: list[bool] | None,
) -> bool:
    """One condition as a query on the board (``floats`` None: ON ignores layers)."""
    cell = board.pos[ident]
    cells = board.cells
    if word == LONELY:
        return (len(cells[cell]) == 1) != negated
    width, height = board.width, board.level.height
    y, x = divmod(cell, width)
    if word == ON:
        others = [o for o in cells[cell] if o != ident]
        if floats is not None:
            others = [o for o in others if floats[o] == floats[ident]]
    elif word == FACING:
        dx, dy = VECTORS[board.facing[ident]]
        fx, fy = x + dx, y + dy
        others = cells[fy * width + fx] if 0 <= fx < width and 0 <= fy < height else []
    else:  # NEAR: the eight neighbours and the thing's own cell
        others = []
        for ny in range(max(0, y - 1), min(height, y + 2)):
            for nx in range(max(0, x - 1), min(width, x + 2)):
                others.extend(o for o in cells[ny * width + nx] if o != ident)
    is_word, noun = board.is_word, board.noun
    held = all(
        any(term_matches(neg, arg, is_word[o], noun[o]) for o in others) for neg, arg in args
    )
    return held != negated


# --- the turn ---------------------------------------------------------------


def start_board1(board: Board) -> None:
    """The start of a vocabulary-1 level: start-of-level transformations only.

    A thing that became a word (or a word a thing) changes the rules at once.
    """
    apply_transformations1(board, set(), None)
    board.refresh_rules()


def move_player1(board: Board, direction: tuple[int, int], log: TurnLog | None) -> bool:
    """Step 3: every YOU entity (word or object) takes the intent; accepted when one moved."""
    reading = Reading.of(board)
    movers = reading.holders(YOU)
    if not movers:
        return False
    facing = FACING_OF_VECTOR[direction]
    return _move_phase(board, reading, _front_first(board, movers, facing), log, bounce=False)


def settle_turn1(board: Board, log: TurnLog | None) -> None:
    """Everything after the player's movement, in the order of ``docs/vocabulary.md``."""
    run_move(board, log)
    run_shift(board, log)
    board.refresh_rules()
    apply_transformations1(board, set(), log)
    board.refresh_rules()  # a thing that became a word, or a word a thing
    spawns: list[Spawn] = []
    resolve_contacts1(board, log, spawns)
    spawn_has(board, spawns, log)
    board.refresh_rules()
    reading = Reading.of(board)
    board.won = evaluate_win1(reading)
    board.control_lost = not reading.holders(YOU)
    board.move_count += 1


def run_move(board: Board, log: TurnLog | None) -> None:
    """MOVE: each MOVE thing steps once along its facing, turning back when blocked.

    Movers go by facing (right, down, left, up), front-first, then by id; a
    blocked mover turns round and tries once the other way, and stays turned
    if that is blocked too.
    """
    reading = Reading.of(board)
    movers = reading.holders(MOVE)
    if not movers:
        return
    ordered: list[tuple[int, int]] = []
    for facing in range(4):
        group = [i for i in movers if board.facing[i] == facing]
        ordered.extend(_front_first(board, group, facing))
    _move_phase(board, reading, ordered, log, bounce=True)


def run_shift(board: Board, log: TurnLog | None) -> None:
    """SHIFT: everything else on a SHIFT thing's layer in its cell moves along its facing.

    Shifters go by id; a thing on two shifters moves for the first only.
    """
    reading = Reading.of(board)
    shifters = reading.holders(SHIFT)
    if not shifters:
        return
    listed: set[int] = set()
    moves: list[tuple[int, int]] = []
    for shifter in shifters:
        facing = board.facing[shifter]
        for other in reading.layer(board.pos[shifter], shifter):
            if other != shifter and other not in listed:
                listed.add(other)
                moves.append((other, facing))
    _move_phase(board, reading, moves, log, bounce=False)


def apply_transformations1(board: Board, transformed: set[int], log: TurnLog | None) -> None:
    """Things become what the first rule ``X IS NOUN`` (or ``X IS TEXT``) that applies says.

    Every entity's target is decided before any changes. ``X IS X`` and
    ``X IS NOT X`` keep an X as it is; ``X IS NOT Y`` blocks ``X IS Y``. A
    word's own identity is TEXT: ``TEXT IS TEXT`` keeps words as they are,
    ``TEXT IS ROCK`` makes every word a ROCK. ``X IS TEXT`` makes an X the
    word of its noun (a kind change). No thing becomes ALL.
    """
    rules = _table(board)
    if not rules.noun_rules:
        return
    floats = Reading.of(board).floats
    pos, noun, is_word = board.pos, board.noun, board.is_word
    changes: list[tuple[int, str]] = []
    for ident in range(len(pos)):
        if pos[ident] == GONE or ident in transformed:
            continue
        own = _identity(board, ident)
        targets: list[str] = []
        blocked: set[str] = set()
        locked = False
        for rule in rules.noun_rules:
            if not _applies(board, rule, ident, floats):
                continue
            if rule.predicate == own:
                locked = True
            elif rule.negated:
                blocked.add(rule.predicate)
            else:
                targets.append(rule.predicate)
        if locked:
            continue
        target = next((t for t in targets if t not in blocked and t != ALL), None)
        if target is not None:
            changes.append((ident, target))
    for ident, target in changes:
        old, was_word = noun[ident], is_word[ident]
        new, word = _becomes(board, ident, target)
        if word or was_word:
            _kinds(board).set_kind(ident, word, new)
        else:
            board.set_noun(ident, new)
        transformed.add(ident)
        if log is not None:
            log.transformed.append((ident, old, new, was_word, word))


def resolve_contacts1(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """The contacts: pairs, OPEN/SHUT, SINK, WEAK, HOT/MELT, DEFEAT.

    Each phase reads the board afresh. Things touch only on the same layer
    (FLOAT or not); cells go in row-major order and things by id.
    """
    for pair in board.level.pairs:
        _resolve_opposites(board, pair.words, pair.words[0].lower(), False, log, spawns)
    _resolve_opposites(board, (OPEN, SHUT), OPEN_CAUSE, True, log, spawns)
    _resolve_sink(board, log, spawns)
    _resolve_weak(board, log, spawns)
    _resolve_melt(board, log, spawns)
    _resolve_defeat(board, log, spawns)


def _destroy(
    board: Board, reading: Reading, ident: int, cause: str, log: TurnLog | None, spawns: list[Spawn]
) -> None:
    """Destroy ``ident``, noting what it HAS (read just before it goes) for the spawn phase."""
    cell = board.pos[ident]
    target = has_target(board, reading, ident)
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
    reading = Reading.of(board)
    if not reading.holders(first) or not reading.holders(second):
        return
    props = reading.props
    for cell in reading.cells_holding(first):
        gone: set[int] = set()
        for layer in _layers(reading, cell):
            firsts = [i for i in layer if first in props[i]]
            seconds = [i for i in layer if second in props[i]]
            matched: set[int] = set()
            if self_destroys:
                matched.update(i for i in firsts if second in props[i])
            for a in firsts:
                if a in matched:
                    continue
                partner = next((b for b in seconds if b != a and b not in matched), None)
                if partner is not None:
                    matched.update((a, partner))
            gone.update(matched)
        for ident in sorted(gone):
            _destroy(board, reading, ident, cause, log, spawns)


def _layers(reading: Reading, cell: int) -> list[list[int]]:
    """The entities of ``cell`` split into the ground layer and the FLOAT layer."""
    floats = reading.floats
    occupants = reading.board.cells[cell]
    ground = [i for i in occupants if not floats[i]]
    floating = [i for i in occupants if floats[i]]
    return [layer for layer in (ground, floating) if layer]


def _resolve_sink(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """A layer of a cell with a SINK thing and something else loses every thing on it."""
    reading = Reading.of(board)
    props = reading.props
    for cell in reading.cells_holding(SINK):
        gone = [
            i
            for layer in _layers(reading, cell)
            if len(layer) >= 2 and any(SINK in props[o] for o in layer)
            for i in layer
        ]
        for ident in sorted(gone):
            _destroy(board, reading, ident, SINK_CAUSE, log, spawns)


def _resolve_weak(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """A WEAK thing sharing its cell's layer with anything else is destroyed."""
    reading = Reading.of(board)
    props = reading.props
    for cell in reading.cells_holding(WEAK):
        gone = [
            i
            for layer in _layers(reading, cell)
            if len(layer) >= 2
            for i in layer
            if WEAK in props[i]
        ]
        for ident in sorted(gone):
            _destroy(board, reading, ident, WEAK_CAUSE, log, spawns)


def _resolve_melt(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """A MELT thing on the layer of a HOT thing in its cell melts (a HOT MELT thing too)."""
    _destroy_touching(board, log, spawns, victim=MELT, killer=HOT, cause=MELT_CAUSE)


def _resolve_defeat(board: Board, log: TurnLog | None, spawns: list[Spawn]) -> None:
    """A YOU thing on the layer of a DEFEAT thing in its cell is destroyed (itself included)."""
    _destroy_touching(board, log, spawns, victim=YOU, killer=DEFEAT, cause=DEFEAT_CAUSE)


def _destroy_touching(
    board: Board,
    log: TurnLog | None,
    spawns: list[Spawn],
    *,
    victim: str,
    killer: str,
    cause: str,
) -> None:
    """Destroy every ``victim`` thing on the layer of a ``killer`` thing in its cell, by id."""
    reading = Reading.of(board)
    if not reading.holders(victim):
        return
    props = reading.props
    for cell in reading.cells_holding(killer):
        gone = [
            i
            for layer in _layers(reading, cell)
            if any(killer in props[o] for o in layer)
            for i in layer
            if victim in props[i]
        ]
        for ident in sorted(gone):
            _destroy(board, reading, ident, cause, log, spawns)


def has_target(board: Board, reading: Reading, ident: int) -> str | None:
    """What a destroyed entity leaves: the value of the first ``X HAS Y`` that applies to it.

    ``HAS TEXT`` leaves the word of the entity's identity (``_becomes``);
    ``HAS ALL`` leaves nothing (``docs/vocabulary.md``).
    """
    rules = _table(board)
    if not rules.has_rules:
        return None
    for rule in rules.has_rules:
        if rule.predicate != ALL and _applies(board, rule, ident, reading.floats):
            return rule.predicate
    return None


def spawn_has(board: Board, spawns: list[Spawn], log: TurnLog | None) -> None:
    """HAS: each destroyed entity that has something leaves it where it was, facing as it did."""
    if log is not None and log.spawned is None:
        log.spawned = []
    for ident, noun, cell, word in spawns:
        _kinds(board).revive(ident, cell, noun, word)
        if log is not None and log.spawned is not None:
            log.spawned.append((ident, noun, cell, word))


def evaluate_win1(reading: Reading) -> bool:
    """A YOU that is also WIN, or a YOU sharing its cell's layer with a distinct WIN."""
    props, board = reading.props, reading.board
    for ident in reading.holders(YOU):
        if WIN in props[ident]:
            return True
        for other in reading.layer(board.pos[ident], ident):
            if other != ident and WIN in props[other]:
                return True
    return False


def has_control1(board: Board) -> bool:
    """Whether anything surviving is YOU now."""
    return bool(Reading.of(board).holders(YOU))


# --- movement ---------------------------------------------------------------


def _front_first(board: Board, movers: list[int], facing: int) -> list[tuple[int, int]]:
    """``movers`` ordered front-first along ``facing``, then by id, each with the facing."""
    width, pos = board.width, board.pos
    dx, dy = VECTORS[facing]
    if dx:
        ordered = sorted(movers, key=lambda i: (-(pos[i] % width) * dx, i))
    else:
        ordered = sorted(movers, key=lambda i: (-(pos[i] // width) * dy, i))
    return [(i, facing) for i in ordered]


def _move_phase(
    board: Board,
    reading: Reading,
    moves: list[tuple[int, int]],
    log: TurnLog | None,
    *,
    bounce: bool,
) -> bool:
    """One movement phase: each ``(mover, facing)`` in order; a thing steps at most once.

    Returns whether anything moved. With ``bounce`` (MOVE), a blocked mover
    turns round and tries once the other way.
    """
    stepped: set[int] = set()
    any_moved = False
    for mover, facing in moves:
        if mover in stepped or board.pos[mover] == GONE:
            continue
        if _step(board, reading, mover, facing, stepped, log):
            any_moved = True
            continue
        if not bounce:
            continue
        back = (facing + 2) % 4
        if _step(board, reading, mover, back, stepped, log):
            any_moved = True
            continue
        board.turn(mover, back)
        if log is not None:
            cell = board.pos[mover]
            log.moved.append((mover, cell, cell, None, back))
    return any_moved


def _step(
    board: Board,
    reading: Reading,
    mover: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> bool:
    """Move ``mover`` one cell along ``facing`` with its push chain, then pull what follows."""
    dx, dy = VECTORS[facing]
    chain, blocker, reason = _plan(board, reading, mover, dx, dy, stepped)
    if reason is not None:
        if log is not None:
            log.blocked.append((mover, (dx, dy), blocker, reason))
        return False
    source = board.pos[mover]
    _apply_chain(board, chain, dx, dy, facing, stepped, log)
    _pull(board, reading, source, dx, dy, facing, stepped, log)
    return True


def _apply_chain(
    board: Board,
    chain: list[tuple[int, int | None]],
    dx: int,
    dy: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> None:
    offset = dx + dy * board.width
    pos = board.pos
    for ident, pusher in chain:
        source = pos[ident]
        board.move(ident, source + offset, facing)
        stepped.add(ident)
        if log is not None:
            log.moved.append((ident, source, source + offset, pusher, facing))


def _pull(
    board: Board,
    reading: Reading,
    vacated: int,
    dx: int,
    dy: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> None:
    """PULL: PULL things right behind a thing that moved follow it, cell after cell."""
    width, height = board.width, board.level.height
    props = reading.props
    y, x = divmod(vacated, width)
    while True:
        x -= dx
        y -= dy
        if not (0 <= x < width and 0 <= y < height):
            return
        behind = y * width + x
        pulled = [o for o in board.cells[behind] if o not in stepped and PULL in props[o]]
        moved = False
        for ident in pulled:
            if ident in stepped:
                continue
            chain, blocker, reason = _plan(board, reading, ident, dx, dy, stepped)
            if reason is not None:
                if log is not None:
                    log.blocked.append((ident, (dx, dy), blocker, reason))
                continue
            _apply_chain(board, chain, dx, dy, facing, stepped, log)
            moved = True
        if not moved:
            return


def _plan(
    board: Board, reading: Reading, mover: int, dx: int, dy: int, stepped: set[int]
) -> tuple[list[tuple[int, int | None]], int | None, str | None]:
    """The mover and everything it would push, or what blocks it (as the core planner).

    PULL blocks like STOP unless the thing is also PUSH; an OPEN thing may
    enter a SHUT thing's cell on its layer (and the reverse) however STOP it
    is, as may the partners of a Clockwork ``enter`` pair.
    """
    width, height = board.width, board.level.height
    cells, props = board.cells, reading.props
    chain: list[tuple[int, int | None]] = [(mover, None)]
    frontier = [mover]
    y, x = divmod(board.pos[mover], width)
    while True:
        x += dx
        y += dy
        if not (0 <= x < width and 0 <= y < height):
            return chain, None, BOUNDS_REASON
        pushed: list[int] = []
        for occupant in cells[y * width + x]:
            if occupant in stepped:
                continue
            if all(_can_enter(board, reading, f, occupant) for f in frontier):
                continue
            traits = props[occupant]
            if PUSH in traits:
                pushed.append(occupant)
            elif STOP in traits or PULL in traits:
                return chain, occupant, STOP_REASON
        if not pushed:
            return chain, None, None
        pusher = frontier[0]
        chain.extend((ident, pusher) for ident in pushed)
        frontier = pushed


def _can_enter(board: Board, reading: Reading, mover: int, occupant: int) -> bool:
    """Whether ``mover`` may walk into ``occupant``'s cell: OPEN/SHUT or an enter pair."""
    mine, theirs = reading.props[mover], reading.props[occupant]
    if reading.floats[mover] == reading.floats[occupant] and (
        (OPEN in mine and SHUT in theirs) or (SHUT in mine and OPEN in theirs)
    ):
        return True
    for pair in board.level.enter_pairs:
        first, second = pair.words
        if (first in mine and second in theirs) or (second in mine and first in theirs):
            return True
    return False
