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

/**
 * An event target that keeps its listeners and calls them from `fire(name,
 * fields)` with a plain event object (`preventDefault` included), so a test
 * can say what the event's target is.
 */
export class FakeTarget {
  constructor() {
    this.listeners = new Map();
  }

  addEventListener(name, listener) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name).add(listener);
  }

  removeEventListener(name, listener) {
    this.listeners.get(name)?.delete(listener);
  }

  listenerCount() {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }

  fire(name, fields = {}) {
    const event = { type: name, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; }, ...fields };
    for (const listener of [...(this.listeners.get(name) || [])]) listener(event);
    return event;
  }
}

/** A pad or toolbar button as input.js sees it: a dataset and `closest`. */
export function fakeButton(dataset) {
  const button = { dataset, closest: (selector) => (selector === "[data-intent]" ? button : null) };
  return button;
}
