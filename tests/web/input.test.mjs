// Input's hold-to-repeat, for keys and the on-screen pad, on mock timers: the
// press gives one intent at once; a key repeats once REPEAT_DELAY_MS has
// passed and the system has repeated it (it is really held), a pad button
// after REPEAT_DELAY_MS; the next every REPEAT_INTERVAL_MS, until release.

import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import { FakeTarget, MemoryStorage, fakeButton } from "./support.mjs";

globalThis.window = new FakeTarget();
const { KEY_REPEAT_SETTING, REPEAT_DELAY_MS, REPEAT_INTERVAL_MS, createInput, keyRepeatWanted } = await import(
  "../../src/miau/web/js/input.js"
);

let input;
let intents;
let root;

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  intents = [];
  root = new FakeTarget();
  root.contains = () => true;
  input = createInput({
    onIntent: (intent, { repeat }) => intents.push(`${intent.direction || intent.intent}${repeat ? "*" : ""}`),
    buttonRoot: root,
  });
});

afterEach(() => {
  input.destroy();
  mock.timers.reset();
});

const key = (name, extra = {}) => ({ key: name, ctrlKey: false, metaKey: false, altKey: false, repeat: false, ...extra });

const systemRepeat = (name) => window.fire("keydown", key(name, { repeat: true }));

test("a held arrow key moves once, then repeats at the key-repeat rate until released", () => {
  window.fire("keydown", key("ArrowRight"));
  assert.deepEqual(intents, ["right"]);
  systemRepeat("ArrowRight");
  mock.timers.tick(REPEAT_DELAY_MS - 1);
  assert.deepEqual(intents, ["right"]);
  mock.timers.tick(1);
  assert.deepEqual(intents, ["right", "right*"]);
  systemRepeat("ArrowRight"); // the system's later repeats add nothing: the rate is the page's
  mock.timers.tick(REPEAT_INTERVAL_MS * 3);
  assert.equal(intents.length, 5);
  window.fire("keyup", key("ArrowRight"));
  mock.timers.tick(REPEAT_INTERVAL_MS * 5);
  assert.equal(intents.length, 5);
});

test("a key repeats from the system's first repeat when that comes after the delay", () => {
  window.fire("keydown", key("ArrowLeft"));
  mock.timers.tick(REPEAT_DELAY_MS * 2);
  assert.deepEqual(intents, ["left"]);
  systemRepeat("ArrowLeft");
  assert.deepEqual(intents, ["left", "left*"]);
  mock.timers.tick(REPEAT_INTERVAL_MS);
  assert.deepEqual(intents, ["left", "left*", "left*"]);
});

test("a press whose key-up comes late, with no repeat from the system, moves once", () => {
  // A busy page (a level opening) may see the key-up of a short press long after the delay.
  window.fire("keydown", key("ArrowDown"));
  mock.timers.tick(REPEAT_DELAY_MS * 4);
  window.fire("keyup", key("ArrowDown"));
  mock.timers.tick(REPEAT_INTERVAL_MS * 4);
  assert.deepEqual(intents, ["down"]);
});

test("the system's repeats of a short press move nothing; restart and wait never repeat", () => {
  window.fire("keydown", key("ArrowUp"));
  systemRepeat("ArrowUp");
  window.fire("keyup", key("ArrowUp"));
  window.fire("keydown", key("r"));
  systemRepeat("r");
  window.fire("keydown", key(" "));
  mock.timers.tick(REPEAT_DELAY_MS + REPEAT_INTERVAL_MS * 4);
  assert.deepEqual(intents, ["up", "reset", "wait"]);
});

test("a second key held takes over, and the first resumes after the delay when the second is let go", () => {
  window.fire("keydown", key("ArrowRight"));
  systemRepeat("ArrowRight");
  window.fire("keydown", key("ArrowDown"));
  mock.timers.tick(REPEAT_DELAY_MS);
  assert.deepEqual(intents, ["right", "down"]);
  systemRepeat("ArrowDown");
  assert.deepEqual(intents, ["right", "down", "down*"]);
  window.fire("keyup", key("ArrowDown"));
  mock.timers.tick(REPEAT_DELAY_MS);
  assert.deepEqual(intents.slice(3), ["right*"]);
});

test("a pad button held down repeats like a key, and its closing click is not a second move", () => {
  const up = fakeButton({ intent: "step", direction: "up", pad: "up" });
  root.fire("pointerdown", { target: up, pointerId: 7, button: 0 });
  assert.deepEqual(intents, ["up"]);
  mock.timers.tick(REPEAT_DELAY_MS);
  mock.timers.tick(REPEAT_INTERVAL_MS);
  assert.deepEqual(intents, ["up", "up*", "up*"]);
  root.fire("pointerup", { target: up, pointerId: 7 });
  root.fire("click", { target: up });
  mock.timers.tick(REPEAT_INTERVAL_MS * 4);
  assert.deepEqual(intents, ["up", "up*", "up*"]);
});

test("a pad button activated from the keyboard (a click alone) moves once", () => {
  const left = fakeButton({ intent: "step", direction: "left", pad: "left" });
  root.fire("click", { target: left });
  root.fire("click", { target: left });
  assert.deepEqual(intents, ["left", "left"]);
});

test("turning input off stops a held repeat, and destroy removes every listener", () => {
  window.fire("keydown", key("ArrowLeft"));
  systemRepeat("ArrowLeft");
  input.setEnabled(false);
  mock.timers.tick(REPEAT_DELAY_MS * 3);
  assert.deepEqual(intents, ["left"]);
  input.destroy();
  assert.equal(window.listenerCount(), 0);
  assert.equal(root.listenerCount(), 0);
});

test("with repeat off, a key or pad button held however long moves once, and the next press moves again", () => {
  input.destroy();
  input = createInput({
    onIntent: (intent, { repeat }) => intents.push(`${intent.direction || intent.intent}${repeat ? "*" : ""}`),
    buttonRoot: root,
    repeat: false,
  });
  window.fire("keydown", key("z"));
  systemRepeat("z");
  mock.timers.tick(REPEAT_DELAY_MS * 10);
  window.fire("keyup", key("z"));
  window.fire("keydown", key("z"));
  window.fire("keyup", key("z"));
  const up = fakeButton({ intent: "step", direction: "up", pad: "up" });
  root.fire("pointerdown", { target: up, pointerId: 7, button: 0 });
  mock.timers.tick(REPEAT_DELAY_MS * 10);
  root.fire("pointerup", { target: up, pointerId: 7 });
  root.fire("click", { target: up });
  assert.deepEqual(intents, ["undo", "undo", "up"]);
});

test("hold-to-repeat is wanted unless the browser's setting says off", () => {
  const storage = new MemoryStorage();
  assert.equal(keyRepeatWanted(storage), true);
  storage.setItem(KEY_REPEAT_SETTING, "off");
  assert.equal(keyRepeatWanted(storage), false);
  storage.setItem(KEY_REPEAT_SETTING, "on");
  assert.equal(keyRepeatWanted(storage), true);
  const refusing = {
    getItem() {
      throw new Error("SecurityError");
    },
  };
  assert.equal(keyRepeatWanted(refusing), true);
  assert.equal(keyRepeatWanted(undefined), true);
});
