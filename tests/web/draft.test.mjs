// The editor draft's id rules, its undo and redo (kept across a reload) and
// what counts as unsaved work, in Node (no page): the draft keeps its copy in
// localStorage, so the test gives it an in-memory one.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { MemoryStorage } from "./support.mjs";

globalThis.localStorage = new MemoryStorage();

const {
  DRAFT_KEY,
  Draft,
  HISTORY_KEY,
  STORED_HISTORY_LIMIT,
  emptyPack,
  hasUnsavedWork,
  idFollowsTitle,
  isLevelId,
  isPackId,
  levelIdFromTitle,
  loadStoredHistory,
  loadStoredPack,
  normalisePack,
  packIdFromName,
  sameLevel,
  storedHistoryText,
} = await import("../../src/miau/web/js/editor/draft.js");

beforeEach(() => localStorage.clear());

test("a title suggests a valid level id", () => {
  const cases = {
    "Flag run": "flag-run",
    "  Flag   run!  ": "flag-run",
    "Écluse d'été": "ecluse-d-ete",
    "2 rooms": "level-2-rooms",
    "???": "level",
    "": "level",
    [`A${"b".repeat(80)}`]: `a${"b".repeat(63)}`,
  };
  for (const [title, id] of Object.entries(cases)) {
    assert.equal(levelIdFromTitle(title), id, title);
    assert.ok(isLevelId(levelIdFromTitle(title)), title);
  }
});

test("a new level's id follows its title until an id is typed", () => {
  const draft = new Draft(emptyPack());
  assert.equal(draft.level.id, "my-level");
  assert.ok(idFollowsTitle(draft.level));
  draft.setTitle("Flag run");
  assert.equal(draft.level.id, "flag-run");
  draft.setTitle("Flag run two");
  assert.equal(draft.level.id, "flag-run-two");
  draft.edit((pack) => {
    pack.levels[0].id = "chosen";
  });
  draft.setTitle("Something else");
  assert.equal(draft.level.id, "chosen");
  assert.equal(draft.level.title, "Something else");
});

test("undo and redo walk the edits back and forth, and a new edit clears redo", () => {
  const draft = new Draft(emptyPack());
  draft.setTitle("One");
  draft.place({ kind: "object", noun: "MIAU" }, 1, 1);
  draft.place({ kind: "word", text: "YOU" }, 2, 1);
  assert.equal(draft.level.objects.length, 2);
  assert.ok(draft.undo());
  assert.equal(draft.level.objects.length, 1);
  assert.ok(draft.undo());
  assert.ok(draft.undo());
  assert.equal(draft.level.title, "My level");
  assert.equal(draft.level.id, "my-level");
  assert.equal(draft.undo(), false);
  assert.ok(draft.redo());
  assert.equal(draft.level.id, "one");
  draft.place({ kind: "object", noun: "FLAG" }, 0, 0);
  assert.equal(draft.canRedo, false);
  assert.equal(draft.redo(), false);
});

test("a stroke undoes as one edit and an edit that changes nothing is not recorded", () => {
  const draft = new Draft(emptyPack());
  draft.beginStroke();
  for (let x = 0; x < 4; x += 1) draft.place({ kind: "object", noun: "WALL" }, x, 0);
  draft.endStroke();
  assert.equal(draft.place({ kind: "object", noun: "WALL" }, 0, 0), false);
  assert.equal(draft.undoStack.length, 1);
  draft.undo();
  assert.equal(draft.level.objects.length, 0);
});

test("every edit is written to storage, so a reload finds it", () => {
  const draft = new Draft(emptyPack());
  draft.setTitle("Kept");
  assert.equal(JSON.parse(localStorage.getItem(DRAFT_KEY)).levels[0].id, "kept");
  draft.undo();
  assert.equal(JSON.parse(localStorage.getItem(DRAFT_KEY)).levels[0].id, "my-level");
});

test("a level with a list of hints keeps the later ones through the editor and back", async () => {
  const { normalisePack, exportPack } = await import("../../src/miau/web/js/editor/draft.js");
  const pack = normalisePack({
    manifest: { id: "p", name: "P" },
    palette: {},
    levels: [{ id: "one", title: "One", hints: ["Look.", "Break it."], width: 3, height: 1, objects: [] }],
  });
  assert.equal(pack.levels[0].hint, "Look.");
  pack.levels[0].hint = "Look closer.";
  const exported = exportPack(pack).levels[0];
  assert.deepEqual(exported.hints, ["Look closer.", "Break it."]);
  assert.equal("hint" in exported, false);
  assert.equal("laterHints" in exported, false);
  const reloaded = normalisePack(JSON.parse(JSON.stringify(pack)));
  assert.deepEqual(reloaded.levels[0].laterHints, ["Break it."], "a stored draft keeps its later hints");
  const single = normalisePack({ manifest: {}, levels: [{ id: "two", title: "Two", hint: "Only.", width: 1, height: 1, objects: [] }] });
  assert.deepEqual([exportPack(single).levels[0].hint, exportPack(single).levels[0].hints], ["Only.", undefined]);
});

test("a pack's name suggests a valid pack id", () => {
  const cases = { "My levels": "my-levels", "Cat tricks!": "cat-tricks", "Écluse": "ecluse", "2 rooms": "pack-2-rooms", A: "pack-a", "???": "pack" };
  for (const [name, id] of Object.entries(cases)) {
    assert.equal(packIdFromName(name), id, name);
    assert.ok(isPackId(packIdFromName(name)), name);
  }
});

