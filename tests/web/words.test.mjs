// Word classes come from the level: its properties and operators as the
// server lists them, not from lists the client keeps.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Vocabulary } from "../../src/miau/web/js/words.js";

test("a level's listed properties and operators decide each word's class", () => {
  const level = {
    properties: ["YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "HOT", "MELT", "TICK"],
    operators: ["IS", "AND", "NOT", "HAS"],
  };
  const words = new Vocabulary(level, { glossary: { TICK: { accent: "stop", describe: "Ticks." } } });
  assert.equal(words.classOf("HOT"), "property");
  assert.equal(words.classOf("TICK"), "property");
  assert.equal(words.classOf("NOT"), "operator");
  assert.equal(words.classOf("ROCK"), "noun");
  assert.equal(words.accentOf("TICK"), "stop");
  assert.equal(words.accentOf("YOU"), "you");
  assert.equal(words.describe("TICK"), "Ticks.");
});

test("a level without lists (an older server) still knows the core words", () => {
  const words = new Vocabulary({}, {});
  assert.equal(words.classOf("WIN"), "property");
  assert.equal(words.classOf("IS"), "operator");
  assert.equal(words.classOf("NOT"), "noun");
});
