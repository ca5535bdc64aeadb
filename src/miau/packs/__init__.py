"""Miau packs: the JSON format for worlds of levels, and its loader.

A pack is data only. :func:`load_pack` reads one, collects every problem
before deciding, and either returns a :class:`Pack` (perhaps with warnings)
or raises :class:`PackError` listing them all. :func:`validate_pack` reports
the same problems without raising. The format is described in
``docs/packs.md`` and ``schema/pack.schema.json``.

Only the standard library is used, so the loader also runs in Pyodide.
"""

from miau.packs.format import KNOWN_FEATURES
from miau.packs.issues import PackError, PackIssue, Severity
from miau.packs.load import load_pack, load_pack_or_level, load_pack_text
from miau.packs.maps import expand_map
from miau.packs.model import (
    AutomatonData,
    EntityData,
    GlossaryEntry,
    Glyph,
    LevelData,
    LevelNotFoundError,
    Manifest,
    Pack,
    PackLevel,
    PairData,
    StepData,
)
from miau.packs.share import (
    MAX_CODE_LENGTH,
    MAX_INFLATED_BYTES,
    ShareLinkError,
    decode_share_code,
    encode_share_code,
    share_code_for,
    share_content_key,
    single_level_pack,
)
from miau.packs.validate import validate_pack

__all__ = [
    "KNOWN_FEATURES",
    "MAX_CODE_LENGTH",
    "MAX_INFLATED_BYTES",
    "AutomatonData",
    "EntityData",
    "GlossaryEntry",
    "Glyph",
    "LevelData",
    "LevelNotFoundError",
    "Manifest",
    "Pack",
    "PackError",
    "PackIssue",
    "PackLevel",
    "PairData",
    "Severity",
    "ShareLinkError",
    "StepData",
    "decode_share_code",
    "encode_share_code",
    "expand_map",
    "load_pack",
    "load_pack_or_level",
    "load_pack_text",
    "share_code_for",
    "share_content_key",
    "single_level_pack",
    "validate_pack",
]
