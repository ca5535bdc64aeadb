// Declared words (automata and pair properties) get a card beside the
// board; the first time a player meets one it is marked new, and on a
// narrow screen, where the side panel is below the fold, it also pops up.

import { h } from "../dom.js";
import { wordTile } from "../words.js";

const SEEN_WORDS_KEY = "miau.seenWords";

/** The words a player has met before, kept in `storage` (default: localStorage). */
export class SeenWords {
  constructor(storage = null) {
    this.storageOverride = storage;
  }

  // Reading localStorage itself may throw (storage refused): only ever inside a try.
  get storage() {
    return this.storageOverride ?? globalThis.localStorage;
  }

  /** The words met so far (none when storage is refused or damaged). */
  load() {
    try {
      return new Set(JSON.parse(this.storage.getItem(SEEN_WORDS_KEY) || "[]"));
    } catch {
      return new Set();
    }
  }

  /** Keeps `words` as the words met so far. */
  save(words) {
    try {
      this.storage.setItem(SEEN_WORDS_KEY, JSON.stringify([...words]));
    } catch {
      // Private windows may refuse storage; the card simply shows again.
    }
  }

  /** Splits the declared words on the board into `{declared, fresh}` and remembers the fresh ones. */
  meet(entities, vocabulary) {
    const declared = [
      ...new Set(
        entities.filter((e) => e.kind === "word" && vocabulary.isDeclared(e.text)).map((e) => e.text),
      ),
    ];
    const seen = this.load();
    const fresh = new Set(declared.filter((word) => !seen.has(word)));
    if (fresh.size) {
      for (const word of fresh) seen.add(word);
      this.save(seen);
    }
    return { declared, fresh };
  }
}

/**
 * The "Words here" panel. `seenWords` remembers what the player met,
 * `isNarrow()` says whether the panel is below the fold (new words then pop
 * up through `toast`).
 */
export class WordsPanel {
  constructor({ seenWords, isNarrow, toast }) {
    this.seenWords = seenWords;
    this.isNarrow = isNarrow;
    this.toast = toast;
    this.list = h("ul", { class: "glossary" });
    this.element = h(
      "section",
      { class: "panel words-panel", hidden: true },
      h("h2", {}, "Words here"),
      this.list,
    );
  }

  /** Lists the declared words among `entities`, with what `vocabulary` says they do. */
  show(entities, vocabulary) {
    const { declared, fresh } = this.seenWords.meet(entities, vocabulary);
    this.element.hidden = declared.length === 0;
    this.list.replaceChildren(
      ...declared.map((word) =>
        h(
          "li",
          { class: "glossary-entry", dataset: { word, new: String(fresh.has(word)) } },
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
          fresh.has(word) ? h("span", { class: "badge new" }, "New") : null,
        ),
      ),
    );
    if (!fresh.size || !this.isNarrow()) return;
    for (const word of fresh) {
      this.toast(
        [
          h("span", { class: "toast-kicker" }, "New word"),
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
        ],
        { tone: "word", duration: 7000 },
      );
    }
  }
}
