// What the client's modules meet in a browser and Node lacks, as small fakes.

/** The Web Storage interface over a Map (localStorage, sessionStorage). */
export class MemoryStorage {
  constructor() {
    this.items = new Map();
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }

  clear() {
    this.items.clear();
  }
}
