"""Share codes: every level round-trips, and every damaged or hostile code is refused plainly."""

from __future__ import annotations

import base64
import functools
import re
import string
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miau.packs import (
    MAX_CODE_LENGTH,
    MAX_INFLATED_BYTES,
    Pack,
    PackError,
    ShareLinkError,
    decode_share_code,
    encode_share_code,
    load_pack,
    share_code_for,
    share_content_key,
    single_level_pack,
)
from miau.packs.share import share_code_from_link, share_link
from tests.engine.strategies import levels
from tests.packs.strategies import draw_place

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "packs").glob("*.json"))
CODE_ALPHABET = string.ascii_letters + string.digits + "-_"
MEMORY_CAP = 2 * 1024 * 1024


def _shipped_levels() -> Iterator[tuple[Path, str]]:
    for path in SHIPPED:
        for level in load_pack(path).levels:
            yield path, level.id


@functools.cache
def _shipped_codes() -> list[str]:
    return [share_code_for(load_pack(path), level_id) for path, level_id in _shipped_levels()]


@pytest.fixture(scope="module")
def clockwork() -> Pack:
    return load_pack(ROOT / "packs" / "clockwork.json")


@pytest.fixture(scope="module")
def mouse_code(clockwork: Pack) -> str:
    return share_code_for(clockwork, "mouse-keeps-time")


def _code_of_bytes(raw: bytes) -> str:
    return "1" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")


def _stream_of(code: str) -> bytes:
    payload = code[1:]
    return base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))


def _peak_bytes(action: Callable[[], object]) -> int:
    """The most memory ``action`` held at once, refusal included."""
    tracemalloc.start()
    try:
        with pytest.raises(ShareLinkError):
            action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _pack_around(level: dict[str, Any]) -> dict[str, Any]:
    """A pack holding a generated engine level, with palette and glossary entries to spare."""
    features = [name for name in ("automata", "pairs") if level.get(name)]
    return {
        "manifest": {
            "id": "generated",
            "name": "Generated",
            "version": "1.0.0",
            "engine": 1,
            "features": features,
            "author": "hypothesis",
            "description": "not carried by a share link",
        },
        "palette": {"MIAU": {"glyph": "🐈", "faces": "left"}, "ROCK": "🪨", "KEY": "🔑"},
        "vocabulary": ["GHOST"],
        "properties": {
            "TICK": {"accent": "push", "describe": "Repeats its steps."},
            "OPEN": {"accent": "win", "describe": "Opens what is SHUT."},
            "SHUT": {"accent": "stop", "describe": "Is opened by OPEN."},
            "MELT": {"accent": "sink", "describe": "Unused here."},
        },
        "levels": [
            {"id": "generated", "title": "Generated", **level},
            {
                "id": "other",
                "title": "Another",
                "width": 1,
                "height": 1,
                "objects": [{"noun": "FLAG", "x": 0, "y": 0}],
            },
        ],
    }


# Round trips


@pytest.mark.parametrize(("path", "level_id"), list(_shipped_levels()))
def test_every_shipped_level_round_trips_through_its_share_code(path: Path, level_id: str) -> None:
    pack = load_pack(path)
    decoded = decode_share_code(share_code_for(pack, level_id))
    assert decoded == load_pack(single_level_pack(pack, level_id))
    assert decoded.levels[0].data == pack.level(level_id).data
    assert decoded.warnings == ()


@given(levels())
def test_generated_levels_round_trip_through_their_share_codes(level: dict[str, Any]) -> None:
    pack = load_pack(_pack_around(level))
    decoded = decode_share_code(share_code_for(pack, "generated"))
    assert decoded == load_pack(single_level_pack(pack, "generated"))
    assert decoded.levels[0].data == pack.level("generated").data
    assert share_content_key(decoded) == share_content_key(
        load_pack(single_level_pack(pack, "generated"))
    )


def test_the_mouse_keeps_time_link_is_short_enough_to_paste_in_a_chat(mouse_code: str) -> None:
    link = share_link(mouse_code)
    print(f"mouse-keeps-time: code {len(mouse_code)} characters, link {len(link)}")
    assert len(link) < 1500


