// The game controller with a fake port and fake views: the queue, what is
// drawn and said for each reply, wins, errors, and the undoable restart.

import assert from "node:assert/strict";
import { test } from "node:test";

import { GameController, MAX_WAITING_INTENTS, intentOfLetter, letterOf } from "../../src/miau/web/js/controller.js";

/**
 * A port over a one-row game: MIAU at x on a row of `width` cells, a FLAG at
 * the right end (reaching it wins). It keeps its own undo history, answers
 * only when `answer()` is called (so a test sees what waits), and records
 * every intent sent.
 */
class FakePort {
  constructor({ width = 6 } = {}) {
    this.width = width;
    this.x = 0;
    this.moveCount = 0;
    this.history = [];
    this.sent = [];
    this.waiting = [];
    this.autoAnswer = false;
  }

  state() {
    return {
      width: this.width,
      height: 1,
      entities: [
        { id: 1, kind: "object", noun: "MIAU", x: this.x, y: 0, facing: "right" },
        { id: 2, kind: "object", noun: "FLAG", x: this.width - 1, y: 0, facing: "right" },
      ],
      rules: [],
      moveCount: this.moveCount,
      won: this.x === this.width - 1,
      controlLost: false,
      historyLength: this.history.length,
    };
  }

  apply(intent) {
    const before = { x: this.x, moveCount: this.moveCount };
    let accepted = true;
    let kind = "step";
    const moved = [];
    if (intent.intent === "step") {
      const dx = { left: -1, right: 1 }[intent.direction] ?? 0;
      const x = this.x + dx;
      accepted = dx !== 0 && x >= 0 && x < this.width;
      if (accepted) {
        this.history.push(before);
        moved.push({ id: 1, from: [this.x, 0], to: [x, 0], pushedBy: null, facing: "right" });
        this.x = x;
        this.moveCount += 1;
      }
    } else if (intent.intent === "wait") {
      this.history.push(before);
      this.moveCount += 1;
    } else if (intent.intent === "undo") {
      kind = "undo";
      accepted = this.history.length > 0;
      if (accepted) ({ x: this.x, moveCount: this.moveCount } = this.history.pop());
    } else if (intent.intent === "reset") {
      kind = "reset";
      this.history = [];
      this.x = 0;
      this.moveCount = 0;
    } else if (intent.intent === "restore") {
      kind = "restore";
      this.history = [];
      this.x = intent.state.entities[0].x;
      this.moveCount = intent.state.moveCount;
    }
    const blocked = accepted || kind !== "step" ? [] : [{ id: 1, dir: [-1, 0], blockerId: null, reason: "bounds" }];
    return { event: { kind, accepted, moved, blocked, reason: accepted ? null : "blocked" }, state: this.state(), progress: null };
  }

  send(intent) {
    this.sent.push(intent);
    const reply = this.apply(intent);
    if (this.autoAnswer) return Promise.resolve(reply);
    return new Promise((resolve) => this.waiting.push(() => resolve(reply)));
  }

  /** Answers the oldest intent waiting; resolves after the controller took the reply. */
  async answer() {
    this.waiting.shift()();
    await settle();
  }
}

async function settle() {
  for (let round = 0; round < 20; round += 1) await Promise.resolve();
}

function fakeViews() {
  const calls = { drawn: [], applied: [], finished: 0, ledger: [], said: [], sounds: [] };
  return {
    calls,
    board: {
      draw: (state) => calls.drawn.push(state.moveCount),
      apply: (event, state) => calls.applied.push(state.moveCount),
      finishAnimations: () => {
        calls.finished += 1;
      },
    },
    ledger: { show: (state) => calls.ledger.push(state.moveCount) },
    announcer: {
      opened: (title) => calls.said.push(`opened ${title}`),
      turn: (event, state) => calls.said.push(`${event.kind} ${state.moveCount}`),
    },
    sound: { turn: (event) => calls.sounds.push(event.kind) },
  };
}

