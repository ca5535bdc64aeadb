// Progress figures: the world-complete card's and world select's overall view.

import assert from "node:assert/strict";
import { test } from "node:test";

import { overallProgress, winCompletesWorld, worldCompletion } from "../../src/miau/web/js/progress.js";

const worlds = [
  { id: "tutorial", name: "First Steps", levels: 17, required: 12, won: 14, requiredWon: 12, unlocked: true },
  { id: "clockwork", name: "Clockwork", levels: 6, required: 6, won: 0, requiredWon: 0, unlocked: true, opensAfter: "tutorial" },
  { id: "proofs", name: "Proofs", levels: 10, required: 10, won: 3, requiredWon: 3, unlocked: true, opensAfter: "tutorial" },
  { id: "mine", name: "Mine", levels: 2, required: 2, won: 2, requiredWon: 2, unlocked: true, imported: true },
];

test("overall progress counts the shipped worlds only", () => {
  assert.deepEqual(overallProgress(worlds), { won: 17, levels: 33, worldsComplete: 1, worlds: 3 });
});

test("a level whose next is in its own world completes nothing", () => {
  assert.equal(worldCompletion(worlds, "tutorial", { pack: "tutorial", level: "x" }), null);
});

test("the last level of a world gives the world, the next world and the figures", () => {
  const done = worldCompletion(worlds, "tutorial", { pack: "clockwork", level: "mouse-keeps-time" });
  assert.equal(done.complete, true);
  assert.equal(done.remaining, 0);
  assert.equal(done.nextWorld.name, "Clockwork");
  assert.equal(done.overall.won, 17);
});

test("a world left with required levels to win says how many, and the last world has no next", () => {
  const partial = worldCompletion(worlds, "proofs", null);
  assert.equal(partial.complete, false);
  assert.equal(partial.remaining, 7);
  assert.equal(partial.nextWorld, null);
});

test("a complete world names the worlds it opens; one still to finish names none", () => {
  const done = worldCompletion(worlds, "tutorial", { pack: "clockwork", level: "mouse-keeps-time" });
  assert.deepEqual(done.opened.map((world) => world.name), ["Clockwork", "Proofs"]);
  assert.deepEqual(worldCompletion(worlds, "proofs", null).opened, []);
});

test("the win that completes a world's required levels is a moment even when the world goes on", () => {
  const next = { pack: "tutorial", level: "crossword" };
  assert.equal(worldCompletion(worlds, "tutorial", next), null);
  const done = worldCompletion(worlds, "tutorial", next, { completes: true });
  assert.equal(done.complete, true);
  assert.equal(done.nextWorld, null);
});

test("a win completes the world only on its last unwon required level, once", () => {
  const world = {
    levels: [
      { id: "a", tier: "required", won: true },
      { id: "b", tier: "required", won: false },
      { id: "side", tier: "optional", won: false },
      { id: "hard", tier: "challenge", won: false },
    ],
  };
  assert.equal(winCompletesWorld(world, "b"), true);
  assert.equal(winCompletesWorld(world, "side"), false);
  assert.equal(winCompletesWorld(world, "hard"), false);
  assert.equal(winCompletesWorld({ levels: [{ id: "a", tier: "required", won: true }] }, "a"), false);
  const twoLeft = { levels: [{ id: "a", tier: "required", won: false }, ...world.levels.slice(1)] };
  assert.equal(winCompletesWorld(twoLeft, "b"), false);
  assert.equal(winCompletesWorld(null, "b"), false);
});
