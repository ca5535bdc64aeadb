"""Variations of one level, for the editor's "Suggest a variation" (the studio's ``suggest`` job).

The editor's draft is a one-level pack; :func:`scored_variations` takes its
level entry, evolves it in this process (no workers: the static site's
Python cannot start any) and finishes what the archive holds with the
generator's own finishing step (``miau.generate.finish``), as ``miau
generate`` does:

- no card has the draft's idea signature, none is a near-copy of the
  draft's shortest solution, no two cards share an idea, and a level that
  needs no rule change (a walk) is never offered;
- each card is minimised (nothing on it can go without losing an idea or
  a move), and then scored again with the evolution's scorer: a card
  shallower than the draft is dropped;
- the time budget is a hard cap on the whole job: the evolution has
  :data:`EVOLUTION_SHARE` of it, finishing runs until
  :data:`FINISHED_BY` of it, and the solver's budget per level is small
  enough that one search cannot run far past it. ``found`` hears each card
  as soon as it is finished, so the editor can show it at once.

Each card carries the cells it changes against the draft
(:func:`changed_cells`) and its signature, so an author sees what changed
and why it is new.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from miau.generate.analysis import analyse
from miau.generate.evolve import Options, Status, generate
from miau.generate.finish import Finished, FinishReport, finish
from miau.generate.mutate import Limits
from miau.generate.pack import level_entry
from miau.generate.scoring import scorer_named
from miau.generate.seeds import Seed, Source, pools_for
from miau.packs import PackError, load_pack
from miau.solver import Outcome, solve
from miau.solver.ideas import signature_text
from miau.solver.progress import OutOfTime
from miau.solver.progress import deadline as solver_deadline

VARIATION_BATCH: Final = 8
"""A small batch, so a short time budget still sees several rounds of parents."""
MAX_ENTITIES: Final = 48
SUGGEST_MAX_EXPANSIONS: Final = 30_000
"""The most states the draft's own solve may take: a bigger draft is too big to vary in seconds."""
SUGGEST_MIN_BUDGET: Final = 2_000
BUDGET_PER_DRAFT_STATE: Final = 3
"""Each candidate's solve (and each minimising trial's) may take this many times the states the
draft's needed, at least :data:`SUGGEST_MIN_BUDGET`: a variation that needs far more than its
draft is another level, and on the 2-core machine under load one search stays well inside a
second, so the time cap is kept (a removal a trial cannot prove harmless is not made)."""
SUGGEST_SCORER: Final = "solver"
"""The generator's own depth (proof effort, rule changes, words needed): measured on the
2-core machine it judges about six times as many candidates in Suggest's seconds as the
depth profile does, and the draft and the cards are compared with it alike."""
EVOLUTION_SHARE: Final = 0.4
"""The share of the budget the evolution gets; finishing the chosen levels has the rest."""
SUGGEST_NEED_EXPANSIONS: Final = 1_000
"""States each "is this change needed?" search may take (``miau generate`` allows 20,000). A
needed change costs the whole budget (no win exists to find), and minimising asks again for
every removal tried: with 3,000, signatures took 2 of Suggest's 5 seconds on Sunken Word. A
win that exists is usually found in a few hundred states, and an undecided change counts as
needed, so the smaller budget changes few signatures."""
FINISHED_BY: Final = 0.9
"""Finishing starts no search past this share of the budget: the last one ends inside it."""


@dataclass(frozen=True, slots=True)
class Variation:
    """One suggested level: how deep it is, its idea and what it changes against the draft."""

    level: dict[str, Any]
    """A pack level entry with its proven-shortest ``solution`` and the draft's title."""
    depth: float
    tier: int
    scorer: str
    """The scorer that gave ``depth`` and ``tier`` (``depth``: the solver's depth profile)."""
    signature: tuple[str, ...] = ()
    """Its idea signature (``miau.solver.ideas``): never the draft's, never empty."""
    changes: tuple[dict[str, Any], ...] = ()
    """The cells it changes against the draft (:func:`changed_cells`)."""

    def to_json(self) -> dict[str, Any]:
        """``{level, depth, tier, scorer, signature, idea, changes}``."""
        return {
            "level": self.level,
            "depth": self.depth,
            "tier": self.tier,
            "scorer": self.scorer,
            "signature": list(self.signature),
            "idea": signature_text(self.signature),
            "changes": [dict(change) for change in self.changes],
        }


