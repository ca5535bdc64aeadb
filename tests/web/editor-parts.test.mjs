// The editor's parts that decide something, in Node with fakes: its keys,
// its tabs, where a loader problem is shown, the way back, a copied
// level's draft, the words a draft draws with, and the forms' rules for
// new automata and pairs.

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeTarget, MemoryStorage } from "./support.mjs";

globalThis.localStorage = new MemoryStorage();

const { editorKey, isTyping } = await import("../../src/miau/web/js/editor/keys.js");
const { TABS, neighbourTab } = await import("../../src/miau/web/js/editor/tabs.js");
const { placeShower, placeTarget } = await import("../../src/miau/web/js/editor/places.js");
const { CameFrom } = await import("../../src/miau/web/js/editor/came-from.js");
const { copyManifest, openLevelCopy } = await import("../../src/miau/web/js/editor/level-copy.js");
const { draftWords } = await import("../../src/miau/web/js/editor/draft-view.js");
const { EditorModes } = await import("../../src/miau/web/js/editor/modes.js");
const { bindEditorClicks } = await import("../../src/miau/web/js/editor/actions.js");
const { fieldForPlace } = await import("../../src/miau/web/js/editor/forms.js");
const { automatonPropertyProblem, newAutomaton } = await import("../../src/miau/web/js/editor/automata-form.js");
const { addPair, pairWordProblem } = await import("../../src/miau/web/js/editor/pairs-form.js");
const { COMFORTABLE_SIZE, sizeCost, wantedSize } = await import("../../src/miau/web/js/editor/level-form.js");
const { MAX_SIZE, MIN_SIZE, VOCABULARY_1, emptyPack } = await import("../../src/miau/web/js/editor/draft.js");

/** An element as the editor's listeners see it: `closest(selector)` answers from `matches`. */
function fakeElement(matches = {}) {
  const element = { dataset: {}, closest: (selector) => (matches[selector] ? element : null) };
  return element;
}

const TEXT_FIELD = "input, textarea, select, [contenteditable='true']";

/** The editor the keys drive, recording what each key made it do. */
function editorRig({ playing = false, dialog = false } = {}) {
  const did = [];
  const record = (name) => (...args) => did.push([name, ...args]);
  return {
    did,
    isPlaying: () => playing,
    dialogOpen: () => dialog,
    undo: record("undo"),
    redo: record("redo"),
    enterPlay: record("enterPlay"),
    exitPlay: record("exitPlay"),
    back: record("back"),
    focusGrid: record("focusGrid"),
    grid: {
      carry: record("carry"),
      moveCursor: record("moveCursor"),
      useToolAtCursor: record("useToolAtCursor"),
      eraseAtCursor: record("eraseAtCursor"),
    },
    palette: { pickByKey: record("pickByKey"), cycle: record("cycle") },
  };
}

/** Presses `key` (with the event's `fields`) in an editor rig: what it did, and whether the key was taken. */
function pressed(key, fields = {}, options = {}) {
  const editor = editorRig(options);
  const event = {
    key,
    target: fakeElement(),
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
    ...fields,
  };
  editorKey(event, editor);
  return { did: editor.did, prevented: event.defaultPrevented };
}

test("while editing, the grid's keys move, carry, paint, erase, pick and test-play", () => {
  assert.deepEqual(pressed("ArrowLeft").did, [["moveCursor", -1, 0], ["focusGrid"]]);
  assert.deepEqual(pressed("ArrowDown", { shiftKey: true }).did, [["carry", 0, 1], ["focusGrid"]]);
  assert.deepEqual(pressed("Enter").did, [["useToolAtCursor"]]);
  assert.deepEqual(pressed(" ").did, [["useToolAtCursor"]]);
  assert.deepEqual(pressed("Delete").did, [["eraseAtCursor"]]);
  assert.deepEqual(pressed("Backspace").did, [["eraseAtCursor"]]);
  assert.deepEqual(pressed("3").did, [["pickByKey", "3"]]);
  assert.deepEqual(pressed("[").did, [["cycle", -1]]);
  assert.deepEqual(pressed("]").did, [["cycle", 1]]);
  assert.deepEqual(pressed("t").did, [["enterPlay"]]);
  assert.deepEqual(pressed("T", { shiftKey: true }).did, []);
  assert.equal(pressed("ArrowUp").prevented, true);
});

