"""Where a generation starts: a pack level, a level file, or a vocabulary and a size.

A :class:`Source` carries the seed levels and what the written pack needs to
load alone (palette, glossary, vocabulary and features of the seed's pack).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from miau.engine.vocabulary import CORE_PROPERTIES, IS, OPERATORS, TOKEN_PATTERN, WIN, YOU
from miau.generate.mutate import MIN_SIDE, LevelDict, Pools, canonical
from miau.packs import Pack, load_pack, load_pack_or_level

WALKS: Final = ("walls", "rocks", "water", "skulls")
"""The walks First Steps once had; a generated level must be deeper than all of them."""

WALKS_PACK: Final = Path(__file__).with_name("first_steps_walks.json")
"""Where the walks are kept (package data): First Steps itself has no walk after its second
level any more, and the yardstick must not move when the tutorial changes."""


class SeedError(ValueError):
    """A seed that cannot start a generation; the message says why."""


@dataclass(frozen=True)
class Seed:
    """One seed level: its id and title (for naming what grows from it) and its engine dict."""

    id: str
    title: str
    level: LevelDict


@dataclass(frozen=True)
class Source:
    """The seeds of a generation and the pack-level data its output carries over."""

    seeds: tuple[Seed, ...]
    palette: dict[str, Any] = field(default_factory=dict)
    glossary: dict[str, Any] = field(default_factory=dict)
    vocabulary: tuple[str, ...] = ()
    features: tuple[str, ...] = ()


def from_pack(path: str | Path, level_id: str | None = None) -> Source:
    """The seeds in a pack (one level with ``level_id``, else every level), or in a level file.

    :raises SeedError: when the file cannot be read or has no such level.
    """
    try:
        loaded = load_pack_or_level(path)
    except (OSError, ValueError) as error:
        raise SeedError(f"{path}: {error}") from error
    if not isinstance(loaded, Pack):
        name = _level_id(Path(path).stem)
        return Source((Seed(name, Path(path).stem, canonical(loaded)),))
    try:
        levels = [loaded.level(level_id)] if level_id is not None else list(loaded.levels)
    except KeyError as error:
        raise SeedError(str(error)) from error
    document = loaded.to_json()
    return Source(
        tuple(Seed(level.id, level.title, _engine_dict(level.data)) for level in levels),
        palette=document.get("palette", {}),
        glossary=document.get("properties", {}),
        vocabulary=loaded.vocabulary,
        features=loaded.manifest.features,
    )


def _engine_dict(data: Mapping[str, Any]) -> LevelDict:
    return canonical(copy.deepcopy(dict(data)))


def _level_id(stem: str) -> str:
    cleaned = "".join(c if c.isalnum() else "-" for c in stem.lower()).strip("-")
    return cleaned if cleaned[:1].isalpha() else f"level-{cleaned}".rstrip("-")


def from_words(words: Sequence[str], width: int, height: int, seed: int) -> Source:
    """A seed drawn from a vocabulary on an empty ``width`` x ``height`` grid.

    The first noun of ``words`` is YOU and the second WIN (each gets its
    sentence on the top rows and one thing on the board); every other word
    is scattered, and every other noun gets one thing, at cells drawn with
    ``random.Random(seed)``.

    :raises SeedError: when a word is not a token, the vocabulary lacks two
        nouns, or the grid is too small to hold it.
    """
    texts = [word.strip().upper() for word in words if word.strip()]
    bad = [text for text in texts if not TOKEN_PATTERN.fullmatch(text)]
    if bad:
        raise SeedError(f"not words: {', '.join(bad)} (a word is a letter, then letters or digits)")
    nouns = list(dict.fromkeys(t for t in texts if t not in OPERATORS and t not in CORE_PROPERTIES))
    if len(nouns) < 2:
        raise SeedError("--words needs at least two nouns: one to be YOU, one to be WIN")
    if width < MIN_SIDE or height < MIN_SIDE:
        raise SeedError(f"--size must be at least {MIN_SIDE}x{MIN_SIDE}")
    you, win = nouns[0], nouns[1]
    sentences = [[you, IS, YOU], [win, IS, WIN]]
    if width < 3 or height < 4:
        raise SeedError("--size is too small for the YOU and WIN sentences and the board")
    objects: list[dict[str, Any]] = []
    for row, sentence in enumerate(sentences):
        objects += [{"kind": "word", "text": t, "x": x, "y": row} for x, t in enumerate(sentence)]
    placed = [text for sentence in sentences for text in sentence]
    rest = list(texts)
    for text in placed:
        if text in rest:
            rest.remove(text)
    free = [(x, y) for y in range(2, height) for x in range(width)]
    rng = random.Random(f"miau-generate-blank:{seed}")
    rng.shuffle(free)
    entities = [{"kind": "object", "noun": noun} for noun in nouns]
    entities += [{"kind": "word", "text": text} for text in rest]
    if len(entities) > len(free):
        raise SeedError(f"--size {width}x{height} has no room for {len(entities)} more entities")
    for entity, (x, y) in zip(entities, free, strict=False):
        objects.append({**entity, "x": x, "y": y})
    level: LevelDict = {
        "width": width,
        "height": height,
        "objects": objects,
        "automata": [],
        "pairs": [],
    }
    title = f"{' '.join(nouns[:3]).title()} {width}x{height}"
    return Source((Seed("blank", title, canonical(level)),), vocabulary=tuple(nouns))


def pools_for(source: Source, extra_words: Sequence[str] = ()) -> Pools:
    """The words and nouns mutations may place: the seeds' own and ``extra_words``.

    Nouns of things are those of the seeds' things and every noun word, so
    a word on the board can always name something that exists.
    """
    words: list[str] = []
    nouns: list[str] = []
    for seed in source.seeds:
        for entity in seed.level["objects"]:
            if entity["kind"] == "word":
                words.append(entity["text"])
            else:
                nouns.append(entity["noun"])
    words += [word.strip().upper() for word in extra_words if word.strip()]
    declared = {a["property"] for s in source.seeds for a in s.level.get("automata", ())}
    declared |= {w for s in source.seeds for p in s.level.get("pairs", ()) for w in p["words"]}
    nouns += [
        w for w in words if w not in OPERATORS and w not in CORE_PROPERTIES and w not in declared
    ]
    return Pools(tuple(dict.fromkeys(words)), tuple(dict.fromkeys(nouns)))


def walks() -> tuple[Seed, ...]:
    """The old First Steps walks (Walls, Rocks, Water, Skulls), from :data:`WALKS_PACK`."""
    pack = load_pack(WALKS_PACK)
    return tuple(
        Seed(level.id, level.title, _engine_dict(pack.level(level.id).data))
        for level in (pack.level(name) for name in WALKS)
    )
