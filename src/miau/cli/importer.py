"""``miau import keke``: turn a Keke AI Competition level set into Miau packs.

The Keke AI Competition (github.com/MasterMilkX/KekeCompetition, MIT
licence) stores its levels as JSON: ``{"levels": [{"id", "name", "author",
"ascii", "solution"}, ...]}``. ``ascii`` draws the level with one character
per cell from a fixed legend (lowercase letters are things, uppercase letters
and digits are word tiles, ``_`` is the border, ``.`` is empty) and
``solution`` is a move string over ``u d l r s`` (``s`` waits a turn).

The conversion is exact where the two games agree:

- the ring of ``_`` around every Keke map is dropped, because Miau's level
  edge blocks as the border does; a ``_`` anywhere else has no Miau
  equivalent and skips the level;
- every other character keeps its place, so the Miau map is the Keke map
  without its border and the legend says what each character is;
- ``KILL`` is read as ``DEFEAT``; the other words keep their names;
- ``u d l r s`` become ``U D L R W``;
- the pack lists the ``vocabulary-1`` feature (``MOVE``, ``HOT``, ``MELT``
  are Tier-1 words), never ``automata``.

Where the two games differ (Keke's turn order, its ``MOVE`` and its
contacts), a converted level plays by Miau's rules; ``--replay`` says which
stored solutions still win. A level that cannot be converted is skipped
with a located reason, and the rest of the set is still converted.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from miau.engine import Game
from miau.engine.vocabulary import CORE_PROPERTIES, IS, TIER1_PROPERTIES, VOCABULARY_1, WAIT
from miau.packs import load_pack, validate_pack
from miau.packs.format import MAX_NAME_LENGTH, MAX_PACK_LEVELS

FEATURE: Final = VOCABULARY_1
"""The pack feature that makes Miau read the Tier-1 words (MOVE, HOT, MELT...)."""

BORDER: Final = "_"
EMPTY: Final = frozenset({".", " "})


@dataclass(frozen=True, slots=True)
class KekeTile:
    """What one Keke map character stands for: a thing of ``noun`` or a word tile of ``text``."""

    kind: str
    token: str


def _things(pairs: str) -> dict[str, KekeTile]:
    """Legend entries for ``"b=BABA f=FLAG ..."``: the letter is the thing, its capital the word."""
    legend: dict[str, KekeTile] = {}
    for entry in pairs.split():
        letter, noun = entry.split("=")
        legend[letter] = KekeTile("object", noun)
        legend[letter.upper()] = KekeTile("word", noun)
    return legend


KEKE_LEGEND: Final[Mapping[str, KekeTile]] = {
    **_things("b=BABA k=KEKE f=FLAG r=ROCK w=WALL s=SKULL l=LAVA g=GOOP a=GRASS o=FLOOR v=LOVE"),
    "1": KekeTile("word", "IS"),
    "2": KekeTile("word", "YOU"),
    "3": KekeTile("word", "WIN"),
    "4": KekeTile("word", "DEFEAT"),  # Keke's KILL
    "5": KekeTile("word", "PUSH"),
    "6": KekeTile("word", "STOP"),
    "7": KekeTile("word", "MOVE"),
    "8": KekeTile("word", "HOT"),
    "9": KekeTile("word", "MELT"),
    "0": KekeTile("word", "SINK"),
}
"""Keke's fixed map legend, with Keke's ``KILL`` already read as Miau's ``DEFEAT``."""

KEKE_MOVES: Final[Mapping[str, str]] = {"u": "U", "d": "D", "l": "L", "r": "R", "s": "W"}
"""Keke's solution letters (either case) and the Miau letter of each; ``s`` waits."""

PALETTE: Final[Mapping[str, object]] = {
    "BABA": {"glyph": "🐇", "faces": "left"},
    "KEKE": {"glyph": "🦎", "faces": "left"},
    "FLAG": "🚩",
    "ROCK": "🪨",
    "WALL": "🧱",
    "SKULL": "💀",
    "LAVA": "🔥",
    "GOOP": "🫧",
    "GRASS": "🌿",
    "FLOOR": "🟫",
    "LOVE": "💗",
}
"""How each Keke noun is drawn; glyphs that look one way say so, so Miau can mirror them."""