test("on a button the arrows keep its focus and Enter, Space and Backspace are the button's", () => {
  const button = fakeElement({ "button, a": true });
  assert.deepEqual(pressed("ArrowRight", { target: button }).did, [["moveCursor", 1, 0]]);
  for (const key of ["Enter", " ", "Backspace"]) assert.deepEqual(pressed(key, { target: button }).did, [], key);
  assert.deepEqual(pressed("Delete", { target: button }).did, [["eraseAtCursor"]]);
});

test("undo and redo take Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y, but not in a text field", () => {
  assert.deepEqual(pressed("z", { ctrlKey: true }).did, [["undo"]]);
  assert.deepEqual(pressed("Z", { metaKey: true, shiftKey: true }).did, [["redo"]]);
  assert.deepEqual(pressed("y", { ctrlKey: true }).did, [["redo"]]);
  assert.deepEqual(pressed("z", { ctrlKey: true, altKey: true }).did, []);
  const field = fakeElement({ [TEXT_FIELD]: true });
  const typed = pressed("z", { ctrlKey: true, target: field });
  assert.deepEqual([typed.did, typed.prevented], [[], false]);
});

test("Escape leaves a text field for the grid, then the editor; an open dialog keeps it", () => {
  const field = fakeElement({ [TEXT_FIELD]: true });
  assert.deepEqual(pressed("Escape", { target: field }).did, [["focusGrid"]]);
  assert.deepEqual(pressed("Escape").did, [["back"]]);
  assert.deepEqual(pressed("Escape", {}, { dialog: true }).did, []);
  assert.deepEqual(pressed("Escape", { defaultPrevented: true }).did, []);
  assert.deepEqual(pressed("t", { target: field }).did, [], "typing a T is typing");
});

test("during test-play only T answers, and it goes back to editing", () => {
  assert.deepEqual(pressed("t", {}, { playing: true }).did, [["exitPlay"]]);
  assert.deepEqual(pressed("t", { ctrlKey: true }, { playing: true }).did, []);
  for (const key of ["ArrowUp", "z", "Escape", "1"]) assert.deepEqual(pressed(key, {}, { playing: true }).did, []);
});

test("a key on something that is not an element is not typing", () => {
  assert.equal(isTyping(null), false);
  assert.equal(isTyping({}), false);
  assert.equal(isTyping(fakeElement({ [TEXT_FIELD]: true })), true);
});

test("the tabs' arrows wrap around at both ends", () => {
  const names = TABS.map(([name]) => name);
  assert.equal(neighbourTab(names[0], -1), names.at(-1));
  assert.equal(neighbourTab(names.at(-1), 1), names[0]);
  assert.equal(neighbourTab("level", 1), "parts");
});

test("a tile's place flags it on the grid; a clockwork place opens its tab and its control", () => {
  assert.deepEqual(placeTarget("levels[0].objects[12].x"), { object: 12 });
  assert.deepEqual(placeTarget("levels[0].automata[1].pattern[0]"), { tab: "parts" });
  assert.deepEqual(placeTarget("properties.TICK.accent"), { tab: "parts" });
  assert.deepEqual(placeTarget("levels[0].width"), { tab: "level" });
  const shown = [];
  const show = placeShower({
    grid: { flagIndex: (index) => (shown.push(["tile", index]), true) },
    forms: { focusPlace: (place) => (shown.push(["control", place]), false) },
    selectTab: (tab, options) => shown.push(["tab", tab, options]),
  });
  assert.equal(show("levels[0].objects[3]"), true);
  assert.equal(show("levels[0].pairs[0].words[1]"), false);
  assert.deepEqual(shown, [
    ["tile", 3],
    ["tab", "parts", { focus: false }],
    ["control", "levels[0].pairs[0].words[1]"],
  ]);
});

