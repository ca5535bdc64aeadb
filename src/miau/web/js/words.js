// Word classes, accents and the word tile: shared by the board, the ledger
// and the title, so a word looks the same everywhere.

import { ACCENTS as ACCENT_NAMES, CORE_OPERATOR_WORDS, CORE_PROPERTY_WORDS } from "./vocabulary.js";

/** The two operators of the core grammar. */
export const OPERATORS = new Set(CORE_OPERATOR_WORDS);

/** The six core properties; each is its own accent. */
export const CORE_PROPERTIES = new Set(CORE_PROPERTY_WORDS);

// Every property colour miau.css draws (the engine's ACCENTS): a glossary may name any of them.
const ACCENTS = new Set(ACCENT_NAMES);

/**
 * The vocabulary of one level: which words are properties (the core six plus
 * the words the level declares through its automata and pairs) and which
 * accent and glossary sentence each declared word takes from its world.
 * Nothing here knows any declared word by name.
 */
export class Vocabulary {
  /**
   * @param {object} level the level as the API gives it
   * @param {object} world the world as the API gives it (glossary, palette)
   */
  constructor(level = {}, world = {}) {
    this.glossary = world.glossary || {};
    // A level with a larger grammar (vocabulary-1: NOT, HAS, ON, ...) lists its operators.
    this.operators = new Set(level.operators || OPERATORS);
    // The level says which words are properties; the core six only when it does not (an old server).
    this.properties = new Set(level.properties || CORE_PROPERTIES);
    this.declared = new Set();
    for (const word of this.properties) {
      if (!CORE_PROPERTIES.has(word)) this.declared.add(word);
    }
    // The level's Clockwork pairs, and the words its automata and pairs give a meaning of their
    // own: a built-in contact (OPEN with SHUT, HOT with MELT) never applies to those.
    this.pairs = (level.pairs || []).filter((pair) => (pair.words || []).length === 2);
    this.ownWords = new Set();
    for (const automaton of level.automata || []) {
      if (automaton.property) this.ownWords.add(automaton.property);
    }
    for (const pair of level.pairs || []) {
      for (const word of pair.words || []) this.ownWords.add(word);
    }
    for (const word of this.ownWords) {
      this.declared.add(word);
      this.properties.add(word);
    }
  }

  /** "operator", "property" or "noun". */
  classOf(word) {
    if (this.operators.has(word)) return "operator";
    if (this.properties.has(word)) return "property";
    return "noun";
  }

  /** The accent name of a property word, or null for any other word. */
  accentOf(word) {
    if (CORE_PROPERTIES.has(word)) return word.toLowerCase();
    if (this.declared.has(word)) {
      const accent = this.glossary[word]?.accent;
      return ACCENTS.has(accent) ? accent : "push";
    }
    return null;
  }

  /** The glossary sentence of a declared word, or null. */
  describe(word) {
    return this.declared.has(word) ? this.glossary[word]?.describe || null : null;
  }

  /** True for a word the level declares (not a core word). */
  isDeclared(word) {
    return this.declared.has(word);
  }
}

/**
 * Marks an element as a word tile of `text`: class, accent and length drive
 * its look in miau.css (long words shrink through `--len`).
 */
export function dressWordTile(element, text, vocabulary) {
  const wordClass = vocabulary.classOf(text);
  element.classList.add("word-tile");
  element.dataset.class = wordClass;
  const accent = vocabulary.accentOf(text);
  if (accent) element.dataset.accent = accent;
  else delete element.dataset.accent;
  element.style.setProperty("--len", String(Math.max(2, [...text].length)));
  return element;
}

/** A stand-alone word tile (title), or a chip as wide as its word (ledger, glossary). */
export function wordTile(text, vocabulary, { lit = true, tag = "span", chip = false } = {}) {
  const tile = document.createElement(tag);
  dressWordTile(tile, text, vocabulary);
  if (chip) tile.classList.add("is-chip");
  tile.dataset.lit = String(lit);
  const face = document.createElement("span");
  face.className = "face";
  face.textContent = text;
  tile.append(face);
  return tile;
}

/** The words of a rule in reading order: `X IS Y`, or the whole sentence of a richer rule. */
export function ruleWords(rule) {
  return rule.text ? rule.text.split(" ") : [rule.subject, "IS", rule.predicate];
}

/** A rule as words for people and screen readers: "MIAU is YOU", "NOT ROCK is STOP". */
export function ruleText(rule) {
  return ruleWords(rule)
    .map((word) => (word === "IS" ? "is" : word))
    .join(" ");
}
