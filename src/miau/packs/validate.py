"""Check a whole pack document and, when it is sound, build the :class:`Pack`.

This module reads the pack-wide parts (manifest, palette, vocabulary,
glossary) itself, hands each level to :mod:`miau.packs.level`, and the
checks that span levels to :mod:`miau.packs.crosscheck`. It never raises
for bad data: every problem becomes an issue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from miau.engine.entity_fields import MISSING
from miau.engine.vocabulary import VOCABULARY_1
from miau.packs.crosscheck import check_across_levels
from miau.packs.format import (
    ACCENTS,
    ENGINE_VERSION,
    FACES,
    GLOSSARY_FIELDS,
    GLYPH_FIELDS,
    KNOWN_FEATURES,
    MANIFEST_FIELDS,
    MAX_DESCRIBE_LENGTH,
    MAX_GLYPH_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PACK_LEVELS,
    PACK_FIELDS,
    PACK_ID_PATTERN,
    VERSION_PATTERN,
)
from miau.packs.issues import IssueLog, Location, PackIssue, render_place
from miau.packs.level import LevelDraft, read_level
from miau.packs.model import GlossaryEntry, Glyph, Manifest, Pack
from miau.packs.reading import (
    FieldReader,
    check_key_token,
    check_string,
    check_token,
    string_keys,
)
from miau.packs.values import describe, integer_text, is_integer, is_record, quote

__all__ = ["check_pack", "validate_pack"]

NEWER_MIAU: Final = "This pack needs a newer Miau."
"""The player's line when a pack asks for more than this build has (Clockwork ask 8)."""

_PACK_ID_WHAT: Final = (
    '2 to 64 characters: a lowercase letter, then lowercase letters, digits, ".", "_" or "-"'
)


def validate_pack(data: object) -> list[PackIssue]:
    """Return every error and warning in a pack document, in document order.

    ``data`` is parsed JSON (or an equivalent mapping); it is never changed.
    Nothing is raised for bad data, whatever its shape.
    """
    issues, _ = check_pack(data)
    return issues


def check_pack(data: object, log: IssueLog | None = None) -> tuple[list[PackIssue], Pack | None]:
    """Check a pack document; return its issues and, if none is an error, the pack.

    ``log`` may already hold problems found while reading the document
    (the loader's duplicate keys); they are sorted in with the rest.
    """
    log = IssueLog() if log is None else log
    if not is_record(data):
        log.error(
            (), f"a pack must be a JSON object with a manifest and levels; found {describe(data)}"
        )
        return log.issues(data), None
    document = FieldReader(log, (), data)
    document.unsupported(PACK_FIELDS)
    manifest, features = _read_manifest(document)
    palette, palette_nouns = _read_palette(document)
    vocabulary = _read_vocabulary(document)
    glossary, glossary_places = _read_glossary(document)
    _check_nouns_against_glossary(log, palette_nouns, vocabulary, glossary_places)
    levels = _read_levels(document, vocabulary=features is not None and VOCABULARY_1 in features)
    check_across_levels(
        log,
        levels,
        features=features,
        known_nouns={*palette_nouns, *(word for word, _ in vocabulary)},
        glossary=glossary_places,
    )
    issues = log.issues(data)
    if log.has_errors or manifest is None:
        return issues, None
    pack = Pack(
        manifest=manifest,
        palette=palette,
        vocabulary=tuple(word for word, _ in vocabulary),
        glossary=glossary,
        levels=tuple(draft.level for draft in levels if draft.level is not None),
        warnings=tuple(issues),
    )
    return issues, pack


