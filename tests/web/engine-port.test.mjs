// The engine port over a fake WebSocket: opening a level, intents and their
// replies by seq, and what a dropped connection does: in-flight intents fail
// as "offline", new ones wait in the backlog, the port reconnects after a
// growing delay, opens the level again and then sends the backlog in order.

import assert from "node:assert/strict";
import { after, before, mock, test } from "node:test";

class FakeSocket {
  static OPEN = 1;
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.listeners = new Map();
    FakeSocket.made.push(this);
  }

  addEventListener(name, listener) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push(listener);
  }

  fire(name, event = {}) {
    for (const listener of this.listeners.get(name) || []) listener(event);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  /** The server accepts the connection. */
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.fire("open");
  }

  /** The server says something. */
  reply(message) {
    this.fire("message", { data: JSON.stringify(message) });
  }

  /** The connection drops. */
  drop() {
    this.readyState = 3;
    this.fire("close");
  }

  static latest() {
    return FakeSocket.made.at(-1);
  }
}

globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "game.test" };
const port = await import("../../src/miau/web/js/engine-port.js");

const STATE = { moveCount: 0, entities: [] };

async function settle() {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
}

before(() => mock.timers.enable({ apis: ["setTimeout"] }));
after(() => mock.timers.reset());

const statuses = [];
const reopenedWith = [];
port.onStatus((status) => statuses.push(status));
port.onReopened((state) => reopenedWith.push(state));

test("open sends the level on a new socket and resolves with the opened state", async () => {
  const opening = port.open({ pack: "tutorial", level: "walls" });
  const socket = FakeSocket.latest();
  assert.equal(socket.url, "ws://game.test/ws");
  socket.accept();
  await settle();
  const open = socket.sent[0];
  assert.deepEqual({ ...open, seq: undefined }, { type: "open", seq: undefined, pack: "tutorial", level: "walls" });
  socket.reply({ type: "opened", seq: open.seq, state: STATE, resumed: false, pack: "tutorial", level: "walls" });
  const opened = await opening;
  assert.deepEqual(opened.state, STATE);
  assert.equal(opened.resumed, false);
  assert.deepEqual(statuses, ["online"]);
});

test("an intent goes out with its own seq and resolves with the reply of that seq", async () => {
  const socket = FakeSocket.latest();
  const first = port.send({ intent: "step", direction: "up" });
  const second = port.send({ intent: "wait" });
  const [up, wait] = socket.sent.slice(-2);
  assert.equal(up.intent, "step");
  assert.notEqual(up.seq, wait.seq);
  socket.reply({ type: "result", seq: wait.seq, event: { kind: "step" }, state: { moveCount: 2 } });
  socket.reply({ type: "result", seq: up.seq, event: { kind: "step" }, state: { moveCount: 1 } });
  assert.equal((await first).state.moveCount, 1);
  assert.equal((await second).state.moveCount, 2);
});

test("a question goes out as its own type with a seq and resolves with the reply frame of that seq", async () => {
  const socket = FakeSocket.latest();
  const asked = port.ask("winnable");
  const question = socket.sent.at(-1);
  assert.deepEqual(Object.keys(question).sort(), ["seq", "type"]);
  assert.equal(question.type, "winnable");
  socket.reply({ type: "winnable", seq: question.seq, verdict: "not-winnable", undosBack: 2, won: false });
  const reply = await asked;
  assert.equal(reply.verdict, "not-winnable");
  assert.equal(reply.undosBack, 2);
  const refused = port.ask("winnable");
  socket.reply({ type: "error", seq: socket.sent.at(-1).seq, code: "no-game", message: "Open a level first." });
  await assert.rejects(refused, { code: "no-game", message: "Open a level first." });
});

test("a drop fails the intents in flight as offline, keeps new ones, reconnects and sends them after the reopen", async () => {
  const socket = FakeSocket.latest();
  const inFlight = port.send({ intent: "step", direction: "left" });
  socket.drop();
  await assert.rejects(inFlight, (error) => error.code === "offline");
  assert.equal(statuses.at(-1), "offline");

  const waiting = [port.send({ intent: "step", direction: "right" }), port.send({ intent: "undo" })];
  const made = FakeSocket.made.length;
  mock.timers.tick(149);
  assert.equal(FakeSocket.made.length, made, "no reconnect before the first delay");
  mock.timers.tick(1);
  await settle();
  assert.equal(FakeSocket.made.length, made + 1);

  const again = FakeSocket.latest();
  again.accept();
  await settle();
  assert.equal(again.sent.length, 1, "only the open goes out before the level is open again");
  const reopen = again.sent[0];
  assert.equal(reopen.type, "open");
  assert.equal(reopen.level, "walls");
  again.reply({ type: "opened", seq: reopen.seq, state: { moveCount: 1 }, pack: "tutorial", level: "walls" });
  assert.deepEqual(reopenedWith, [{ moveCount: 1 }]);
  assert.deepEqual(
    again.sent.slice(1).map((message) => message.intent),
    ["step", "undo"],
    "the backlog goes out in order",
  );
  for (const message of again.sent.slice(1)) {
    again.reply({ type: "result", seq: message.seq, event: {}, state: { moveCount: message.seq } });
  }
  await Promise.all(waiting);
});

test("the reconnect delay doubles while the server stays away", async () => {
  FakeSocket.latest().drop();
  let made = FakeSocket.made.length;
  mock.timers.tick(150);
  await settle();
  assert.equal(FakeSocket.made.length, made + 1);
  FakeSocket.latest().drop(); // refused before it opened
  await settle();
  made = FakeSocket.made.length;
  mock.timers.tick(299);
  await settle();
  assert.equal(FakeSocket.made.length, made, "the second wait is longer");
  mock.timers.tick(1);
  await settle();
  assert.equal(FakeSocket.made.length, made + 1);
});

test("closing the level rejects the backlog as superseded and sends nothing more", async () => {
  const waiting = port.send({ intent: "wait" });
  port.close();
  await assert.rejects(waiting, (error) => error.code === "superseded");
  await assert.rejects(port.send({ intent: "wait" }), (error) => error.code === "no-game");
});
