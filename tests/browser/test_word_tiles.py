"""Board words stay whole: one line each, inside its tile, at every width from 320 px up, on both hosts.

A word broken over two lines ("MI" over "AU") reads as two words. Each
level here holds the longest words the shipped worlds use (DEFEAT, LONELY,
FACING, WATER, MOUSE); each is opened at each width, and every word tile's
text is read back from the page as drawn: its lines (the tops of its text
boxes), its width after any squeeze (word-fit.js), and its size.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.game_page import GamePage

pytestmark = pytest.mark.browser

LEVELS = (
    ("tutorial", "first-steps"),
    ("tutorial", "skull-gate"),
    ("deep-end", "heirloom"),
    ("lexicon", "company"),
    ("lexicon", "eye-contact"),
    ("clockwork-pairs", "let-the-mouse-in"),
)
WIDTHS = ((320, 640), (390, 844), (600, 900), (1024, 768), (1280, 800))

MIN_TEXT_PX = 11.0

WORDS_AS_DRAWN = """() => [...document.querySelectorAll('.board > .entity.word-tile')].map((tile) => {
  const face = tile.querySelector('.face');
  const walker = document.createTreeWalker(face, NodeFilter.SHOW_TEXT);
  const tops = new Set();
  let left = Infinity, right = -Infinity, text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    text += node.textContent;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) {
      tops.add(Math.round(box.top));
      left = Math.min(left, box.left);
      right = Math.max(right, box.right);
    }
  }
  const faceBox = face.getBoundingClientRect();
  return {
    word: tile.dataset.text, text, lines: tops.size,
    overflow: Math.max(faceBox.left - left, right - faceBox.right),
    size: parseFloat(getComputedStyle(face).fontSize),
  };
})"""


def test_every_word_is_one_line_inside_its_tile_at_every_width(page: Page, game_url: str) -> None:
    game = GamePage(page, game_url)
    broken: dict[str, list[str]] = {}
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        for pack, level in LEVELS:
            game.open_level(pack, level)
            page.wait_for_timeout(50)  # the board refits to the new width on its resize observer
            for word in page.evaluate(WORDS_AS_DRAWN):
                faults = []
                if word["text"] != word["word"]:
                    faults.append(f"reads {word['text']!r}")
                if word["lines"] != 1:
                    faults.append(f"{word['lines']} lines")
                if word["overflow"] > 0.5:
                    faults.append(f"{word['overflow']:.1f} px past its tile")
                if word["size"] < MIN_TEXT_PX:
                    faults.append(f"{word['size']} px")
                if faults:
                    broken.setdefault(f"{width}px {pack}/{level}", []).append(
                        f"{word['word']}: {', '.join(faults)}"
                    )
    assert broken == {}
