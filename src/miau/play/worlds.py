"""The worlds the server offers: the shipped packs, loaded once, and what the API says of them.

Unlock rules, within a world (tiers as the pack declares them), made so
that one hard level never stops a player's whole world (the design
backbone: "the campaign should unlock around a hard puzzle"):

- the first two required levels are always open; every later required
  level opens when either of the two required levels before it is won, so
  a player stuck on one level can step round it;
- an optional level opens with the required level just before it (one with
  no required level before it is always open);
- a challenge level opens when the required level just before it is won
  (one with no required level before it is always open): it is that
  level's harder extra.

So a level unwon keeps locked only its own challenge levels, however long
the world is (``tests/play/test_unlock_rule.py`` proves it over the shipped
packs), and a level once won stays open (should a pack gain a level before
it). :func:`level_openers` gives each level the levels that open it. A
world opens when every required level of the world before it is won
(Proofs, the plainest levels, when First Steps is: ``OPENS_AFTER``); the
first world is always open. The map and a level's own page show the locks
(a locked level opened by its address says what opens it); the play socket
does not refuse a locked level.

A player's library packs (``miau.server.library``) are worlds too: listed
after the shipped ones with ``"imported": true``, always open, their levels
locked by the same rules; their "next level" stays inside the pack.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

from miau.engine.vocabulary import (
    AND,
    CORE_PROPERTIES,
    GLOSSARY,
    HAS,
    INFIX_CONDITIONS,
    IS,
    LONELY,
    NOT,
    TIER1_NOUNS,
    TIER1_PROPERTIES,
    VOCABULARY_1,
)
from miau.packs import GlossaryEntry, Pack, PackError, PackLevel, load_pack
from miau.packs.format import Accent
from miau.play.shortest import shortest_known
from miau.worlds import shipped_packs_dir

__all__ = [
    "DEFAULT_PACKS_DIR",
    "SHIPPED_ORDER",
    "LevelLock",
    "PackSummary",
    "Worlds",
    "level_json",
    "level_lock_json",
    "level_locks",
    "level_openers",
    "level_properties",
    "library_world_entry",
    "naming_levels",
    "next_in_pack",
    "world_json",
]

DEFAULT_PACKS_DIR = shipped_packs_dir()
"""The shipped packs' folder (package data: ``miau/worlds/``)."""

SHIPPED_ORDER = ("tutorial", "clockwork", "clockwork-pairs", "lexicon", "deep-end", "proofs")
"""The order of the shipped worlds; any other pack comes after them, by id."""

OPENS_AFTER = {"proofs": "tutorial"}
"""Shipped worlds that open after another than the one before them: Proofs
holds the plainest levels, so it waits for First Steps, not for Lexicon."""

logger = logging.getLogger(__name__)

Won = Collection[tuple[str, str]]
"""The (pack, level) pairs a player has won."""


@dataclass(frozen=True, slots=True)
class LevelLock:
    """Whether a level is locked and, if so, what opens it, in plain words."""

    locked: bool
    unlocked_by: str | None


def level_openers(levels: Iterable[PackLevel]) -> dict[str, tuple[str, ...]]:
    """Each level's id mapped to the ids of the levels that open it, in world order.

    Winning any one of them opens the level; an empty tuple means the level
    is always open. The rules are the module's: the two required levels
    before a required one, the required level before an optional one's
    (its openers, and that level itself), the required level before a
    challenge one.
    """
    openers: dict[str, tuple[str, ...]] = {}
    required_before: list[str] = []
    for level in levels:
        if level.tier == "required":
            openers[level.id] = tuple(required_before[-2:]) if len(required_before) >= 2 else ()
            required_before.append(level.id)
        elif level.tier == "optional":
            # It shares that level's lock, and opens once that level is won too.
            before = required_before[-1] if required_before else None
            shared = openers[before] if before is not None else ()
            openers[level.id] = (*shared, before) if shared and before is not None else ()
        else:
            openers[level.id] = tuple(required_before[-1:])
    return openers


