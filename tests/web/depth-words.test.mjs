// The depth panel's words: a depth profile in plain sentences, the dead
// squares' labels, the variation cards and what "Use this" makes of the draft.

import assert from "node:assert/strict";
import { test } from "node:test";

const {
  TIER_LINES,
  TIER_NAMES,
  DEAD_KINDS,
  deadSquareKinds,
  deadSquareLabel,
  depthHeadline,
  listWords,
  measuredIn,
  changesLine,
  movesAsArrows,
  packWithLevel,
  previewCells,
  profileFacts,
  tierLine,
  variationSummary,
} = await import("../../src/miau/web/js/editor/depth-words.js");

/** A profile as `DepthProfile.to_json()` gives it, with `changes` over the defaults. */
function profile(changes = {}) {
  return {
    outcome: "solved",
    length: 12,
    solution: "RRRRUUUULLLL",
    rulesFormed: ["ROCK IS YOU"],
    rulesBroken: ["MIAU IS YOU", "WALL IS STOP"],
    ruleChanges: 3,
    handsOff: false,
    expanded: 4321,
    seen: 5000,
    shortestSolutions: 7,
    shortestBound: 10000,
    reachable: 800,
    deadEnds: { share: 0.125, exact: true, sample: 800, undecided: 0 },
    deadSquares: [{ x: 0, y: 0, kinds: ["noun", "property"] }],
    deadSquareWalls: "edge",
    baselines: null,
    depth: 5.136,
    tier: 3,
    tierName: "deep",
    seconds: 0.4,
    ...changes,
  };
}

const fact = (facts, key) => facts.find(([name]) => name === key)[2];

test("every tier has a name and a one-line explanation", () => {
  assert.equal(TIER_LINES.length, TIER_NAMES.length);
  for (let tier = 0; tier < TIER_NAMES.length; tier += 1) assert.ok(tierLine(tier).length > 10);
  assert.equal(tierLine(99), "");
});

test("the facts name the length, the rules formed and broken, and the proof's states", () => {
  const facts = profileFacts(profile());
  assert.equal(fact(facts, "length"), "12 moves");
  assert.equal(fact(facts, "rules"), "3: forms ROCK IS YOU; breaks MIAU IS YOU and WALL IS STOP");
  assert.equal(fact(facts, "expanded"), "4,321");
  assert.equal(fact(facts, "solutions"), "7");
  assert.equal(fact(facts, "deadEnds"), "12.5% of 800 reachable states");
  assert.equal(fact(facts, "deadSquares"), "1 cell, marked on the grid by kind: N noun and P property");
});

test("a sampled dead-end share says its sample size and the undecided states", () => {
  const facts = profileFacts(profile({ deadEnds: { share: 0.25, exact: false, sample: 24, undecided: 2 } }));
  assert.equal(fact(facts, "deadEnds"), "about 25% (a sample of 24 states, 2 undecided)");
});

test("missing baselines are 'not measured here'; measured ones say who wins", () => {
  assert.equal(fact(profileFacts(profile()), "baselines"), "not measured here");
  const measured = profileFacts(profile({ baselines: { random: false, greedy: true } }));
  assert.equal(fact(measured, "baselines"), "random does not win, greedy wins");
});

test("a count at the bound reads as 'or more', an uncounted one says why", () => {
  assert.equal(fact(profileFacts(profile({ shortestSolutions: 10000 })), "solutions"), "10,000 or more");
  assert.match(fact(profileFacts(profile({ shortestSolutions: null })), "solutions"), /not counted/);
});

test("an unsolved level says so instead of a length", () => {
  const facts = profileFacts(profile({ outcome: "limit", length: null, expanded: 300000 }));
  assert.equal(fact(facts, "length"), "none found within 300,000 states");
  assert.equal(fact(facts, "rules"), "–");
  assert.match(fact(profileFacts(profile({ outcome: "unsolvable", length: null })), "length"), /cannot be won/);
});

test("a walk with no rule change says nothing needs changing", () => {
  const facts = profileFacts(profile({ rulesFormed: [], rulesBroken: [], handsOff: true }));
  assert.match(fact(facts, "rules"), /^none/);
  assert.match(fact(facts, "handsOff"), /^winnable/);
});

test("the headline gives the figure to one decimal and the tier out of the highest", () => {
  assert.equal(depthHeadline(profile()), "Depth 5.1 · tier 3 of 4");
});

test("a quick measurement does not claim it took no time", () => {
  assert.equal(measuredIn(0.004), "Measured in under 0.1 s.");
  assert.equal(measuredIn(2.345), "Measured in 2.3 s.");
});

