"""The client's copy of the engine's word tables (``web/js/vocabulary.js``) is the engine's.

With ``tests/web/client_tables.test.mjs`` (the client covers every entry),
this is the parity check between the engine and the client: a cause,
property, move letter or glossary entry added to the vocabulary without
writing the client's tables again (``python -m miau.engine.client_tables``)
fails here.
"""

from __future__ import annotations

import miau.engine.vocabulary as vocabulary
from miau.engine.client_tables import CLIENT_TABLES_PATH, client_tables, render_client_tables
from miau.packs.format import ACCENTS


def test_the_clients_word_tables_are_the_ones_the_vocabulary_gives_now() -> None:
    committed = CLIENT_TABLES_PATH.read_text(encoding="utf-8")
    assert committed == render_client_tables(), (
        "web/js/vocabulary.js is stale: run python -m miau.engine.client_tables"
    )


def test_every_destroy_cause_the_vocabulary_names_is_in_the_clients_table() -> None:
    causes = {value for name, value in vars(vocabulary).items() if name.endswith("_CAUSE")}
    assert causes == set(client_tables()["DESTROY_CAUSES"])


def test_every_built_in_property_has_a_glossary_entry_with_an_accent_of_its_own() -> None:
    glossary = client_tables()["GLOSSARY"]
    assert set(glossary) == set(vocabulary.TIER1_PROPERTIES)
    for word, entry in glossary.items():
        assert entry["accent"] in ACCENTS, word
        assert entry["accent"] == word.lower(), word
        assert entry["describe"].endswith("."), word


def test_the_packs_accents_are_the_clients_accents() -> None:
    assert list(ACCENTS) == client_tables()["ACCENTS"] == list(vocabulary.ACCENTS)


def test_every_intent_of_the_move_alphabet_has_its_letter_in_the_clients_table() -> None:
    letters = client_tables()["MOVE_LETTERS"]
    assert letters == {direction.name: direction.letter for direction in vocabulary.MOVE_ALPHABET}