function controllerWith(port, extra = {}) {
  const views = fakeViews();
  const seen = { pending: [], wins: [], errors: [] };
  const controller = new GameController({
    port,
    board: views.board,
    ledger: views.ledger,
    announcer: views.announcer,
    sound: views.sound,
    onPending: (count) => seen.pending.push(count),
    onWin: (progress) => seen.wins.push(progress),
    onError: (error) => seen.errors.push(error.message),
    ...extra,
  });
  controller.start(port.state(), { title: "Row" });
  return { controller, views, seen };
}

test("intents go out one at a time, each reply is drawn, shown, said and heard in order", async () => {
  const port = new FakePort();
  const { controller, views } = controllerWith(port);
  assert.deepEqual(views.calls.said, ["opened Row"]);
  controller.request({ intent: "step", direction: "right" });
  controller.request({ intent: "step", direction: "right" });
  assert.equal(port.sent.length, 1, "the second intent waits for the first reply");
  assert.equal(controller.pending, 2);
  await port.answer();
  assert.equal(port.sent.length, 2);
  await port.answer();
  assert.deepEqual(views.calls.applied, [1, 2]);
  assert.deepEqual(views.calls.ledger, [0, 1, 2]);
  assert.deepEqual(views.calls.said, ["opened Row", "step 1", "step 2"]);
  assert.deepEqual(views.calls.sounds, ["step", "step"]);
  assert.equal(controller.pending, 0);
});

test("a held key's repeat is skipped while anything waits, and the queue has a limit", async () => {
  const port = new FakePort({ width: 20 });
  const { controller } = controllerWith(port);
  assert.ok(controller.request({ intent: "step", direction: "right" }));
  assert.ok(controller.request({ intent: "step", direction: "right" }), "a press waits behind the pending one");
  assert.equal(controller.request({ intent: "step", direction: "right" }, { repeat: true }), false);
  for (let index = 1; index < MAX_WAITING_INTENTS; index += 1) {
    assert.ok(controller.request({ intent: "step", direction: "right" }));
  }
  assert.equal(controller.request({ intent: "step", direction: "right" }), false, "the queue is full");
  while (port.waiting.length) await port.answer();
  assert.equal(controller.state.moveCount, 1 + MAX_WAITING_INTENTS);
});

test("a win is reported once, with the reply's progress, and later moves are refused", async () => {
  const port = new FakePort({ width: 3 });
  port.autoAnswer = true;
  const { controller, seen } = controllerWith(port);
  controller.request({ intent: "step", direction: "right" });
  controller.request({ intent: "step", direction: "right" });
  await settle();
  assert.equal(seen.wins.length, 1);
  assert.equal(controller.won, true);
  assert.equal(controller.request({ intent: "step", direction: "left" }), false);
  assert.equal(port.sent.length, 2);
});

test("test-play's afterWin keeps undo after a win, and the win can come again", async () => {
  const port = new FakePort({ width: 2 });
  port.autoAnswer = true;
  const { controller, seen } = controllerWith(port, { afterWin: ["undo", "reset"] });
  controller.request({ intent: "step", direction: "right" });
  await settle();
  assert.ok(controller.request({ intent: "undo" }));
  await settle();
  assert.equal(controller.won, false);
  controller.request({ intent: "step", direction: "right" });
  await settle();
  assert.equal(seen.wins.length, 2);
});

test("a failed turn drops what waits and reports it, except a dropped connection", async () => {
  const port = new FakePort();
  const failures = [Object.assign(new Error("refused"), { code: "bad-message" })];
  port.send = (intent) => {
    port.sent.push(intent);
    const failure = failures.shift();
    return failure ? Promise.reject(failure) : Promise.reject(Object.assign(new Error("gone"), { code: "offline" }));
  };
  const { controller, seen } = controllerWith(port);
  controller.request({ intent: "step", direction: "right" });
  controller.request({ intent: "step", direction: "right" });
  await settle();
  assert.deepEqual(seen.errors, ["refused"]);
  assert.equal(port.sent.length, 1, "the waiting intent was dropped with the failure");
  controller.request({ intent: "step", direction: "right" });
  await settle();
  assert.deepEqual(seen.errors, ["refused"], "offline is the connection badge's business");
  assert.equal(controller.pending, 0);
});

