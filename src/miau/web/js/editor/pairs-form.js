// The Clockwork tab's pairs: two words whose things are both gone when they
// meet, and whether a mover may enter. Every committed change is one
// undoable draft edit.

import { h } from "../dom.js";
import { MAX_PAIRS, isFixedWord, isToken, objectNouns } from "./draft.js";
import { textField } from "./form-fields.js";

const PAIR_IDEAS = [
  ["OPEN", "SHUT"],
  ["HOT", "MELT"],
  ["KEY", "LOCK"],
  ["LIGHT", "DARK"],
];

/** Why `word` cannot be word `side` of pair `index`, or null (the loader's rules for pairs). */
export function pairWordProblem(level, index, side, word) {
  if (!isToken(word)) return "A word is a capital letter, then up to 31 capitals, digits, _ or -.";
  if (isFixedWord(word)) return `${word} is a word of the game; pick a word of your own.`;
  const pair = level.pairs[index];
  if (pair.words[1 - side] === word) return "The two words of a pair must differ.";
  if ((level.automata || []).some((record) => record.property === word))
    return `${word} is an automaton's word here.`;
  if (level.pairs.some((other, at) => at < index && other.words.includes(word)))
    return `${word} is a word of an earlier pair.`;
  if (objectNouns(level).includes(word)) return `${word} is the noun of a thing in this level.`;
  return null;
}

/**
 * Adds a pair to `level` with the first idea whose words it accepts; false
 * (and `level` as it was) when none fits.
 */
export function addPair(level) {
  level.pairs = level.pairs || [];
  level.pairs.push({ words: ["?", "?"], effect: "destroy-both", enter: false });
  const index = level.pairs.length - 1;
  const idea = PAIR_IDEAS.find(
    ([a, b]) => !pairWordProblem(level, index, 0, a) && !pairWordProblem({ ...level }, index, 1, b),
  );
  if (!idea) {
    level.pairs.pop();
    if (!level.pairs.length) delete level.pairs;
    return false;
  }
  level.pairs[index].words = [...idea];
  return true;
}

/** The pairs' heading, add button and cards, for `draft`. */
export function pairsSection(draft) {
  const pairs = draft.level.pairs || [];
  const add = h(
    "button",
    {
      class: "button small",
      type: "button",
      disabled: pairs.length >= MAX_PAIRS,
      dataset: { field: "pairs", action: "add-pair" },
      onclick: () => draft.edit((pack) => addPair(pack.levels[0]), "pairs"),
    },
    "+ Pair",
  );
  return [
    h("div", { class: "form-head" }, h("h3", {}, "Pairs"), add),
    pairs.length
      ? h(
          "ol",
          { class: "record-list pairs-list" },
          pairs.map((pair, index) => pairCard(draft, pair, index)),
        )
      : h("p", { class: "form-empty" }, "A pair's two words destroy each other's things when they meet."),
  ];
}

function pairCard(draft, pair, index) {
  const base = `pairs[${index}]`;
  const enter = h("input", { type: "checkbox", name: `${base}.enter`, dataset: { field: `${base}.enter` } });
  enter.checked = Boolean(pair.enter);
  enter.addEventListener("change", () =>
    draft.edit((pack) => {
      pack.levels[0].pairs[index].enter = enter.checked;
    }, "pairs"),
  );
  return h(
    "li",
    { class: "record", dataset: { pair: String(index) } },
    h(
      "div",
      { class: "record-head" },
      h("span", { class: "record-name" }, `Pair ${index + 1}: both are gone when they meet`),
      h(
        "button",
        {
          class: "button ghost small",
          type: "button",
          "aria-label": `Remove pair ${index + 1}`,
          dataset: { field: `${base}.remove` },
          onclick: () =>
            draft.edit((pack) => {
              pack.levels[0].pairs.splice(index, 1);
              if (!pack.levels[0].pairs.length) delete pack.levels[0].pairs;
            }, "pairs"),
        },
        "Remove",
      ),
    ),
    h("div", { class: "field-row" }, pairWord(draft, pair, index, 0), pairWord(draft, pair, index, 1)),
    h(
      "label",
      { class: "check-field" },
      enter,
      h("span", {}, "Enter: a mover may step into a STOP or PUSH thing with the other word"),
    ),
  );
}

function pairWord(draft, pair, index, side) {
  const control = textField(
    `pairs[${index}].words[${side}]`,
    side === 0 ? "Word" : "Meets",
    pair.words[side],
    (value) =>
      draft.edit((pack) => {
        pack.levels[0].pairs[index].words[side] = value.trim().toUpperCase();
      }, "pairs"),
    {
      maxlength: 32,
      validate: (value) => pairWordProblem(draft.level, index, side, value.trim().toUpperCase()),
    },
  );
  control.querySelector("input").classList.add("is-word");
  return control;
}
