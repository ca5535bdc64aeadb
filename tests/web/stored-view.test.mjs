// The stored board drawn while the static site's engine starts: only the
// board of the game as it is stored, by the build that runs.

import assert from "node:assert/strict";
import { test } from "node:test";

import { matchingView, siteBuild, storedView } from "../../src/miau/web/js/stored-view.js";

const STATE = { entities: [], moveCount: 4, rules: [] };
const VIEW = { build: "b1", log: ["R", "R", "U", "L"], state: STATE, world: { palette: {} }, level: { width: 3 } };

test("a view stored beside the game's log, by this build, is drawn", () => {
  assert.deepEqual(matchingView(VIEW, ["R", "R", "U", "L"], "b1"), {
    world: VIEW.world,
    level: VIEW.level,
    state: STATE,
  });
});

test("a view of a log the game has left behind is not drawn", () => {
  assert.equal(matchingView(VIEW, ["R", "R", "U"], "b1"), null);
  assert.equal(matchingView(VIEW, undefined, "b1"), null); // the game was won or is gone
});

test("a new game's view (no log) is drawn while no game is stored", () => {
  const start = { ...VIEW, log: null, state: { ...STATE, moveCount: 0 } };
  assert.equal(matchingView(start, undefined, "b1").state.moveCount, 0);
  assert.equal(matchingView(start, ["R"], "b1"), null);
});

test("another build's view, or none, is not drawn", () => {
  assert.equal(matchingView(VIEW, VIEW.log, "b2"), null);
  assert.equal(matchingView(VIEW, VIEW.log, null), null);
  assert.equal(matchingView(undefined, VIEW.log, "b1"), null);
  assert.equal(matchingView({ ...VIEW, world: undefined }, VIEW.log, "b1"), null);
});

test("outside the static site's page there is no build and nothing stored", async () => {
  assert.equal(siteBuild(undefined), null);
  assert.equal(await storedView("clockwork", "mouse-keeps-time"), null);
});
