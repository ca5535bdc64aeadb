// Where the editor was opened from: `{pack, level}` (a level's Edit), kept
// for this tab, so that Back and Escape return to that world's level select.

const CAME_FROM_KEY = "miau.editor.from";

/** The level the editor was opened from, kept in `storage` (default: sessionStorage). */
export class CameFrom {
  constructor(storage = null) {
    this.storageOverride = storage;
  }

  // Reading sessionStorage itself may throw (storage refused): only ever inside a try.
  get storage() {
    return this.storageOverride ?? globalThis.sessionStorage;
  }

  /** `{pack, level}`, or null when the editor was opened on its own. */
  load() {
    try {
      return JSON.parse(this.storage.getItem(CAME_FROM_KEY) || "null");
    } catch {
      return null;
    }
  }

  /** Remembers that the editor was opened from `level` of `pack`. */
  remember(pack, level) {
    try {
      this.storage.setItem(CAME_FROM_KEY, JSON.stringify({ pack, level }));
    } catch {
      // Without storage the way back is world select.
    }
  }

  /** The way back: the level select of the world the edited level came from, else worlds. */
  backRoute() {
    const from = this.load();
    return from?.pack ? `/world/${encodeURIComponent(from.pack)}` : "/worlds";
  }

  /** The word on the Back button. */
  backWord() {
    return this.load()?.pack ? " Levels" : " Worlds";
  }
}