def _read_manifest(document: FieldReader) -> tuple[Manifest | None, list[str] | None]:
    """Return the manifest (None if unsound) and its readable features (None if unreadable)."""
    log = document.log
    record = document.record(
        "manifest",
        required=True,
        what="an object with id, name, version and engine",
    )
    if record is None:
        return None, None
    loc: Location = ("manifest",)
    errors_before = log.error_count
    fields = FieldReader(log, loc, record)
    fields.unsupported(MANIFEST_FIELDS)
    pack_id = fields.matching(
        "id", PACK_ID_PATTERN, required=True, what=f"the pack id, {_PACK_ID_WHAT}"
    )
    name = fields.string(
        "name",
        required=True,
        max_length=MAX_NAME_LENGTH,
        what=f"the pack's name, 1 to {MAX_NAME_LENGTH} characters",
    )
    version_what = 'a version MAJOR.MINOR.PATCH such as "1.0.0"'
    version = fields.matching("version", VERSION_PATTERN, required=True, what=version_what)
    _check_engine(fields)
    features = _read_features(fields)
    author = fields.string("author", what="a string", non_blank=False)
    description = fields.string("description", what="a string", non_blank=False)
    if log.error_count != errors_before or pack_id is None or name is None or version is None:
        return None, features
    manifest = Manifest(
        id=pack_id,
        name=name,
        version=version,
        engine=ENGINE_VERSION,
        features=tuple(features),
        author=author,
        description=description,
    )
    return manifest, features


def _check_engine(manifest: FieldReader) -> None:
    engine = manifest.get("engine", required=True, what=str(ENGINE_VERSION))
    if engine is MISSING:
        return
    if is_integer(engine) and engine > ENGINE_VERSION:
        manifest.report(
            "engine",
            f"{NEWER_MIAU} It is written for engine {integer_text(engine)}; "
            f"this build plays engine {ENGINE_VERSION}.",
        )
    elif not is_integer(engine) or engine != ENGINE_VERSION:
        manifest.report("engine", f"must be the integer {ENGINE_VERSION}; found {describe(engine)}")


def _read_features(manifest: FieldReader) -> list[str]:
    """Return the known features listed; unknown ones refuse the pack."""
    names = [quote(feature) for feature in sorted(KNOWN_FEATURES)]
    known, either = " and ".join(names), " or ".join(names)
    items = manifest.array("features", what='an array of feature names, such as ["automata"]')
    log = manifest.log
    features: list[str] = []
    first: dict[str, int] = {}
    for index, feature in enumerate(items or ()):
        place = (*manifest.loc, "features", index)
        if not isinstance(feature, str):
            log.error(place, f"must be a feature name such as {either}; found {describe(feature)}")
        elif feature in first:
            log.error(
                place, f"repeats {quote(feature)} (first at manifest.features[{first[feature]}])"
            )
        elif feature not in KNOWN_FEATURES:
            first[feature] = index
            log.error(
                place,
                f"{NEWER_MIAU} It uses the feature {quote(feature)}, which this build "
                f"does not know (it knows {known}).",
            )
        else:
            first[feature] = index
            features.append(feature)
    return features


def _read_palette(document: FieldReader) -> tuple[dict[str, Glyph], list[str]]:
    """Return the sound entries, and every well-formed noun (its glyph may be wrong)."""
    log = document.log
    record = document.record(
        "palette", what='an object mapping nouns to glyphs, such as {"WALL": "🧱"}'
    )
    palette: dict[str, Glyph] = {}
    nouns: list[str] = []
    for noun, value in string_keys(log, ("palette",), record or {}):
        loc: Location = ("palette", noun)
        noun_ok = check_key_token(log, loc, noun, role="noun", what='a noun such as "WALL"')
        if noun_ok:
            nouns.append(noun)
        glyph = _read_glyph(log, loc, value)
        if noun_ok and glyph is not None:
            palette[noun] = glyph
    return palette, nouns


def _read_glyph(log: IssueLog, loc: Location, value: object) -> Glyph | None:
    what = f"a glyph of 1 to {MAX_GLYPH_LENGTH} characters, such as an emoji"
    if isinstance(value, str):
        glyph = check_string(log, loc, value, what=what, max_length=MAX_GLYPH_LENGTH)
        return None if glyph is None else Glyph(glyph)
    if not is_record(value):
        log.error(
            loc,
            'must be a glyph such as "🧱" or {"glyph": "🐈", "faces": "left"}; '
            f"found {describe(value)}",
        )
        return None
    errors_before = log.error_count
    fields = FieldReader(log, loc, value)
    fields.unsupported(GLYPH_FIELDS)
    glyph = fields.string("glyph", required=True, what=what, max_length=MAX_GLYPH_LENGTH)
    faces = fields.choice("faces", FACES)
    if glyph is None or log.error_count != errors_before:
        return None
    return Glyph(glyph, faces)


