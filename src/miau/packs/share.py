"""Share links: one level carried as data in a URL, and read back safely.

A share code is ``"1"`` (the format version) followed by base64url without
padding of ``zlib.compress(json, 9)``, where ``json`` is the compact UTF-8
JSON of a one-level pack (see :func:`single_level_pack`). A link is
``{origin}/#/shared/{code}``: the level lives in the URL fragment, so no
server has to store it.

Decoding is bounded and total: the code's length is capped before anything
is decoded, inflation stops at a cap, the JSON is counted (levels, things
and words, map cells, values) and refused past the bounds of a shared level
before the loader sees it, and only then does the pack go through the same
loader as any pack file. The three steps are apart (:func:`inflate_share_code`,
:func:`read_shared_json`, :func:`load_shared_document`), so a server can
pace each by what it will cost before it starts. Every way a code can be wrong ends in
:class:`ShareLinkError`, a plain sentence for a player. A code must also be
exactly what :func:`encode_share_code` writes for its contents, so every
level has one spelling and a changed character is always refused.

Only the standard library is used, so this also runs in Pyodide.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from typing import Any, Final, NamedTuple

from miau.packs.issues import PackError, PackIssue
from miau.packs.load import load_pack
from miau.packs.model import Pack, PackLevel
from miau.packs.sizes import document_size

__all__ = [
    "DEFAULT_SHARE_BASE",
    "MAX_CODE_LENGTH",
    "MAX_INFLATED_BYTES",
    "MAX_SHARED_ENTITIES",
    "MAX_SHARED_VALUES",
    "SHARE_FORMAT_VERSION",
    "SHARE_ROUTE",
    "TOO_BIG_TO_SHARE",
    "InflatedCode",
    "ShareLinkError",
    "ShareTooBigError",
    "SharedDocument",
    "decode_share_code",
    "encode_share_code",
    "inflate_share_code",
    "link_code",
    "load_shared_document",
    "read_shared_json",
    "share_code_for",
    "share_code_from_link",
    "share_content_key",
    "share_link",
    "shared_level_size",
    "single_level_pack",
]

SHARE_FORMAT_VERSION: Final = "1"
"""The first character of every code this build writes and reads."""

MAX_CODE_LENGTH: Final = 8192
"""Longest code accepted, in characters; checked before any decoding."""

MAX_INFLATED_BYTES: Final = 262_144
"""Most bytes a code may inflate to; inflation stops one byte past it."""

SHARE_ROUTE: Final = "#/shared/"
"""The client's hash route for a shared level; the code follows it."""

DEFAULT_SHARE_BASE: Final = "http://127.0.0.1:8765/"
"""Where ``miau play`` serves the game, the default origin of a printed link."""

MAX_SHARED_ENTITIES: Final = 1024
"""The most things and words a shared level may start with: the bound the editor's drafts
have on the server. Deflate makes a link of a few hundred characters out of a board of
4,000 word tiles, whose every turn cost the server about 200 ms."""

MAX_SHARED_VALUES: Final = 16_384
"""The most JSON values (objects, arrays, strings, numbers) a shared level's pack may hold,
counted before it is loaded. A level at :data:`MAX_SHARED_ENTITIES` as the editor writes it
holds about 6,000 (five or six a thing, a few hundred for its rules and glyphs); the loader
takes about 5 microseconds a good value and up to 40 a bad one (each problem is reported), so
past the bound a link is refused unloaded. Deflate packs 16,384 bad values into a few hundred
characters."""

_MAX_LINK_PREFIX: Final = 2048
"""Room for an origin and route in front of a code in a whole link."""

_CODE_ALPHABET: Final = re.compile(r"[A-Za-z0-9_-]+")
_FEATURE_FIELDS: Final = (("automata", "automata"), ("pairs", "pairs"))
"""Each manifest feature and the level data field that needs it."""

_DAMAGED: Final = "This link is damaged: part of it was changed or lost. Copy the whole link again."
_CUT_SHORT: Final = "This link is cut short: its end is missing. Copy the whole link again."


class ShareLinkError(ValueError):
    """A share code or link that cannot be opened.

    ``str()`` is one plain sentence for a player. ``issues`` holds the
    loader's problems (errors and warnings, located like
    ``levels[0].objects[5].x``) when the code unpacked but its pack did not
    load; it is empty otherwise.
    """

    def __init__(self, message: str, issues: Iterable[PackIssue] = ()) -> None:
        self.issues: tuple[PackIssue, ...] = tuple(issues)
        super().__init__(message)

    def __reduce__(self) -> tuple[type[ShareLinkError], tuple[str, tuple[PackIssue, ...]]]:
        return (type(self), (str(self), self.issues))