WORDS_MIAU_READS: Final = frozenset({IS, *CORE_PROPERTIES, *TIER1_PROPERTIES})
"""The operator and property words a converted level may hold (core and Tier-1)."""


class KekeFormatError(ValueError):
    """The file is not a Keke level set at all (no ``levels`` list); nothing can be converted."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """A Keke level that was not converted, and every reason, each with its place in the Keke file."""

    keke_id: str
    reasons: tuple[str, ...]

    def __str__(self) -> str:
        """The level and its reasons, one per line."""
        return "\n".join([f"level {self.keke_id} skipped:", *(f"  {r}" for r in self.reasons)])


@dataclass(frozen=True, slots=True)
class Conversion:
    """The packs a Keke level set became, and the levels left out with why."""

    packs: tuple[dict[str, Any], ...]
    skipped: tuple[Skipped, ...]

    @property
    def level_count(self) -> int:
        """How many levels were converted, over all packs."""
        return sum(len(pack["levels"]) for pack in self.packs)


def convert_keke(
    document: object,
    *,
    pack_id: str,
    name: str,
    source: str,
    only: Iterable[str] | None = None,
) -> Conversion:
    """Convert a parsed Keke level set into Miau pack documents.

    ``pack_id`` and ``name`` become each pack's manifest (a set of more than
    64 levels is split into parts ``pack_id-1``, ``pack_id-2`` ...);
    ``source`` names the file in each pack's description; ``only`` keeps the
    levels with these Keke ids, in the file's order. Levels that cannot be
    converted are skipped with located reasons; every pack returned loads
    without an error.

    :raises KekeFormatError: when ``document`` is not a Keke level set.
    """
    if not isinstance(document, dict) or not isinstance(document.get("levels"), list):
        raise KekeFormatError('a Keke level set is a JSON object with a "levels" list')
    wanted = None if only is None else {str(keke_id) for keke_id in only}
    levels: list[dict[str, Any]] = []
    keke_ids: list[str] = []
    skipped: list[Skipped] = []
    used_ids: set[str] = set()
    for index, raw in enumerate(document["levels"]):
        keke_id = str(raw.get("id", index)) if isinstance(raw, dict) else str(index)
        if wanted is not None and keke_id not in wanted:
            continue
        level, reasons = _convert_level(raw, f"levels[{index}]", keke_id, used_ids)
        if level is None:
            skipped.append(Skipped(keke_id, reasons))
            continue
        used_ids.add(level["id"])
        levels.append(level)
        keke_ids.append(keke_id)
    if wanted is not None:
        found = {str(raw.get("id")) for raw in document["levels"] if isinstance(raw, dict)}
        skipped += [Skipped(i, ("no level has this id",)) for i in sorted(wanted - found)]
    levels, keke_ids, refused = _drop_what_miau_refuses(levels, keke_ids, pack_id, name, source)
    skipped.extend(refused)
    chunks = [levels[i : i + MAX_PACK_LEVELS] for i in range(0, len(levels), MAX_PACK_LEVELS)]
    packs = tuple(
        _pack(
            chunk,
            f"{pack_id}-{part}" if len(chunks) > 1 else pack_id,
            f"{name} ({part}/{len(chunks)})" if len(chunks) > 1 else name,
            source,
        )
        for part, chunk in enumerate(chunks, start=1)
    )
    return Conversion(packs, tuple(skipped))


def _convert_level(
    raw: object, place: str, keke_id: str, used_ids: set[str]
) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """One Keke level as a Miau level dict, or None and the reasons it cannot be one."""
    if not isinstance(raw, dict):
        return None, (f"{place}: a level must be an object",)
    ascii_map = raw.get("ascii")
    if not isinstance(ascii_map, str) or not ascii_map.strip():
        return None, (f"{place}.ascii: missing or empty",)
    rows = ascii_map.split("\n")
    reasons: list[str] = []
    if len({len(row) for row in rows}) != 1:
        reasons.append(f"{place}.ascii: rows of different widths {sorted({len(r) for r in rows})}")
        return None, tuple(reasons)
    top = 0
    if _has_border_ring(rows):
        rows = [row[1:-1] for row in rows[1:-1]]
        top = 1
    if not rows or not rows[0]:
        return None, (f"{place}.ascii: nothing inside the border",)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            at = f"{place}.ascii[{y + top}][{x + top}]"
            if char in EMPTY:
                continue
            if char == BORDER:
                reasons.append(f'{at}: a border "_" inside the map has no Miau equivalent')
            elif char not in KEKE_LEGEND:
                reasons.append(f"{at}: {char!r} is not a Keke map character")
            elif (tile := KEKE_LEGEND[char]).kind == "word" and not _miau_reads(tile.token):
                reasons.append(f"{at}: the word {tile.token} is not one Miau knows")
    solution, solution_reasons = _solution(raw.get("solution"), f"{place}.solution")
    reasons += solution_reasons
    if reasons:
        return None, tuple(reasons)
    used = sorted({char for row in rows for char in row if char not in EMPTY})
    legend = {char: _legend_entry(KEKE_LEGEND[char]) for char in used}
    level: dict[str, Any] = {
        "id": _level_id(keke_id, used_ids),
        "title": _title(raw.get("name"), keke_id),
        "hint": _hint(raw.get("author"), keke_id),
        "width": len(rows[0]),
        "height": len(rows),
        "map": [row.replace(" ", ".") for row in rows],
        "legend": legend,
    }
    if solution:
        level["solution"] = solution
    return level, ()


def _has_border_ring(rows: Sequence[str]) -> bool:
    """Whether the outermost ring of cells is all border (then it is the level edge)."""
    if len(rows) < 3 or len(rows[0]) < 3:
        return False
    ring = rows[0] + rows[-1] + "".join(row[0] + row[-1] for row in rows)
    return set(ring) == {BORDER}


def _miau_reads(word: str) -> bool:
    """Whether Miau reads the word tile ``word``: a Keke noun, or an operator or property it knows."""
    return word in PALETTE or word in WORDS_MIAU_READS


def _solution(raw: object, place: str) -> tuple[str | None, list[str]]:
    """The Miau move string for a Keke solution, or the reasons it has none."""
    if raw is None or raw == "":
        return None, []
    if not isinstance(raw, str):
        return None, [f"{place}: must be a string of u d l r s"]
    letters = []
    reasons = []
    for index, char in enumerate(raw):
        letter = KEKE_MOVES.get(char.lower())
        if letter is None:
            reasons.append(f"{place}[{index}]: {char!r} is not a Keke move (u d l r s)")
        else:
            letters.append(letter)
    return "".join(letters), reasons


def _legend_entry(tile: KekeTile) -> object:
    return tile.token if tile.kind == "object" else {"word": tile.token}


def _level_id(keke_id: str, used: set[str]) -> str:
    """``keke-ID`` as a Miau level id, made unique within the set."""
    slug = re.sub(r"[^a-z0-9]+", "-", keke_id.lower()).strip("-") or "level"
    base = f"keke-{slug}"[:60]
    candidate, number = base, 2
    while candidate in used:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def _title(raw: object, keke_id: str) -> str:
    name = raw.strip() if isinstance(raw, str) else ""
    return (name or f"Keke level {keke_id}")[:MAX_NAME_LENGTH]


def _hint(raw: object, keke_id: str) -> str:
    """Where the level comes from: its Keke id and author."""
    author = raw.strip() if isinstance(raw, str) else ""
    by = f" by {author[:80]}" if author else ""
    return f"Keke AI Competition level {keke_id[:40]}{by}."


def _pack(levels: list[dict[str, Any]], pack_id: str, name: str, source: str) -> dict[str, Any]:
    """A pack document holding ``levels``, with a palette for every noun they use."""
    nouns = set()
    for level in levels:
        for entry in level["legend"].values():
            nouns.add(entry if isinstance(entry, str) else entry["word"])
    palette = {noun: PALETTE[noun] for noun in PALETTE if noun in nouns}
    description = (
        f"Converted from {source} of the Keke AI Competition "
        "(github.com/MasterMilkX/KekeCompetition, MIT licence). KILL reads as DEFEAT."
    )
    return {
        "manifest": {
            "id": pack_id,
            "name": name[:MAX_NAME_LENGTH],
            "version": "1.0.0",
            "engine": 1,
            "features": [FEATURE],
            "author": "Keke AI Competition level authors",
            "description": description,
        },
        "palette": palette,
        "levels": levels,
    }


_LEVEL_PLACE: Final = re.compile(r"levels\[(\d+)\]")


def _drop_what_miau_refuses(
    levels: list[dict[str, Any]], keke_ids: list[str], pack_id: str, name: str, source: str
) -> tuple[list[dict[str, Any]], list[str], list[Skipped]]:
    """Leave out the levels the pack loader finds an error in, each with the loader's messages.

    The converter checks what it knows about; the loader is the judge of the
    rest (sizes, limits, the features this build knows), so no pack this
    returns fails to load.
    """
    errors: dict[int, list[str]] = {}
    whole: list[str] = []
    for start in range(0, len(levels), MAX_PACK_LEVELS):
        document = _pack(levels[start : start + MAX_PACK_LEVELS], pack_id, name, source)
        for issue in validate_pack(document):
            if issue.severity != "error":
                continue
            match = _LEVEL_PLACE.match(issue.place or "")
            if match is None:
                whole.append(str(issue))
            else:
                # The place is in the converted pack; the Keke id says which level it is.
                errors.setdefault(start + int(match.group(1)), []).append(f"Miau: {issue}")
    if whole:
        # A problem with the pack as a whole (an unknown feature, say) refuses every level.
        return [], [], [Skipped(keke_id, tuple(whole)) for keke_id in keke_ids]
    kept = [i for i in range(len(levels)) if i not in errors]
    refused = [Skipped(keke_ids[i], tuple(errors[i])) for i in sorted(errors)]
    return [levels[i] for i in kept], [keke_ids[i] for i in kept], refused


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """How a converted level's stored Keke solution plays in Miau.

    Keke counts a move that moves nothing as a turn (its MOVE things still
    step); Miau refuses such a move and nothing happens. ``won_as_waits``
    says whether the solution wins when every move Miau refuses is played
    as a wait instead, which is what that move meant in Keke.
    """

    level_id: str
    moves: int
    refused: int
    won: bool
    won_at: int | None
    won_as_waits: bool

    def describe(self) -> str:
        """One line: the level and whether Keke's solution wins here."""
        if self.won:
            early = f" (after {self.won_at} of {self.moves})" if self.won_at != self.moves else ""
            return f"{self.level_id}: wins{early}"
        refused = f", {self.refused} of its moves refused" if self.refused else ""
        if self.won_as_waits:
            return f"{self.level_id}: does not win{refused}; wins with them played as waits"
        return f"{self.level_id}: does not win in {self.moves} moves{refused}"


