"""The ideas a level asks for: needed rule changes, and the idea signature they make.

A shortest solution forms and breaks rules on its way. Some of those
changes are the puzzle (``ROCK IS YOU`` formed, ``WALL IS STOP`` broken);
others happen by accident, a word passing through a sentence on its way
somewhere else (a borrowed ``IS`` that reads ``WALL IS FLAG`` for one
turn). A change is **needed** when the level cannot be won while the rule
is held as it was at the start: a breadth-first search of the level with
every move that leaves that rule otherwise left out (``Expander``'s
``hold``) finds no win within ``need_bound(length)`` moves (the shortest
length plus half of it, at least 4 more): a change a longer, other
solution could do without is still the idea of the shortest one. Each
held search may expand :data:`DEFAULT_NEED_EXPANSIONS` states; one that
runs out is *undecided*, and an undecided change counts as needed (it
was not shown to be avoidable).

The **idea signature** is the needed changes in a canonical form that
forgets which nouns a level uses: each noun becomes the role it plays at
the start (``[you]``, ``[win]``, ``[stop]``, ``[push]``, ``[hazard]``,
``[mover]``, ``[other]``), properties and operators stay as words. So two
levels that need the same trick with other nouns have the same signature,
and ``miau check`` can say when a pack asks for the same idea twice. The
destructions the solution makes are part of the idea too, by cause
(``contact: sink``): see ``contacts_along``.

Standard library only, deterministic: no figure depends on the clock (a
caller on a time budget sets the solver's deadline, past which every search stops).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from miau.engine import Game
from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.rules import Condition, Rule, RuleSet
from miau.engine.vocabulary import (
    ALL,
    AND,
    DEFEAT,
    EMPTY,
    HOT,
    IS,
    LEVEL,
    MOVE,
    MOVE_LETTERS,
    PUSH,
    SHIFT,
    SINK,
    STOP,
    TEXT,
    WEAK,
    WIN,
    YOU,
)
from miau.solver.best_first import HEURISTIC_WEIGHT, MOVE_WEIGHT, distance_to_win
from miau.solver.progress import OutOfTime as OutOfTime
from miau.solver.progress import check_deadline
from miau.solver.search import DEADLINE_EVERY
from miau.solver.successors import DEAD, Expander, HeldRule

DEFAULT_NEED_EXPANSIONS: Final = 60_000
"""States each "is this change needed?" search may expand before it is undecided."""

NEED_MARGIN_FLOOR: Final = 4
"""A held search may go at least this many moves past the shortest length (``need_bound``)."""

ROLE_ORDER: Final = (
    (YOU, "you"),
    (WIN, "win"),
    (STOP, "stop"),
    (PUSH, "push"),
    (DEFEAT, "hazard"),
    (SINK, "hazard"),
    (HOT, "hazard"),
    (WEAK, "hazard"),
    (MOVE, "mover"),
    (SHIFT, "mover"),
)
"""A noun's role is the first of these properties it has at the start (else ``other``)."""

Changed = tuple[Rule, bool, bool, bool]
"""A rule a move string changes: ``(rule, formed, joined by AND, by the player)``. *Formed* is
False for a rule of the start that is broken; *joined by AND*, whether the sentence that formed
(or, for a broken rule, read) it joins words with AND (AND is an idea of its own); *by the
player*, whether the turn's own movement pushed a word (else an automaton or a MOVE thing
carried a word: the change happened by itself, and the signature says so)."""

CONTACT_PREFIX: Final = "contact: "
"""How a destruction the solution makes reads in a signature: ``contact: sink``."""

LITERAL_NOUNS: Final = frozenset({TEXT, ALL, EMPTY, LEVEL})
"""Nouns that mean the same on every level: a signature keeps them as words."""