@dataclass
class Suggestion:
    """What a suggest job found, and why the rest was left out."""

    variations: list[Variation] = field(default_factory=list)
    draft_depth: float = 0.0
    draft_idea: str = ""
    finishing: FinishReport = field(default_factory=FinishReport)
    shallower: int = 0
    """Finished levels dropped because minimising left them shallower than the draft."""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """``{variations, draftDepth, draftIdea, dropped, seconds}`` (``dropped``: counts by reason)."""
        report = self.finishing
        return {
            "variations": [variation.to_json() for variation in self.variations],
            "draftDepth": self.draft_depth,
            "draftIdea": self.draft_idea,
            "dropped": {
                "sameIdeaAsDraft": report.same_idea_as_seed,
                "nearCopy": report.near_copy,
                "repeatedIdea": report.repeated_idea,
                "walk": report.walk,
                "shallower": self.shallower,
                "outOfTime": report.out_of_time,
            },
            "seconds": round(self.seconds, 2),
        }


def suggest_variations(
    level: Mapping[str, Any],
    *,
    seconds: float,
    count: int,
    seed: int,
    report: Callable[[Status], None] | None = None,
) -> list[dict[str, Any]]:
    """Up to ``count`` variations of ``level``, deepest first, as pack level entries.

    :func:`scored_variations` without the scores (see it for the arguments).
    """
    found = scored_variations(level, seconds=seconds, count=count, seed=seed, report=report)
    return [variation.level for variation in found.variations]


def scored_variations(
    level: Mapping[str, Any],
    *,
    seconds: float,
    count: int,
    seed: int,
    report: Callable[[Status], None] | None = None,
    found: Callable[[Variation], None] | None = None,
    started: float | None = None,
) -> Suggestion:
    """Up to ``count`` new variations of ``level``, deepest first, all within ``seconds``.

    ``level`` is a pack level entry (``width``, ``height``, ``objects`` or
    ``map`` and ``legend``, optionally ``automata``, ``pairs``, ``id``,
    ``title``). Each variation's level is a pack level entry (the draft's
    ``id`` with a number, the draft's ``title``, ``width``, ``height``,
    ``objects``, ``solution``; automata and pairs as the draft had them).
    What is offered is new, minimal and no shallower than the draft (see
    the module docstring); none at all is a fair answer. The budget counts
    from ``started`` (a ``time.monotonic`` reading; default: now) and makes
    the result depend on the machine's speed and load. ``report`` hears the
    evolution's status after every candidate, ``found`` each variation as
    soon as it is finished.

    :raises ValueError: when the level does not load (naming its problems)
        or the solver cannot win it within the job's budget.
    """
    if count < 1 or seconds <= 0:
        raise ValueError("count and seconds must be positive")
    began = time.monotonic() if started is None else started
    entry = copy.deepcopy(dict(level))
    entry.setdefault("id", "draft")
    entry.setdefault("title", "Draft")
    document = {
        "manifest": {"id": "draft", "name": "Draft", "version": "1.0.0", "engine": 1},
        "levels": [entry],
    }
    try:
        pack = load_pack(document)
    except PackError as error:
        raise ValueError(f"the draft does not load: {error}") from error
    loaded = pack.levels[0]
    draft = Seed(loaded.id, loaded.title, copy.deepcopy(dict(loaded.data)))
    source = Source((draft,))
    scorer = SUGGEST_SCORER
    with solver_deadline(began + seconds * FINISHED_BY):
        try:
            first = solve(draft.level, max_expansions=SUGGEST_MAX_EXPANSIONS)
        except OutOfTime:
            first = None
    if first is not None and first.outcome is not Outcome.SOLVED:
        raise ValueError(
            f"the draft is {first.outcome.value} within {SUGGEST_MAX_EXPANSIONS:,} states: "
            "Suggest varies levels the solver can win quickly"
        )
    budget = suggest_budget(first.expanded if first else 0)
    options = Options(
        pools=pools_for(source),
        limits=Limits(loaded.width, loaded.height, MAX_ENTITIES),
        seed=seed,
        candidates=None,
        seconds=max(0.1, began + seconds * EVOLUTION_SHARE - time.monotonic()),
        batch=VARIATION_BATCH,
        max_expansions=budget,
        scorer=scorer,
    )
    suggestion = Suggestion()
    deadline = began + seconds * FINISHED_BY
    try:
        with solver_deadline(deadline):
            generation = generate(source.seeds, options, report=report)
    except OutOfTime:
        # Even the draft's own solve or the evolution's last one ran out the time: nothing to offer.
        suggestion.seconds = time.monotonic() - began
        suggestion.finishing.out_of_time += 1
        return suggestion
    except ValueError as error:
        raise ValueError(f"the draft cannot be varied: {error}") from error
    own = generation.seeds[0]
    # No shallower than the draft: the evolution's floor is the draft's own depth.
    chosen = [
        elite
        for elite in generation.archive.matching()
        if elite.index >= 0 and elite.score.depth >= generation.floor
    ]
    suggestion.draft_depth = own.score.depth

    def keep(finished: Finished) -> bool:
        signature = finished.signature
        # Minimising keeps the ideas and the length but may lose states or make the
        # words unneeded: analyse and score the level that is left again, as the draft was.
        minimal = finished.elite.analysis.level
        analysis = analyse(minimal, solve(minimal, max_expansions=budget), budget)
        elite = replace(finished.elite, analysis=analysis)
        score = scorer_named(scorer)(analysis)
        if score.depth < generation.floor:
            suggestion.shallower += 1
            return False
        number = len(suggestion.variations) + 1
        entry = level_entry(elite, number, draft.id, draft.title)
        entry["title"] = draft.title  # "Use this" keeps the author's title
        variation = Variation(
            entry,
            score.depth,
            score.tier,
            scorer,
            signature,
            changed_cells(own.analysis.level["objects"], elite.analysis.level["objects"]),
        )
        suggestion.variations.append(variation)
        if found is not None:
            found(variation)
        return True

    try:
        with solver_deadline(deadline):
            finish(
                chosen,
                generation.seeds,
                max_expansions=budget,
                deadline=deadline,
                walks=False,
                accept=keep,
                limit=count,
                need_expansions=SUGGEST_NEED_EXPANSIONS,
                report=suggestion.finishing,
            )
    except OutOfTime:
        # A search inside finishing reached the cap: the cards already found stand.
        suggestion.finishing.out_of_time += 1
    if suggestion.finishing.seed_signatures:
        suggestion.draft_idea = signature_text(suggestion.finishing.seed_signatures[0])
    suggestion.seconds = time.monotonic() - began
    return suggestion