def single_level_pack(pack: Pack, level_id: str) -> dict[str, Any]:
    """The one-level pack for one level of ``pack``, as pack-format JSON data.

    It keeps the manifest's id, name, version, engine and author, the
    features the level needs, the palette entries and glossary words the
    level uses (as objects or as word tiles), and, as ``vocabulary``, the
    nouns the pack knew only from elsewhere that the level's word tiles
    name, so the level loads alone exactly as it did in its pack.

    :raises LevelNotFoundError: (a ``KeyError``) when the pack has no such level.
    """
    level = pack.level(level_id)
    data = level.data
    object_nouns = [e["noun"] for e in data["objects"] if e["kind"] == "object" and "noun" in e]
    word_texts = [e["text"] for e in data["objects"] if e["kind"] == "word" and "text" in e]
    declared = {record["property"] for record in data["automata"]}
    declared.update(word for pair in data["pairs"] for word in pair["words"])

    used = set(object_nouns) | set(word_texts)
    palette = {noun: glyph.to_json() for noun, glyph in pack.palette.items() if noun in used}
    glossary_used = used | declared
    glossary = {
        word: entry.to_json() for word, entry in pack.glossary.items() if word in glossary_used
    }
    known_here = set(object_nouns) | set(palette)
    known_in_pack = _nouns_known(pack)
    vocabulary: list[str] = []
    for text in word_texts:
        if text in known_in_pack and text not in known_here and text not in declared:
            known_here.add(text)
            vocabulary.append(text)

    manifest: dict[str, Any] = {
        "id": pack.manifest.id,
        "name": pack.manifest.name,
        "version": pack.manifest.version,
        "engine": pack.manifest.engine,
    }
    features = _features_needed(pack.manifest.features, level)
    if features:
        manifest["features"] = features
    if pack.manifest.author is not None:
        manifest["author"] = pack.manifest.author

    out: dict[str, Any] = {"manifest": manifest}
    if palette:
        out["palette"] = palette
    if vocabulary:
        out["vocabulary"] = vocabulary
    if glossary:
        out["properties"] = glossary
    entry = level.to_json()
    # The idea audit's fields speak of the pack the level came from, not of the shared level.
    entry.pop("ideas", None)
    entry.pop("repeats", None)
    out["levels"] = [entry]
    return out


def _nouns_known(pack: Pack) -> set[str]:
    """Every noun the pack knows: palette keys, vocabulary and object nouns of any level."""
    known = set(pack.palette) | set(pack.vocabulary)
    for level in pack.levels:
        known.update(
            e["noun"] for e in level.data["objects"] if e["kind"] == "object" and "noun" in e
        )
    return known


def _features_needed(declared: tuple[str, ...], level: PackLevel) -> list[str]:
    """The features the level uses: the pack's own order first, then any it forgot."""
    needed = {feature for feature, field in _FEATURE_FIELDS if level.data.get(field)}
    # The vocabulary decides what every word means, so a level keeps it whatever it holds.
    needed.update(feature for feature in level.data.get("features", ()) if feature not in needed)
    ordered = [feature for feature in declared if feature in needed]
    ordered.extend(feature for feature, _ in _FEATURE_FIELDS if feature in needed - set(declared))
    return ordered


def _compact_json(document: Mapping[str, Any]) -> bytes:
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8")


def _code_of(raw_json: bytes) -> str:
    stream = zlib.compress(raw_json, 9)
    return SHARE_FORMAT_VERSION + base64.urlsafe_b64encode(stream).rstrip(b"=").decode("ascii")


def encode_share_code(pack_json: Mapping[str, Any]) -> str:
    """The share code of a one-level pack given as pack-format JSON data.

    The pack is not checked here (decoding checks it); a code longer than
    :data:`MAX_CODE_LENGTH` can be written but will not be opened, so
    callers offering a link should refuse one that long.

    :raises ValueError: when ``pack_json`` holds something JSON cannot
        carry (NaN, a lone surrogate).
    :raises TypeError: when it holds something that is not JSON data at all.
    """
    return _code_of(_compact_json(pack_json))


TOO_BIG_TO_SHARE: Final = "This level is too big to share as a link."


class ShareTooBigError(Exception):
    """A level whose link would not open: its code or its JSON is over the limits a link has."""


def link_code(document: Mapping[str, Any]) -> str:
    """The share code of the one-level pack ``document``, refused when no link could carry it.

    What the server's ``POST /api/shared/encode`` and the static site's
    answer: a code that :func:`decode_share_code` will take, or an error.

    :raises ShareTooBigError: when the code is longer than
        :data:`MAX_CODE_LENGTH` or the JSON larger than :data:`MAX_INFLATED_BYTES`.
    :raises ValueError: when ``document`` holds something JSON cannot carry.
    :raises TypeError: when it holds something that is not JSON data at all.
    """
    raw = _compact_json(document)
    code = _code_of(raw)
    if len(code) > MAX_CODE_LENGTH or len(raw) > MAX_INFLATED_BYTES:
        raise ShareTooBigError(TOO_BIG_TO_SHARE)
    return code


