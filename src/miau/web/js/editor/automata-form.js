// The Clockwork tab's automata: each one's subject, word, phase and
// pattern of arrow and wait steps, with buttons to add and remove steps
// and automata. Every committed change is one undoable draft edit.

import { h } from "../dom.js";
import { MAX_AUTOMATA, MAX_PATTERN, declaredWords, isFixedWord, isToken, objectNouns } from "./draft.js";
import { field, selectField, textField } from "./form-fields.js";

const STEP_FACES = { U: "↑", D: "↓", L: "←", R: "→", W: "·" };
const STEP_NAMES = { U: "up", D: "down", L: "left", R: "right", W: "wait" };
const PROPERTY_IDEAS = ["TICK", "TOCK", "SWAY", "PACE", "DRIFT"];

/** Why `word` cannot be the property of an automaton of `level`, or null. */
export function automatonPropertyProblem(level, word) {
  if (!isToken(word)) return "A word is a capital letter, then up to 31 capitals, digits, _ or -.";
  if (isFixedWord(word)) return `${word} is a word of the game; declare a word of your own.`;
  if (objectNouns(level).includes(word)) return `${word} is the noun of a thing in this level.`;
  if ((level.pairs || []).some((pair) => pair.words.includes(word))) return `${word} is a pair word here.`;
  return null;
}

/**
 * The automaton "+ Automaton" adds to `level` (whose automata list exists):
 * the first free id, the first automaton's word (or a free idea), steps
 * left and right, and the first of `nouns` that is not MIAU as subject.
 */
export function newAutomaton(level, nouns) {
  const used = new Set(level.automata.map((record) => record.id));
  let number = level.automata.length + 1;
  while (used.has(`a${String(number).padStart(2, "0")}`)) number += 1;
  const property =
    level.automata[0]?.property ||
    PROPERTY_IDEAS.find((word) => !automatonPropertyProblem(level, word)) ||
    "TICK";
  const record = { id: `a${String(number).padStart(2, "0")}`, property, phase: 0, pattern: ["L", "R"] };
  const subject = nouns.find((noun) => noun !== "MIAU") || nouns[0];
  if (subject) record.subject = subject;
  return record;
}

/** The automata's heading, add button and cards, for `draft`. */
export function automataSection(draft) {
  const level = draft.level;
  const records = level.automata || [];
  const nouns = [...new Set([...Object.keys(draft.pack.palette), ...objectNouns(level)])];
  const declared = declaredWords(level);
  const add = h(
    "button",
    {
      class: "button small",
      type: "button",
      disabled: records.length >= MAX_AUTOMATA,
      dataset: { field: "automata", action: "add-automaton" },
      onclick: () =>
        draft.edit((pack) => {
          const target = pack.levels[0];
          target.automata = target.automata || [];
          target.automata.push(newAutomaton(target, nouns));
        }, "automata"),
    },
    "+ Automaton",
  );
  const list = records.map((record, index) => automatonCard(draft, record, index, nouns, declared));
  return [
    h("div", { class: "form-head" }, h("h3", {}, "Automata"), add),
    records.length
      ? h("ol", { class: "record-list automata-list" }, list)
      : h("p", { class: "form-empty" }, "Things with an automaton's word repeat its steps, one per turn."),
  ];
}

function automatonCard(draft, record, index, nouns, declared) {
  const base = `automata[${index}]`;
  const change = (mutate) =>
    draft.edit((pack) => {
      mutate(pack.levels[0].automata[index], pack.levels[0]);
    }, "automata");
  const listId = `declared-words-${index}`;
  return h(
    "li",
    { class: "record", dataset: { automaton: String(index) } },
    h(
      "div",
      { class: "record-head" },
      h("span", { class: "record-name" }, `Automaton ${index + 1}`),
      h(
        "button",
        {
          class: "button ghost small",
          type: "button",
          "aria-label": `Remove automaton ${index + 1}`,
          dataset: { field: `${base}.remove` },
          onclick: () =>
            draft.edit((pack) => {
              pack.levels[0].automata.splice(index, 1);
              if (!pack.levels[0].automata.length) delete pack.levels[0].automata;
            }, "automata"),
        },
        "Remove",
      ),
    ),
    h(
      "div",
      { class: "field-row" },
      field("Subject", subjectSelect(base, record, nouns, change)),
      propertyField(draft, base, record, listId, change),
      field("Phase", phaseSelect(base, record, change)),
    ),
    h(
      "datalist",
      { id: listId },
      declared.map((word) => h("option", { value: word })),
    ),
    patternField(base, record, change),
  );
}

