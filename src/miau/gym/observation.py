"""Observations: a settled state as a fixed-size stack of 0/1 planes.

The planes (channels) of a layout, in this order:

1. ``level``: 1 on every cell of the level, 0 on the padding around it
   (levels smaller than the declared size sit in its top-left corner).
2. ``noun:N``, one per noun: cells holding an object whose noun is N.
3. ``word:W``, one per word text: cells holding a word tile W.
4. ``property:P``, one per property: cells holding an object that has P
   under the plain rules in force (``N IS P``; with vocabulary-1 also
   ``ALL IS P``, and ``TEXT IS P`` marks word tiles). Conditional and
   negated vocabulary-1 rules are read only in ``info["rules"]``.
5. ``facing:F`` for F in right, down, left, up: cells holding an object
   facing F.

Nouns and words are sorted; properties come in the glossary's order (the
six core ones first, then the rest sorted). A layout is made from a set of
levels (the union of what they can show), so one policy can read every
level of the set.

The *global* layout (:meth:`ChannelLayout.global_layout`) is fixed instead:
its nouns are :data:`GLOBAL_NOUNS` then ``*``; its words every global noun,
the Tier-1 nouns (``ALL``, ``EMPTY``, ``LEVEL``, ``TEXT``), the operators
and every property word, sorted, then ``*``; its properties the six core
ones, the nine Tier-1 ones in the glossary's order, then ``*``. ``*`` is
the catch-all: any other noun, word or property (an automaton's own word,
a noun of a custom pack) marks it. Every level fits it (up to its size),
so one policy can move from one level set to another, and levels that are
not known in advance (procedural families, ``reset(options={"level":
...})``) can be shown.

An observation is kept up to date from the engine's events: a turn that
moved or destroyed a few things costs a few byte writes and one
copy of the array, whatever the size of the board. A full rebuild (one pass
over the entities, never over the cells) happens on reset, undo, a
transformation (vocabulary-1's ``X IS TEXT`` included), a ``HAS`` spawn or
an ``EMPTY IS X`` creation, and a change of what the rules give. Moves,
facings and destructions are all in the event's log under either
vocabulary, so vocabulary-1 turns are kept incrementally too (a property
test compares every kept observation with one built from scratch on random
play over the Keke sample and the lexicon pack).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from miau.engine import Event, Level, State
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import (
    ALL,
    CORE_PROPERTIES,
    FACINGS,
    TEXT,
    TIER1_NOUNS,
    TIER1_OPERATORS,
    TIER1_PROPERTIES,
)

ObservationArray = NDArray[np.uint8]
"""An observation: ``(channels, height, width)`` of 0 and 1."""

_BuildKey = tuple[
    tuple[int, ...], tuple[str, ...], tuple[bool, ...], tuple[int, ...], dict[str, frozenset[str]]
]
"""What an observation is made from: positions, nouns, kinds, facings and what the rules give."""
_Kept = tuple[
    bytes,
    dict[int, int],
    list[tuple[tuple[int, ...], ...]],
    list[int],
    list[bool],
    dict[str, frozenset[str]] | None,
]
"""A builder's working state: cells, stacks, marks, facings, kinds and what the rules give."""

LEVEL_CHANNEL: Final = "level"
_OPERATORS: Final = frozenset(TIER1_OPERATORS)

CATCH_ALL: Final = "*"
"""The global layout's last noun, word and property: anything the layout does not name."""

GLOBAL_NOUNS: Final = (
    "BABA", "BALL", "BELL", "BELT", "BOX", "COG", "DOOR", "FIRE", "FLAG", "FLOOR", "GEM",
    "GOOP", "GRASS", "ICE", "KEKE", "KEY", "LAVA", "LOVE", "MIAU", "MOUSE", "ROCK", "SKULL",
    "WALL", "WATER",
)  # fmt: skip
"""The nouns of the global layout: those of Miau's worlds, Keke's levels and the task families."""


