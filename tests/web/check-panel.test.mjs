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

const { checkVerdict, undecidedWords } = await import("../../src/miau/web/js/editor/check-panel.js");

test("a LIMIT is undecided, never passed, and shows no ✗", () => {
  const level = { ...base, solver: { outcome: "limit", expanded: 10000, limit: 10000, seconds: 0.3 }, verdict: "undecided" };
  const lines = checkLines(level);
  assert.equal(checkVerdict({ problems: [], level }, lines), "undecided");
  assert.equal(lines.find((line) => line.check === "solver").status, "undecided");
  assert.equal(lines.filter((line) => line.status === "fail").length, 0);
});

test("passed only when no line failed: no stored solution is a note, not a ✗", () => {
  const solver = { outcome: "solved", length: 1, moves: "R", expanded: 3 };
  const level = { ...base, solver, verdict: "passed" };
  const lines = checkLines(level);
  assert.equal(checkVerdict({ problems: [], level }, lines), "passed");
  assert.equal(lines.find((line) => line.check === "solution").status, "note");
  assert.ok(lines.every((line) => line.status !== "fail"));
});

test("a failing line, a loader error or a stricter server verdict make problems", () => {
  const solver = { outcome: "solved", length: 1, moves: "R", expanded: 3 };
  const stale = { ...base, solver, solution: { won: false, turns: 2 } };
  assert.equal(checkVerdict({ problems: [], level: stale }), "problems");
  const error = [{ place: "levels[0]", message: "x", severity: "error" }];
  assert.equal(checkVerdict({ problems: error, level: { ...base, solver } }), "problems");
  assert.equal(checkVerdict({ problems: [], level: null }), "problems");
  assert.equal(checkVerdict({ problems: [], level: { ...base, solver, verdict: "undecided" } }), "undecided");
  const unsolvable = { ...base, solver: { outcome: "unsolvable", expanded: 5 } };
  assert.equal(checkVerdict({ problems: [], level: unsolvable }), "problems");
});

test("the solver's command-line advice is left out: the panel names the Cap menu instead", () => {
  const warning = "the solver gave up after 10,000 states; raise solverMax or --max to get an answer";
  const level = { ...base, warnings: [warning], solver: { outcome: "limit", expanded: 10000, limit: 10000 } };
  assert.ok(checkLines(level).every((line) => !line.text.includes("solverMax")));
});

test("an undecided check names the Solve tab's Cap and what raising it costs", () => {
  const solver = { outcome: "limit", expanded: 10000, limit: 10000, seconds: 0.5, memory: 4_000_000 };
  const level = { ...base, solver, handsOffSearch: { ...solver, seconds: 0.5 } };
  const cap = { max: 10000, label: "10,000", options: [10000, 100000, 300000, 1000000, 2000000] };
  const { why, raise, costs } = undecidedWords(level, { seconds: 1, cap });
  assert.match(why, /stopped at its cap of 10,000 states .* may or may not be winnable/);
  assert.match(raise, /raise Cap in the Solve tab \(now 10,000\)/);
  assert.deepEqual(costs, [
    "100,000 states: about 10 seconds and about 40 MB of memory.",
    "2,000,000 states (the highest): about 3 minutes and about 800 MB of memory: past the 2 minutes a check may run, so it would be stopped.",
  ]);
  const top = undecidedWords({ ...level, solver: { ...solver, limit: 2000000 } }, { seconds: 60, cap: { ...cap, max: 2000000 } });
  assert.match(top.raise, /already at its highest/);
  assert.deepEqual(top.costs, []);
});