NEEDED: Final = "needed"
"""The held search proved no win at all (the whole held space was walked)."""
NOT_NEEDED: Final = "not needed"
"""The level can be won with the rule held: the change is a cascade, not the idea."""
NEEDED_AS_KIND: Final = "needed as a kind"
"""Another rule of its kind could stand in for it (``WALL IS WIN`` for ``FLAG IS WIN``), but
with no new rule of that kind formable the level is not won: the idea counts."""
UNDECIDED: Final = "undecided"
"""The held search ran out of states: counted as needed, listed as undecided."""


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One rule the shortest solution changes, and whether the level needs that change."""

    text: str
    """The rule as words (``WALL IS STOP``)."""
    formed: bool
    """True when the solution forms the rule, False when it breaks a rule of the start."""
    idea: str
    """The change in the signature's form: ``+[push] IS YOU``, ``-[stop] IS STOP``."""
    verdict: str
    """:data:`NEEDED`, :data:`NEEDED_AS_KIND`, :data:`NOT_NEEDED` or :data:`UNDECIDED`."""
    expanded: int
    """States the held search expanded to reach its verdict."""

    @property
    def counts(self) -> bool:
        """Whether the change counts as one of the level's ideas (all but the not needed)."""
        return self.verdict != NOT_NEEDED

    def to_json(self) -> dict[str, Any]:
        """The change as a JSON-ready record."""
        return {
            "rule": self.text,
            "change": "formed" if self.formed else "broken",
            "idea": self.idea,
            "verdict": self.verdict,
            "expanded": self.expanded,
        }

    def __reduce__(self) -> tuple[type[RuleChange], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class Ideas:
    """The rule changes of a level's shortest solution, judged, and the signature they make."""

    changes: tuple[RuleChange, ...]
    """Every rule the solution changes, in the order it first changes them."""
    signature: tuple[str, ...]
    """The needed changes' ideas, sorted and without repeats: equal for the same trick."""

    @property
    def needed(self) -> tuple[RuleChange, ...]:
        """The changes that count (needed, or undecided)."""
        return tuple(change for change in self.changes if change.counts)

    @property
    def cascades(self) -> tuple[RuleChange, ...]:
        """The changes the level can be won without: listed, never counted."""
        return tuple(change for change in self.changes if not change.counts)

    def signature_text(self) -> str:
        """The signature in one line (``-[stop] IS STOP; +[push] IS YOU``)."""
        return signature_text(self.signature)

    def to_json(self) -> dict[str, Any]:
        """The ideas as a JSON-ready record."""
        return {
            "changes": [change.to_json() for change in self.changes],
            "needed": [change.text for change in self.needed],
            "cascades": [change.text for change in self.cascades],
            "signature": list(self.signature),
            "signatureText": self.signature_text(),
        }

    def __reduce__(self) -> tuple[type[Ideas], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def signature_text(signature: tuple[str, ...]) -> str:
    """A signature in one line; a level that needs no rule change reads ``no rule change``."""
    return "; ".join(signature) if signature else "no rule change"


def need_bound(length: int) -> int:
    """How many moves a held search may use: the shortest length plus half of it (at least 4)."""
    return length + max(NEED_MARGIN_FLOOR, length // 2)


def level_ideas(
    level: Level | Mapping[str, Any],
    solution: str,
    *,
    max_expansions: int = DEFAULT_NEED_EXPANSIONS,
) -> Ideas:
    """Judge every rule change along ``solution`` (a shortest one) and make the signature.

    Each rule that ``solution`` forms or breaks at some turn is held as it
    was at the start in a bounded search of the level (``held_verdict``; the
    bound is in the module docstring); the change is needed when that search proves
    no win, and counts as needed when it cannot tell. A formed rule that is
    not needed alone, when no other formed rule of its kind counts, is held
    once more as a kind (``no_new_rule_like``): when some new rule giving
    the same property is needed, it counts (``NEEDED_AS_KIND``). A rule
    formed and broken again along the way is one change.

    A caller on a time budget sets the solver's deadline
    (``miau.solver.progress.deadline``): past it, a held search stops with
    :class:`OutOfTime`, as every search does. No figure depends on the clock.

    :raises LevelError: when the level cannot be run.
    :raises OutOfTime: past the solver's deadline, when one is set.
    """
    given = level if isinstance(level, Level) else Level.from_dict(level)
    start_rules, timeline = rules_changed_along(given, solution)
    contacts = contacts_along(given, solution)
    roles = noun_roles(start_rules)
    properties = start_rules.properties
    bound = need_bound(len(solution))
    at_start = frozenset(start_rules.keys)
    changes: list[RuleChange] = []
    for rule, formed, joined, by_player in timeline:
        verdict, spent = held_verdict(given, holding(rule.key, not formed), bound, max_expansions)
        idea = change_idea(rule, formed, joined, by_player, roles, properties)
        changes.append(RuleChange(rule.text(), formed, idea, verdict, spent))
    for index, (rule, formed, _, _) in enumerate(timeline):
        change = changes[index]
        if not formed or change.counts or _kind_counted(changes, timeline, rule):
            continue
        # Another rule of the same kind could stand in for this one (WALL IS WIN for
        # FLAG IS WIN): the idea is still needed when no new rule of the kind can be formed.
        verdict, spent = held_verdict(
            given, no_new_rule_like(rule, at_start), bound, max_expansions
        )
        if verdict != NOT_NEEDED:
            changes[index] = replace(
                change, verdict=NEEDED_AS_KIND, expanded=change.expanded + spent
            )
    ideas = {change.idea for change in changes if change.counts}
    ideas.update(f"{CONTACT_PREFIX}{cause}" for cause in contacts)
    return Ideas(tuple(changes), tuple(sorted(ideas)))


def change_signature(level: Level | Mapping[str, Any], solution: str) -> tuple[str, ...]:
    """Every rule change and contact along ``solution``, in the signature's form, sorted.

    The idea signature before any held search: what ``level_ideas`` would
    give if every change were needed. It costs one replay of the
    solution, so the generator can tell candidates' ideas apart for each
    one it solves (its archive's cells); a cascade the player never aimed
    at still shows here, and only ``level_ideas`` leaves it out.

    :raises LevelError: when the level cannot be run.
    """
    given = level if isinstance(level, Level) else Level.from_dict(level)
    start_rules, timeline = rules_changed_along(given, solution)
    roles = noun_roles(start_rules)
    properties = start_rules.properties
    ideas = {
        change_idea(rule, formed, joined, by_player, roles, properties)
        for rule, formed, joined, by_player in timeline
    }
    ideas.update(f"{CONTACT_PREFIX}{cause}" for cause in contacts_along(given, solution))
    return tuple(sorted(ideas))


def contacts_along(level: Level, moves: str) -> tuple[str, ...]:
    """The causes of every destruction along ``moves`` (``sink``, ``melt``...), sorted, once each.

    A shortest solution destroys nothing it does not need to (a
    destruction it could do without would make it no shorter, and the
    player's own DEFEAT ends the game), so what it destroys, and how, is
    part of its idea: breaking ROCK IS STOP to sink the rock is not
    breaking WALL IS STOP to walk through.
    """
    game = Game(level)
    causes: set[str] = set()
    for letter in moves:
        event = game.step(MOVE_LETTERS[letter])
        causes.update(cause for _, _, _, cause, _ in event.destroyed)
    return tuple(sorted(causes))


def holding(key: tuple[Any, ...], present: bool) -> HeldRule:
    """The hold that keeps the rule ``key`` in force (``present``) or out of it."""
    return lambda keys: (key in keys) == present


def kind_of(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a rule gives, whoever it gives it to: its verb, predicate and negation."""
    if len(key) == 2:
        return (IS, key[1], False)
    return (key[4], key[1], key[5])


def no_new_rule_like(rule: Rule, at_start: frozenset[tuple[Any, ...]]) -> HeldRule:
    """The hold that refuses every rule of ``rule``'s kind that is not in force at the start."""
    kind = kind_of(rule.key)
    return lambda keys: not any(key not in at_start and kind_of(key) == kind for key in keys)


def _kind_counted(changes: Sequence[RuleChange], timeline: Sequence[Changed], rule: Rule) -> bool:
    """Whether another formed rule of ``rule``'s kind already counts on its own."""
    kind = kind_of(rule.key)
    return any(
        change.counts and formed and other is not rule and kind_of(other.key) == kind
        for change, (other, formed, _, _) in zip(changes, timeline, strict=True)
    )


def held_verdict(
    level: Level,
    hold: HeldRule,
    depth_bound: int,
    max_expansions: int,
) -> tuple[str, int]:
    """Whether ``level`` can be won within ``depth_bound`` moves with the rule ``hold`` names held.

    Returns the verdict and the states spent. The search is best-first
    (``solve_any``'s rating), so a win that exists is usually found after
    few states, but bounded: a state is expanded again when it is reached
    by a shorter line, and nothing at ``depth_bound`` moves or more is
    expanded, so "no win" means none within the bound. Out of budget, the
    verdict is undecided.

    :raises OutOfTime: past the solver's deadline (``miau.solver.progress.deadline``).
    """
    stop_at = check_deadline()
    expander = Expander(level, hold=hold)
    root = expander.root
    best: dict[bytes, int] = {root: 0}
    queue: list[tuple[int, int, int, bytes]] = [(0, 0, 0, root)]
    pushed = spent = 0
    while queue:
        _, moves_made, _, key = heapq.heappop(queue)
        if best[key] < moves_made or moves_made >= depth_bound:
            continue
        if spent >= max_expansions:
            return UNDECIDED, spent
        spent += 1
        if stop_at is not None and spent % DEADLINE_EVERY == 0:
            check_deadline()
        for _, child, won, rating, _ in expander.children(key, distance_to_win):
            if won:
                return NOT_NEEDED, spent
            further = moves_made + 1
            if rating == DEAD or best.get(child, depth_bound) <= further:
                continue
            best[child] = further
            pushed += 1
            priority = HEURISTIC_WEIGHT * rating + MOVE_WEIGHT * further
            heapq.heappush(queue, (priority, further, pushed, child))
    return NEEDED, spent


def rules_changed_along(level: Level, moves: str) -> tuple[RuleSet, list[Changed]]:
    """The start's rule table, and each rule ``moves`` changes (see :data:`Changed`).

    A rule counts once, at the first turn it differs from the start; a rule
    of the start that is broken and formed again is one broken rule.
    """
    game = Game(level)
    start = game.state.rules_table
    at_start = {rule.key for rule in start.rules}
    seen: set[tuple[Any, ...]] = set()
    changed: list[Changed] = []
    before = start
    is_word = level.is_word
    for letter in moves:
        event = game.step(MOVE_LETTERS[letter])
        after = game.state.rules_table
        by_player = any(is_word[entry[0]] for entry in event.player_moved)
        for rule in (*event.rules_removed, *event.rules_added):
            # A second copy of a sentence coming or going changes nothing in force.
            if rule.key not in seen and (rule.key in after.keys) != (rule.key in at_start):
                seen.add(rule.key)
                formed = rule.key not in at_start
                joined = _joined_by_and(level, after if formed else before, rule)
                changed.append((rule, formed, joined, by_player))
        before = after
    return start, changed


def _joined_by_and(level: Level, table: RuleSet, rule: Rule) -> bool:
    """Whether the sentence that reads ``rule`` in ``table`` joins words with AND."""
    ids = set(rule.source_ids)
    texts = level.texts
    for sentence in table.sentences:
        if ids.issubset(sentence.ids):
            return any(texts[ident] == AND for ident in sentence.ids)
    return False


def noun_roles(rules: RuleSet) -> dict[str, str]:
    """Each noun that has a plain property at the start, mapped to its role (see ``ROLE_ORDER``)."""
    roles: dict[str, str] = {}
    for noun, props in rules.props.items():
        for prop, role in ROLE_ORDER:
            if prop in props:
                roles[noun] = role
                break
    return roles


def change_idea(
    rule: Rule,
    formed: bool,
    joined: bool,
    by_player: bool,
    roles: Mapping[str, str],
    properties: frozenset[str],
) -> str:
    """One rule change in the signature's form: ``+`` or ``-``, the rule, and its marks."""
    idea = ("+" if formed else "-") + rule_idea(rule, roles, properties)
    if joined:
        idea += " (AND)"
    if not by_player:
        idea += " (by itself)"
    return idea


def rule_idea(rule: Rule, roles: Mapping[str, str], properties: frozenset[str]) -> str:
    """The rule in the signature's form: nouns as their roles, every other word kept."""

    def term(noun: str, negated: bool = False) -> str:
        word = noun if noun in LITERAL_NOUNS else f"[{roles.get(noun, 'other')}]"
        return f"NOT {word}" if negated else word

    lonely = [_condition_idea(c, term) for c in rule.conditions if c.word == "LONELY"]
    infix = [_condition_idea(c, term) for c in rule.conditions if c.word != "LONELY"]
    parts = [*lonely, term(rule.subject, rule.subject_not)]
    if infix:
        parts.append(" AND ".join(infix))
    parts.append(rule.verb)
    predicate = rule.predicate if rule.predicate in properties else term(rule.predicate)
    parts.append(f"NOT {predicate}" if rule.negated else predicate)
    return " ".join(parts)


def _condition_idea(condition: Condition, term: Any) -> str:
    """A condition in the signature's form (its nouns as roles)."""
    if condition.word == "LONELY":
        return f"{'NOT ' if condition.negated else ''}LONELY"
    args = " AND ".join(term(noun, negated) for negated, noun in condition.args)
    return f"{'NOT ' if condition.negated else ''}{condition.word} {args}"


def decision_states(level: Level, max_expansions: int) -> int | None:
    """How many walk regions a breadth-first search opens before it finds the first win.

    A walk region (``Expander.region``) is every state the player reaches
    from one state by walking freely: the same board with the player
    elsewhere. Counting regions, not states, counts the positions in which
    the player decides something (which thing to push, which word to
    move), so open floor and long walks add nothing. None when the win is
    not found within ``max_expansions`` regions (or there is none).
    """
    expander = Expander(level)
    parents: set[bytes] = {expander.root}
    expanded: set[bytes] = set()
    frontier: list[tuple[bytes, int | None]] = [(expander.root, None)]
    regions = 0
    while frontier:
        layer: list[tuple[bytes, int | None]] = []
        for key, skip in frontier:
            if key in expanded:
                continue
            if regions >= max_expansions:
                return None
            regions += 1
            states, leaving = expander.region(key, skip)
            expanded.update(state for state, _ in states)
            parents.update(state for state, _ in states)
            for _, (_, child, won, rating, back) in leaving:
                if won:
                    return regions
                if child in parents:
                    continue
                parents.add(child)
                if rating != DEAD:
                    layer.append((child, back))
        frontier = layer
    return None


@dataclass(frozen=True, slots=True)
class SignedLevel:
    """One level's place, its idea signature and the levels it repeats on purpose."""

    pack: str
    level: str
    signature: tuple[str, ...]
    repeats: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[SignedLevel], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def repeated_ideas(levels: Sequence[SignedLevel]) -> list[tuple[SignedLevel, SignedLevel]]:
    """Every pair of levels that ask for the same idea, unless one lists the other in ``repeats``.

    Levels are compared across every pack given together, in the order
    given; a level that needs no rule change (a walk) has the empty
    signature, and two walks are a repeat too. A ``repeats`` entry names a
    level by its id alone or as ``pack/id``.
    """
    found: list[tuple[SignedLevel, SignedLevel]] = []
    for index, later in enumerate(levels):
        for earlier in levels[:index]:
            if earlier.signature != later.signature:
                continue
            if _names(later, earlier) or _names(earlier, later):
                continue
            found.append((earlier, later))
    return found


def _names(level: SignedLevel, other: SignedLevel) -> bool:
    """Whether ``level`` lists ``other`` among the levels it repeats on purpose."""
    return other.level in level.repeats or f"{other.pack}/{other.level}" in level.repeats


def repetition_warning(earlier: SignedLevel, later: SignedLevel) -> str:
    """The audit's sentence about one repeated pair, naming both levels."""
    return (
        f"{later.pack}/{later.level} asks for the same idea as {earlier.pack}/{earlier.level} "
        f"({signature_text(later.signature)}); change one, or list "
        f'"{earlier.level}" in "repeats" of {later.level} if the repeat is intended'
    )
