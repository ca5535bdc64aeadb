// The editor's working document: a one-level pack (the ordinary pack format
// with exactly one level), an undo and a redo stack of whole snapshots, and
// its copy in localStorage (`miau.draft`), written after every edit so a
// reload never loses work. Every change goes through `edit()` or a stroke,
// so every change can be undone. The newest snapshots of both stacks are
// kept too (`miau.draft.history`), so undo still works after a reload.

import { ACCENTS as ACCENT_NAMES } from "../vocabulary.js";
import { CORE_PROPERTIES, OPERATORS } from "../words.js";

/** The localStorage key of the draft. */
export const DRAFT_KEY = "miau.draft";
/** The localStorage key of the draft's undo and redo snapshots. */
export const HISTORY_KEY = "miau.draft.history";
/** At most this many snapshots are kept for the next visit, the ones nearest the draft as it is. */
export const STORED_HISTORY_LIMIT = 50;
/** And at most this much text: the history must leave room in storage for the draft itself. */
export const STORED_HISTORY_CHARS = 2_000_000;
/** The accent names a declared word may take (the engine's property colours). */
export const ACCENTS = [...ACCENT_NAMES];
/** The grid size limits of the loader. */
export const MIN_SIZE = 1;
export const MAX_SIZE = 64;
/** The loader's limits on automata, pairs and pattern steps. */
export const MAX_AUTOMATA = 32;
export const MAX_PAIRS = 4;
export const MAX_PATTERN = 32;

const UNDO_LIMIT = 300;
const TOKEN = /^[A-Z][A-Z0-9_-]{0,31}$/;
const LEVEL_ID = /^[a-z][a-z0-9-]{0,63}$/;
const PACK_ID = /^[a-z][a-z0-9._-]{1,63}$/;

/** The palette a new draft starts with (the shipped worlds' glyphs). */
export const STARTER_PALETTE = {
  MIAU: { glyph: "🐈", faces: "left" },
  WALL: "🧱",
  FLAG: "🚩",
  ROCK: "🪨",
  WATER: "🌊",
  SKULL: "💀",
  KEY: "🔑",
  DOOR: "🚪",
};

/**
 * The palette an editor draft offers: every stock thing of STARTER_PALETTE
 * (in its order, so the number keys stay put) with the level's own glyph
 * where it has one, then the level's other things. A stock noun the level
 * uses as a property word (`reserved`) is left out. Only the nouns a level
 * uses are ever saved or sent (exportPack), so the stock ones cost nothing.
 */
export function wholePalette(own, reserved = new Set()) {
  const palette = {};
  for (const [noun, glyph] of Object.entries(STARTER_PALETTE)) {
    if (!reserved.has(noun)) palette[noun] = structuredClone(own[noun] ?? glyph);
  }
  for (const [noun, glyph] of Object.entries(own)) if (!(noun in palette)) palette[noun] = structuredClone(glyph);
  return palette;
}

/** True for a word token (`FLAG`, `TICK`): a capital, then up to 31 capitals, digits, `_` or `-`. */
export function isToken(text) {
  return typeof text === "string" && TOKEN.test(text);
}

/** True for a level id: a lowercase letter, then lowercase letters, digits or `-`. */
export function isLevelId(text) {
  return typeof text === "string" && LEVEL_ID.test(text);
}

/**
 * The level id a title suggests: lowercase letters and digits, every other
 * run of characters one `-`, accents dropped ("Flag run!" gives
 * `flag-run`, "Écluse 2" gives `ecluse-2`); `level` when nothing is left, and
 * `level-` before a title that starts with a digit.
 */
export function levelIdFromTitle(title) {
  const slug = slugOf(title);
  const id = !slug ? "level" : /^[a-z]/.test(slug) ? slug : `level-${slug}`;
  return id.slice(0, 64).replace(/-+$/, "");
}

