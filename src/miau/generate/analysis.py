"""What a solved candidate asks of the player: its shortest solution, rule changes and mechanics.

The mechanics of a level (the first axis of the generator's archive) are
read from its shortest solution played on the engine, not from the words
lying on the board, so a word that is only decoration does not count:

- the predicate of every rule formed or broken along the solution (``STOP``
  when ``WALL IS STOP`` is broken, ``WIN`` when ``FLAG IS WIN`` is formed),
  ``TRANSFORM`` for a rule whose predicate is a noun, and ``HAS``/``NOT``
  for vocabulary-1 rules that use them;
- ``AND`` when a sentence formed or broken along the solution holds an AND;
- ``SINK`` and ``DEFEAT`` when something is destroyed that way along it;
- ``PUSH`` when the player pushes a thing (not a word) along it.

A wall that only stands in the way is not a mechanic: walking round it asks
nothing new. ``needs_words`` says whether the level can be won at all
without pushing a word (a search restricted to turns that move no word
proves it cannot); a level that can be is a walk, however long.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from miau.engine import Game
from miau.engine.rules import Rule
from miau.engine.vocabulary import AND, IS, TIER1_PROPERTIES
from miau.solver import Outcome, SearchResult, solve, word_moves
from miau.solver.ideas import change_signature

TRANSFORM: Final = "TRANSFORM"
"""The mechanic of a rule ``X IS Y`` whose predicate is a noun."""


@dataclass(frozen=True)
class Analysis:
    """A solved level, as the generator's scorers and archive see it."""

    level: dict[str, Any]
    """The engine-level dict."""
    solution: str
    """A shortest winning move string (the solver's, first in move order)."""
    expanded: int
    """States the solver expanded to prove ``solution`` shortest."""
    seen: int
    """Distinct states the solver reached."""
    rule_changes: int
    """Rules formed plus rules broken along the solution."""
    mechanics: frozenset[str]
    needs_words: bool | None
    """True: proven unwinnable without pushing a word; False: winnable so; None: not known."""
    idle: int = 0
    """Entities the solution never touches: words that never move and are never in a
    sentence, things that never move and that no rule ever names. Clutter, unless it is bait."""
    changes: tuple[str, ...] = ()
    """Every rule change and contact along the solution in the idea signature's form
    (``miau.solver.ideas.change_signature``): the archive tells ideas apart by it."""

    @property
    def length(self) -> int:
        """Moves in the shortest solution."""
        return len(self.solution)

    @property
    def free_cells(self) -> int:
        """Cells that hold nothing at the start (at least 1)."""
        taken = {(e["x"], e["y"]) for e in self.level["objects"]}
        cells: int = self.level["width"] * self.level["height"]
        return max(1, cells - len(taken))


def analyse(
    level: Mapping[str, Any], result: SearchResult, hands_off_budget: int | None
) -> Analysis:
    """Play ``result``'s solution on ``level`` and read what it asks (``result`` must be solved).

    ``hands_off_budget`` bounds the search without word pushes that decides
    ``needs_words``; None skips that search (``needs_words`` is then False
    when the solution pushes no word, else None), for a scorer that
    searches for itself.
    """
    if result.outcome is not Outcome.SOLVED or result.moves is None:
        raise ValueError(f"only a solved level can be analysed, not one that is {result.outcome}")
    solution = result.moves
    game = Game(level)
    texts = [e.get("text") if e["kind"] == "word" else None for e in level["objects"]]
    engine_level = game.state.level
    is_word = engine_level.is_word
    properties = engine_level.properties
    if engine_level.vocabulary:
        properties = properties | frozenset(TIER1_PROPERTIES)
    changes = 0
    mechanics: set[str] = set()
    touched: set[int] = set()
    named: set[str] = set()

    def look() -> None:
        for sentence in game.state.sentences:
            touched.update(sentence.ids)
        named.update(rule.subject for rule in game.state.rules)

    look()
    for event in game.play(solution):
        look()
        touched.update(entry[0] for entry in event.moved)
        added, removed = event.rules_added, event.rules_removed
        changes += len(added) + len(removed)
        for rule in (*added, *removed):
            mechanics.update(_rule_mechanics(rule, properties))
        if added or removed:
            record = event.to_json()
            for sentence in (*record["sentencesFormed"], *record["sentencesBroken"]):
                if any(_text(texts, ident) == AND for ident in sentence["ids"]):
                    mechanics.add(AND)
        for _ident, _noun, _cell, cause, _was_word in event.destroyed:
            if cause in ("sink", "defeat"):
                mechanics.add(cause.upper())
        # A moved entry is (id, from, to, pushedBy, facing): a pushed thing has a pusher.
        if any(entry[3] is not None and not is_word[entry[0]] for entry in event.player_moved):
            mechanics.add("PUSH")
    idle = sum(
        ident not in touched and (texts[ident] is not None or entity["noun"] not in named)
        for ident, entity in enumerate(level["objects"])
    )
    return Analysis(
        level=dict(level),
        solution=solution,
        expanded=result.expanded,
        seen=result.seen,
        rule_changes=changes,
        mechanics=frozenset(mechanics),
        needs_words=_needs_words(level, solution, hands_off_budget),
        idle=idle,
        changes=change_signature(level, solution),
    )


def _text(texts: list[str | None], ident: int) -> str | None:
    return texts[ident] if 0 <= ident < len(texts) else None


def _rule_mechanics(rule: Rule, properties: frozenset[str]) -> set[str]:
    found = {rule.predicate if rule.predicate in properties else TRANSFORM}
    if rule.verb != IS:
        found.add(rule.verb)
    if rule.negated or rule.subject_not:
        found.add("NOT")
    return found


def _needs_words(
    level: Mapping[str, Any], solution: str, max_expansions: int | None
) -> bool | None:
    if not word_moves(level, solution):
        return False
    if max_expansions is None:
        return None
    hands_off = solve(level, max_expansions=max_expansions, hands_off=True)
    if hands_off.outcome is Outcome.UNSOLVABLE:
        return True
    return False if hands_off.outcome is Outcome.SOLVED else None
