// Declared words (automata and pair properties) get a card beside the
// board; the first time a player meets one it is marked new, and on a
// narrow screen, where the side panel is below the fold, it also pops up.
// Under them, "When things meet" states every contact rule the words on
// the board bring into play (SINK, DEFEAT, OPEN with SHUT, ...), with what
// a thing holding both sides of a pair does alone: the engine's sentences,
// so a player never has to guess one.

import { contactSentences, contactsAbout, levelContacts, meetingRule } from "../contacts.js";
import { h } from "../dom.js";
import { wordTile } from "../words.js";

const NEW_WORD_MS = 7000;
// A contact notice says two or three sentences: time to read them (a click still hides it).
const CONTACT_NOTICE_MS = 12000;

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

/** The words of a contact as chips, side by side. */
function contactWords(contact, vocabulary) {
  return h("span", { class: "contact-words" }, contact.words.map((word) => wordTile(word, vocabulary, { chip: true })));
}

/** One contact's card: its words, then each sentence (`data-part`: meeting, entering, itself). */
function contactEntry(contact, vocabulary) {
  const parts = ["meeting", "entering", "itself"].filter((part) => contact[part]);
  return h(
    "li",
    { class: "contact-entry", dataset: { words: contact.words.join(" ") } },
    contactWords(contact, vocabulary),
    ...parts.map((part) => h("p", { class: "contact-sentence", dataset: { part } }, contact[part])),
  );
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
    this.meeting = h("p", { class: "contacts-rule" });
    this.contacts = h("ul", { class: "contacts" });
    this.contactSection = h(
      "div",
      { class: "contacts-section", hidden: true },
      h("h3", {}, "When things meet"),
      this.meeting,
      this.contacts,
    );
    this.element = h(
      "section",
      { class: "panel words-panel", hidden: true },
      h("h2", {}, "Words here"),
      this.list,
      this.contactSection,
    );
  }

  /**
   * Lists the declared words among `entities`, with what `vocabulary` says
   * they do, and the contacts their word tiles bring into play.
   */
  show(entities, vocabulary) {
    const { declared, fresh } = this.seenWords.meet(entities, vocabulary);
    const onBoard = entities.filter((entity) => entity.kind === "word").map((entity) => entity.text);
    const contacts = contactsAbout(levelContacts(vocabulary), onBoard);
    this.element.hidden = declared.length === 0 && contacts.length === 0;
    this.list.hidden = declared.length === 0;
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
    this.contactSection.hidden = contacts.length === 0;
    this.meeting.textContent = meetingRule(vocabulary, onBoard);
    this.contacts.replaceChildren(...contacts.map((contact) => contactEntry(contact, vocabulary)));
    if (!fresh.size || !this.isNarrow()) return;
    for (const word of fresh) {
      this.toast(
        [
          h("span", { class: "toast-kicker" }, "New word"),
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
        ],
        { tone: "word", duration: NEW_WORD_MS },
      );
    }
    // Below the fold, the contacts a new word brings would go unread: each pops up once too.
    for (const contact of contactsAbout(contacts, fresh)) {
      this.toast(
        [
          h("span", { class: "toast-kicker" }, "When things meet"),
          contactWords(contact, vocabulary),
          h("span", { class: "toast-text" }, contactSentences(contact).join(" ")),
        ],
        { tone: "word", duration: CONTACT_NOTICE_MS },
      );
    }
  }
}
