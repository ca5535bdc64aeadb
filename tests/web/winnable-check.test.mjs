// "Can I still win?"'s one line: the host's sentence when it sends one, and
// otherwise a sentence from the verdict that never names a move.

import assert from "node:assert/strict";
import { test } from "node:test";

import { answerText } from "../../src/miau/web/js/play/winnable-check.js";

test("the host's own sentence is the line", () => {
  const reply = { verdict: "not-winnable", undosBack: 3, message: "Not winnable any more: undo 3 moves to get back." };
  assert.equal(answerText(reply), "Not winnable any more: undo 3 moves to get back.");
});

test("without a sentence, the verdict and the undo count make one", () => {
  assert.equal(answerText({ verdict: "winnable" }), "Still winnable.");
  assert.equal(answerText({ verdict: "winnable", won: true }), "Already won.");
  assert.equal(answerText({ verdict: "not-winnable", undosBack: 1 }), "Not winnable any more: undo 1 move to get back.");
  assert.equal(answerText({ verdict: "not-winnable", undosBack: 4 }), "Not winnable any more: undo 4 moves to get back.");
  assert.equal(answerText({ verdict: "not-winnable", undosBack: null }), "Not winnable any more: restart to try again.");
  assert.equal(answerText({ verdict: "unknown" }), "Too large to tell.");
});