def level_locks(levels: Iterable[PackLevel], won_ids: Collection[str]) -> list[LevelLock]:
    """The lock of each level of one world, in its order, given the ids of the levels won.

    A level is open when it is won, when nothing opens it (always open), or
    when any one of its openers (:func:`level_openers`) is won.
    """
    levels = list(levels)
    titles = {level.id: level.title for level in levels}
    openers = level_openers(levels)
    locks: list[LevelLock] = []
    required_lock = LevelLock(False, None)  # the lock of the last required level seen
    for level in levels:
        needed = openers[level.id]
        if level.id in won_ids or not needed or any(each in won_ids for each in needed):
            lock = LevelLock(False, None)
        elif level.tier == "optional":
            lock = required_lock  # it opens with that level, so it says what that one says
        else:
            # The nearer level first: it is the one a player has just been playing.
            names = " or ".join(f"\u201c{titles[each]}\u201d" for each in reversed(needed))
            lock = LevelLock(True, f"Win {names} first")
        if level.tier == "required":
            required_lock = lock
        locks.append(lock)
    return locks


NAMED_AT_MOST = 3
"""How many levels a lock names; past that it counts the rest ("and 2 more")."""


def naming_levels(levels: Sequence[PackLevel]) -> str:
    """The titles of ``levels`` in curly quotes, as a sentence lists them.

    ``“A”``, ``“A” and “B”``, ``“A”, “B” and “C”``, ``“A”, “B”, “C” and 2 more``.
    """
    titles = [f"\u201c{level.title}\u201d" for level in levels]
    if len(titles) > NAMED_AT_MOST:
        more = len(titles) - NAMED_AT_MOST
        titles = [*titles[:NAMED_AT_MOST], f"{more} more"]
    if len(titles) == 1:
        return titles[0]
    return f"{', '.join(titles[:-1])} and {titles[-1]}"


TIER1_GLOSSARY: Final = {
    word: GlossaryEntry(cast(Accent, accent), describe)
    for word, (accent, describe) in GLOSSARY.items()
}
"""The engine's glossary of the built-in vocabulary-1 words (``vocabulary.GLOSSARY``) as pack
glossary entries; a pack's own entry for a word wins."""

TIER1_OPERATOR_ORDER: Final = (IS, AND, NOT, HAS, LONELY, *INFIX_CONDITIONS)
"""The words a vocabulary-1 level draws as operators (grammar, not nouns or properties)."""


def _has_vocabulary_1(features: Iterable[str]) -> bool:
    return VOCABULARY_1 in features


def level_operators(level: PackLevel) -> list[str]:
    """The level's grammar words: ``IS`` and ``AND``, and with vocabulary-1 its other operators."""
    if _has_vocabulary_1(level.data.get("features", ())):
        return list(TIER1_OPERATOR_ORDER)
    return [IS, AND]


def vocabularies_json() -> dict[str, Any]:
    """``GET /api/vocabularies``: the words each vocabulary feature adds, for the editor's palette."""
    return {
        VOCABULARY_1: {
            "operators": [word for word in TIER1_OPERATOR_ORDER if word not in (IS, AND)],
            "nouns": sorted(TIER1_NOUNS),
            "properties": list(TIER1_PROPERTIES),
            "glossary": {word: entry.to_json() for word, entry in TIER1_GLOSSARY.items()},
        }
    }


def world_glossary(pack: Pack) -> dict[str, Any]:
    """The world's glossary: the pack's entries, over the built-in ones its features bring."""
    glossary = dict(TIER1_GLOSSARY) if _has_vocabulary_1(pack.manifest.features) else {}
    glossary.update(pack.glossary)
    return {word: entry.to_json() for word, entry in glossary.items()}


def level_properties(level: PackLevel) -> list[str]:
    """Every property word of a level: the core ones (with vocabulary-1's), then its declared ones."""
    words = list(CORE_PROPERTIES)
    if _has_vocabulary_1(level.data.get("features", ())):
        words.extend(TIER1_PROPERTIES)
    declared = [record["property"] for record in level.data["automata"]]
    for pair in level.data["pairs"]:
        declared.extend(pair["words"])
    for word in declared:
        if word not in words:
            words.append(word)
    return words