@dataclass(frozen=True, slots=True)
class ChannelLayout:
    """Which channel means what, and the padded size every observation has."""

    nouns: tuple[str, ...]
    words: tuple[str, ...]
    properties: tuple[str, ...]
    height: int
    width: int

    def __reduce__(self) -> tuple[type[ChannelLayout], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)

    @classmethod
    def from_levels(
        cls, levels: Iterable[Level], size: tuple[int, int] | None = None
    ) -> ChannelLayout:
        """The layout that shows every level of ``levels``.

        ``size`` is ``(height, width)``; by default the largest height and
        width among the levels.

        :raises ValueError: when a level is larger than ``size``, or there is no level.
        """
        levels = list(levels)
        if not levels:
            raise ValueError("a layout needs at least one level")
        nouns: set[str] = set()
        words: set[str] = set()
        properties: set[str] = set()
        for level in levels:
            properties |= level.properties
            for text, is_word in zip(level.texts, level.is_word, strict=True):
                if is_word:
                    words.add(text)
                    if text not in level.properties and text not in _OPERATORS:
                        nouns.add(text)
                else:
                    nouns.add(text)
        nouns -= TIER1_NOUNS
        if any(level.vocabulary for level in levels):
            # ``X IS TEXT`` turns an object into the word of its noun.
            words |= nouns
        height = max(level.height for level in levels)
        width = max(level.width for level in levels)
        if size is not None:
            if size[0] < height or size[1] < width:
                raise ValueError(
                    f"a level of {height}x{width} (height x width) does not fit "
                    f"the observation size {size[0]}x{size[1]}"
                )
            height, width = size
        core = [p for p in CORE_PROPERTIES if p in properties]
        return cls(
            nouns=tuple(sorted(nouns)),
            words=tuple(sorted(words)),
            properties=(*core, *sorted(properties - set(core))),
            height=height,
            width=width,
        )

    @classmethod
    def global_layout(cls, size: tuple[int, int]) -> ChannelLayout:
        """The fixed layout of every noun, word and property (see the module docstring).

        ``size`` is ``(height, width)``.

        :raises ValueError: when a side is not a whole number from 1 to 64.
        """
        height, width = size
        if not all(isinstance(side, int) and 1 <= side <= 64 for side in size):
            raise ValueError(f"size must be (height, width) from 1 to 64 each, not {size!r}")
        properties = (*CORE_PROPERTIES, *TIER1_PROPERTIES)
        words = sorted({*GLOBAL_NOUNS, *TIER1_NOUNS, *TIER1_OPERATORS, *properties})
        return cls(
            nouns=(*GLOBAL_NOUNS, CATCH_ALL),
            words=(*words, CATCH_ALL),
            properties=(*properties, CATCH_ALL),
            height=height,
            width=width,
        )

    def shows(self, level: Level) -> bool:
        """Whether every noun, word and property of ``level`` has a channel, and the level fits."""
        if level.height > self.height or level.width > self.width:
            return False
        if CATCH_ALL in self.nouns:
            return True
        own = ChannelLayout.from_levels([level])
        return (
            set(own.nouns) <= set(self.nouns)
            and set(own.words) <= set(self.words)
            and set(own.properties) <= set(self.properties)
        )

    @property
    def names(self) -> tuple[str, ...]:
        """Every channel's name, in channel order."""
        return (
            LEVEL_CHANNEL,
            *(f"noun:{n}" for n in self.nouns),
            *(f"word:{w}" for w in self.words),
            *(f"property:{p}" for p in self.properties),
            *(f"facing:{f}" for f in FACINGS),
        )

    @property
    def channel_count(self) -> int:
        """How many channels an observation has."""
        return 1 + len(self.nouns) + len(self.words) + len(self.properties) + len(FACINGS)

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(channels, height, width)``."""
        return (self.channel_count, self.height, self.width)

    def channel(self, name: str) -> int:
        """The index of the channel called ``name`` (``noun:MIAU``, ``property:YOU``...).

        :raises KeyError: when the layout has no such channel.
        """
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"no channel {name!r} in this layout") from None


class ObservationBuilder:
    """Keeps the observation of one game of one level, in one layout.

    ``build(state)`` makes it from a state; ``update(event, state_of)``
    brings it up to date after an accepted event, reading the state (through
    ``state_of``) only when it must rebuild; ``current()`` gives it again.
    Each returns a new array the caller may keep (and change).
    """

    def __init__(self, layout: ChannelLayout, level: Level) -> None:
        """Prepare the cell map and the empty frame of ``level``.

        :raises ValueError: when the level does not fit the layout's size.
        """
        if level.height > layout.height or level.width > layout.width:
            raise ValueError(
                f"a level of {level.height}x{level.width} does not fit "
                f"the observation size {layout.height}x{layout.width}"
            )
        self.layout = layout
        self.level = level
        self._shape = layout.shape
        self._area = layout.height * layout.width
        # Level cell -> frame cell (levels sit in the top-left corner of the frame).
        self._frame_of_cell = [
            (cell // level.width) * layout.width + cell % level.width
            for cell in range(level.width * level.height)
        ]
        # The observation lives in a bytearray (channel-major, row-major within a
        # channel): setting a few bytes from Python is cheaper than numpy's fancy
        # indexing with lists; numpy reads it in one copy.
        empty = bytearray(layout.channel_count * self._area)
        for frame_cell in self._frame_of_cell:  # channel 0: the level's cells
            empty[frame_cell] = 1
        self._empty = bytes(empty)
        self._cells = bytearray(self._empty)
        # A numpy view of the same bytes, made once: copying it is the whole cost of current().
        self._view = np.frombuffer(self._cells, dtype=np.uint8).reshape(self._shape)
        self._noun_rows = {noun: 1 + i for i, noun in enumerate(layout.nouns)}
        offset = 1 + len(layout.nouns)
        self._word_rows = {word: offset + i for i, word in enumerate(layout.words)}
        offset += len(layout.words)
        self._property_rows = {prop: offset + i for i, prop in enumerate(layout.properties)}
        self._facing_offset = offset + len(layout.properties)
        self._facing_rows = tuple(
            (self._facing_offset + facing) * self._area for facing in range(len(FACINGS))
        )
        # A flat index (channel * area + frame cell) marked by one entity has its byte
        # at 1; one marked by several is also counted here, so that the byte stays 1
        # until the last of them leaves. Such stacks are rare: most marks cost one
        # byte test, never a dictionary update.
        self._stacked: dict[int, int] = {}
        self._marks: list[tuple[tuple[int, ...], ...]] = []
        """Each entity's marks by facing: its noun or word row, its property rows and,
        for an object, the row of that facing, as offsets (row * area)."""
        self._facings: list[int] = []
        self._is_object: list[bool] = []
        self._props: dict[str, frozenset[str]] | None = None
        self._other_noun = self._noun_rows.get(CATCH_ALL)
        self._other_word = self._word_rows.get(CATCH_ALL)
        self._other_property = self._property_rows.get(CATCH_ALL)
        self._start: tuple[_BuildKey, _Kept] | None = None
        """The last build of a state with no move made (a level start), to give again on reset."""

    def build(self, state: State) -> ObservationArray:
        """The observation of ``state``, made from scratch."""
        now = state.now
        props = state.rules_table.props
        made_of: _BuildKey | None = None
        if now.move_count == 0:
            # Everything an observation depends on; a reset's state equals the start's.
            made_of = (now.positions, now.nouns, now.kinds, now.facings, props)
            start = self._start
            if start is not None and start[0] == made_of:
                self._restore(start[1])
                return self.current()
        self._props = props
        marks = self._marks = self._entity_marks(props, now.nouns, now.kinds)
        self._facings = facings = list(now.facings)
        self._is_object = [not is_word for is_word in now.kinds]
        frame_of_cell = self._frame_of_cell
        stacked: dict[int, int] = {}
        cells = self._cells
        cells[:] = self._empty
        for ident, position in enumerate(now.positions):
            if position < 0:
                continue
            cell = frame_of_cell[position]
            for mark in marks[ident][facings[ident]]:
                key = mark + cell
                if cells[key]:
                    stacked[key] = stacked.get(key, 1) + 1
                else:
                    cells[key] = 1
        self._stacked = stacked
        if made_of is not None:
            self._start = (made_of, self._kept())
        return self.current()

    def _kept(self) -> _Kept:
        """A copy of what the builder keeps between turns."""
        return (
            bytes(self._cells),
            dict(self._stacked),
            self._marks,
            list(self._facings),
            self._is_object,
            self._props,
        )

    def _restore(self, kept: _Kept) -> None:
        cells, stacked, self._marks, facings, self._is_object, self._props = kept
        self._cells[:] = cells
        self._stacked = dict(stacked)
        self._facings = list(facings)

    def current(self) -> ObservationArray:
        """The last observation built or updated, as a new array."""
        return self._view.copy()

    def update(self, event: Event, state_of: Callable[[], State]) -> ObservationArray:
        """The observation after ``event`` (accepted), from the last one when it can be.

        ``event`` must be the next accepted action after the state last built
        or updated: the update applies its entries to that observation.
        Incremental for a turn that neither transformed, spawned nor created
        anything nor changed what the rules give; otherwise rebuilt from
        ``state_of()``.
        """
        log = event.log
        if (
            event.kind != "step"
            or log.transformed
            or log.restored
            or log.spawned
            or log.created
            or (
                event.rules_before is not event.rules_after
                and event.rules_after.props != self._props
            )
        ):
            return self.build(state_of())
        stacked = self._stacked
        cells = self._cells
        marks, facings = self._marks, self._facings
        frame_of_cell = self._frame_of_cell
        # Leaving marks go first, then arriving ones, entry by entry: a byte is 0 once
        # its last mark has left and 1 while one is there, whatever the order.
        for ident, before, after, _, facing in log.moved:
            was = facings[ident]
            if before == after:
                if facing == was:
                    continue
                if not self._is_object[ident]:
                    facings[ident] = facing
                    continue
                old = new = frame_of_cell[before]
                leaving: tuple[int, ...] = (self._facing_rows[was],)
                arriving: tuple[int, ...] = (self._facing_rows[facing],)
            else:
                old, new = frame_of_cell[before], frame_of_cell[after]
                own = marks[ident]
                leaving, arriving = own[was], own[facing]
            for mark in leaving:
                key = mark + old
                if key in stacked:
                    left = stacked[key] - 1
                    if left == 1:
                        del stacked[key]
                    else:
                        stacked[key] = left
                else:
                    cells[key] = 0
            for mark in arriving:
                key = mark + new
                if cells[key]:
                    stacked[key] = stacked.get(key, 1) + 1
                else:
                    cells[key] = 1
            facings[ident] = facing
        for ident, _, position, _, _ in log.destroyed:
            cell = frame_of_cell[position]
            for mark in marks[ident][facings[ident]]:
                key = mark + cell
                if key in stacked:
                    left = stacked[key] - 1
                    if left == 1:
                        del stacked[key]
                    else:
                        stacked[key] = left
                else:
                    cells[key] = 0
        return self.current()

    def _entity_marks(
        self, props: dict[str, frozenset[str]], nouns: tuple[str, ...], kinds: tuple[bool, ...]
    ) -> list[tuple[tuple[int, ...], ...]]:
        """Each entity's marks by facing (noun or word row, property rows, facing row) as offsets."""
        vocabulary = self.level.vocabulary
        for_all = props.get(ALL, frozenset()) if vocabulary else frozenset()
        for_words = props.get(TEXT, frozenset()) if vocabulary else frozenset()
        area = self._area
        property_rows = self._property_rows
        known: dict[tuple[str, bool], tuple[tuple[int, ...], ...]] = {}
        marks: list[tuple[tuple[int, ...], ...]] = []
        for noun, is_word in zip(nouns, kinds, strict=True):
            found = known.get((noun, is_word))
            if found is None:
                own = (self._word_rows if is_word else self._noun_rows).get(
                    noun, self._other_word if is_word else self._other_noun
                )
                held = for_words if is_word else props.get(noun, frozenset()) | for_all
                property_rows_held = {property_rows.get(p, self._other_property) for p in held}
                property_rows_held.discard(None)
                rows = tuple(
                    row * area
                    for row in (
                        *(() if own is None else (own,)),
                        *sorted(row for row in property_rows_held if row is not None),
                    )
                )
                if is_word:
                    found = (rows,) * len(self._facing_rows)
                else:
                    found = tuple((*rows, facing) for facing in self._facing_rows)
                known[(noun, is_word)] = found
            marks.append(found)
        return marks
