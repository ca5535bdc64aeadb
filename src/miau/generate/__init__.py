"""``miau generate``: evolve levels with the real solver and keep the deepest per mechanic.

The generator mutates seed levels (move, add, remove and swap words and
things, resize), solves every candidate with :func:`miau.solver.solve`,
scores the solved ones, and keeps a MAP-Elites archive over (mechanics used
by the shortest solution, depth tier). Standard library only, so it can run
in the static site's Python too; the command line adds progress bars and
the Dask executor. ``docs/generate.md`` describes it.

>>> from miau.generate import Limits, Options, from_pack, generate, pools_for
>>> source = from_pack("packs/tutorial.json", "borrow-a-word")   # doctest: +SKIP
>>> options = Options(pools=pools_for(source), limits=Limits(10, 7, 40), candidates=64)
>>> generation = generate(source.seeds, options)                  # doctest: +SKIP
"""

from miau.generate.analysis import Analysis, analyse
from miau.generate.archive import Archive, Cell, Elite
from miau.generate.evolve import (
    Candidate,
    Generation,
    GenerationError,
    Options,
    Status,
    Task,
    Verdict,
    evaluate,
    generate,
)
from miau.generate.mutate import Limits, Pools, mutate
from miau.generate.pack import build_pack, pack_text
from miau.generate.scoring import (
    SCORERS,
    Score,
    Scorer,
    default_scorer_name,
    scorer_named,
    solver_score,
)
from miau.generate.seeds import Seed, SeedError, Source, from_pack, from_words, pools_for, walks
from miau.generate.variations import suggest_variations

__all__ = [
    "SCORERS",
    "Analysis",
    "Archive",
    "Candidate",
    "Cell",
    "Elite",
    "Generation",
    "GenerationError",
    "Limits",
    "Options",
    "Pools",
    "Score",
    "Scorer",
    "Seed",
    "SeedError",
    "Source",
    "Status",
    "Task",
    "Verdict",
    "analyse",
    "build_pack",
    "default_scorer_name",
    "evaluate",
    "from_pack",
    "from_words",
    "generate",
    "mutate",
    "pack_text",
    "pools_for",
    "scorer_named",
    "solver_score",
    "suggest_variations",
    "walks",
]