test("a dead square's label names the word kinds and the walls it counted", () => {
  const label = deadSquareLabel({ x: 3, y: 0, kinds: ["operator", "property"] }, "edge and fixed walls");
  assert.match(label, /^Dead square \(3, 0\)/);
  assert.match(label, /: an operator \(IS, AND\) and property word/);
  assert.match(deadSquareLabel({ x: 0, y: 0, kinds: ["noun"] }), /: a noun word/);
  assert.match(label, /walls that never move/);
  assert.doesNotMatch(deadSquareLabel({ x: 0, y: 0, kinds: ["noun"] }), /walls/);
});

test("a dead square's mark shows one letter per kind, in the analysis' order, and the legend names them", () => {
  assert.deepEqual(
    DEAD_KINDS.map(({ kind }) => kind),
    ["noun", "operator", "property"],
  );
  assert.equal(new Set(DEAD_KINDS.map(({ letter }) => letter)).size, DEAD_KINDS.length, "no two kinds share a letter");
  const letters = (kinds) => deadSquareKinds({ x: 0, y: 0, kinds }).map(({ letter }) => letter).join("");
  assert.equal(letters(["property", "operator"]), "OP");
  assert.equal(letters(["noun", "operator", "property"]), "NOP");
  assert.equal(letters([]), "");
  const facts = profileFacts(profile({ deadSquares: [{ x: 0, y: 0, kinds: ["operator", "property"] }, { x: 4, y: 0, kinds: ["operator"] }] }));
  assert.equal(fact(facts, "deadSquares"), "2 cells, marked on the grid by kind: O operator and P property");
});

test("listWords joins words as English", () => {
  assert.equal(listWords([]), "");
  assert.equal(listWords(["a"]), "a");
  assert.equal(listWords(["a", "b", "c"]), "a, b and c");
});

const VARIATION = {
  level: {
    id: "my-level-01",
    title: "My level 1: WIN",
    width: 3,
    height: 2,
    objects: [
      { kind: "word", text: "MIAU", x: 0, y: 0 },
      { kind: "object", noun: "MIAU", x: 2, y: 1 },
      { kind: "object", noun: "FLAG", x: 2, y: 1 },
    ],
    solution: "RRD",
  },
  depth: 2.71,
  tier: 2,
  scorer: "depth",
};

test("a variation's card gives its title, size, shortest length and tier", () => {
  assert.deepEqual(variationSummary(VARIATION), {
    title: "My level 1: WIN",
    size: "3 × 2",
    moves: "3 moves",
    tier: "tier 2, puzzle",
    depth: "2.7",
  });
});

test("the preview shows the top entity of each cell", () => {
  assert.deepEqual(previewCells(VARIATION.level), [
    [{ kind: "word", text: "MIAU" }, null, null],
    [null, null, { kind: "object", text: "FLAG" }],
  ]);
});

test("using a variation keeps the pack and the level's id and title, and takes the grid and solution", () => {
  const pack = {
    manifest: { id: "draft", name: "Draft", version: "1.0.0", engine: 1 },
    palette: { MIAU: "🐈" },
    levels: [
      { id: "mine", title: "Mine", hint: "push", width: 9, height: 7, objects: [], automata: [{ id: "a" }] },
    ],
  };
  const next = packWithLevel(pack, VARIATION.level);
  assert.equal(next.manifest, pack.manifest);
  assert.equal(next.palette, pack.palette);
  const level = next.levels[0];
  assert.equal(level.id, "mine");
  assert.equal(level.hint, "push");
  assert.equal(level.title, "Mine", "the author's title stays (issue 53)");
  assert.deepEqual([level.width, level.height, level.solution], [3, 2, "RRD"]);
  assert.equal(level.objects, VARIATION.level.objects);
  assert.equal(level.automata, undefined, "the variation had no automata");
  assert.equal(pack.levels[0].width, 9, "the old pack is left as it was");
});

test("a variation's solution reads as arrows, a wait as a dot", () => {
  assert.equal(movesAsArrows("UDLRW"), "↑↓←→·");
  assert.equal(movesAsArrows(""), "");
});

test("a variation's changed cells are counted by kind; the cells things left are not counted", () => {
  const changes = [
    { x: 1, y: 0, change: "added", what: "ROCK" },
    { x: 2, y: 0, change: "moved", what: "IS" },
    { x: 3, y: 0, change: "moved-from", what: "IS" },
    { x: 4, y: 0, change: "removed", what: "WALL" },
  ];
  assert.equal(changesLine(changes), "3 cells changed: 1 added, 1 moved, 1 removed");
  assert.equal(changesLine([]), "No cell changed.");
});
