"""The words panel states every contact rule the board's words bring into play, in the real page.

What it says is the engine's own record (``miau.engine.vocabulary.CONTACTS``,
whose sentences ``tests/engine/vocabulary/test_contact_sentences.py`` plays
out on the engine): the panel is checked against that record, so a card can
neither drift from the engine nor leave a case out. Each test that takes
``game_url`` runs on the server and on the static site (the engine in the page).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from miau.engine.vocabulary import CONTACT_MEETING, CONTACTS, HOT, MELT, OPEN, SHUT, SINK, Contact
from tests.browser.game_page import GamePage
from tests.support.local import UNLOCK_ALL, LocalServer

pytestmark = pytest.mark.browser

CONTACT_OF = {contact.words: contact for contact in CONTACTS}


def expect_the_whole_contact(page: Page, contact: Contact) -> None:
    """The card of ``contact`` is on show with each of its sentences, each in its own part."""
    card = page.locator(f".words-panel .contact-entry[data-words='{' '.join(contact.words)}']")
    expect(card).to_be_visible()
    parts = {"meeting": contact.meeting, "entering": contact.entering, "itself": contact.itself}
    for part, sentence in parts.items():
        shown = card.locator(f".contact-sentence[data-part='{part}']")
        if sentence is None:
            expect(shown).to_have_count(0)
        else:
            expect(shown).to_have_text(sentence)


def test_open_and_shut_states_that_a_thing_both_open_and_shut_destroys_itself(
    page: Page, game_url: str
) -> None:
    game = GamePage(page, game_url)
    game.open_level("deep-end", "open-and-shut")

    open_shut = CONTACT_OF[OPEN, SHUT]
    expect_the_whole_contact(page, open_shut)
    itself = page.locator(".contact-entry[data-words='OPEN SHUT'] [data-part='itself']")
    expect(itself).to_have_text("A thing that is both OPEN and SHUT destroys itself.")
    expect(page.locator(".words-panel .contacts-rule")).to_have_text(CONTACT_MEETING)


@pytest.mark.parametrize(
    ("pack", "level", "words"),
    [("lexicon", "thaw", (HOT, MELT)), ("tutorial", "sink-the-rock", (SINK,))],
)
def test_a_level_with_hot_and_melt_or_sink_states_what_their_meeting_does(
    page: Page, game_url: str, pack: str, level: str, words: tuple[str, ...]
) -> None:
    game = GamePage(page, game_url)
    game.open_level(pack, level)

    expect_the_whole_contact(page, CONTACT_OF[words])
    if words == (HOT, MELT):
        itself = page.locator(".contact-entry[data-words='HOT MELT'] [data-part='itself']")
        expect(itself).to_have_text("A thing that is both HOT and MELT melts itself.")
    # Only the contacts of words on this board: no card for OPEN and SHUT here.
    expect(page.locator(".contact-entry[data-words='OPEN SHUT']")).to_have_count(0)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_init_script(UNLOCK_ALL)
    yield context.new_page()
    context.close()


def test_on_a_phone_the_contact_of_new_words_pops_up_with_its_case_of_one_thing(
    phone: Page, live_server: LocalServer
) -> None:
    """Below the fold the panel goes unread: a new word's contact comes as a notice too."""
    game = GamePage(phone, live_server.url)
    game.open_level("deep-end", "open-and-shut")

    notice = phone.locator(".toast", has_text="When things meet")
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text(CONTACT_OF[OPEN, SHUT].itself or "")