test("the way back leads to the level select the level came from, else to worlds", () => {
  const cameFrom = new CameFrom(new MemoryStorage());
  assert.deepEqual([cameFrom.backRoute(), cameFrom.backWord()], ["/worlds", " Worlds"]);
  cameFrom.remember("my pack", "one");
  assert.deepEqual(cameFrom.load(), { pack: "my pack", level: "one" });
  assert.deepEqual([cameFrom.backRoute(), cameFrom.backWord()], ["/world/my%20pack", " Levels"]);
  const refused = new CameFrom({ getItem: () => "{", setItem: () => { throw new Error("refused"); } });
  refused.remember("p", "l");
  assert.equal(refused.backRoute(), "/worlds");
});

test("a copied level becomes the draft under a draft's manifest, keeping its features", async () => {
  assert.deepEqual(copyManifest({ manifest: { id: "clockwork", features: [VOCABULARY_1] } }), {
    id: "draft",
    name: "Draft",
    version: "1.0.0",
    engine: 1,
    features: [VOCABULARY_1],
  });
  const replaced = [];
  const opened = [];
  const toasts = [];
  const addresses = [];
  const cameFrom = new CameFrom(new MemoryStorage());
  const onePack = { manifest: { id: "clockwork" }, levels: [{ title: "Tick" }] };
  await openLevelCopy(
    { pack: "clockwork", level: "tick" },
    {
      api: { levelPack: async () => onePack },
      draft: {
        pack: emptyPack(),
        replace: (pack) => replaced.push(pack),
        markOpened: (pack, level) => opened.push([pack, level]),
      },
      cameFrom,
      toast: (text, options) => toasts.push([text, options]),
      history: { replaceState: (_state, _title, address) => addresses.push(address) },
      signal: { aborted: false },
    },
  );
  assert.equal(replaced[0].manifest.id, "draft");
  assert.equal(replaced[0].levels, onePack.levels);
  assert.deepEqual(opened, [["clockwork", "tick"]], "an untouched copy is no work to lose");
  assert.match(toasts[0][0], /Editing a copy of “Tick”/);
  assert.deepEqual(addresses, ["#/edit"]);
  assert.deepEqual(cameFrom.load(), { pack: "clockwork", level: "tick" });
});

test("a level that cannot be copied leaves the draft alone and says why", async () => {
  const toasts = [];
  const addresses = [];
  await openLevelCopy(
    { pack: "gone", level: "x" },
    {
      api: { levelPack: async () => { throw new Error("No such level."); } },
      draft: { replace: () => assert.fail("the draft must stay") },
      cameFrom: new CameFrom(new MemoryStorage()),
      toast: (text, options) => toasts.push([text, options]),
      history: { replaceState: (_state, _title, address) => addresses.push(address) },
      signal: { aborted: false },
    },
  );
  assert.deepEqual(toasts, [["No such level.", { tone: "error" }]]);
  assert.deepEqual(addresses, ["#/edit"]);
});

test("a draft draws the Tier-1 words only when it asks for them and they are known", () => {
  const pack = emptyPack();
  pack.levels[0].automata = [{ id: "a01", property: "TICK", phase: 0, pattern: ["L"] }];
  const tier1 = { operators: ["NOT"], nouns: ["TEXT"], properties: ["MOVE"], glossary: { MOVE: { describe: "Moves." } } };
  const without = draftWords(pack, pack.levels[0], { [VOCABULARY_1]: tier1 });
  assert.deepEqual(without.builtIn, []);
  assert.deepEqual(without.declared, ["TICK"]);
  assert.equal(without.vocabulary.classOf("NOT"), "noun");
  pack.manifest.features = [VOCABULARY_1];
  assert.deepEqual(draftWords(pack, pack.levels[0], null).builtIn, []);
  const withWords = draftWords(pack, pack.levels[0], { [VOCABULARY_1]: tier1 });
  assert.deepEqual(withWords.builtIn, ["NOT", "TEXT", "MOVE"]);
  assert.equal(withWords.vocabulary.classOf("NOT"), "operator");
  assert.equal(withWords.vocabulary.describe("MOVE"), "Moves.");
  assert.notEqual(withWords.wordsKey, without.wordsKey);
});