def suggest_budget(draft_expanded: int) -> int:
    """The states each candidate's solve may take, given the states the draft's own took."""
    return max(SUGGEST_MIN_BUDGET, BUDGET_PER_DRAFT_STATE * draft_expanded)


def changed_cells(
    draft: Sequence[Mapping[str, Any]], variation: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, Any], ...]:
    """The cells where ``variation``'s objects differ from ``draft``'s, each marked once.

    Entities are matched by everything but their place (kind, noun or word,
    facing). An entity in both at one place is unchanged; of those left, as
    many as both sides have of one sort are paired as moves (``moved`` at
    the new place, ``moved-from`` at the old), the rest are ``added`` (in
    the variation only) or ``removed`` (in the draft only). Each mark is
    ``{x, y, change, what}``, in row order; a cell with several changes
    keeps the first in the order added, moved, removed, moved-from.
    """

    def sort_of(entity: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((k, str(v)) for k, v in entity.items() if k not in ("x", "y", "id")))

    def places(entities: Sequence[Mapping[str, Any]]) -> dict[Any, list[tuple[int, int]]]:
        found: dict[Any, list[tuple[int, int]]] = {}
        for entity in entities:
            found.setdefault(sort_of(entity), []).append((int(entity["x"]), int(entity["y"])))
        return found

    def name(entity_sort: tuple[tuple[str, str], ...]) -> str:
        fields = dict(entity_sort)
        return fields.get("text") or fields.get("noun") or "?"

    before, after = places(draft), places(variation)
    marks: dict[tuple[int, int], tuple[int, str, str]] = {}
    rank = {"added": 0, "moved": 1, "removed": 2, "moved-from": 3}

    def mark(place: tuple[int, int], change: str, what: str) -> None:
        if place not in marks or rank[change] < marks[place][0]:
            marks[place] = (rank[change], change, what)

    for entity_sort in sorted(set(before) | set(after)):
        old = list(before.get(entity_sort, []))
        new = list(after.get(entity_sort, []))
        for place in list(old):
            if place in new:
                old.remove(place)
                new.remove(place)
        old.sort()
        new.sort()
        paired = min(len(old), len(new))
        for source, target in zip(old[:paired], new[:paired], strict=True):
            mark(target, "moved", name(entity_sort))
            mark(source, "moved-from", name(entity_sort))
        for place in new[paired:]:
            mark(place, "added", name(entity_sort))
        for place in old[paired:]:
            mark(place, "removed", name(entity_sort))
    return tuple(
        {"x": x, "y": y, "change": change, "what": what}
        for (x, y), (_, change, what) in sorted(marks.items(), key=lambda item: item[0][::-1])
    )
