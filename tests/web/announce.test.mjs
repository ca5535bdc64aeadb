// What the live region says for a turn: one line per move, grammar checked,
// repeated changes counted, a refused move not said twice.

import assert from "node:assert/strict";
import { test } from "node:test";

import { TurnAnnouncer, describeTurn, listText, plural } from "../../src/miau/web/js/announce.js";

const MIAU = { id: 1, kind: "object", noun: "MIAU", x: 1, y: 1 };
const ROCK = { id: 2, kind: "object", noun: "ROCK", x: 2, y: 1 };
const WALL = { id: 3, kind: "object", noun: "WALL", x: 0, y: 1 };
const IS = { id: 4, kind: "word", text: "IS", x: 3, y: 1 };
const before = { entities: [MIAU, ROCK, WALL, IS], moveCount: 0, won: false, controlLost: false, rules: [] };
const right = { intent: "step", direction: "right" };

function stateAt(moveCount, extra = {}) {
  return { ...before, moveCount, ...extra };
}

function step(extra = {}) {
  return { kind: "step", accepted: true, moved: [], blocked: [], ...extra };
}

test("a move says what moved where and what it pushed", () => {
  const event = step({
    moved: [
      { id: 1, from: [1, 1], to: [2, 1], pushedBy: null },
      { id: 2, from: [2, 1], to: [3, 1], pushedBy: 1 },
      { id: 4, from: [3, 1], to: [4, 1], pushedBy: 2 },
    ],
  });
  assert.deepEqual(describeTurn(event, stateAt(1), before, right), [
    "Move 1: MIAU moved right and pushed ROCK and the word IS.",
  ]);
});

test("things moving their own ways are said apart, each with what it pushed", () => {
  const event = step({
    moved: [
      { id: 1, from: [1, 1], to: [1, 2], pushedBy: null },
      { id: 2, from: [2, 1], to: [1, 1], pushedBy: null },
      { id: 4, from: [1, 1], to: [0, 1], pushedBy: 2 },
    ],
  });
  assert.deepEqual(describeTurn(event, stateAt(1), before, { intent: "step", direction: "down" }), [
    "Move 1: MIAU moved down, ROCK moved left and pushed the word IS.",
  ]);
});

test("a refused move says what blocked it, and the edge by name", () => {
  const wall = { kind: "step", accepted: false, reason: "everything that is YOU is blocked",
    blocked: [{ id: 1, dir: [-1, 0], blockerId: 3, reason: "stop" }] };
  assert.deepEqual(describeTurn(wall, before, before, { intent: "step", direction: "left" }), [
    "MIAU blocked by WALL.",
  ]);
  const edge = { ...wall, blocked: [{ id: 1, dir: [0, -1], blockerId: null, reason: "bounds" }] };
  assert.deepEqual(describeTurn(edge, before, before, right), ["MIAU blocked by the edge."]);
  const none = { kind: "step", accepted: false, reason: "nothing is YOU", blocked: [] };
  assert.deepEqual(describeTurn(none, before, before, right), ["Nothing is YOU."]);
});

test("a wait, the rules it changed, and a win in one move read as one line", () => {
  const event = step({
    rulesAdded: [{ subject: "ROCK", predicate: "WIN" }],
    rulesRemoved: [{ subject: "ROCK", predicate: "PUSH" }],
  });
  const lines = describeTurn(event, stateAt(1, { won: true }), before, { intent: "wait" });
  assert.deepEqual(lines, [
    "Move 1: waited.",
    "Rule formed: ROCK is WIN.",
    "Rule broken: ROCK is PUSH.",
    "Solved in 1 move.",
  ]);
  assert.match(describeTurn(step(), stateAt(7, { won: true }), before, { intent: "wait" }).at(-1), /^Solved in 7 moves\.$/);
});

test("many equal changes are said once with a count", () => {
  const transformed = Array.from({ length: 11 }, (_, id) => ({ id, from: "COG", to: "BELL" }));
  const destroyed = [
    { id: 2, noun: "ROCK", cause: "sink" },
    { id: 5, noun: "ROCK", cause: "sink" },
    { id: 1, noun: "MIAU", cause: "defeat" },
  ];
  const lines = describeTurn(step({ transformed, destroyed }), stateAt(3), before, { intent: "wait" });
  assert.deepEqual(lines.slice(1), ["11 COG became BELL.", "2 ROCK sank.", "MIAU was defeated."]);
});

