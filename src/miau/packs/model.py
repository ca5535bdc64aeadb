"""A loaded pack: immutable records, and the level dict the engine plays.

Everything here is already valid and normalised: tokens are uppercase,
entity kinds explicit, maps expanded into objects, pattern steps in their
dict form. :meth:`Pack.to_json` writes the pack back in the pack format.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from miau.engine.vocabulary import Facing
from miau.packs.format import Accent, Faces, Tier
from miau.packs.issues import PackIssue

__all__ = [
    "AutomatonData",
    "EntityData",
    "GlossaryEntry",
    "Glyph",
    "LevelData",
    "LevelNotFoundError",
    "Manifest",
    "MoveStep",
    "Pack",
    "PackLevel",
    "PairData",
    "StepData",
    "WaitStep",
]


class EntityData(TypedDict):
    """One entity of a level: an object with a ``noun`` or a word with a ``text``."""

    kind: Literal["object", "word"]
    noun: NotRequired[str]
    text: NotRequired[str]
    x: int
    y: int
    facing: NotRequired[Facing]


class MoveStep(TypedDict):
    """An automaton step that moves one cell."""

    action: Literal["move"]
    dx: int
    dy: int


class WaitStep(TypedDict):
    """An automaton step that stays in place for one beat."""

    action: Literal["wait"]


StepData = MoveStep | WaitStep


class AutomatonData(TypedDict):
    """One automaton record; ``phase`` is always present, ``subject`` only if given."""

    id: str
    subject: NotRequired[str]
    property: str
    phase: int
    pattern: list[StepData]


class PairData(TypedDict):
    """One contact pair; ``enter`` is always present."""

    words: list[str]
    effect: str
    enter: bool


class LevelData(TypedDict):
    """The level dict the engine's ``Game`` accepts, exactly."""

    width: int
    height: int
    objects: list[EntityData]
    automata: list[AutomatonData]
    pairs: list[PairData]
    features: NotRequired[list[str]]
    """``["vocabulary-1"]`` when the pack's manifest lists it; absent otherwise."""


class LevelNotFoundError(KeyError):
    """A pack has no level with the id asked for."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """Who made the pack, which version it is, and what it needs to run."""

    id: str
    name: str
    version: str
    engine: int
    features: tuple[str, ...] = ()
    author: str | None = None
    description: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the manifest in the pack format."""
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "engine": self.engine,
        }
        if self.features:
            out["features"] = list(self.features)
        if self.author is not None:
            out["author"] = self.author
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class Glyph:
    """How a noun is drawn; ``faces`` is the way the glyph looks, if it has one.

    A glyph without ``faces`` is never mirrored.
    """

    glyph: str
    faces: Faces | None = None

    def to_json(self) -> str | dict[str, str]:
        """Return the palette entry in the pack format (a bare string if it can be)."""
        if self.faces is None:
            return self.glyph
        return {"glyph": self.glyph, "faces": self.faces}


@dataclass(frozen=True)
class GlossaryEntry:
    """How a declared property word looks and the sentence that teaches it."""

    accent: Accent
    describe: str

    def to_json(self) -> dict[str, str]:
        """Return the glossary entry in the pack format."""
        return {"accent": self.accent, "describe": self.describe}


@dataclass(frozen=True, kw_only=True)
class PackLevel:
    """One level: its presentation fields and the engine's level dict.

    ``data`` is handed to the engine as it is; treat it as read-only (the
    engine copies what it changes).
    """

    id: str
    title: str
    hint: str | None = None
    """The first hint: a nudge, shown when the player first asks."""
    further_hints: tuple[str, ...] = ()
    """Plainer hints after the first, shown one per further request."""
    tier: Tier = "required"
    width: int
    height: int
    solution: str | None = None
    solver_max: int | None = None
    ideas: tuple[str, ...] | None = None
    """The idea signature the author stored (``miau.solver.ideas``), checked by ``miau check``."""
    repeats: tuple[str, ...] = ()
    """Ids of levels whose idea this one asks for again on purpose (the repetition audit)."""
    data: LevelData

    def to_json(self) -> dict[str, Any]:
        """Return the level in the pack format, its map already expanded."""
        out: dict[str, Any] = {"id": self.id, "title": self.title}
        if self.further_hints:
            out["hints"] = [self.hint, *self.further_hints]
        elif self.hint is not None:
            out["hint"] = self.hint
        out.update(tier=self.tier, width=self.width, height=self.height)
        out["objects"] = copy.deepcopy(self.data["objects"])
        if self.data["automata"]:
            out["automata"] = copy.deepcopy(self.data["automata"])
        if self.data["pairs"]:
            out["pairs"] = copy.deepcopy(self.data["pairs"])
        if self.solution is not None:
            out["solution"] = self.solution
        if self.solver_max is not None:
            out["solverMax"] = self.solver_max
        if self.ideas is not None:
            out["ideas"] = list(self.ideas)
        if self.repeats:
            out["repeats"] = list(self.repeats)
        return out

    @property
    def hints(self) -> tuple[str, ...]:
        """Every hint in the order a player gets them: the nudge first, then the plainer ones.

        A blank ``hint`` (the format allows one) is no hint at all.
        """
        return tuple(hint for hint in (self.hint, *self.further_hints) if hint and hint.strip())


@dataclass(frozen=True, kw_only=True)
class Pack:
    """A valid pack. Two packs are equal when their content is.

    ``warnings`` concern the document the pack was read from, so they take
    no part in equality: a pack written out with :meth:`to_json` and read
    back is equal to the original.
    """

    manifest: Manifest
    palette: dict[str, Glyph] = field(default_factory=dict)
    vocabulary: tuple[str, ...] = ()
    glossary: dict[str, GlossaryEntry] = field(default_factory=dict)
    levels: tuple[PackLevel, ...]
    warnings: tuple[PackIssue, ...] = field(default=(), compare=False)

    def level(self, level_id: str) -> PackLevel:
        """Return the level with this id.

        :raises LevelNotFoundError: (a ``KeyError``) naming the ids there are.
        """
        for level in self.levels:
            if level.id == level_id:
                return level
        known = ", ".join(level.id for level in self.levels)
        raise LevelNotFoundError(
            f"pack {self.manifest.id!r} has no level {level_id!r}; its levels are: {known}"
        )

    def to_json(self) -> dict[str, Any]:
        """Return the pack in the pack format, as plain JSON-ready data.

        Maps come back as explicit objects (in the same order, so entity ids
        are unchanged) and pattern steps in their dict form.
        """
        out: dict[str, Any] = {"manifest": self.manifest.to_json()}
        if self.palette:
            out["palette"] = {noun: glyph.to_json() for noun, glyph in self.palette.items()}
        if self.vocabulary:
            out["vocabulary"] = list(self.vocabulary)
        if self.glossary:
            out["properties"] = {word: entry.to_json() for word, entry in self.glossary.items()}
        out["levels"] = [level.to_json() for level in self.levels]
        return out