test("a draft draws the core properties as property tiles, with or without the Tier-1 words", () => {
  const pack = emptyPack();
  const tier1 = { operators: ["NOT"], nouns: ["TEXT"], properties: ["MOVE"], glossary: {} };
  for (const known of [null, { [VOCABULARY_1]: tier1 }]) {
    for (const features of [[], [VOCABULARY_1]]) {
      pack.manifest.features = features;
      const { vocabulary } = draftWords(pack, pack.levels[0], known);
      for (const word of ["YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"]) {
        assert.equal(vocabulary.classOf(word), "property", `${word} with ${JSON.stringify(features)}`);
        assert.equal(vocabulary.accentOf(word), word.toLowerCase());
      }
    }
  }
});

test("the palette is redrawn when a word tile joins the grid, the grid only when words or glyphs change", () => {
  const pack = emptyPack();
  const level = pack.levels[0];
  const before = draftWords(pack, level, null);
  level.objects.push({ kind: "word", text: "MIAU", x: 0, y: 0 });
  const withWord = draftWords(pack, level, null);
  assert.equal(withWord.boardKey, before.boardKey);
  assert.notEqual(withWord.paletteKey, before.paletteKey);
  pack.palette.BELL = "🔔";
  assert.notEqual(draftWords(pack, level, null).boardKey, before.boardKey);
});

test("test-play starts on the draft as it is, and going back to editing redraws once", () => {
  const did = [];
  const page = { playing: false, showPlay: (on) => ((page.playing = on), did.push(`show ${on}`)) };
  const modes = new EditorModes({
    page,
    testPlay: {
      start: (pack, vocabulary, palette, options) => did.push(`start ${pack} ${options.replay}`),
      stop: () => did.push("stop"),
    },
    draft: { endStroke: () => did.push("endStroke") },
    game: () => ({ pack: "P", vocabulary: null, palette: {} }),
    onEdit: () => did.push("edit"),
  });
  modes.exitPlay();
  modes.toggle();
  modes.enterPlay({ replay: "RR" });
  modes.toggle();
  assert.deepEqual(did, [
    "endStroke",
    "show true",
    "start P null",
    "stop",
    "endStroke",
    "show true",
    "start P RR",
    "stop",
    "show false",
    "edit",
  ]);
});

test("a click on a tab selects it; a click on a top-bar button does its action", () => {
  const root = new FakeTarget();
  const inside = new Set();
  root.contains = (element) => inside.has(element);
  const selected = [];
  const done = [];
  bindEditorClicks(root, { selectTab: (name) => selected.push(name), actions: { check: () => done.push("check") } }, {});
  const tab = fakeElement({ ".tab[data-tab]": true });
  tab.dataset.tab = "solve";
  inside.add(tab);
  root.fire("click", { target: tab });
  const button = fakeElement({ ".editor-topbar [data-action]": true });
  button.dataset.action = "check";
  root.fire("click", { target: button });
  button.dataset.action = "unknown";
  root.fire("click", { target: button });
  root.fire("click", { target: null });
  assert.deepEqual([selected, done], [["solve"], ["check"]]);
});

