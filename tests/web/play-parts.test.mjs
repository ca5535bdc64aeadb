// The play scene's parts that decide something, in Node with fakes: where
// its ways out lead, how a level is opened, where an intent goes, when a
// restart asks first, how Share turns the controls off and on, which words
// are new, what a failed opening says and when the world's moment shows.

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeTarget, MemoryStorage } from "./support.mjs";

const { playKind, playRoutes } = await import("../../src/miau/web/js/play/routes.js");
const { draftWorldAndLevel, openLevel, openingNotes, unlockedEverywhere } = await import(
  "../../src/miau/web/js/play/level-source.js"
);
const { EarlyIntents, intentRouter, restartQuestion } = await import("../../src/miau/web/js/play/intents.js");
const { SHARE_KEY, bindShare, shareCodeFor } = await import("../../src/miau/web/js/play/share.js");
const { SeenWords } = await import("../../src/miau/web/js/play/words-panel.js");
const { openFailure } = await import("../../src/miau/web/js/play/failure-cards.js");
const { WinCeremony, completionAfter, restartDraft } = await import("../../src/miau/web/js/play/win-ceremony.js");
const { Vocabulary } = await import("../../src/miau/web/js/words.js");

const live = { aborted: false };
const draftPack = {
  manifest: { id: "draft", name: "Draft" },
  palette: { MIAU: "🐈", BELL: { glyph: "🔔", faces: { left: "x" } } },
  properties: { TICK: { accent: "stop", describe: "Ticks." } },
  levels: [
    {
      id: "one",
      title: "One",
      width: 4,
      height: 3,
      objects: [],
      automata: [{ property: "TICK", pattern: ["L"] }],
      pairs: [{ words: ["HOT", "MELT"] }],
    },
  ],
};

/** Records every call made on it: `calls` lists `[name, ...arguments]`. */
function recorder(names, answers = {}) {
  const fake = { calls: [] };
  for (const name of names) {
    fake[name] = (...args) => {
      fake.calls.push([name, ...args]);
      return typeof answers[name] === "function" ? answers[name](...args) : answers[name];
    };
  }
  return fake;
}

test("the kind of play follows the route's parameters", () => {
  assert.equal(playKind({ draft: draftPack }), "draft");
  assert.equal(playKind({ share: "" }), "shared");
  assert.equal(playKind({ pack: "tutorial", level: "walls" }), "level");
});

test("each kind of play goes back to where it came from and names that place", () => {
  const went = [];
  const navigate = (path) => went.push(path);
  const level = playRoutes("level", { pack: "a b", level: "c/d" }, { navigate });
  level.backToMap();
  level.playAgain();
  level.nextLevel({ pack: "x", level: "y z" });
  const shared = playRoutes("shared", { share: "CODE" }, { navigate });
  shared.backToMap();
  shared.playAgain();
  playRoutes("draft", { draft: draftPack }, { navigate }).backToMap();
  let editorWasAsked = false;
  playRoutes("draft", { draft: draftPack }, { navigate, onBack: () => (editorWasAsked = true) }).backToMap();
  assert.deepEqual(went, ["/world/a%20b", "/play/a%20b/c%2Fd", "/play/x/y%20z", "/worlds", "/shared/CODE", "/edit"]);
  assert.ok(editorWasAsked);
  assert.deepEqual([level.backWord, level.mapLabel], [" Levels", "Back to the map"]);
  assert.deepEqual([shared.backWord, shared.mapLabel], [" Worlds", "Back to worlds"]);
});

test("a draft is served as the API would serve its world and level", () => {
  const { world, level } = draftWorldAndLevel(draftPack);
  assert.deepEqual(world.palette, {
    MIAU: { glyph: "🐈", faces: null },
    BELL: { glyph: "🔔", faces: { left: "x" } },
  });
  assert.equal(world.glossary.TICK.describe, "Ticks.");
  assert.deepEqual(level.properties.slice(-3), ["TICK", "HOT", "MELT"]);
  assert.equal(level.tier, "required");
  assert.equal(level.next, null);
});

