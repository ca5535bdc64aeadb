// The client covers every entry of the engine's word tables (vocabulary.js,
// generated from miau.engine.vocabulary): each destroy cause is announced
// and sounded in its own words, each move letter round-trips through the
// controller, each property has an accent.

import assert from "node:assert/strict";
import { test } from "node:test";

import { DESTRUCTION_VERBS } from "../../src/miau/web/js/announce.js";
import { intentOfLetter, letterOf } from "../../src/miau/web/js/controller.js";
import { EFFECT_NAMES, soundsFor } from "../../src/miau/web/js/sound.js";
import {
  CORE_PROPERTY_WORDS,
  DESTROY_CAUSES,
  GLOSSARY,
  MOVE_LETTERS,
  TIER1_PROPERTY_WORDS,
} from "../../src/miau/web/js/vocabulary.js";
import { Vocabulary } from "../../src/miau/web/js/words.js";

const calm = { won: false, controlLost: false };

test("every destroy cause of the engine is announced in words of its own", () => {
  for (const cause of DESTROY_CAUSES) {
    assert.ok(Object.hasOwn(DESTRUCTION_VERBS, cause), `announce.js says nothing for cause ${cause}`);
  }
});

test("every destroy cause of the engine has a sound of its own", () => {
  for (const cause of DESTROY_CAUSES) {
    assert.ok(EFFECT_NAMES.includes(`destroy-${cause}`), `sound.js has no destroy-${cause}`);
    const event = { kind: "step", accepted: true, moved: [], blocked: [], destroyed: [{ cause }] };
    assert.deepEqual(soundsFor(event, calm), [`destroy-${cause}`]);
  }
});

test("every move letter of the engine round-trips through the controller", () => {
  assert.deepEqual(Object.keys(MOVE_LETTERS).sort(), ["down", "left", "right", "up", "wait"]);
  for (const letter of Object.values(MOVE_LETTERS)) {
    const intent = intentOfLetter(letter);
    assert.ok(intent, `the controller does not know the move letter ${letter}`);
    assert.equal(letterOf(intent), letter);
  }
});

test("every property word of the engine has an accent, core and vocabulary-1 alike", () => {
  const level = { properties: [...CORE_PROPERTY_WORDS, ...TIER1_PROPERTY_WORDS] };
  const words = new Vocabulary(level, { glossary: GLOSSARY });
  for (const word of CORE_PROPERTY_WORDS) assert.equal(words.accentOf(word), word.toLowerCase());
  for (const word of TIER1_PROPERTY_WORDS) {
    assert.ok(Object.hasOwn(GLOSSARY, word), `the glossary has no entry for ${word}`);
    assert.equal(words.accentOf(word), GLOSSARY[word].accent, `${word} is not drawn in its glossary accent`);
  }
});