def replay_solutions(pack_document: Mapping[str, Any]) -> list[ReplayResult]:
    """Play each level's stored solution of a converted pack in Miau and say whether it wins."""
    pack = load_pack(dict(pack_document))
    results = []
    for level in pack.levels:
        if not level.solution:
            continue
        game, as_waits = Game(level.data), Game(level.data)
        refused = 0
        won_at = None
        for number, letter in enumerate(level.solution, start=1):
            if not game.won:
                refused += not game.play(letter)[0].accepted
                won_at = number if game.won else None
            if not as_waits.won and not as_waits.play(letter)[0].accepted:
                as_waits.play(WAIT.letter)
        result = ReplayResult(
            level.id, len(level.solution), refused, game.won, won_at, as_waits.won
        )
        results.append(result)
    return results


def add_parser(subparsers: Any) -> None:
    """Register ``miau import keke``."""
    parser = subparsers.add_parser(
        "import",
        help="convert levels from another game into a Miau pack",
        description="Convert levels from another game into Miau packs.",
    )
    formats = parser.add_subparsers(dest="format", required=True, metavar="FORMAT")
    keke = formats.add_parser(
        "keke",
        help="a Keke AI Competition level set (JSON, ASCII maps)",
        description=(
            "Convert a Keke AI Competition level set (JSON with ASCII maps and u d l r s "
            "solutions) into a Miau pack with the vocabulary-1 feature. KILL reads as "
            "DEFEAT. A set of more than 64 levels becomes several packs, OUT-1.json, "
            "OUT-2.json, ... Levels that cannot be converted are listed on stderr."
        ),
    )
    keke.add_argument("file", type=Path, help="the Keke level set (.json)")
    keke.add_argument("-o", "--output", type=Path, help="the pack to write (default: stdout)")
    keke.add_argument("--id", dest="pack_id", help="the pack id (default: keke- and the file name)")
    keke.add_argument("--name", help="the pack name (default: Keke and the file name)")
    keke.add_argument("--levels", help="only these Keke level ids, comma-separated")
    keke.add_argument(
        "--replay",
        action="store_true",
        help="play each stored Keke solution in Miau and report which ones win",
    )
    keke.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Convert the file; exit 0 when at least one level was converted, 1 when none, 2 on bad input."""
    try:
        document = json.loads(args.file.read_text(encoding="utf-8-sig"))
        stem = args.file.stem
        pack_id = args.pack_id or _default_pack_id(stem)
        only = [part.strip() for part in args.levels.split(",")] if args.levels else None
        conversion = convert_keke(
            document,
            pack_id=pack_id,
            name=args.name or f"Keke {stem}",
            source=args.file.name,
            only=only,
        )
    except (OSError, ValueError) as error:
        print(f"miau import keke: {error}", file=sys.stderr)
        return 2
    for skipped in conversion.skipped:
        print(skipped, file=sys.stderr)
    if not conversion.packs:
        print("miau import keke: no level could be converted", file=sys.stderr)
        return 1
    parts = len(conversion.packs)
    split = (
        f"a pack holds at most {MAX_PACK_LEVELS} levels, so the {conversion.level_count} "
        f"levels become {parts} packs"
    )
    if args.output is None and parts > 1:
        print(f"miau import keke: {split}: choose a file with -o", file=sys.stderr)
        return 2
    outputs = _outputs(args.output, parts)
    if args.output is not None and not args.output.parent.is_dir():
        print(
            f"miau import keke: cannot write {args.output}: the folder "
            f"{args.output.parent} does not exist",
            file=sys.stderr,
        )
        return 2
    for pack, path in zip(conversion.packs, outputs, strict=True):
        text = json.dumps(pack, indent=2, ensure_ascii=False) + "\n"
        if path is None:
            sys.stdout.write(text)
            continue
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            print(f"miau import keke: cannot write {path}: {error.strerror}", file=sys.stderr)
            return 2
    summary = (
        f"converted {conversion.level_count} levels into {parts} pack(s); "
        f"skipped {len(conversion.skipped)}"
    )
    if args.output is not None:
        # Say where the levels went: with several parts, none of them is the -o name itself.
        summary += "; written to " + ", ".join(str(path) for path in outputs)
    print(summary, file=sys.stderr)
    if parts > 1:
        names = ", ".join(str(path) for path in outputs)
        print(f"{split}: {names} (in place of {args.output})", file=sys.stderr)
    if args.replay:
        results = [result for pack in conversion.packs for result in replay_solutions(pack)]
        for result in results:
            print(result.describe(), file=sys.stderr)
        won = sum(result.won for result in results)
        as_waits = sum(result.won_as_waits and not result.won for result in results)
        print(
            f"Keke solutions that win in Miau: {won} of {len(results)}; "
            f"{as_waits} more win with the moves Miau refuses played as waits",
            file=sys.stderr,
        )
    return 0


def _default_pack_id(stem: str) -> str:
    slug = re.sub(r"[^a-z0-9._-]+", "-", stem.lower()).strip("-._")
    return f"keke-{slug}"[:64] if slug else "keke"


def _outputs(path: Path | None, count: int) -> list[Path | None]:
    """Where each pack goes: the one file, or ``STEM-1.json``, ``STEM-2.json`` ... for parts."""
    if path is None or count == 1:
        return [path] * count
    return [path.with_name(f"{path.stem}-{part}{path.suffix}") for part in range(1, count + 1)]