def share_code_for(pack: Pack, level_id: str) -> str:
    """The share code of one level of any pack (through :func:`single_level_pack`).

    :raises LevelNotFoundError: (a ``KeyError``) when the pack has no such level.
    """
    return encode_share_code(single_level_pack(pack, level_id))


def share_link(code: str, base: str = DEFAULT_SHARE_BASE) -> str:
    """The link that opens ``code`` in the game served at ``base`` (an origin or URL)."""
    return f"{base.split('#', 1)[0].rstrip('/')}/{SHARE_ROUTE}{code}"


def share_content_key(pack: Pack) -> str:
    """A stable id for a shared level's content: ``"share-"`` and 16 hex digits.

    Two packs with equal content get the same key, whichever spelling of a
    link brought them, so a shared level's game resumes after a reload.
    """
    canonical = json.dumps(
        pack.to_json(), separators=(",", ":"), ensure_ascii=False, sort_keys=True
    ).encode("utf-8")
    return "share-" + hashlib.sha256(canonical).hexdigest()[:16]


def share_code_from_link(link: str) -> str:
    """The code in a bare code or in anything ending in one (a whole link, ``#/shared/CODE``).

    Surrounding whitespace is ignored; the code is what follows the last
    ``/`` or ``#``. Nothing is checked but the length.

    :raises ShareLinkError: when the text is too long to hold a code.
    """
    if len(link) > MAX_CODE_LENGTH + _MAX_LINK_PREFIX:
        raise ShareLinkError(_too_long(len(link)))
    text = link.strip()
    code = text[max(text.rfind("/"), text.rfind("#")) + 1 :]
    if len(code) > MAX_CODE_LENGTH:
        raise ShareLinkError(_too_long(len(code)))
    return code


def _too_long(length: int) -> str:
    return (
        f"This link is too long to be a Miau level: it has {length:,} characters, "
        f"and a level link has at most {MAX_CODE_LENGTH:,}."
    )


class InflatedCode(NamedTuple):
    """A share code and the JSON bytes it inflated to (at most :data:`MAX_INFLATED_BYTES`)."""

    code: str
    raw: bytes


class SharedDocument(NamedTuple):
    """A shared level's pack as JSON data, read and counted but not loaded."""

    document: dict[str, Any]
    cost: int
    """What loading it will cost (:attr:`miau.packs.sizes.DocumentSize.cost`)."""


def decode_share_code(code: str) -> Pack:
    """The one-level pack a share code (or a whole link ending in one) carries.

    Bounded and total: the length is checked before decoding, inflation
    stops at :data:`MAX_INFLATED_BYTES`, the JSON is counted and refused
    past the bounds of a shared level before the loader sees it, and then
    the contents go through the pack loader. The code must be exactly the
    one :func:`encode_share_code` writes for what it carries.

    :raises ShareLinkError: for anything that is not such a code, and for
        nothing else; with ``issues`` when the pack loader refused it.
    """
    return load_shared_document(read_shared_json(inflate_share_code(code)).document)


def inflate_share_code(code: str) -> InflatedCode:
    """The first step of :func:`decode_share_code`: the code's JSON bytes, not yet read.

    Cheap whatever the code: its length is capped, and inflation stops one
    byte past :data:`MAX_INFLATED_BYTES`.

    :raises ShareLinkError: when the text holds no code, or a damaged or
        oversized one.
    """
    bare = share_code_from_link(code)
    if not bare:
        raise ShareLinkError("This link holds no level: the code after “#/shared/” is missing.")
    version, payload = bare[0], bare[1:]
    if version != SHARE_FORMAT_VERSION:
        if "0" <= version <= "9":
            raise ShareLinkError(
                f"This link was made by a newer Miau (link format {version}); "
                "update Miau to open it."
            )
        raise ShareLinkError("This is not a Miau level link: its code has an unknown format.")
    if not _CODE_ALPHABET.fullmatch(bare):
        bad = next(char for char in bare if not _CODE_ALPHABET.fullmatch(char))
        raise ShareLinkError(
            f"This link is damaged: it contains “{bad}”, which no level code contains."
        )
    return InflatedCode(bare, _inflate(_unbase64(payload)))


