// How a board word's text fits its tile (word-fit.js): one line, never under the smallest size.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MIN_SQUEEZE, TEXT_CAP, TEXT_FIT_TIGHT, tileForWord, wordFit } from "../../src/miau/web/js/word-fit.js";

const MIN_TEXT = 11;
const DEFEAT = 3.8; // about DEFEAT's width in em in a bold sans

test("a short word on a roomy tile is as tall as the cap allows, unsqueezed", () => {
  const { size, squeeze } = wordFit(1.0, 96, MIN_TEXT);
  assert.equal(size, 96 * TEXT_CAP);
  assert.equal(squeeze, 1);
});

test("a long word on a roomy tile shrinks to fit its width, unsqueezed", () => {
  const { size, squeeze } = wordFit(DEFEAT, 96, MIN_TEXT);
  assert.ok(size < 96 * TEXT_CAP && size >= MIN_TEXT);
  assert.ok(size * DEFEAT <= 96);
  assert.equal(squeeze, 1);
});

test("a long word on a small tile keeps the smallest size and is drawn narrower to fit", () => {
  const tile = tileForWord(DEFEAT, MIN_TEXT);
  const { size, squeeze } = wordFit(DEFEAT, tile, MIN_TEXT);
  assert.equal(size, MIN_TEXT);
  assert.ok(squeeze < 1 && squeeze >= MIN_SQUEEZE);
  assert.ok(size * DEFEAT * squeeze <= tile * TEXT_FIT_TIGHT + 1e-9);
});

test("the smallest tile for a word is the first on which it needs no more squeeze than allowed", () => {
  for (const advance of [0.6, 1.4, 2.5, DEFEAT, 5.5]) {
    const tile = tileForWord(advance, MIN_TEXT);
    assert.ok(wordFit(advance, tile, MIN_TEXT).squeeze >= MIN_SQUEEZE - 1e-9, `advance ${advance}`);
    assert.ok(wordFit(advance, tile, MIN_TEXT).size >= MIN_TEXT - 1e-9, `advance ${advance}`);
    const smaller = wordFit(advance, tile - 1, MIN_TEXT);
    assert.ok(smaller.squeeze < MIN_SQUEEZE || smaller.size < MIN_TEXT, `advance ${advance}`);
  }
});