test("things turned into nothing and things made in empty cells are said with a count", () => {
  const destroyed = [
    { id: 2, noun: "WALL", cause: "empty" },
    { id: 3, noun: "WALL", cause: "empty" },
  ];
  const created = [7, 8, 9].map((id) => ({ id, noun: "FLAG", at: [id, 0] }));
  const lines = describeTurn(step({ destroyed, created }), stateAt(1), before, { intent: "wait" });
  assert.deepEqual(lines.slice(1), ["2 WALL turned into nothing.", "3 FLAG appeared."]);
});

test("undo and restart say where the game stands", () => {
  assert.deepEqual(describeTurn({ kind: "undo", accepted: true }, stateAt(2), before, { intent: "undo" }), [
    "Undone, back to move 2.",
  ]);
  const reset = { kind: "reset", accepted: true };
  assert.deepEqual(describeTurn({ ...reset, restartUndoable: true }, stateAt(0), before, { intent: "reset" }), [
    "Level restarted. Undo brings your moves back.",
  ]);
  assert.deepEqual(describeTurn(reset, stateAt(0), before, { intent: "reset" }), ["Level restarted."]);
});

test("the announcer says a refused move once, however often it is tried, and every accepted one", () => {
  const said = [];
  const announcer = new TurnAnnouncer({ speak: (text) => said.push(text) });
  const wall = { kind: "step", accepted: false, blocked: [{ id: 1, blockerId: 3, reason: "stop" }] };
  announcer.turn(wall, before, before, right);
  announcer.turn(wall, before, before, right);
  announcer.turn(step({ moved: [{ id: 1, from: [1, 1], to: [1, 2], pushedBy: null }] }), stateAt(1), before, {
    intent: "step",
    direction: "down",
  });
  announcer.turn(step(), stateAt(2), before, { intent: "wait" });
  announcer.turn(step(), stateAt(3), before, { intent: "wait" });
  assert.deepEqual(said, [
    "MIAU blocked by WALL.",
    "Move 1: MIAU moved down.",
    "Move 2: waited.",
    "Move 3: waited.",
  ]);
});

test("counts and lists read as English", () => {
  assert.equal(plural(1, "move"), "1 move");
  assert.equal(plural(0, "move"), "0 moves");
  assert.equal(listText(["A"]), "A");
  assert.equal(listText(["A", "B"]), "A and B");
  assert.equal(listText(["A", "B", "C"]), "A, B and C");
});

test("a destroyed word tile starts its sentence with a capital, and counted losses agree in number", () => {
  const destroyed = [
    { id: 4, text: "SINK", cause: "sink" },
    { id: 6, text: "WIN", cause: "melt" },
    { id: 7, text: "WIN", cause: "melt" },
    { id: 8, noun: "MIAU", cause: "defeat" },
    { id: 9, noun: "MIAU", cause: "defeat" },
  ];
  const lines = describeTurn(step({ destroyed }), stateAt(2), before, { intent: "wait" });
  assert.deepEqual(lines.slice(1), ["The word SINK sank.", "2 words WIN melted.", "2 MIAU were defeated."]);
});

test("beside a counted noun every noun is counted, so the count reads for one noun only", () => {
  const MIAU2 = { id: 10, kind: "object", noun: "MIAU", x: 1, y: 2 };
  const MOUSE = { id: 11, kind: "object", noun: "MOUSE", x: 1, y: 3 };
  const start = { ...before, entities: [MIAU, MIAU2, MOUSE] };
  const event = step({
    moved: [
      { id: 1, from: [1, 1], to: [2, 1], pushedBy: null },
      { id: 10, from: [1, 2], to: [2, 2], pushedBy: null },
      { id: 11, from: [1, 3], to: [2, 3], pushedBy: null },
    ],
  });
  assert.equal(describeTurn(event, stateAt(1), start, right)[0], "Move 1: 2 MIAU and 1 MOUSE moved right.");
});

test("undo and restart are advised only on the turn that lost YOU, never on a board that had none", () => {
  const lost = stateAt(1, { controlLost: true });
  const wait = { kind: "wait", accepted: true, moved: [], blocked: [] };
  assert.deepEqual(describeTurn(wait, lost, before, { intent: "wait" }).at(-1), "Nothing is YOU. Undo or restart.");
  // Nothing was YOU before this turn either (a draft with no YOU from its start): no advice.
  const noneBefore = stateAt(0, { controlLost: true });
  assert.deepEqual(describeTurn(wait, lost, noneBefore, { intent: "wait" }).at(-1), "Nothing is YOU.");
});