def test_a_whole_link_or_its_hash_route_opens_like_the_bare_code(mouse_code: str) -> None:
    pack = decode_share_code(mouse_code)
    for text in (
        share_link(mouse_code),
        share_link(mouse_code, "https://miau.example/play/#/title"),
        f"#/shared/{mouse_code}",
        f"  {share_link(mouse_code)}\n",
    ):
        assert decode_share_code(text) == pack
    assert share_link(mouse_code).startswith("http://127.0.0.1:8765/#/shared/1")
    assert share_code_from_link(f"http://host/#/shared/{mouse_code}") == mouse_code


def test_codes_use_only_the_url_safe_alphabet_and_start_with_the_format_version(
    mouse_code: str,
) -> None:
    assert mouse_code[0] == "1"
    assert set(mouse_code) <= set(CODE_ALPHABET)


# The one-level pack


def test_a_one_level_pack_keeps_only_what_its_level_uses(clockwork: Pack) -> None:
    document = single_level_pack(clockwork, "mouse-keeps-time")
    assert list(document) == ["manifest", "palette", "properties", "levels"]
    assert set(document["manifest"]) <= {"id", "name", "version", "engine", "features", "author"}
    assert document["manifest"]["features"] == ["automata"]
    assert set(document["palette"]) == {"MIAU", "MOUSE", "WALL", "BELL"}
    assert set(document["properties"]) == {"TICK"}
    assert [level["id"] for level in document["levels"]] == ["mouse-keeps-time"]


def test_a_word_naming_a_noun_of_another_level_joins_the_vocabulary() -> None:
    manifest = {"id": "keys", "name": "Keys", "version": "1.0.0", "engine": 1}
    pack = load_pack(
        {"manifest": manifest, "levels": [_at_origin({"noun": "KEY"}, "a"), _three_words("b")]}
    )
    document = single_level_pack(pack, "b")
    assert document["vocabulary"] == ["KEY"]
    assert load_pack(document).warnings == ()


def _at_origin(entity: dict[str, Any], level_id: str) -> dict[str, Any]:
    return {
        "id": level_id,
        "title": level_id.upper(),
        "width": 1,
        "height": 1,
        "objects": [{**entity, "x": 0, "y": 0}],
    }


def _three_words(level_id: str) -> dict[str, Any]:
    texts = ("KEY", "IS", "WIN")
    return {
        "id": level_id,
        "title": level_id.upper(),
        "width": 3,
        "height": 1,
        "objects": [{"text": text, "x": x, "y": 0} for x, text in enumerate(texts)],
    }


def test_the_content_key_names_the_content_not_the_spelling(clockwork: Pack) -> None:
    key = share_content_key(decode_share_code(share_code_for(clockwork, "mouse-keeps-time")))
    assert key.startswith("share-")
    assert len(key) == len("share-") + 16
    assert all(char in string.hexdigits.lower() for char in key.removeprefix("share-"))
    assert key == share_content_key(load_pack(single_level_pack(clockwork, "mouse-keeps-time")))
    other = share_content_key(load_pack(single_level_pack(clockwork, clockwork.levels[1].id)))
    assert other != key


# Tampering


def test_every_single_character_change_of_a_real_code_is_refused(mouse_code: str) -> None:
    for position, char in enumerate(mouse_code):
        replacement = CODE_ALPHABET[(CODE_ALPHABET.index(char) + 1) % len(CODE_ALPHABET)]
        tampered = mouse_code[:position] + replacement + mouse_code[position + 1 :]
        with pytest.raises(ShareLinkError):
            decode_share_code(tampered)


def test_every_change_of_the_last_characters_is_refused_even_in_padding_bits(
    mouse_code: str,
) -> None:
    # The end of the deflate stream has padding bits an inflater ignores;
    # only the canonical check catches a change there.
    for position in range(len(mouse_code) - 12, len(mouse_code)):
        for replacement in CODE_ALPHABET.replace(mouse_code[position], ""):
            tampered = mouse_code[:position] + replacement + mouse_code[position + 1 :]
            with pytest.raises(ShareLinkError):
                decode_share_code(tampered)