def world_json(
    pack_id: str, pack: Pack, best_moves: dict[tuple[str, str], int], *, imported: bool
) -> dict[str, Any]:
    """``GET /api/worlds/{pack}`` for ``pack`` served under ``pack_id``, with the player's progress."""
    won_ids = {level for (pack_key, level) in best_moves if pack_key == pack_id}
    levels = []
    for level, lock in zip(pack.levels, level_locks(pack.levels, won_ids), strict=True):
        levels.append(
            {
                "id": level.id,
                "title": level.title,
                "hint": level.hint,
                "tier": level.tier,
                "width": level.width,
                "height": level.height,
                "won": level.id in won_ids,
                "bestMoves": best_moves.get((pack_id, level.id)),
                "locked": lock.locked,
                "unlockedBy": lock.unlocked_by,
            }
        )
    return {
        "id": pack_id,
        "name": pack.manifest.name,
        "description": pack.manifest.description or "",
        "imported": imported,
        "palette": {
            noun: {"glyph": glyph.glyph, "faces": glyph.faces}
            for noun, glyph in pack.palette.items()
        },
        "glossary": world_glossary(pack),
        "levels": levels,
    }


def level_json(pack_id: str, level: PackLevel, next_level: dict[str, str] | None) -> dict[str, Any]:
    """``GET /api/worlds/{pack}/levels/{level}``: what the client needs to draw the level.

    ``shortest`` is the fewest moves known to win it (:func:`shortest_known`, which may run the
    solver on a level with no stored solution: a host calls this off its event loop).
    """
    return {
        "pack": pack_id,
        "id": level.id,
        "title": level.title,
        "hint": level.hint,
        # Every hint in order, a nudge first: the page shows one per request, none unasked.
        "hints": list(level.hints),
        "tier": level.tier,
        "width": level.width,
        "height": level.height,
        "objects": level.data["objects"],
        "automata": level.data["automata"],
        "pairs": level.data["pairs"],
        "properties": level_properties(level),
        "operators": level_operators(level),
        "next": next_level,
        # The win card measures the player's moves against it; never the moves themselves.
        "shortest": shortest_known(level),
    }


def level_lock_json(
    pack: Pack, level: PackLevel, won: Won, world_unlocked_by: str | None = None
) -> dict[str, Any]:
    """``locked`` and ``unlockedBy`` of one level for a player: its world's lock first, then its own."""
    if (pack.manifest.id, level.id) in won:
        return {"locked": False, "unlockedBy": None}
    if world_unlocked_by is not None:
        return {"locked": True, "unlockedBy": world_unlocked_by}
    won_ids = {level_id for (pack_id, level_id) in won if pack_id == pack.manifest.id}
    locks = level_locks(pack.levels, won_ids)
    lock = next(lock for each, lock in zip(pack.levels, locks, strict=True) if each.id == level.id)
    return {"locked": lock.locked, "unlockedBy": lock.unlocked_by}


def next_in_pack(pack: Pack, level: PackLevel) -> dict[str, str] | None:
    """The level after this one in its own pack, or None for the last."""
    index = next(i for i, each in enumerate(pack.levels) if each.id == level.id)
    if index + 1 < len(pack.levels):
        return {"pack": pack.manifest.id, "level": pack.levels[index + 1].id}
    return None


