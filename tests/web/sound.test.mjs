// What each turn sounds like, the remembered setting, and silence until the
// first key press (the audio context is made then, not before).

import assert from "node:assert/strict";
import { test } from "node:test";

import { EFFECT_NAMES, MAX_SOUNDS_PER_TURN, SoundBoard, soundsFor } from "../../src/miau/web/js/sound.js";
import { FakeTarget, MemoryStorage } from "./support.mjs";

const calm = { won: false, controlLost: false };
const step = (extra = {}) => ({ kind: "step", accepted: true, moved: [], blocked: [], ...extra });
const walk = { id: 1, from: [0, 0], to: [1, 0], pushedBy: null };
const shove = { id: 2, from: [1, 0], to: [2, 0], pushedBy: 1 };

test("a move, a push and a blocked move each have their sound", () => {
  assert.deepEqual(soundsFor(step({ moved: [walk] }), calm), ["move"]);
  assert.deepEqual(soundsFor(step({ moved: [walk, shove] }), calm), ["push"]);
  assert.deepEqual(soundsFor({ kind: "step", accepted: false, blocked: [{ id: 1 }] }, calm), ["blocked"]);
});

test("rules, destruction causes, win and loss come before the move", () => {
  const event = step({
    moved: [walk],
    rulesAdded: [{}],
    rulesRemoved: [{}],
    destroyed: [{ cause: "sink" }, { cause: "sink" }],
  });
  assert.deepEqual(soundsFor(event, calm), ["destroy-sink", "rule-formed", "rule-broken"]);
  assert.deepEqual(soundsFor(step({ moved: [walk] }), { ...calm, won: true }), ["win", "move"]);
  assert.deepEqual(soundsFor(step({ destroyed: [{ cause: "defeat" }] }), { ...calm, controlLost: true }, calm), [
    "loss",
    "destroy-defeat",
  ]);
  for (const cause of ["melt", "weak", "open", "pair-word"]) {
    const [name] = soundsFor(step({ destroyed: [{ cause }] }), calm);
    assert.ok(EFFECT_NAMES.includes(name), name);
  }
  const busy = step({ moved: [walk, shove], rulesAdded: [{}], rulesRemoved: [{}], destroyed: [{ cause: "melt" }] });
  assert.equal(soundsFor(busy, { ...calm, won: true }).length, MAX_SOUNDS_PER_TURN);
});

test("nothing plays before the first key press, and the setting is remembered", () => {
  const storage = new MemoryStorage();
  const page = new FakeTarget();
  const made = [];
  const audio = () => {
    const context = { state: "running", made: true };
    made.push(context);
    return context;
  };
  const board = new SoundBoard({ storage, audio, target: page });
  board.render = () => {};
  assert.equal(board.status, "waiting");
  assert.equal(board.play("move"), false);
  assert.equal(made.length, 0);
  page.fire("keydown", { key: "ArrowRight" });
  assert.equal(made.length, 1);
  assert.equal(board.play("move"), true);
  board.setMuted(true);
  board.setVolume(0.25);
  assert.equal(board.play("win"), false);
  const again = new SoundBoard({ storage, audio, target: new FakeTarget() });
  assert.deepEqual([again.muted, again.volume], [true, 0.25]);
  assert.equal(again.status, "muted");
});