def test_every_truncation_of_a_real_code_is_refused(mouse_code: str) -> None:
    for length in range(len(mouse_code)):
        with pytest.raises(ShareLinkError):
            decode_share_code(mouse_code[:length])


def test_a_stream_inflating_past_the_cap_is_refused_without_inflating_it() -> None:
    for filler in (b" ", b"a"):
        # As much as fits under the length cap: about 6 MB of JSON whitespace or of "a".
        code = _code_of_bytes(b"{" + filler * 6_000_000 + b"}")
        assert len(code) <= MAX_CODE_LENGTH
        assert _peak_bytes(functools.partial(decode_share_code, code)) < MEMORY_CAP
        with pytest.raises(ShareLinkError, match="too big"):
            decode_share_code(code)


def test_a_ten_megabyte_bomb_is_refused_before_decoding() -> None:
    for filler in (b" ", b"a"):
        code = _code_of_bytes(filler * 10_000_000)
        assert _peak_bytes(functools.partial(decode_share_code, code)) < MEMORY_CAP


def test_a_code_over_the_length_cap_is_refused_before_decoding() -> None:
    too_long = "1" + "A" * 10_000_000
    assert _peak_bytes(lambda: decode_share_code(too_long)) < MEMORY_CAP
    with pytest.raises(ShareLinkError, match="too long"):
        decode_share_code("1" + "A" * MAX_CODE_LENGTH)


def test_a_stream_just_at_the_inflation_cap_is_read_and_one_byte_more_is_not() -> None:
    at_cap = b'{"a":"' + b"x" * (MAX_INFLATED_BYTES - 8) + b'"}'
    assert len(at_cap) == MAX_INFLATED_BYTES
    with pytest.raises(ShareLinkError) as refused:
        decode_share_code(_code_of_bytes(at_cap))
    assert refused.value.issues  # it got as far as the loader
    with pytest.raises(ShareLinkError, match="too big"):
        decode_share_code(_code_of_bytes(at_cap[:-1] + b" }"))


def test_a_valid_stream_holding_a_broken_pack_is_refused_with_located_issues(
    clockwork: Pack,
) -> None:
    document = single_level_pack(clockwork, "mouse-keeps-time")
    document["levels"][0]["objects"][5]["x"] = 99
    with pytest.raises(ShareLinkError) as refused:
        decode_share_code(encode_share_code(document))
    assert "1 problem" in str(refused.value)
    places = [issue.place for issue in refused.value.issues]
    assert "levels[0].objects[5].x" in places
    with pytest.raises(PackError):
        load_pack(document)


def test_a_code_holding_two_levels_is_refused(clockwork: Pack) -> None:
    document = clockwork.to_json()
    document["levels"] = document["levels"][:2]
    load_pack(document)
    with pytest.raises(ShareLinkError, match="2 levels"):
        decode_share_code(encode_share_code(document))


@pytest.mark.parametrize("raw", [b"[]", b'"pack"', b"3", b"null", b"[1,2]"])
def test_json_that_is_not_an_object_is_refused(raw: bytes) -> None:
    with pytest.raises(ShareLinkError, match="does not hold a level pack"):
        decode_share_code(_code_of_bytes(raw))


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"a":', "not JSON"),
        (b"[" * 100_000, "nested past the recursion limit"),
        (b'{"a":NaN}', "not strict JSON"),
        (b'{"a":' + b"9" * 5000 + b"}", "an integer too long to convert"),
        (b'{"a":1,"a":2}', "a repeated key"),
        (b'{ "a":1}', "not compact"),
    ],
)
def test_contents_the_encoder_never_writes_are_refused(raw: bytes, why: str) -> None:
    with pytest.raises(ShareLinkError):
        decode_share_code(_code_of_bytes(raw))