test("the empty starter level, an untouched copy and a level unchanged since its save are no unsaved work", () => {
  const draft = new Draft(emptyPack());
  assert.equal(draft.hasUnsavedWork(), false);
  draft.place({ kind: "object", noun: "MIAU" }, 0, 0);
  assert.equal(draft.hasUnsavedWork(), true);
  draft.markSaved("my-levels", "my-level");
  assert.equal(draft.hasUnsavedWork(), false);
  draft.setTitle("Renamed");
  assert.equal(draft.hasUnsavedWork(), true);

  const copy = new Draft(emptyPack());
  copy.replace({ ...emptyPack(), levels: [{ ...emptyPack().levels[0], id: "tick", title: "Tick", objects: [{ kind: "word", text: "IS", x: 1, y: 1 }] }] });
  copy.markOpened("clockwork", "tick");
  assert.equal(hasUnsavedWork(copy.pack), false);
  copy.place({ kind: "object", noun: "FLAG" }, 2, 2);
  assert.equal(hasUnsavedWork(copy.pack), true);
  assert.equal(hasUnsavedWork(loadStoredPack()), true, "the note is stored with the draft");
});

test("two drafts of the same level are the same level, whatever notes they carry", () => {
  const one = normalisePack(emptyPack());
  const other = normalisePack({ ...emptyPack(), savedAs: { pack: "mine", level: "my-level", text: "" } });
  assert.ok(sameLevel(one, other));
  other.levels[0].width = 3;
  assert.equal(sameLevel(one, other), false);
  const words = normalisePack({ ...emptyPack(), manifest: { features: ["vocabulary-1"] } });
  assert.equal(sameLevel(one, words), false);
});

test("undo and redo survive a reload of the stored draft and its history", () => {
  const draft = new Draft(emptyPack());
  draft.setTitle("One");
  draft.setTitle("Two");
  draft.setTitle("Three");
  draft.undo();
  const again = new Draft(loadStoredPack(), { history: loadStoredHistory() });
  assert.equal(again.level.title, "Two");
  assert.ok(again.undo());
  assert.equal(again.level.title, "One");
  assert.ok(again.redo());
  assert.ok(again.redo());
  assert.equal(again.level.title, "Three");
  assert.equal(again.redo(), false);
});

test("the stored history keeps the snapshots nearest the draft, within its count and its size", () => {
  const undo = Array.from({ length: 60 }, (_, index) => JSON.stringify({ step: index }));
  const kept = JSON.parse(storedHistoryText(undo, ['{"step":"next"}']));
  assert.equal(kept.undo.length + kept.redo.length, STORED_HISTORY_LIMIT);
  assert.deepEqual(kept.undo.at(-1), { step: 59 }, "the newest undo stays");
  assert.deepEqual(kept.undo[0], { step: 11 }, "the oldest went first");
  assert.deepEqual(kept.redo, [{ step: "next" }]);
  const big = `{"pad":"${"x".repeat(900_000)}"}`;
  const bounded = JSON.parse(storedHistoryText([big, big, big], []));
  assert.equal(bounded.undo.length, 2);
});

test("a damaged or missing history starts empty, and the draft still loads", () => {
  assert.deepEqual(loadStoredHistory(), { undo: [], redo: [] });
  for (const damaged of ["{", '{"undo":"no"}', '{"undo":[{"levels":"none"}],"redo":[]}']) {
    localStorage.setItem(HISTORY_KEY, damaged);
    assert.deepEqual(loadStoredHistory(), { undo: [], redo: [] }, damaged);
  }
});

test("storage that refuses the history never costs the draft", () => {
  const real = globalThis.localStorage;
  const refusing = new MemoryStorage();
  refusing.setItem = (key, value) => {
    if (key === HISTORY_KEY) throw new Error("QuotaExceededError");
    MemoryStorage.prototype.setItem.call(refusing, key, value);
  };
  globalThis.localStorage = refusing;
  try {
    const draft = new Draft(emptyPack());
    draft.setTitle("Kept anyway");
    assert.equal(JSON.parse(refusing.getItem(DRAFT_KEY)).levels[0].title, "Kept anyway");
    assert.equal(refusing.getItem(HISTORY_KEY), null);
    assert.ok(draft.undo(), "the history still works in memory");
  } finally {
    globalThis.localStorage = real;
  }
});

test("a full storage drops the history to make room for the draft", () => {
  const real = globalThis.localStorage;
  const full = new MemoryStorage();
  full.setItem = (key, value) => {
    // Room for the draft only once the history is gone.
    if (key === DRAFT_KEY && full.items.has(HISTORY_KEY)) throw new Error("QuotaExceededError");
    MemoryStorage.prototype.setItem.call(full, key, value);
  };
  globalThis.localStorage = full;
  try {
    full.items.set(HISTORY_KEY, '{"undo":[],"redo":[]}');
    const draft = new Draft(emptyPack());
    draft.setTitle("Room made");
    assert.equal(JSON.parse(full.getItem(DRAFT_KEY)).levels[0].title, "Room made");
  } finally {
    globalThis.localStorage = real;
  }
});
