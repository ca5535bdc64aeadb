// The Clockwork tab's glossary: for each word the level declares, its
// accent (how its tile is drawn) and the one sentence the player reads,
// and for a pair's word what the engine does when its things meet (the
// player reads that too, under "When things meet"; no sentence changes it).
// Every committed change is one undoable draft edit.

import { contactSentences, levelContacts } from "../contacts.js";
import { h } from "../dom.js";
import { wordTile } from "../words.js";
import { ACCENTS, declaredWords } from "./draft.js";
import { field, selectField, textField } from "./form-fields.js";

const BLANK_ENTRY = { accent: "push", describe: "" };

/** The glossary's heading and one card per declared word of `draft`, drawn with `vocabulary`. */
export function glossarySection(draft, vocabulary) {
  const words = declaredWords(draft.level);
  return [
    h("div", { class: "form-head" }, h("h3", {}, "Glossary")),
    words.length
      ? h(
          "ul",
          { class: "record-list glossary-list" },
          words.map((word) => glossaryCard(draft, word, vocabulary)),
        )
      : h("p", { class: "form-empty" }, "Words declared by automata and pairs are described here."),
  ];
}

function glossaryCard(draft, word, vocabulary) {
  const entry = draft.pack.properties?.[word] || { ...BLANK_ENTRY };
  const base = `properties.${word}`;
  const commit = (mutate) =>
    draft.edit((pack) => {
      pack.properties = pack.properties || {};
      const current = pack.properties[word] || { ...BLANK_ENTRY };
      mutate(current);
      pack.properties[word] = current;
    }, "glossary");
  const accent = selectField(
    `${base}.accent`,
    ACCENTS.map((name) => h("option", { value: name }, name)),
    entry.accent || "push",
  );
  accent.addEventListener("change", () =>
    commit((current) => {
      current.accent = accent.value;
    }),
  );
  const describe = textField(
    `${base}.describe`,
    "What it does",
    entry.describe,
    (value) =>
      commit((current) => {
        current.describe = value.trim();
      }),
    {
      maxlength: 80,
      placeholder: "One sentence for the player",
      validate: (value) => (/[\n\r]/.test(value) ? "One line only." : null),
    },
  );
  const contact = levelContacts(vocabulary).find((candidate) => candidate.words.includes(word));
  return h(
    "li",
    { class: "record glossary-record", dataset: { word } },
    h("div", { class: "record-head" }, wordTile(word, vocabulary, { chip: true })),
    h("div", { class: "field-row" }, field("Accent", accent), describe),
    contact
      ? h("p", { class: "form-note contact-note" }, `When things meet: ${contactSentences(contact).join(" ")}`)
      : null,
    entry.describe?.trim()
      ? null
      : h(
          "p",
          { class: "form-note" },
          "Without a sentence the word is not put in the glossary (its accent is then push).",
        ),
  );
}
