// The board this browser stored for a level, on the static site: the engine in
// the page takes a second or more to start, and meanwhile the play scene draws
// the game as it was left (marked as not ready), instead of an empty place or
// a board the engine would then replace. The worker (site-worker.js) stores
// each play reply's board beside the game's log, in the transaction that
// stores the log; a stored board is drawn only while the game's stored log is
// still that log and the build that stored it is the one running, so it is
// exactly the board the engine will open.

import { isStaticSite } from "./site.js";

const DATABASE = "miau"; // as site-worker.js
const RECORDS = "records";

/** This build's id (`<meta name="miau-build">`, see miau.site.build.build_id), or null. */
export function siteBuild(doc = globalThis.document) {
  return doc?.querySelector?.('meta[name="miau-build"]')?.getAttribute("content") || null;
}

/**
 * The stored board to draw, `{world, level, state}`, if `view` (a view record's
 * value) was stored by `build` beside the log the game has now (`log`, the
 * `game` record's value, undefined when none is stored); else null.
 */
export function matchingView(view, log, build) {
  if (!view || !build || view.build !== build || !view.state || !view.world || !view.level) return null;
  if (JSON.stringify(view.log ?? null) !== JSON.stringify(log ?? null)) return null;
  return { world: view.world, level: view.level, state: view.state };
}

/**
 * Resolves with the stored board of `pack`'s `level` (see matchingView), or
 * null: not the static site, nothing stored, or storage refused. Reads the
 * records `["game", pack, level]` and `["view", pack, level]` in one
 * transaction; never creates the database (the worker does) and closes its
 * connection at once.
 */
export function storedView(pack, level) {
  const build = siteBuild();
  if (!isStaticSite || !build || typeof indexedDB === "undefined") return Promise.resolve(null);
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(DATABASE);
    } catch {
      resolve(null);
      return;
    }
    // No database yet: a first visit, nothing to draw (and the page makes none).
    request.onupgradeneeded = () => request.transaction.abort();
    request.onerror = (event) => {
      event.preventDefault();
      resolve(null);
    };
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      if (!db.objectStoreNames.contains(RECORDS)) {
        db.close();
        resolve(null);
        return;
      }
      try {
        const transaction = db.transaction(RECORDS, "readonly");
        const store = transaction.objectStore(RECORDS);
        const game = store.get(["game", pack, level]);
        const view = store.get(["view", pack, level]);
        transaction.oncomplete = () => {
          db.close();
          resolve(matchingView(view.result, game.result, build));
        };
        transaction.onabort = () => {
          db.close();
          resolve(null);
        };
      } catch {
        db.close();
        resolve(null);
      }
    };
  });
}