function subjectSelect(base, record, nouns, change) {
  const subject = selectField(
    `${base}.subject`,
    [h("option", { value: "" }, "every noun with it"), nouns.map((noun) => h("option", { value: noun }, noun))],
    record.subject || "",
  );
  subject.addEventListener("change", () =>
    change((target) => {
      if (subject.value) target.subject = subject.value;
      else delete target.subject;
    }),
  );
  return subject;
}

function propertyField(draft, base, record, listId, change) {
  const property = textField(
    `${base}.property`,
    "Word",
    record.property,
    (value) =>
      change((target) => {
        target.property = value.trim().toUpperCase();
      }),
    {
      maxlength: 32,
      validate: (value) => automatonPropertyProblem(draft.level, value.trim().toUpperCase()),
    },
  );
  const input = property.querySelector("input");
  input.setAttribute("list", listId);
  input.classList.add("is-word");
  return property;
}

function phaseSelect(base, record, change) {
  const phase = selectField(
    `${base}.phase`,
    record.pattern.map((_, step) => h("option", { value: String(step) }, String(step))),
    String(record.phase || 0),
  );
  phase.addEventListener("change", () =>
    change((target) => {
      target.phase = Number(phase.value);
    }),
  );
  return phase;
}

function patternField(base, record, change) {
  const count = record.pattern.length;
  return h(
    "div",
    { class: "field" },
    h("span", { class: "form-label" }, `Pattern (${count} step${count === 1 ? "" : "s"})`),
    h(
      "div",
      {
        class: "pattern",
        role: "group",
        "aria-label": "Pattern",
        tabindex: "-1",
        dataset: { field: `${base}.pattern` },
      },
      record.pattern.map((letter, step) => stepButton(base, record, letter, step, change)),
    ),
    h(
      "div",
      { class: "pattern-adders", role: "group", "aria-label": "Add a step" },
      h("span", { class: "form-note" }, "Add"),
      ["U", "D", "L", "R", "W"].map((letter) => adderButton(base, record, letter, change)),
    ),
  );
}

/** A step of the pattern; clicking it removes it (the last step stays). */
function stepButton(base, record, letter, step, change) {
  return h(
    "button",
    {
      class: "step",
      type: "button",
      title: `Step ${step + 1}: ${STEP_NAMES[letter]}. Click to remove it.`,
      "aria-label": `Step ${step + 1}, ${STEP_NAMES[letter]}: remove`,
      disabled: record.pattern.length <= 1,
      dataset: {
        field: `${base}.pattern[${step}]`,
        step: letter,
        current: String(step === (record.phase || 0)),
      },
      onclick: () =>
        change((target) => {
          target.pattern.splice(step, 1);
          target.phase = Math.min(target.phase || 0, target.pattern.length - 1);
        }),
    },
    STEP_FACES[letter],
  );
}

function adderButton(base, record, letter, change) {
  return h(
    "button",
    {
      class: "step add",
      type: "button",
      title: `Add a step ${STEP_NAMES[letter]}`,
      "aria-label": `Add step ${STEP_NAMES[letter]}`,
      disabled: record.pattern.length >= MAX_PATTERN,
      dataset: { field: `${base}.add-${letter}`, add: letter },
      onclick: () =>
        change((target) => {
          target.pattern.push(letter);
        }),
    },
    STEP_FACES[letter],
  );
}