def _read_vocabulary(document: FieldReader) -> list[tuple[str, Location]]:
    """Return each distinct noun of the vocabulary with its place."""
    log = document.log
    items = document.array("vocabulary", what='an array of nouns, such as ["WALL", "ROCK"]')
    words: list[tuple[str, Location]] = []
    first: dict[str, Location] = {}
    for index, value in enumerate(items or ()):
        loc: Location = ("vocabulary", index)
        word = check_token(log, loc, value, role="noun", what='a noun such as "WALL"')
        if word is None:
            continue
        if word in first:
            log.error(loc, f"repeats {word} (first at {render_place(first[word])})")
            continue
        first[word] = loc
        words.append((word, loc))
    return words


def _read_glossary(
    document: FieldReader,
) -> tuple[dict[str, GlossaryEntry], dict[str, Location]]:
    """Return the sound glossary entries, and the place of every well-formed word."""
    log = document.log
    record = document.record(
        "properties",
        what='an object mapping property words to {"accent": ..., "describe": ...}',
    )
    entries: dict[str, GlossaryEntry] = {}
    places: dict[str, Location] = {}
    for word, value in string_keys(log, ("properties",), record or {}):
        loc: Location = ("properties", word)
        word_ok = check_key_token(
            log, loc, word, role="property", what='a property word such as "TICK"'
        )
        if word_ok:
            places[word] = loc
        entry = _read_glossary_entry(log, loc, value)
        if word_ok and entry is not None:
            entries[word] = entry
    return entries, places


def _read_glossary_entry(log: IssueLog, loc: Location, value: object) -> GlossaryEntry | None:
    if not is_record(value):
        log.error(
            loc,
            f'must be an object such as {{"accent": "push", "describe": "Repeats its steps."}}; '
            f"found {describe(value)}",
        )
        return None
    fields = FieldReader(log, loc, value)
    fields.unsupported(GLOSSARY_FIELDS)
    accent = fields.choice("accent", ACCENTS, required=True)
    sentence = fields.string(
        "describe",
        required=True,
        max_length=MAX_DESCRIBE_LENGTH,
        one_line=True,
        what=f"one sentence of at most {MAX_DESCRIBE_LENGTH} characters",
    )
    if accent is None or sentence is None:
        return None
    return GlossaryEntry(accent, sentence)


def _check_nouns_against_glossary(
    log: IssueLog,
    palette: list[str],
    vocabulary: list[tuple[str, Location]],
    glossary: Mapping[str, Location],
) -> None:
    """A glossary word is a property everywhere in the pack, so never a noun."""
    for noun in palette:
        if noun in glossary:
            log.error(
                ("palette", noun),
                f"{noun} is a property in this pack's glossary ({render_place(glossary[noun])}), "
                "so it cannot have a noun's glyph",
            )
    for word, loc in vocabulary:
        if word in glossary:
            log.error(
                loc,
                f"{word} is a property in this pack's glossary ({render_place(glossary[word])}), "
                "so it cannot also be a noun",
            )


def _read_levels(document: FieldReader, *, vocabulary: bool) -> list[LevelDraft]:
    log = document.log
    what = f"an array of 1 to {MAX_PACK_LEVELS} levels"
    items = document.array("levels", what=what, required=True)
    if items is None:
        return []
    if not items:
        log.error(("levels",), "is empty; a pack needs at least one level")
    elif len(items) > MAX_PACK_LEVELS:
        log.error(("levels",), f"has {len(items)} levels; a pack holds at most {MAX_PACK_LEVELS}")
        # The pack is refused already; reading only the levels it may hold keeps
        # the time to say so bounded however long the list (every issue among
        # those is still reported).
        items = items[:MAX_PACK_LEVELS]
    return [
        read_level(log, ("levels", index), raw, vocabulary=vocabulary)
        for index, raw in enumerate(items)
    ]
