"""Variations of one level, for the editor's "Suggest a variation" (the studio's ``suggest`` job).

The editor's draft is a one-level pack; :func:`suggest_variations` takes its
level entry, evolves it for a few seconds in this process (no workers: the
static site's Python cannot start any) and returns the deepest levels the
archive holds, each a pack level entry with a proven-shortest solution.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from miau.generate.evolve import DEFAULT_MAX_EXPANSIONS, Options, Status, generate
from miau.generate.mutate import Limits
from miau.generate.pack import level_entry
from miau.generate.scoring import default_scorer_name
from miau.generate.seeds import Seed, Source, pools_for
from miau.packs import PackError, load_pack

VARIATION_BATCH: Final = 8
"""A small batch, so a short time budget still sees several rounds of parents."""
MAX_ENTITIES: Final = 48


@dataclass(frozen=True, slots=True)
class Variation:
    """One suggested level and how deep the generator's scorer found it."""

    level: dict[str, Any]
    """A pack level entry with its proven-shortest ``solution``."""
    depth: float
    tier: int
    scorer: str
    """The scorer that gave ``depth`` and ``tier`` (``depth``: the solver's depth profile)."""

    def to_json(self) -> dict[str, Any]:
        """``{level, depth, tier, scorer}``."""
        return {"level": self.level, "depth": self.depth, "tier": self.tier, "scorer": self.scorer}


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
    return [variation.level for variation in found]


def scored_variations(
    level: Mapping[str, Any],
    *,
    seconds: float,
    count: int,
    seed: int,
    report: Callable[[Status], None] | None = None,
) -> list[Variation]:
    """Up to ``count`` variations of ``level``, deepest first, found within about ``seconds``.

    ``level`` is a pack level entry (``width``, ``height``, ``objects`` or
    ``map`` and ``legend``, optionally ``automata``, ``pairs``, ``id``,
    ``title``). Each variation is a pack level entry (``id``, ``title``,
    ``width``, ``height``, ``objects``, ``solution``; automata and pairs as
    the draft had them). Levels no deeper than the draft come last; the
    draft itself is never offered. The time budget makes the result depend
    on the machine's speed; the same ``seed`` on the same machine with the
    same load gives the same first rounds. ``report`` hears the generation's
    status after every candidate (for a progress display).

    :raises ValueError: when the level does not load (naming its problems)
        or the solver cannot win it.
    """
    if count < 1 or seconds <= 0:
        raise ValueError("count and seconds must be positive")
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
    limits = Limits(loaded.width, loaded.height, MAX_ENTITIES)
    options = Options(
        pools=pools_for(source),
        limits=limits,
        seed=seed,
        candidates=None,
        seconds=seconds,
        batch=VARIATION_BATCH,
        max_expansions=DEFAULT_MAX_EXPANSIONS,
        scorer=default_scorer_name(),
    )
    generation = generate(source.seeds, options, report=report)
    elites = [e for e in generation.archive.matching() if e.index >= 0]
    deeper = [e for e in elites if e.score.depth > generation.floor]
    rest = [e for e in elites if e.score.depth <= generation.floor]
    chosen = (deeper + rest)[:count]
    return [
        Variation(
            level_entry(elite, number, draft.id, draft.title),
            elite.score.depth,
            elite.score.tier,
            options.scorer,
        )
        for number, elite in enumerate(chosen, start=1)
    ]