test("only the stored switch opens every level, and refused storage opens none", () => {
  const storage = new MemoryStorage();
  assert.equal(unlockedEverywhere(storage), false);
  storage.setItem("miau.unlockAll", "1");
  assert.equal(unlockedEverywhere(storage), true);
  assert.equal(unlockedEverywhere({ getItem: () => { throw new Error("refused"); } }), false);
});

test("a locked level opens no game unless every level is unlocked", async () => {
  const api = { world: async () => ({ name: "W" }), level: async () => ({ title: "L", locked: true }) };
  const port = recorder(["open"], { open: { state: {}, resumed: false } });
  const locked = await openLevel("level", { pack: "w", level: "l" }, { api, port, signal: live, storage: new MemoryStorage() });
  assert.equal(locked.locked, true);
  assert.deepEqual(port.calls, []);
  const storage = new MemoryStorage();
  storage.setItem("miau.unlockAll", "1");
  const opened = await openLevel("level", { pack: "w", level: "l" }, { api, port, signal: live, storage });
  assert.equal(opened.locked, undefined);
  assert.deepEqual(port.calls, [["open", { pack: "w", level: "l" }]]);
});

test("a scene left while the level loads opens no game", async () => {
  const signal = { aborted: false };
  const api = { openShared: async () => { signal.aborted = true; return { world: {}, level: {} }; } };
  const port = recorder(["open"]);
  assert.equal(await openLevel("shared", { share: "C" }, { api, port, signal }), null);
  assert.deepEqual(port.calls, []);
});

test("a shared level and a draft open their own kind of game", async () => {
  const port = recorder(["open"], { open: (target) => ({ state: { target }, resumed: false }) });
  const api = { openShared: async () => ({ world: { name: "S" }, level: { title: "T" } }) };
  const shared = await openLevel("shared", { share: "C" }, { api, port, signal: live });
  const draft = await openLevel("draft", { draft: draftPack }, { api, port, signal: live });
  assert.deepEqual(shared.opened.state.target, { share: "C" });
  assert.deepEqual(draft.opened.state.target, { draft: draftPack });
  assert.equal(draft.level.title, "One");
});

test("a resumed game says where it stands, and a set-aside save says why", () => {
  assert.deepEqual(openingNotes({ resumed: false, state: { moveCount: 0 } }), []);
  assert.deepEqual(openingNotes({ resumed: true, state: { moveCount: 0 } }), []);
  const [resumed, notice] = openingNotes({ resumed: true, state: { moveCount: 7 }, notice: "Set aside." });
  assert.equal(resumed[0], "Resumed at move 7. Restart with R.");
  assert.deepEqual(notice, ["Set aside.", { tone: "error", duration: 10000 }]);
});

test("on a touch screen the resumed game's note names no key", () => {
  const [resumed] = openingNotes({ resumed: true, state: { moveCount: 3 } }, { touchScreen: true });
  assert.equal(resumed[0], "Resumed at move 3. Restart is in the top bar.");
});

test("Back leaves, a won level takes no more moves, and a final restart asks first", () => {
  const controller = recorder(["request"]);
  controller.restartIsFinal = false;
  let won = false;
  const left = [];
  const asked = [];
  const route = intentRouter({
    controller,
    isWon: () => won,
    backToMap: () => left.push("map"),
    askThenRestart: (intent) => asked.push(intent),
  });
  route({ intent: "step", direction: "up" }, { repeat: true });
  route({ intent: "reset" }, { repeat: false });
  controller.restartIsFinal = true;
  route({ intent: "reset" }, { repeat: false });
  won = true;
  route({ intent: "wait" }, { repeat: false });
  route({ intent: "back" }, { repeat: false });
  assert.deepEqual(controller.calls, [
    ["request", { intent: "step", direction: "up" }, { repeat: true }],
    ["request", { intent: "reset" }, { repeat: false }],
  ]);
  assert.deepEqual(asked, [{ intent: "reset" }]);
  assert.deepEqual(left, ["map"]);
});