test("a loader place finds its own control, else the one it lies in, else the first inside it", () => {
  const names = ["title", "automata", "automata[0]", "automata[0].pattern", "automata[0].pattern[1]", "pairs[0].words[0]"];
  const fields = names.map((name) => ({ dataset: { field: name } }));
  const find = (place, options) => fieldForPlace(fields, place, options)?.dataset.field ?? null;
  assert.equal(find("levels[0].title"), "title");
  assert.equal(find("levels[0].automata[0].pattern[1]"), "automata[0].pattern[1]");
  assert.equal(find("levels[0].automata[0].pattern[7]"), "automata[0].pattern");
  assert.equal(find("levels[0].automata[0].phase"), "automata[0]");
  assert.equal(find("levels[0].pairs"), "pairs[0].words[0]");
  assert.equal(find("levels[0].automata[0].phase", { exact: true }), null);
  assert.equal(find("levels[0].hint"), null);
});

test("a new automaton takes a free id, the first automaton's word and a subject that is not MIAU", () => {
  const level = emptyPack().levels[0];
  level.automata = [];
  const first = newAutomaton(level, ["MIAU", "MOUSE"]);
  assert.deepEqual(first, { id: "a01", property: "TICK", phase: 0, pattern: ["L", "R"], subject: "MOUSE" });
  level.automata.push({ ...first, id: "a02", property: "TOCK" });
  const second = newAutomaton(level, []);
  assert.deepEqual([second.id, second.property, "subject" in second], ["a03", "TOCK", false]);
  assert.equal(newAutomaton(level, ["MIAU"]).subject, "MIAU");
});

test("an automaton's word must be a word of the level's own, not a noun or a pair's", () => {
  const level = emptyPack().levels[0];
  level.objects.push({ kind: "object", noun: "BELL", x: 0, y: 0 });
  level.pairs = [{ words: ["HOT", "MELT"] }];
  assert.equal(automatonPropertyProblem(level, "TICK"), null);
  assert.match(automatonPropertyProblem(level, "tick"), /capital letter/);
  assert.match(automatonPropertyProblem(level, "YOU"), /word of the game/);
  assert.match(automatonPropertyProblem(level, "BELL"), /noun of a thing/);
  assert.match(automatonPropertyProblem(level, "MELT"), /pair word/);
});

test("a new pair takes the first idea the level accepts, and none when every idea is taken", () => {
  const level = emptyPack().levels[0];
  level.automata = [{ property: "OPEN", pattern: ["L"] }];
  assert.equal(addPair(level), true);
  assert.deepEqual(level.pairs[0].words, ["HOT", "MELT"]);
  assert.match(pairWordProblem(level, 0, 1, "HOT"), /must differ/);
  assert.match(pairWordProblem(level, 0, 0, "OPEN"), /automaton's word/);
  level.pairs.push({ words: ["X", "Y"] });
  assert.match(pairWordProblem(level, 1, 0, "MELT"), /earlier pair/);
  level.pairs.pop();
  const full = emptyPack().levels[0];
  full.automata = ["OPEN", "HOT", "KEY", "LIGHT"].map((property) => ({ property, pattern: ["L"] }));
  assert.equal(addPair(full), false);
  assert.equal("pairs" in full, false, "the level is as it was");
});

test("a typed size is rounded into the limits, and nonsense keeps the current size", () => {
  assert.equal(wantedSize("12.4", 7), 12);
  assert.equal(wantedSize("0", 7), 7);
  assert.equal(wantedSize("-3", 7), MIN_SIZE);
  assert.equal(wantedSize("9999", 7), MAX_SIZE);
  assert.equal(wantedSize("abc", 7), 7);
});

test("a size past the comfortable one, either way, is told what it costs; a comfortable one is not", () => {
  assert.equal(sizeCost(COMFORTABLE_SIZE, COMFORTABLE_SIZE), "");
  for (const [width, height] of [
    [COMFORTABLE_SIZE + 1, 7],
    [9, COMFORTABLE_SIZE + 1],
  ]) {
    const cost = sizeCost(width, height);
    for (const words of ["cells are small", "scrolls", "solving and checking it take longer"]) {
      assert.ok(cost.includes(words), `${width} by ${height}: "${words}" in "${cost}"`);
    }
  }
});
