"""Compact state keys: only what can change during play, packed into bytes.

Two boards with the same key behave the same under every move string, so
the search may treat them as one state. What a key holds, per level:

* the position of every word (words are pushable, so any of them can move);
* the position of every object that might ever move or be destroyed;
* the noun of every object that might ever transform (0 while it is gone,
  since a destroyed object's noun can no longer matter);
* the phase of every automaton.

Left out, because they cannot change or cannot matter: objects that no rule
can ever reach (no word names their noun, and no SINK word exists to make
something sink them), and every entity's ``facing`` (the contract keeps it out
of rules and movement; it only steers how a glyph is drawn). Rules are not in
the key: they follow from the word positions.

A ``vocabulary-1`` level keeps everything: every entity's position, noun
(a word's text) and facing (NOT, ALL and HAS reach any noun), and every
entity's kind (``X IS TEXT`` makes an object a word, ``TEXT IS X`` a word an
object; 0 while it is gone). Facings are left out of its keys too when the
level names none of MOVE, SHIFT and FACING, the only words that read them
(see ``reads_facing``): on Deep End's FLOAT level that is 8 states in 9.

The analysis is deliberately coarse, so it is obviously safe: a noun "might
be reached" when an ``IS`` word and a word naming the noun both exist,
whatever their positions.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from miau.engine.board import GONE, Board, JournalEntry
from miau.engine.level import Level
from miau.engine.state import State
from miau.engine.vocabulary import FACING, IS, MOVE, OPERATORS, SHIFT, SINK, TEXT

_BYTE_LIMIT = 255


class KeyCodec:
    """Encodes boards of one level as keys and turns key differences into board changes."""

    __slots__ = (
        "facing_ids",
        "kind_ids",
        "noun_ids",
        "noun_index",
        "noun_slot",
        "nouns",
        "phase_count",
        "pos_ids",
        "pos_slot",
        "slot_count",
        "wide",
    )

    def __init__(self, level: Level) -> None:
        """Decide, once per level, which entities and fields the keys carry."""
        word_texts = {level.texts[i] for i in level.word_ids}
        has_is = IS in word_texts
        noun_words = {t for t in word_texts if t not in OPERATORS and t not in level.properties}
        sink_possible = has_is and SINK in word_texts
        transforms_possible = has_is and len(noun_words) >= 2

        def reachable(ident: int) -> bool:
            return has_is and level.texts[ident] in noun_words

        objects = [i for i in range(level.entity_count) if not level.is_word[i]]
        if level.vocabulary:
            # Tier-1 words reach anything; facings steer MOVE, SHIFT and FACING;
            # a word may become a thing and a thing its word (or TEXT's).
            sink_possible = transforms_possible = True
            noun_words |= {*level.texts, TEXT}
            objects = list(range(level.entity_count))

            def reachable(ident: int) -> bool:
                return True

        self.pos_ids: tuple[int, ...] = tuple(
            i
            for i in range(level.entity_count)
            if level.is_word[i] or reachable(i) or sink_possible
        )
        self.noun_ids: tuple[int, ...] = tuple(
            i for i in objects if transforms_possible and reachable(i)
        )
        object_nouns = {level.texts[i] for i in objects}
        self.nouns: tuple[str, ...] = tuple(sorted(object_nouns | noun_words))
        # Noun numbers start at 1: 0 stands for "gone", as position 0 does for GONE.
        self.noun_index: dict[str, int] = {n: k + 1 for k, n in enumerate(self.nouns)}
        self.phase_count = len(level.automata)
        every = tuple(range(level.entity_count)) if level.vocabulary else ()
        self.facing_ids: tuple[int, ...] = every if reads_facing(level) else ()
        self.kind_ids: tuple[int, ...] = every
        # Per entity, where its position and noun live in the slots (-1: not kept).
        self.pos_slot = [-1] * level.entity_count
        self.noun_slot = [-1] * level.entity_count
        for slot, ident in enumerate(self.pos_ids):
            self.pos_slot[ident] = slot
        for slot, ident in enumerate(self.noun_ids, start=len(self.pos_ids)):
            self.noun_slot[ident] = slot
        self.slot_count = (
            len(self.pos_ids)
            + len(self.noun_ids)
            + len(self.facing_ids)
            + len(self.kind_ids)
            + self.phase_count
        )
        cells = level.width * level.height
        self.wide = cells + 1 > _BYTE_LIMIT or len(self.nouns) + 1 > _BYTE_LIMIT

    def values(self, board: Board) -> list[int]:
        """The key's slots for ``board``: positions + 1, noun numbers, facings, kinds, phases."""
        return self._slots(board.pos, board.noun, board.facing, board.is_word, board.phases)

    def _slots(
        self,
        pos: Sequence[int],
        noun: Sequence[str],
        facing: Sequence[int],
        kinds: Sequence[bool],
        phases: Sequence[int],
    ) -> list[int]:
        index = self.noun_index
        slots = [pos[i] + 1 for i in self.pos_ids]
        slots.extend(0 if pos[i] == GONE else index[noun[i]] for i in self.noun_ids)
        slots.extend(0 if pos[i] == GONE else facing[i] for i in self.facing_ids)
        # Kinds: 0 while gone, 1 an object, 2 a word.
        slots.extend(0 if pos[i] == GONE else 1 + kinds[i] for i in self.kind_ids)
        slots.extend(phases)
        return slots

    def encode_state(self, state: State) -> bytes:
        """The key of a settled state taken from a ``Game`` (what tests compare with)."""
        now = state.now
        return self.pack(self._slots(now.positions, now.nouns, now.facings, now.kinds, now.phases))

    def successor(self, board: Board, before: bytes, journal: Sequence[JournalEntry]) -> bytes:
        """The key of ``board`` after a turn, from the key ``before`` it and its journal.

        Only the entities the turn touched are read again, which on a large
        board is much cheaper than ``encode``; the key is copied and patched
        as bytes, never spread into a list of numbers.
        """
        pos, noun, index = board.pos, board.noun, self.noun_index
        pos_slot, noun_slot = self.pos_slot, self.noun_slot
        slots: bytearray | array[int]
        if self.wide:
            slots = array("H")
            slots.frombytes(before)
        else:
            slots = bytearray(before)
        for ident, _, _, _, _ in journal:
            slot = pos_slot[ident]
            if slot >= 0:
                slots[slot] = pos[ident] + 1
            slot = noun_slot[ident]
            if slot >= 0:
                slots[slot] = 0 if pos[ident] == GONE else index[noun[ident]]
        if self.kind_ids:
            # Facing and kind slots are kept for every entity, in id order.
            start = len(self.pos_ids) + len(self.noun_ids)
            kinds_start = start + len(self.facing_ids)
            facing, kinds = board.facing, board.is_word
            facings = bool(self.facing_ids)
            for ident, _, _, _, _ in journal:
                gone = pos[ident] == GONE
                if facings:
                    slots[start + ident] = 0 if gone else facing[ident]
                slots[kinds_start + ident] = 0 if gone else 1 + kinds[ident]
        if self.phase_count:
            for offset, phase in enumerate(board.phases, self.slot_count - self.phase_count):
                slots[offset] = phase
        return bytes(slots) if isinstance(slots, bytearray) else slots.tobytes()

    def moved(self, key: bytes, idents: Sequence[int], cells: Sequence[int]) -> bytes:
        """``key`` with each of ``idents`` standing in its cell of ``cells``, nothing else changed."""
        pos_slot = self.pos_slot
        if self.wide:
            wide = array("H")
            wide.frombytes(key)
            for ident, cell in zip(idents, cells, strict=True):
                wide[pos_slot[ident]] = cell + 1
            return wide.tobytes()
        if len(idents) == 1:
            slot = pos_slot[idents[0]]
            return key[:slot] + bytes((cells[0] + 1,)) + key[slot + 1 :]
        slots = bytearray(key)
        for ident, cell in zip(idents, cells, strict=True):
            slots[pos_slot[ident]] = cell + 1
        return bytes(slots)

    def view(self, key: bytes) -> Sequence[int]:
        """The slots of ``key`` read in place: the bytes themselves, or two bytes a slot."""
        if self.wide:
            return memoryview(key).cast("H")
        return key

    def pack(self, slots: Sequence[int]) -> bytes:
        """Slots as a key: one byte per slot, or two on levels too big for one."""
        if self.wide:
            return array("H", slots).tobytes()
        return bytes(slots)

    def unpack(self, key: bytes) -> list[int]:
        """The slots a key was packed from."""
        if self.wide:
            slots = array("H")
            slots.frombytes(key)
            return slots.tolist()
        return list(key)

    def encode(self, board: Board) -> bytes:
        """The key of ``board`` as it stands."""
        return self.pack(self.values(board))

    def changes(self, board: Board, current: bytes, target: bytes) -> list[JournalEntry]:
        """Journal-style entries that take ``board`` from the key ``current`` to ``target``.

        ``Board.revert`` applies them: each entry names an entity and the
        position, noun, facing and kind it must have. Facings and kinds are
        kept as they are unless the key holds them (vocabulary-1); so are
        the noun and kind of an entity that is gone.
        """
        pos_ids, noun_ids = self.pos_ids, self.noun_ids
        split = len(pos_ids)
        values = self.view(target)
        if not self.kind_ids:
            return self._core_changes(board, current, target, values)
        end = split + len(noun_ids)
        kinds_start = end + len(self.facing_ids)
        new_pos: dict[int, int] = {}
        new_noun: dict[int, str] = {}
        new_facing: dict[int, int] = {}
        new_kind: dict[int, bool] = {}
        for slot in self._differing(current, target, kinds_start + len(self.kind_ids)):
            value = values[slot]
            if slot < split:
                new_pos[pos_ids[slot]] = value - 1
            elif slot >= kinds_start:
                if value:
                    new_kind[self.kind_ids[slot - kinds_start]] = value == 2
            elif slot >= end:
                new_facing[self.facing_ids[slot - end]] = value
            elif value:
                new_noun[noun_ids[slot - split]] = self.nouns[value - 1]
        entries: list[JournalEntry] = []
        changed = new_pos.keys() | new_noun.keys() | new_facing.keys() | new_kind.keys()
        for ident in sorted(changed):
            entries.append(
                (
                    ident,
                    new_pos.get(ident, board.pos[ident]),
                    new_noun.get(ident, board.noun[ident]),
                    new_facing.get(ident, board.facing[ident]),
                    new_kind.get(ident, board.is_word[ident]),
                )
            )
        return entries

    def _core_changes(
        self, board: Board, current: bytes, target: bytes, values: Sequence[int]
    ) -> list[JournalEntry]:
        """``changes`` for keys of positions and nouns only (no facings, kinds or phases).

        Position slots come first, one per entity in id order, so the entries
        of a jump that only moves things come out in id order as they are found.
        """
        pos_ids, noun_ids, nouns = self.pos_ids, self.noun_ids, self.nouns
        split = len(pos_ids)
        pos, noun, facing, kinds = board.pos, board.noun, board.facing, board.is_word
        entries: list[JournalEntry] = []
        renamed: dict[int, str] = {}
        for slot in self._differing(current, target, split + len(noun_ids)):
            value = values[slot]
            if slot < split:
                ident = pos_ids[slot]
                entries.append((ident, value - 1, noun[ident], facing[ident], kinds[ident]))
            elif value:
                renamed[noun_ids[slot - split]] = nouns[value - 1]
        if not renamed:
            return entries
        moved = {entry[0]: entry[1] for entry in entries}
        return [
            (
                ident,
                moved.get(ident, pos[ident]),
                renamed.get(ident, noun[ident]),
                facing[ident],
                kinds[ident],
            )
            for ident in sorted(moved.keys() | renamed.keys())
        ]

    def _differing(self, current: bytes, target: bytes, limit: int) -> list[int]:
        """The slots below ``limit`` where two keys differ, in order.

        The keys are read as two big numbers and XORed, so the cost goes with
        the slots that differ (a jump between relatives changes a handful),
        not with the length of the key.
        """
        bits = 16 if self.wide else 8
        unit = (1 << bits) - 1
        diff = int.from_bytes(current, "little") ^ int.from_bytes(target, "little")
        diff &= (1 << (bits * limit)) - 1
        found: list[int] = []
        while diff:
            slot = ((diff & -diff).bit_length() - 1) // bits
            found.append(slot)
            diff &= ~(unit << (bits * slot))
        return found

    def phases(self, slots: Sequence[int]) -> list[int]:
        """The automata phases held in ``slots``."""
        return list(slots[self.slot_count - self.phase_count :])


FACING_READERS = frozenset({MOVE, SHIFT, FACING})
"""The words through which a rule reads a facing: MOVE and SHIFT things move along
theirs, a ``FACING`` condition looks at the cell in front (``engine.turn.run_move``,
``run_shift`` and ``engine.board``'s conditions are the only readers)."""


def reads_facing(level: Level) -> bool:
    """Whether a rule of ``level`` might ever read an entity's facing.

    Only a rule holding one of :data:`FACING_READERS` does, and a word tile
    with that text can only exist if the level names it: words are the
    level's own, and ``X IS TEXT`` or ``HAS`` only make words of nouns the
    level already lists (every entity's text, objects and reserved ids
    included). Where none is named, two boards that differ only in
    facings behave the same under every move string, so a key need not
    tell them apart.
    """
    return not FACING_READERS.isdisjoint(level.texts)