def test_a_differently_deflated_stream_of_the_same_level_is_refused(mouse_code: str) -> None:
    raw = zlib.decompress(_stream_of(mouse_code))
    other = base64.urlsafe_b64encode(zlib.compress(raw, 1)).rstrip(b"=").decode("ascii")
    with pytest.raises(ShareLinkError, match="damaged"):
        decode_share_code("1" + other)


def test_trailing_bytes_after_the_stream_are_refused(mouse_code: str) -> None:
    code = "1" + base64.urlsafe_b64encode(_stream_of(mouse_code) + b"\0\0\0").rstrip(b"=").decode(
        "ascii"
    )
    with pytest.raises(ShareLinkError, match="damaged"):
        decode_share_code(code)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("", "holds no level"),
        ("http://127.0.0.1:8765/#/shared/", "holds no level"),
        ("1eNo+abc", "contains “+”"),
        ("2eNoLAQ", "newer Miau"),
        ("xeNoLAQ", "not a Miau level link"),
        ("1", "cut short"),
        ("1eNo", "cut short"),
    ],
)
def test_a_bad_link_says_what_is_wrong_in_a_sentence(text: str, sentence: str) -> None:
    with pytest.raises(ShareLinkError, match=re.escape(sentence)) as refused:
        decode_share_code(text)
    assert str(refused.value).endswith(".")
    assert refused.value.issues == ()


def test_a_share_link_error_is_a_value_error_that_survives_pickling() -> None:
    import pickle

    error = ShareLinkError("This link is damaged.", ())
    copy = pickle.loads(pickle.dumps(error))
    assert isinstance(copy, ValueError)
    assert str(copy) == "This link is damaged."


# Share-link fuzzing (issue 9)


@given(st.text(max_size=300))
def test_share_link_fuzzing_arbitrary_text_raises_only_share_link_errors(text: str) -> None:
    _decode_or_refuse(text)


@given(st.text(alphabet=CODE_ALPHABET, max_size=300).map(lambda text: "1" + text))
def test_share_link_fuzzing_code_shaped_text_raises_only_share_link_errors(text: str) -> None:
    _decode_or_refuse(text)


@given(st.data())
def test_share_link_fuzzing_mutated_real_codes_raise_only_share_link_errors(
    data: st.DataObject,
) -> None:
    code = data.draw(st.sampled_from(_shipped_codes()))
    chars = list(code)
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(chars) - 1))
        action = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        char = data.draw(st.sampled_from(CODE_ALPHABET) | st.characters())
        if action == "replace":
            chars[position] = char
        elif action == "delete" and len(chars) > 1:
            del chars[position]
        else:
            chars.insert(position, char)
    mutated = "".join(chars)
    if mutated == code:
        return
    try:
        decode_share_code(mutated)
    except ShareLinkError:
        return
    # Only what a link may wrap around its code decodes: surrounding whitespace, or a
    # prefix ending in "/" or "#" (an address); the code itself is unchanged then.
    assert share_code_from_link(mutated) == code, mutated


@st.composite
def _damaged_one_level_packs(draw: st.DrawFn) -> dict[str, Any]:
    """Clockwork's first one-level pack with one value somewhere replaced."""
    document = single_level_pack(load_pack(ROOT / "packs" / "clockwork.json"), "mouse-keeps-time")
    place = draw_place(draw, document)
    if place is not None:
        container, key = place
        container[key] = draw(st.none() | st.integers() | st.text(max_size=8) | st.just([]))
    return document


@given(_damaged_one_level_packs())
def test_share_link_fuzzing_mutated_contents_raise_only_share_link_errors(
    document: dict[str, Any],
) -> None:
    _decode_or_refuse(encode_share_code(document))


def _decode_or_refuse(text: str) -> None:
    try:
        decode_share_code(text)
    except ShareLinkError as error:
        assert str(error)


def test_the_docs_example_link_is_the_current_link_of_mouse_keeps_time(mouse_code: str) -> None:
    docs = (ROOT / "docs" / "packs.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Share links") :]
    assert f"\n{share_link(mouse_code)}\n" in section
    assert f"is {len(share_link(mouse_code))} characters" in section