test("a final restart happens only on a yes, with the controls off while asking", async () => {
  for (const answer of [true, false]) {
    const controller = recorder(["request"]);
    controller.state = { moveCount: 1 };
    const controls = recorder(["setEnabled"]);
    const questions = [];
    const ask = restartQuestion({
      controller,
      controls,
      confirm: async (question) => (questions.push(question), answer),
      signal: live,
    });
    await Promise.all([ask({ intent: "reset" }), ask({ intent: "reset" })]);
    assert.equal(questions.length, 1, "one question at a time");
    assert.match(questions[0].text, /the 1 move made before/);
    assert.deepEqual(controls.calls, [["setEnabled", false], ["setEnabled", true]]);
    assert.equal(controller.calls.length, answer ? 1 : 0);
  }
});

test("a shared level shares its own code; a level and a draft are encoded", async () => {
  const encoded = [];
  const api = {
    levelPack: async (pack, level) => ({ pack, level }),
    encodeShare: async (onePack) => (encoded.push(onePack), { code: "NEW" }),
  };
  assert.equal(await shareCodeFor("shared", { share: "OWN" }, api), "OWN");
  assert.equal(await shareCodeFor("level", { pack: "p", level: "l" }, api), "NEW");
  assert.equal(await shareCodeFor("draft", { draft: draftPack }, api), "NEW");
  assert.deepEqual(encoded, [{ pack: "p", level: "l" }, draftPack]);
});