@dataclass(frozen=True, slots=True)
class PackSummary:
    """What listings show of a pack, kept beside a library pack's text when it is saved.

    ``GET /api/library`` and ``GET /api/worlds`` read these, so a listing
    never parses a pack. ``levels`` holds each level's id and tier, in order.
    """

    id: str
    name: str
    version: str
    description: str
    author: str | None
    levels: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, pack: Pack) -> PackSummary:
        """The summary of a loaded pack."""
        manifest = pack.manifest
        return cls(
            manifest.id,
            manifest.name,
            manifest.version,
            manifest.description or "",
            manifest.author,
            tuple((level.id, level.tier) for level in pack.levels),
        )

    def to_text(self) -> str:
        """The summary as the JSON text the store keeps."""
        return json.dumps(
            {
                "id": self.id,
                "name": self.name,
                "version": self.version,
                "description": self.description,
                "author": self.author,
                "levels": [list(level) for level in self.levels],
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_text(cls, text: str) -> PackSummary | None:
        """The summary the store kept, or None if there is none (or it does not read)."""
        try:
            data = json.loads(text)
            return cls(
                str(data["id"]),
                str(data["name"]),
                str(data["version"]),
                str(data["description"]),
                None if data["author"] is None else str(data["author"]),
                tuple((str(level), str(tier)) for level, tier in data["levels"]),
            )
        except (ValueError, TypeError, KeyError):
            return None

    def library_json(self) -> dict[str, Any]:
        """The pack as ``GET /api/library`` lists it."""
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "description": self.description,
            "levels": len(self.levels),
            "author": self.author,
        }


def library_world_entry(summary: PackSummary, won: Won) -> dict[str, Any]:
    """A library pack's entry in ``GET /api/worlds``: always open, with the player's progress."""
    required = [level for level, tier in summary.levels if tier == "required"]
    return {
        "id": summary.id,
        "name": summary.name,
        "description": summary.description,
        "levels": len(summary.levels),
        "required": len(required),
        "won": sum(1 for level, _ in summary.levels if (summary.id, level) in won),
        "requiredWon": sum(1 for level in required if (summary.id, level) in won),
        "unlocked": True,
        "unlockedBy": None,
        "imported": True,
    }


def _world_entry(
    pack: Pack, won: Won, unlocked_by: str | None, opens_after: str | None
) -> dict[str, Any]:
    required = [level for level in pack.levels if level.tier == "required"]
    return {
        "id": pack.manifest.id,
        "name": pack.manifest.name,
        "description": pack.manifest.description or "",
        "levels": len(pack.levels),
        "required": len(required),
        "won": sum(1 for level in pack.levels if (pack.manifest.id, level.id) in won),
        "requiredWon": sum(1 for level in required if (pack.manifest.id, level.id) in won),
        "unlocked": unlocked_by is None,
        "unlockedBy": unlocked_by,
        "opensAfter": opens_after,
        "imported": False,
    }


class Worlds:
    """The packs on offer, in world order, and the JSON the HTTP API serves about them."""

    def __init__(self, packs: Iterable[Pack]) -> None:
        """Offer ``packs`` in the order given (see :meth:`load` for the shipped order)."""
        self._packs: dict[str, Pack] = {}
        for pack in packs:
            self._packs.setdefault(pack.manifest.id, pack)

    @classmethod
    def load(cls, packs_dir: Path | None = None) -> Worlds:
        """Load every pack in ``packs_dir`` (default: the shipped ones), in world order.

        A file that is not a valid pack is skipped with a logged warning, so
        one broken pack does not take the others down.
        """
        folder = DEFAULT_PACKS_DIR if packs_dir is None else packs_dir
        packs: list[Pack] = []
        for path in sorted(folder.glob("*.json")):
            try:
                packs.append(load_pack(path))
            except (OSError, ValueError, PackError) as error:
                logger.warning("skipping %s: %s", path, error)
        rank = {pack_id: index for index, pack_id in enumerate(SHIPPED_ORDER)}
        packs.sort(key=lambda pack: (rank.get(pack.manifest.id, len(rank)), pack.manifest.id))
        return cls(packs)

    @property
    def packs(self) -> list[Pack]:
        """The packs in world order."""
        return list(self._packs.values())

    def pack(self, pack_id: str) -> Pack | None:
        """The pack with this id, or None."""
        return self._packs.get(pack_id)

    def level(self, pack_id: str, level_id: str) -> PackLevel | None:
        """The level with these ids, or None."""
        pack = self._packs.get(pack_id)
        if pack is None:
            return None
        return next((level for level in pack.levels if level.id == level_id), None)

    def world_list(self, won: Won, library: Iterable[PackSummary] = ()) -> dict[str, Any]:
        """``GET /api/worlds``: every world with its counts and whether it is open.

        The shipped worlds come first (``"imported": false``), then the
        player's ``library`` packs (their summaries) in the order given
        (``"imported": true``).
        """
        worlds = [
            _world_entry(
                pack,
                won,
                self.world_unlocked_by(pack.manifest.id, won),
                self.world_prerequisite(pack.manifest.id),
            )
            for pack in self._packs.values()
        ]
        worlds.extend(library_world_entry(summary, won) for summary in library)
        return {"worlds": worlds}

    def world_prerequisite(self, pack_id: str) -> str | None:
        """The id of the world whose required levels open the shipped world ``pack_id``.

        The one before it, or the one ``OPENS_AFTER`` names; None for the
        first world (always open) and for a pack that is not offered.
        """
        packs = list(self._packs.values())
        index = next((i for i, each in enumerate(packs) if each.manifest.id == pack_id), 0)
        if index == 0:
            return None
        prerequisite = self._packs.get(OPENS_AFTER.get(pack_id, "")) or packs[index - 1]
        return prerequisite.manifest.id

    def world_unlocked_by(self, pack_id: str, won: Won) -> str | None:
        """What opens the shipped world ``pack_id`` (None when it is open).

        A world opens when every required level of the world it follows is
        won: the one before it, or the one ``OPENS_AFTER`` names.
        """
        prerequisite_id = self.world_prerequisite(pack_id)
        if prerequisite_id is None:
            return None
        prerequisite = self._packs[prerequisite_id]
        unwon = [
            level
            for level in prerequisite.levels
            if level.tier == "required" and (prerequisite.manifest.id, level.id) not in won
        ]
        if not unwon:
            return None
        if len(unwon) > NAMED_AT_MOST:
            return f"Win every required level of {prerequisite.manifest.name} first"
        return f"Win {naming_levels(unwon)} in {prerequisite.manifest.name} first"

    def world_detail(self, pack: Pack, best_moves: dict[tuple[str, str], int]) -> dict[str, Any]:
        """``GET /api/worlds/{pack}`` for a shipped world: its palette, glossary and levels' state."""
        return world_json(pack.manifest.id, pack, best_moves, imported=False)

    def level_detail(self, pack: Pack, level: PackLevel, won: Won = ()) -> dict[str, Any]:
        """``GET /api/worlds/{pack}/levels/{level}`` for a level of a shipped world, locked as ``won`` says."""
        detail = level_json(pack.manifest.id, level, self.next_level(pack, level))
        detail.update(
            level_lock_json(pack, level, won, self.world_unlocked_by(pack.manifest.id, won))
        )
        return detail

    def any_level_detail(
        self, pack: Pack, level: PackLevel, won: Won = (), *, imported: bool
    ) -> dict[str, Any]:
        """``GET /api/worlds/{pack}/levels/{level}`` for a shipped world's level or a library pack's.

        A library pack's level leads to the next in its pack only, and is
        locked by its own pack's rules alone.
        """
        if not imported:
            return self.level_detail(pack, level, won)
        detail = level_json(pack.manifest.id, level, next_in_pack(pack, level))
        detail.update(level_lock_json(pack, level, won))
        return detail

    def next_level(self, pack: Pack, level: PackLevel) -> dict[str, str] | None:
        """The level after this one: the next in its world, else the next world's first."""
        packs = list(self._packs.values())
        following = next_in_pack(pack, level)
        if following is not None:
            return following
        position = next(i for i, each in enumerate(packs) if each.manifest.id == pack.manifest.id)
        for later in packs[position + 1 :]:
            if later.levels:
                return {"pack": later.manifest.id, "level": later.levels[0].id}
        return None
