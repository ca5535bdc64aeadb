// Opening the level a play scene shows: its world and level as the API
// serves them (or as a draft makes them) and the engine port's game.

import { isOwnPack, ownPackIds } from "../own-packs.js";
import { isTouchScreen, keysOrTouch } from "../touch.js";
import { CORE_PROPERTIES } from "../words.js";

/**
 * The world and level of a one-level pack as the API would serve them, for a
 * draft that no server has stored.
 */
export function draftWorldAndLevel(packJson) {
  const manifest = packJson.manifest || {};
  const palette = {};
  for (const [noun, glyph] of Object.entries(packJson.palette || {})) {
    palette[noun] =
      typeof glyph === "string" ? { glyph, faces: null } : { glyph: glyph.glyph, faces: glyph.faces ?? null };
  }
  const source = (packJson.levels || [])[0] || {};
  const automata = source.automata || [];
  const pairs = source.pairs || [];
  const declared = [...automata.map((record) => record.property), ...pairs.flatMap((pair) => pair.words || [])];
  const world = {
    id: manifest.id ?? null,
    name: manifest.name || "Draft",
    description: manifest.description || "",
    palette,
    glossary: packJson.properties || {},
  };
  const level = {
    pack: null,
    id: source.id,
    title: source.title || "Untitled level",
    hint: source.hint || (Array.isArray(source.hints) ? source.hints[0] : null) || null,
    hints: Array.isArray(source.hints) ? source.hints : source.hint ? [source.hint] : [],
    tier: source.tier || "required",
    width: source.width,
    height: source.height,
    objects: source.objects || [],
    automata,
    pairs,
    properties: [...CORE_PROPERTIES, ...new Set(declared)],
    next: null,
  };
  return { world, level };
}

/**
 * Whether this browser opens every level, locked or not: `localStorage`
 * `miau.unlockAll` set to "1" (for authors checking a world, and for the
 * browser tests, which jump straight to any level). The map still shows locks.
 */
export function unlockedEverywhere(storage = null) {
  try {
    // Reading localStorage itself may throw (storage refused): inside the try.
    return (storage ?? globalThis.localStorage).getItem("miau.unlockAll") === "1";
  } catch {
    return false;
  }
}

/**
 * Fetches the world and level of `kind` (`params` as the route gives them)
 * through `api` and opens their game on `port`. Resolves with `{world,
 * level, opened}`, with `{world, level, locked: true}` for a locked level
 * (no game is opened), with `{own: {pack, packName, level, title}}` for a share link
 * of the author's own library level (no game is opened: the caller opens
 * that level instead), or with null once `signal` has aborted; rejects with
 * what the API or the port refused. `storage` stands in for localStorage.
 */
export async function openLevel(kind, params, { api, port, signal, storage = null }) {
  let world;
  let level;
  let opened;
  if (kind === "shared") {
    const answer = await api.openShared(params.share);
    if (signal.aborted) return null;
    // The author's own library level, shared: played as that level, so a win counts for it.
    const own = await ownLevelOfShare(answer.pack, { api, storage });
    if (signal.aborted) return null;
    if (own) return { own };
    ({ world, level } = answer);
    opened = await port.open({ share: params.share });
  } else if (kind === "draft") {
    ({ world, level } = draftWorldAndLevel(params.draft));
    opened = await port.open({ draft: params.draft });
  } else {
    [world, level] = await Promise.all([api.world(params.pack), api.level(params.pack, params.level)]);
    if (signal.aborted) return null;
    // A locked level opened by its address says what opens it, and no game starts.
    // The author's own pack never locks for them (own-packs.js).
    if (level.locked && !unlockedEverywhere(storage) && !isOwnPack(params.pack, storage)) {
      return { world, level, locked: true };
    }
    opened = await port.open({ pack: params.pack, level: params.level });
  }
  return { world, level, opened };
}

/**
 * The level of this author's own library (own-packs.js) that the shared
 * one-level pack `sharedPack` (as `POST /api/shared` gives it) is, as
 * `{pack, packName, level, title}`, or null. A candidate is a level with the shared
 * level's id in one of the author's packs; it is the same level when its
 * content, read back through the same share decoding, is equal (the stored
 * solution aside, so a link made before Store as solution still counts).
 * Never rejects: any refusal on the way means "not one of yours".
 */
export async function ownLevelOfShare(sharedPack, { api, storage = null }) {
  const shared = sharedPack?.levels?.[0];
  if (!shared || typeof shared.id !== "string") return null;
  for (const packId of ownPackIds(storage)) {
    try {
      const onePack = await api.levelPack(packId, shared.id);
      const again = await api.openShared((await api.encodeShare(onePack)).code);
      if (sameLevel(again.pack?.levels?.[0], shared)) {
        const name = onePack.manifest?.name || packId;
        return { pack: packId, packName: name, level: shared.id, title: shared.title };
      }
    } catch {
      // Not in that pack (or the pack is gone): try the next one.
    }
  }
  return null;
}

// Two levels as the loader writes them, equal in everything but the stored solution.
function sameLevel(one, other) {
  const content = (level) => canonical({ ...level, solution: null });
  return Boolean(one) && content(one) === content(other);
}

// JSON with every object's keys sorted, so key order never decides equality.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The notes a just-opened game gets, as `[text, toastOptions]` pairs: where
 * a resumed game stands (in touch words on a touch screen), and the server's notice when the saved game could
 * not be resumed and was set aside (docs/protocol.md, "opened").
 */
export function openingNotes(opened, { touchScreen = isTouchScreen() } = {}) {
  const notes = [];
  if (opened.resumed && opened.state.moveCount > 0) {
    const restart = keysOrTouch("Restart with R.", "Restart is in the top bar.", touchScreen);
    notes.push([`Resumed at move ${opened.state.moveCount}. ${restart}`, { duration: 3500 }]);
  }
  if (typeof opened.notice === "string") notes.push([opened.notice, { tone: "error", duration: 10000 }]);
  return notes;
}