function shareRig({ won = false, covered = false, dialog = async () => {} } = {}) {
  const rig = {
    root: { dataset: {} },
    button: new FakeTarget(),
    keys: new FakeTarget(),
    controls: recorder(["setEnabled"]),
    dialogs: [],
    toasts: [],
  };
  bindShare({
    ...rig,
    code: async () => "CODE",
    link: (code) => `https://miau.example/#/shared/${code}`,
    dialog: async (what) => (rig.dialogs.push(what), dialog()),
    title: "One",
    isWon: () => won,
    isCovered: () => covered,
    toast: (text) => rig.toasts.push(text),
    signal: live,
  });
  return rig;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("Share shows the level's link with the controls off, and gives them back after", async () => {
  const rig = shareRig();
  rig.button.fire("click");
  rig.button.fire("click"); // a second click while the dialog is open does nothing
  await settle();
  assert.deepEqual(rig.dialogs.map((what) => [what.title, what.link]), [["One", "https://miau.example/#/shared/CODE"]]);
  assert.deepEqual(rig.controls.calls, [["setEnabled", false], ["setEnabled", true]]);
  assert.equal(rig.root.dataset.sharing, "false");
});

test("the share key works unmodified, not over the win card, and a won level keeps its controls off", async () => {
  const rig = shareRig({ won: true });
  assert.equal(rig.keys.fire("keydown", { key: SHARE_KEY.toUpperCase(), ctrlKey: true }).defaultPrevented, false);
  assert.equal(rig.keys.fire("keydown", { key: SHARE_KEY.toUpperCase() }).defaultPrevented, true);
  await settle();
  assert.equal(rig.dialogs.length, 1);
  assert.deepEqual(rig.controls.calls, [["setEnabled", false]]);
  const covered = shareRig({ covered: true });
  assert.equal(covered.keys.fire("keydown", { key: SHARE_KEY }).defaultPrevented, false);
  await settle();
  assert.equal(covered.dialogs.length, 0);
});

test("a level that cannot be shared says why", async () => {
  const rig = shareRig({ dialog: async () => { throw new Error("Too big to share."); } });
  rig.button.fire("click");
  await settle();
  assert.deepEqual(rig.toasts, ["Too big to share."]);
  assert.deepEqual(rig.controls.calls, [["setEnabled", false], ["setEnabled", true]]);
});

test("a declared word is new the first time only, and core words are never listed", () => {
  const storage = new MemoryStorage();
  const seen = new SeenWords(storage);
  const vocabulary = new Vocabulary({ automata: [{ property: "TICK" }], pairs: [{ words: ["HOT", "MELT"] }] });
  const words = (...texts) => texts.map((text) => ({ kind: "word", text }));
  const first = seen.meet([...words("TICK", "YOU", "TICK", "HOT"), { kind: "object", text: "MELT" }], vocabulary);
  assert.deepEqual(first.declared, ["TICK", "HOT"]);
  assert.deepEqual([...first.fresh], ["TICK", "HOT"]);
  const again = new SeenWords(storage).meet(words("HOT", "MELT"), vocabulary);
  assert.deepEqual(again.declared, ["HOT", "MELT"]);
  assert.deepEqual([...again.fresh], ["MELT"]);
  const refused = new SeenWords({ getItem: () => "not json", setItem: () => { throw new Error("full"); } });
  assert.deepEqual([...refused.meet(words("HOT"), vocabulary).fresh], ["HOT"]);
});

test("a refused share link offers no retry and blames the link; a server failure offers one", () => {
  const link = openFailure("shared", { status: 400, message: "Damaged link.", body: { problems: [1, 2] } });
  assert.deepEqual(
    [link.refusedLink, link.retry, link.failure, link.title, link.worldName, link.problems.length],
    [true, false, "link", "A shared link", "Shared level", 2],
  );
  assert.equal(link.heading, "This link does not open a level");
  const down = openFailure("shared", { status: 503 });
  assert.deepEqual([down.refusedLink, down.retry, down.failure], [false, true, "open"]);
  assert.equal(down.message, "Something went wrong.");
  const draft = openFailure("draft", { status: 422 });
  assert.deepEqual([draft.retry, draft.title, draft.worldName], [false, "Draft", null]);
  const unknown = openFailure("level", null, "no-such-level");
  assert.equal(unknown.heading, "This level could not be opened");
  assert.equal(unknown.title, "no-such-level", "the top bar does not repeat the card's heading");
});

test("a refused link's problems the server left out are counted; a count that is no number is none", () => {
  const body = { problems: [1, 2], moreProblems: 4074 };
  const link = openFailure("shared", { status: 400, message: "This shared level cannot be played.", body });
  assert.deepEqual([link.problems.length, link.moreProblems], [2, 4074]);
  const odd = openFailure("shared", { status: 400, body: { problems: [], moreProblems: "many" } });
  assert.equal(odd.moreProblems, 0);
  assert.equal(openFailure("shared", { status: 400, body: {} }).moreProblems, 0);
});

test("the last level of a world, or the win completing its required levels, asks for the world's moment; a failed request shows none", async () => {
  const worlds = [{ id: "w", required: 2, won: 2, levels: 2 }, { id: "v", required: 1, won: 0, levels: 1 }];
  let asked = 0;
  const api = { worlds: async () => (asked++, worlds) };
  assert.equal(await completionAfter("level", { next: { pack: "w", level: "b" } }, "w", api), null);
  assert.equal(await completionAfter("draft", { next: null }, null, api), null);
  assert.equal(asked, 0);
  const done = await completionAfter("level", { next: { pack: "v", level: "a" } }, "w", api);
  assert.deepEqual([done.complete, done.nextWorld.id], [true, "v"]);
  const world = { levels: [{ id: "a", tier: "required", won: true }, { id: "b", tier: "required", won: false }] };
  const completes = await completionAfter("level", { id: "b", next: { pack: "w", level: "c" } }, "w", api, world);
  assert.equal(completes.world.id, "w");
  assert.equal(asked, 2);
  const failing = { worlds: async () => { throw new Error("offline"); } };
  assert.equal(await completionAfter("level", { next: null }, "w", failing), null);
});

test("a win turns the controls off at once and waits for the slide before the card", () => {
  const controls = recorder(["setEnabled"]);
  const waiting = [];
  const win = new WinCeremony({
    root: {},
    level: { title: "One", next: null },
    routes: {},
    onReplay: () => {},
    controls,
    moves: () => 3,
    completion: () => Promise.resolve(null),
    clearToasts: () => {},
    delay: (open) => waiting.push(open),
    signal: live,
  });
  assert.deepEqual([win.won, win.shown], [false, false]);
  win.show({ bestMoves: 2 });
  assert.deepEqual([win.won, win.shown], [true, false]);
  assert.deepEqual(controls.calls, [["setEnabled", false]]);
  assert.equal(waiting.length, 1);
  win.resume();
  assert.equal(win.won, false);
});

test("playing a draft again closes the card, reopens the draft and gives the controls back", async () => {
  const events = [];
  const win = { close: () => events.push("close"), resume: () => events.push("resume") };
  const controls = { setEnabled: (on) => events.push(`controls ${on}`) };
  await restartDraft({
    win,
    reopen: async () => (events.push("reopen"), { state: "fresh" }),
    start: (state) => events.push(`start ${state}`),
    controls,
    signal: live,
    toast: (text) => events.push(text),
  });
  assert.deepEqual(events, ["close", "reopen", "resume", "start fresh", "controls true"]);
  const failed = [];
  await restartDraft({
    win: { close: () => {}, resume: () => failed.push("resume") },
    reopen: async () => { throw new Error("Gone."); },
    start: () => failed.push("start"),
    controls,
    signal: live,
    toast: (text) => failed.push(text),
  });
  assert.deepEqual(failed, ["Gone."]);
});

test("moves pressed before the game is open are played in order once it is, and Back leaves at once", () => {
  const played = [];
  const held = [];
  let left = 0;
  const early = new EarlyIntents({ onBack: () => (left += 1), onHeld: (count) => held.push(count), limit: 3 });
  early.take({ intent: "step", direction: "right" });
  early.take({ intent: "step", direction: "right" }, { repeat: true }); // a held key's repeat: not kept
  early.take({ intent: "undo" });
  early.take({ intent: "back" });
  early.take({ intent: "wait" });
  early.take({ intent: "step", direction: "up" }); // past the limit
  assert.equal(left, 1);
  assert.deepEqual(held, [1, 2, 3]);
  assert.deepEqual(played, []);

  early.release((intent, options) => played.push([intent, options]));
  assert.deepEqual(
    played.map(([intent]) => intent),
    [{ intent: "step", direction: "right" }, { intent: "undo" }, { intent: "wait" }],
  );
  assert.ok(played.every(([, options]) => options.repeat === false));
  assert.equal(held.at(-1), 0);

  early.take({ intent: "back" }, { repeat: false });
  assert.equal(left, 1, "once open, Back goes to the game's own route");
  assert.deepEqual(played.at(-1)[0], { intent: "back" });
});

test("moves held for a level that cannot be played are forgotten", () => {
  const played = [];
  const early = new EarlyIntents({ onBack: () => {} });
  early.take({ intent: "step", direction: "left" });
  early.discard();
  early.release((intent) => played.push(intent));
  assert.deepEqual(played, []);
});

const { hintsOf, hintButtonLabel, HINT_KEY } = await import("../../src/miau/web/js/play/hint-panel.js");

test("a level's hints are its hints list, else its one hint, blank ones dropped", () => {
  assert.deepEqual(hintsOf({ hint: "Look.", hints: ["Look.", "Break it."] }), ["Look.", "Break it."]);
  assert.deepEqual(hintsOf({ hint: "Look." }), ["Look."]);
  assert.deepEqual(hintsOf({ hint: null, hints: [] }), []);
  assert.deepEqual(hintsOf({ hint: "  " }), []);
  assert.deepEqual(hintsOf({}), []);
});

test("the Hint button offers a hint, then another, then says there are no more", () => {
  assert.equal(hintButtonLabel(0, 2), "Show a hint");
  assert.equal(hintButtonLabel(1, 2), "Another hint");
  assert.equal(hintButtonLabel(2, 2), "No more hints");
  assert.equal(hintButtonLabel(1, 1), "No more hints");
  assert.equal(HINT_KEY, "h");
});

test("a draft made of a pack level keeps every hint of it", () => {
  const { level } = draftWorldAndLevel({
    manifest: {},
    levels: [{ id: "one", title: "One", hints: ["Look.", "Break it."], width: 1, height: 1, objects: [] }],
  });
  assert.equal(level.hint, "Look.");
  assert.deepEqual(level.hints, ["Look.", "Break it."]);
});