test("send resolves with the reply once drawn (a replay), and close rejects what waits", async () => {
  const port = new FakePort();
  const { controller, views } = controllerWith(port);
  const first = controller.send({ intent: "step", direction: "right" });
  const second = controller.send({ intent: "step", direction: "right" });
  await port.answer();
  const reply = await first;
  assert.equal(reply.state.moveCount, 1);
  assert.deepEqual(views.calls.applied, [1]);
  controller.close();
  await assert.rejects(second);
});

test("an undo right after a restart brings the game back with its own undo history", async () => {
  const port = new FakePort({ width: 10 });
  port.autoAnswer = true;
  const { controller, views } = controllerWith(port);
  for (const letter of "RRWR") controller.request(intentOfLetter(letter));
  await settle();
  assert.equal(controller.state.moveCount, 4);
  controller.request({ intent: "reset" });
  await settle();
  assert.equal(controller.state.moveCount, 0);
  controller.request({ intent: "undo" });
  await settle();
  assert.equal(controller.state.moveCount, 4);
  assert.equal(port.x, 3);
  assert.equal(controller.state.historyLength, 4, "the engine's undo works past the restart");
  assert.equal(views.calls.said.at(-1), "undo 4");
  controller.request({ intent: "undo" });
  await settle();
  assert.equal(controller.state.moveCount, 3);
  assert.equal(port.sent.at(-1).intent, "undo");
});

test("a resumed game (earlier moves unknown) restarts for good: undo after it is the engine's", async () => {
  const port = new FakePort({ width: 10 });
  port.autoAnswer = true;
  port.x = 2;
  port.moveCount = 5;
  port.history = [{}, {}, {}, {}, {}];
  const { controller } = controllerWith(port);
  controller.request({ intent: "reset" });
  controller.request({ intent: "undo" });
  await settle();
  assert.deepEqual(port.sent.map((intent) => intent.intent), ["reset", "undo"]);
  assert.equal(controller.state.moveCount, 0);
});

test("only a resumed game's restart is final, so only then does the scene ask first", async () => {
  const resumed = new FakePort({ width: 10 });
  resumed.autoAnswer = true;
  resumed.x = 2;
  resumed.moveCount = 2;
  resumed.history = [{}, {}];
  const { controller: afterReload } = controllerWith(resumed);
  assert.equal(afterReload.restartIsFinal, true, "moves from before the reload cannot be replayed");

  const fresh = new FakePort({ width: 10 });
  fresh.autoAnswer = true;
  const { controller } = controllerWith(fresh);
  assert.equal(controller.restartIsFinal, false, "nothing to lose at move 0");
  for (const letter of "RR") controller.request(intentOfLetter(letter));
  await settle();
  assert.equal(controller.restartIsFinal, false, "moves made in this visit come back after a restart");
});

test("move letters and intents convert both ways", () => {
  for (const letter of "UDLRW") assert.equal(letterOf(intentOfLetter(letter)), letter);
  assert.equal(letterOf({ intent: "undo" }), null);
  assert.equal(intentOfLetter("x"), null);
});

test("a question waits for the intents before it, draws nothing, and what follows waits for it", async () => {
  const port = new FakePort({ width: 8 });
  port.asked = [];
  port.ask = (query) => {
    port.asked.push({ query, atMove: port.moveCount });
    return new Promise((resolve) => port.waiting.push(() => resolve({ type: query, verdict: "winnable" })));
  };
  const { controller, views } = controllerWith(port);
  controller.request({ intent: "step", direction: "right" });
  const answer = controller.ask("winnable");
  controller.request({ intent: "step", direction: "right" });
  assert.equal(controller.pending, 3);
  await port.answer();
  assert.deepEqual(port.asked, [{ query: "winnable", atMove: 1 }], "asked once the move before it was answered");
  assert.equal(port.sent.length, 1, "the move after the question waits for its answer");
  await port.answer();
  assert.deepEqual(await answer, { type: "winnable", verdict: "winnable" });
  await port.answer();
  assert.deepEqual(views.calls.applied, [1, 2], "the answer drew nothing");
  assert.equal(controller.pending, 0);
});
