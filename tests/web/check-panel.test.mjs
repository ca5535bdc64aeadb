// The check report's lines: HANDS-OFF judged only for a solved level, "no
// YOU can move" said once, counts in English.

import assert from "node:assert/strict";
import { test } from "node:test";

const { checkLines } = await import("../../src/miau/web/js/editor/check-panel.js");

const base = { rules: ["MIAU IS YOU"], startMoves: "UDLRW", solution: null, handsOff: null, errors: [], warnings: [] };

test("an unsolvable level gets no HANDS-OFF verdict at all", () => {
  const lines = checkLines({ ...base, solver: { outcome: "unsolvable", expanded: 40 } });
  assert.equal(lines.find((line) => line.check === "hands-off"), undefined);
});

test("a solved level that needs a pushed word is not HANDS-OFF; one that does not is flagged", () => {
  const solver = { outcome: "solved", length: 1, moves: "R", expanded: 3 };
  const pushed = checkLines({ ...base, solver }).find((line) => line.check === "hands-off");
  assert.deepEqual([pushed.ok, pushed.text], [true, "Not HANDS-OFF: winning needs a word pushed."]);
  const free = checkLines({ ...base, solver, handsOff: { moves: "R" } }).find((line) => line.check === "hands-off");
  assert.equal(free.ok, false);
  assert.equal(free.handsOff, true);
  assert.match(checkLines({ ...base, solver }).find((line) => line.check === "solver").text, /solved in 1 move \(R\)/);
});

test("no YOU can move is said once, with the loader's detail", () => {
  const warning = "no YOU can move from the start (U, D, L, R and W are all refused)";
  const lines = checkLines({ ...base, startMoves: "", warnings: [warning, "something else"] });
  const texts = lines.map((line) => line.text);
  assert.equal(texts.filter((text) => /no YOU can move/i.test(text)).length, 1);
  assert.ok(texts.includes("No YOU can move from the start (U, D, L, R and W are all refused)."));
  assert.ok(texts.includes("something else"));
});

test("a stored solution of one move reads in the singular", () => {
  const lines = checkLines({ ...base, solution: { won: true, turns: 1 } });
  assert.equal(lines.find((line) => line.check === "solution").text, "The stored solution wins in 1 move.");
});