// Lowercase letters and digits, every other run of characters one `-`, accents dropped.
function slugOf(text) {
  return String(text ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * Whether the level's id still follows its title: it is the id the title
 * suggests. An id typed by hand that differs stays as typed.
 */
export function idFollowsTitle(level) {
  return level.id === levelIdFromTitle(level.title);
}

/** True for a pack id: 2 to 64 characters, a lowercase letter first. */
export function isPackId(text) {
  return typeof text === "string" && PACK_ID.test(text);
}

/**
 * The pack id a pack's name suggests, made the way levelIdFromTitle makes a
 * level's ("Cat tricks" gives `cat-tricks`): `pack` when nothing is left,
 * and `pack-` before a name that starts with a digit or is one letter long,
 * so the id is always one isPackId takes.
 */
export function packIdFromName(name) {
  const slug = slugOf(name);
  const id = !slug ? "pack" : /^[a-z]./.test(slug) ? slug : `pack-${slug}`;
  return id.slice(0, 64).replace(/-+$/, "");
}

/** True for a word the game fixes (IS, AND and the six core properties). */
export function isFixedWord(text) {
  return OPERATORS.has(text) || CORE_PROPERTIES.has(text);
}

/** The feature that brings the Tier-1 words (NOT, HAS, ON, MOVE, ...). */
export const VOCABULARY_1 = "vocabulary-1";

/** Whether the draft uses the Tier-1 words. */
export function usesVocabulary1(pack) {
  return (pack.manifest.features || []).includes(VOCABULARY_1);
}

/** A new, empty draft: a 9 by 7 grid, the starter palette, no rules. */
export function emptyPack() {
  return {
    manifest: { id: "draft", name: "Draft", version: "1.0.0", engine: 1 },
    palette: structuredClone(STARTER_PALETTE),
    properties: {},
    levels: [
      { id: "my-level", title: "My level", hint: "", tier: "required", width: 9, height: 7, objects: [] },
    ],
  };
}

function letterOfStep(step) {
  if (typeof step === "string") return step.toUpperCase();
  if (step?.action === "wait") return "W";
  if (step?.action === "move") {
    if (step.dx === 1) return "R";
    if (step.dx === -1) return "L";
    if (step.dy === 1) return "D";
    if (step.dy === -1) return "U";
  }
  return "W";
}

function cleanObject(entry) {
  const kind = entry.kind === "word" || (entry.kind === undefined && "text" in entry) ? "word" : "object";
  const cleaned = { kind };
  if (kind === "word") cleaned.text = String(entry.text || "").toUpperCase();
  else cleaned.noun = String(entry.noun || "").toUpperCase();
  cleaned.x = Number(entry.x) || 0;
  cleaned.y = Number(entry.y) || 0;
  if (entry.facing && entry.facing !== "right") cleaned.facing = entry.facing;
  return cleaned;
}

/**
 * Brings any one-level pack (a stored draft, a level from the API) into the
 * shape the editor works on: objects only (no map), letters for pattern
 * steps, every optional level field present. Throws on a document that is
 * not a pack with at least one level.
 */
export function normalisePack(raw) {
  if (!raw || typeof raw !== "object" || !Array.isArray(raw.levels) || !raw.levels.length) {
    throw new Error("not a pack with a level");
  }
  const source = raw.levels[0];
  const hints = stringsOf(source.hints);
  const level = {
    id: isLevelId(source.id) ? source.id : "my-level",
    title: typeof source.title === "string" ? source.title : "My level",
    hint: typeof source.hint === "string" ? source.hint : (hints[0] ?? ""),
    tier: ["required", "optional", "challenge"].includes(source.tier) ? source.tier : "required",
    width: clampSize(source.width),
    height: clampSize(source.height),
    objects: (source.objects || []).map(cleanObject),
  };
  // The form edits the first hint; the plainer ones after it ride along unchanged (a stored
  // draft keeps them as `laterHints`, which a reload must not drop).
  const laterHints = hints.length > 1 ? hints.slice(1) : stringsOf(source.laterHints);
  if (laterHints.length) level.laterHints = laterHints;
  if (Array.isArray(source.automata) && source.automata.length) {
    level.automata = source.automata.map((record) => {
      const automaton = {
        id: String(record.id),
        property: String(record.property || "").toUpperCase(),
        phase: Number(record.phase) || 0,
        pattern: (record.pattern || []).map(letterOfStep),
      };
      if (record.subject) automaton.subject = String(record.subject).toUpperCase();
      return automaton;
    });
  }
  if (Array.isArray(source.pairs) && source.pairs.length) {
    level.pairs = source.pairs.map((pair) => ({
      words: (pair.words || []).map((word) => String(word).toUpperCase()),
      effect: "destroy-both",
      enter: Boolean(pair.enter),
    }));
  }
  if (typeof source.solution === "string" && source.solution) level.solution = source.solution.toUpperCase();
  if (Number.isInteger(source.solverMax)) level.solverMax = source.solverMax;
  const manifest = raw.manifest && typeof raw.manifest === "object" ? raw.manifest : {};
  // Where the level was saved (the editor's own note, never sent): its id stays fixed from then on.
  const savedAs = levelNote(raw.savedAs);
  // The level a link copied, as it was copied (never sent): an untouched copy is no work to lose.
  const openedFrom = levelNote(raw.openedFrom);
  return {
    ...(savedAs ? { savedAs } : {}),
    ...(openedFrom ? { openedFrom } : {}),
    manifest: {
      id: isPackId(manifest.id) ? manifest.id : "draft",
      name: typeof manifest.name === "string" && manifest.name.trim() ? manifest.name : "Draft",
      version: typeof manifest.version === "string" ? manifest.version : "1.0.0",
      engine: 1,
      ...(Array.isArray(manifest.features) && manifest.features.includes(VOCABULARY_1)
        ? { features: [VOCABULARY_1] }
        : {}),
      ...(typeof manifest.author === "string" ? { author: manifest.author } : {}),
    },
    palette: wholePalette(raw.palette || {}, new Set([...declaredWords(level), ...Object.keys(raw.properties || {})])),
    properties: structuredClone(raw.properties || {}),
    levels: [level],
  };
}

// The strings of a list (a hint list read from anywhere); none when it is no list.
function stringsOf(list) {
  return Array.isArray(list) ? list.filter((item) => typeof item === "string") : [];
}

// A note of the editor's own about a library or world level: `{pack, level, text}`, or null.
function levelNote(note) {
  return note && isPackId(note.pack) && isLevelId(note.level)
    ? { pack: note.pack, level: note.level, text: typeof note.text === "string" ? note.text : "" }
    : null;
}

function clampSize(value) {
  const number = Math.round(Number(value));
  if (!Number.isFinite(number)) return 9;
  return Math.max(MIN_SIZE, Math.min(MAX_SIZE, number));
}

/** The words the level declares as properties: automaton properties, then pair words. */
export function declaredWords(level) {
  const words = [];
  for (const record of level.automata || [])
    if (record.property && !words.includes(record.property)) words.push(record.property);
  for (const pair of level.pairs || [])
    for (const word of pair.words) if (word && !words.includes(word)) words.push(word);
  return words;
}

/** The nouns of the level's objects, in first-use order. */
export function objectNouns(level) {
  return [...new Set(level.objects.filter((entry) => entry.kind === "object").map((entry) => entry.noun))];
}

/**
 * The pack to send anywhere (test-play, solve, check, save, share): the one
 * level, only the palette nouns and glossary words it uses, the features it
 * needs, glossary entries without a sentence left out (the loader needs one).
 */
export function exportPack(pack, manifestOverrides = {}) {
  const level = structuredClone(pack.levels[0]);
  if (level.hint && level.laterHints?.length) level.hints = [level.hint, ...level.laterHints];
  if (!level.hint || level.hints) delete level.hint;
  delete level.laterHints;
  if (level.tier === "required") delete level.tier;
  if (!level.automata?.length) delete level.automata;
  if (!level.pairs?.length) delete level.pairs;
  if (!level.solution) delete level.solution;
  const used = new Set();
  for (const entry of level.objects) used.add(entry.kind === "word" ? entry.text : entry.noun);
  for (const record of level.automata || []) if (record.subject) used.add(record.subject);
  const palette = {};
  for (const [noun, glyph] of Object.entries(pack.palette)) if (used.has(noun)) palette[noun] = glyph;
  const declared = new Set(declaredWords(level));
  const properties = {};
  for (const [word, entry] of Object.entries(pack.properties || {})) {
    if (declared.has(word) && entry.describe?.trim()) {
      properties[word] = { accent: entry.accent, describe: entry.describe.trim() };
    }
  }
  const features = [];
  if (usesVocabulary1(pack)) features.push(VOCABULARY_1);
  if (level.automata) features.push("automata");
  if (level.pairs) features.push("pairs");
  const manifest = { ...pack.manifest, ...manifestOverrides, engine: 1 };
  if (features.length) manifest.features = features;
  else delete manifest.features;
  const result = { manifest };
  if (Object.keys(palette).length) result.palette = palette;
  if (Object.keys(properties).length) result.properties = properties;
  result.levels = [level];
  return result;
}

// The level as a save sends it, with the palette and glossary it uses: what "unchanged since the save" compares.
function savedLevelText(pack) {
  const { palette = {}, properties = {}, levels } = exportPack(pack);
  return JSON.stringify([levels[0], palette, properties]);
}

/**
 * Whether two one-level packs (normalised) hold the same level: the same
 * level, palette and glossary as a save would send them, and the same words.
 */
export function sameLevel(one, other) {
  return savedLevelText(one) === savedLevelText(other) && usesVocabulary1(one) === usesVocabulary1(other);
}

/**
 * Whether the draft `pack` (normalised) holds work that is in no library:
 * for a saved level, any change since its save; otherwise anything but the
 * empty level a new editor starts with or the untouched copy a link opened.
 */
export function hasUnsavedWork(pack) {
  if (pack.savedAs) return pack.savedAs.text !== savedLevelText(pack);
  if (pack.openedFrom && pack.openedFrom.text === savedLevelText(pack)) return false;
  return !sameLevel(pack, normalisePack(emptyPack()));
}

/** Reads the stored draft, or null when there is none (or it is unreadable). */
export function loadStoredPack() {
  try {
    const text = localStorage.getItem(DRAFT_KEY);
    return text ? normalisePack(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

/**
 * Reads the stored undo and redo snapshots: `{undo, redo}`, each oldest
 * first as Draft keeps them; both empty when there are none or they are
 * unreadable (an old or damaged entry costs the history, never the draft).
 */
export function loadStoredHistory() {
  const empty = { undo: [], redo: [] };
  try {
    const stored = JSON.parse(localStorage.getItem(HISTORY_KEY) || "null");
    if (!Array.isArray(stored?.undo) || !Array.isArray(stored?.redo)) return empty;
    // Each snapshot goes back to the text Draft compares; one that is no pack drops the whole history.
    const snapshots = (list) => list.map((pack) => JSON.stringify(normalisePack(pack)));
    return { undo: snapshots(stored.undo), redo: snapshots(stored.redo) };
  } catch {
    return empty;
  }
}

/**
 * The text kept for the next visit of `undo` and `redo` (snapshots, oldest
 * first): the snapshots nearest the draft as it is, at most
 * STORED_HISTORY_LIMIT of them and STORED_HISTORY_CHARS of text; the
 * farthest (the oldest undo first) are left out.
 */
export function storedHistoryText(undo, redo) {
  const kept = { undo: [], redo: [] };
  let chars = 0;
  for (let step = 1; step <= Math.max(undo.length, redo.length); step += 1) {
    // One step back, then one step forward: the snapshots nearest the present first.
    for (const [name, list] of [["undo", undo], ["redo", redo]]) {
      const snapshot = list[list.length - step];
      if (snapshot === undefined) continue;
      const count = kept.undo.length + kept.redo.length;
      if (count >= STORED_HISTORY_LIMIT || chars + snapshot.length > STORED_HISTORY_CHARS) {
        return historyText(kept);
      }
      kept[name].unshift(snapshot);
      chars += snapshot.length + 1;
    }
  }
  return historyText(kept);
}

// The snapshots are JSON texts already: joined, not quoted again (a quoted pack grows by a fifth).
function historyText({ undo, redo }) {
  return `{"undo":[${undo.join(",")}],"redo":[${redo.join(",")}]}`;
}

/**
 * The draft: `pack` (the working one-level pack), undo and redo, strokes
 * (a drag that paints many cells is one undoable edit), and `uids`, one
 * stable number per object for drawing, so a board element always shows
 * the same entity. `onChange(reason)` runs after every change; `history`
 * (`{undo, redo}`, as loadStoredHistory reads them) continues the undo and
 * redo of an earlier visit.
 */
export class Draft {
  constructor(pack, { onChange = () => {}, history = null } = {}) {
    this.pack = normalisePack(pack);
    this.onChange = onChange;
    this.undoStack = [...(history?.undo || [])].slice(-UNDO_LIMIT);
    this.redoStack = [...(history?.redo || [])];
    // Whether the stacks changed since they were last written (the constructor writes them once).
    this.historyChanged = true;
    this.stroke = null;
    this.nextUid = 1;
    this.uids = this.pack.levels[0].objects.map(() => this.nextUid++);
    this.save();
  }

  /** The one level. */
  get level() {
    return this.pack.levels[0];
  }

  /** Whether there is something to undo / redo. */
  get canUndo() {
    return this.undoStack.length > 0;
  }

  get canRedo() {
    return this.redoStack.length > 0;
  }

  snapshot() {
    return JSON.stringify(this.pack);
  }

  /**
   * Writes the draft to localStorage, then its undo and redo when they
   * changed (a private window may refuse; then they live in memory).
   */
  save() {
    const snapshot = this.snapshot();
    if (!writeStored(DRAFT_KEY, snapshot)) {
      // The history may be what fills the storage: the draft matters more, so it goes first.
      removeStored(HISTORY_KEY);
      this.historyChanged = true;
      writeStored(DRAFT_KEY, snapshot);
    }
    if (this.historyChanged) this.saveHistory();
  }

  /** Writes the undo and redo snapshots; when storage refuses them, none (a stale history would mislead). */
  saveHistory() {
    this.historyChanged = false;
    if (!writeStored(HISTORY_KEY, storedHistoryText(this.undoStack, this.redoStack))) {
      removeStored(HISTORY_KEY);
    }
  }

  /**
   * One undoable edit: `mutate(pack, draft)` changes the pack in place and
   * may return false to say nothing changed. Inside a stroke the edit joins it.
   */
  edit(mutate, reason = "edit") {
    const before = this.stroke ? null : this.snapshot();
    const result = mutate(this.pack, this);
    if (result === false) return false;
    if (this.stroke) {
      this.stroke.changed = true;
    } else {
      if (this.snapshot() === before) return false;
      this.pushUndo(before);
    }
    this.save();
    this.onChange(reason);
    return true;
  }

  pushUndo(snapshot) {
    this.undoStack.push(snapshot);
    if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
    this.redoStack.length = 0;
    this.historyChanged = true;
  }

  /** Starts a stroke: the edits until `endStroke()` undo as one. */
  beginStroke() {
    if (this.stroke) this.endStroke();
    this.stroke = { before: this.snapshot(), changed: false };
  }

  /** Ends the stroke; records it for undo if it changed anything. */
  endStroke() {
    const stroke = this.stroke;
    this.stroke = null;
    if (stroke?.changed && this.snapshot() !== stroke.before) {
      this.pushUndo(stroke.before);
      this.saveHistory();
      this.onChange("stroke");
    }
  }

  /** Undoes the last edit; false when there is none. */
  undo() {
    if (this.stroke) this.endStroke();
    if (!this.undoStack.length) return false;
    this.redoStack.push(this.snapshot());
    this.historyChanged = true;
    this.restore(this.undoStack.pop());
    return true;
  }

  /** Redoes the last undone edit; false when there is none. */
  redo() {
    if (this.stroke) this.endStroke();
    if (!this.redoStack.length) return false;
    this.undoStack.push(this.snapshot());
    this.historyChanged = true;
    this.restore(this.redoStack.pop());
    return true;
  }

  /** Notes that the level was saved as `levelId` in the library pack `packId`, as it is now (no undoable edit). */
  markSaved(packId, levelId) {
    this.pack.savedAs = { pack: packId, level: levelId, text: savedLevelText(this.pack) };
    this.save();
  }

  /**
   * The library level this draft is, unchanged since it was saved there:
   * `{pack, level}`, or null (never saved, or edited since).
   */
  savedUnchanged() {
    const saved = this.pack.savedAs;
    if (!saved?.text || saved.text !== savedLevelText(this.pack)) return null;
    return { pack: saved.pack, level: saved.level };
  }

  /**
   * Notes that the draft is an untouched copy of `levelId` of the pack
   * `packId`, as it is now (no undoable edit): leaving it unchanged loses nothing.
   */
  markOpened(packId, levelId) {
    this.pack.openedFrom = { pack: packId, level: levelId, text: savedLevelText(this.pack) };
    this.save();
  }

  /** Whether the draft holds work that is in no library (see hasUnsavedWork). */
  hasUnsavedWork() {
    return hasUnsavedWork(this.pack);
  }

  /** Replaces the whole document as one undoable edit (a level opened for editing, a new level). */
  replace(pack) {
    const next = normalisePack(pack);
    // The same document again is no edit: undo should not stop at a step that changes nothing.
    if (JSON.stringify(next) !== this.snapshot()) this.pushUndo(this.snapshot());
    this.pack = next;
    this.uids = this.level.objects.map(() => this.nextUid++);
    this.save();
    this.onChange("replace");
  }

  restore(snapshot) {
    this.pack = JSON.parse(snapshot);
    // Fresh drawing ids in object order, so the board stacks a cell the way the engine will.
    this.uids = this.level.objects.map(() => this.nextUid++);
    this.save();
    this.onChange("history");
  }

  // Object operations (each one edit, or part of the running stroke) ---------

  /** The indexes of the objects in cell (x, y), bottom first as the board stacks them. */
  stackAt(x, y) {
    const indexes = [];
    this.level.objects.forEach((entry, index) => {
      if (entry.x === x && entry.y === y) indexes.push(index);
    });
    // Words are drawn above things; within a layer, later objects on top.
    return indexes.sort((a, b) => layer(this.level.objects[a]) - layer(this.level.objects[b]) || a - b);
  }

  /** The index of the entity drawn on top of cell (x, y), or -1. */
  topAt(x, y) {
    const stack = this.stackAt(x, y);
    return stack.length ? stack[stack.length - 1] : -1;
  }

  /** Adds `entity` ({kind, noun|text}) at (x, y) unless the same one is already there. */
  place(entity, x, y) {
    return this.edit((pack, draft) => {
      const level = pack.levels[0];
      if (x < 0 || y < 0 || x >= level.width || y >= level.height) return false;
      const key = entity.kind === "word" ? "text" : "noun";
      const twin = level.objects.some(
        (entry) => entry.x === x && entry.y === y && entry.kind === entity.kind && entry[key] === entity[key],
      );
      if (twin) return false;
      level.objects.push({ kind: entity.kind, [key]: entity[key], x, y });
      draft.uids.push(draft.nextUid++);
      return true;
    }, "place");
  }

  /** Erases the top entity of cell (x, y). */
  eraseTop(x, y) {
    const index = this.topAt(x, y);
    if (index < 0) return false;
    return this.eraseIndex(index);
  }

  /** Erases the object at `index` of the objects array. */
  eraseIndex(index) {
    return this.edit((pack, draft) => {
      pack.levels[0].objects.splice(index, 1);
      draft.uids.splice(index, 1);
      return true;
    }, "erase");
  }

  /** Moves the object at `index` to (x, y) (inside the grid). */
  moveIndex(index, x, y) {
    return this.edit((pack) => {
      const level = pack.levels[0];
      const entry = level.objects[index];
      if (!entry || x < 0 || y < 0 || x >= level.width || y >= level.height) return false;
      if (entry.x === x && entry.y === y) return false;
      entry.x = x;
      entry.y = y;
      return true;
    }, "move");
  }

  /** How many objects a resize to width by height would drop. */
  droppedByResize(width, height) {
    return this.level.objects.filter((entry) => entry.x >= width || entry.y >= height).length;
  }

  /**
   * Retitles the level; its id follows the new title while it still
   * followed the old one (a new level's `my-level` follows "My level")
   * and the level was never saved: a saved level keeps its id, so saving
   * it again renames it in its pack instead of adding a second level.
   */
  setTitle(title) {
    return this.edit((pack) => {
      const level = pack.levels[0];
      if (idFollowsTitle(level) && !pack.savedAs) level.id = levelIdFromTitle(title);
      level.title = title;
    }, "title");
  }

  /** Resizes the grid, dropping the objects outside it. */
  resize(width, height) {
    return this.edit((pack, draft) => {
      const level = pack.levels[0];
      const keep = level.objects.map((entry) => entry.x < width && entry.y < height);
      level.objects = level.objects.filter((_, index) => keep[index]);
      draft.uids = draft.uids.filter((_, index) => keep[index]);
      level.width = width;
      level.height = height;
      return true;
    }, "resize");
  }

  /**
   * The state the board draws while editing: every object with its drawing
   * id, facing right unless given, and every word shown lit (no engine runs
   * while editing, so no sentence is known to be idle).
   */
  boardState() {
    const level = this.level;
    const entities = level.objects.map((entry, index) => {
      const entity = {
        id: this.uids[index],
        kind: entry.kind,
        x: entry.x,
        y: entry.y,
        facing: entry.facing || "right",
      };
      if (entry.kind === "word") entity.text = entry.text;
      else entity.noun = entry.noun;
      return entity;
    });
    const words = entities.filter((entity) => entity.kind === "word").map((entity) => entity.id);
    return {
      width: level.width,
      height: level.height,
      entities,
      rules: [],
      sentences: words.length ? [{ ids: words, axis: "h" }] : [],
      moveCount: 0,
      won: false,
      controlLost: false,
      automata: [],
    };
  }
}

// localStorage.setItem, false when storage refuses (full, or a private window).
function writeStored(key, text) {
  try {
    localStorage.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

function removeStored(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage refused altogether: there is nothing stale in it to remove.
  }
}

function layer(entry) {
  return entry.kind === "word" ? 1 : 0;
}