def read_shared_json(inflated: InflatedCode) -> SharedDocument:
    """The second step of :func:`decode_share_code`: the JSON read, counted and checked, not loaded.

    Its cost grows with ``len(inflated.raw)`` (about a millisecond for
    every 16 KiB). A document of more than one level, more things and words
    than :data:`MAX_SHARED_ENTITIES` or more values than
    :data:`MAX_SHARED_VALUES` is refused here, before any loading; so is a
    code that is not exactly the one :func:`encode_share_code` writes.

    :raises ShareLinkError: as :func:`decode_share_code` does, never with ``issues``.
    """
    document = _parse(inflated.raw)
    size = shared_level_size(document)
    # One spelling per level: anything the encoder would not have written
    # (changed padding bits, another deflate, spaces in the JSON) is refused.
    if not _is_canonical(document, inflated.raw, inflated.code):
        raise ShareLinkError(_DAMAGED)
    return SharedDocument(document, size)


def shared_level_size(document: dict[str, Any]) -> int:
    """What loading the one-level pack ``document`` will cost, once it is known to fit a link.

    Counted on the JSON: a document of more than one level, more things and
    words (map cells included) than :data:`MAX_SHARED_ENTITIES`, or more
    JSON values than :data:`MAX_SHARED_VALUES` is refused, however many
    other problems it has; the count of values stops past its bound.

    :raises ShareLinkError: saying which bound it passes.
    """
    size = document_size(document, MAX_SHARED_VALUES)
    if size.levels is not None and size.levels > 1:
        raise ShareLinkError(_too_many_levels(size.levels))
    if size.entities > MAX_SHARED_ENTITIES:
        raise ShareLinkError(_too_many_entities(size.entities))
    if size.values > MAX_SHARED_VALUES:
        raise ShareLinkError(
            f"This shared level is too big to read: it is made of more than "
            f"{MAX_SHARED_VALUES:,} values, and a shared level needs far fewer."
        )
    return size.cost


def load_shared_document(document: dict[str, Any]) -> Pack:
    """The last step of :func:`decode_share_code`: a read document through the pack loader.

    :raises ShareLinkError: with ``issues`` when the loader refuses it; for
        a pack of other than one level, or one past the entity bound.
    """
    try:
        pack = load_pack(document)
    except PackError as error:
        count = len(error.errors)
        problems = "1 problem" if count == 1 else f"{count:,} problems"
        raise ShareLinkError(
            f"This shared level cannot be played: it has {problems}.", error.issues
        ) from None
    if len(pack.levels) != 1:
        raise ShareLinkError(_too_many_levels(len(pack.levels)))
    entities = len(pack.levels[0].data.get("objects", ()))
    if entities > MAX_SHARED_ENTITIES:
        raise ShareLinkError(_too_many_entities(entities))
    return pack


def _too_many_levels(count: int) -> str:
    return f"This link holds {count} levels, and a shared level link holds exactly one."


def _too_many_entities(count: int) -> str:
    return (
        f"This shared level is too big to play: it has {count:,} things and words, "
        f"and a shared level holds at most {MAX_SHARED_ENTITIES:,}."
    )


def _unbase64(payload: str) -> bytes:
    if len(payload) % 4 == 1:
        # No byte string encodes to this length: a character was lost.
        raise ShareLinkError(_CUT_SHORT)
    padded = payload + "=" * (-len(payload) % 4)
    try:
        stream = base64.b64decode(padded, altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise ShareLinkError(_DAMAGED) from None
    if base64.urlsafe_b64encode(stream).rstrip(b"=").decode("ascii") != payload:
        raise ShareLinkError(_DAMAGED)
    return stream


def _inflate(stream: bytes) -> bytes:
    inflater = zlib.decompressobj()
    try:
        # The cap goes to zlib itself, so a bomb never inflates past it.
        raw = inflater.decompress(stream, MAX_INFLATED_BYTES + 1)
    except zlib.error:
        raise ShareLinkError(_DAMAGED) from None
    if len(raw) > MAX_INFLATED_BYTES:
        raise ShareLinkError(
            f"This link's level is too big: it unpacks to more than {MAX_INFLATED_BYTES:,} bytes."
        )
    if not inflater.eof:
        raise ShareLinkError(_CUT_SHORT)
    if inflater.unused_data:
        raise ShareLinkError(_DAMAGED)
    return raw


def _is_canonical(document: dict[str, Any], raw: bytes, code: str) -> bool:
    try:
        compact = _compact_json(document)
    except (ValueError, RecursionError):
        # NaN or Infinity: the encoder never writes them.
        return False
    return compact == raw and _code_of(raw) == code


def _parse(raw: bytes) -> dict[str, Any]:
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # ValueError covers bad JSON and integers too long to convert.
        raise ShareLinkError(
            "This link is damaged: the level it carries is not readable JSON text."
        ) from None
    if not isinstance(document, dict):
        raise ShareLinkError("This link does not hold a level pack.")
    return document
