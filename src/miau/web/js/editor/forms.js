// The editor's forms: the level's fields (title, hint, tier, id, size), its
// automata (subject, property, phase, a pattern of arrow and wait steps),
// its pairs (two words, enter) and the glossary of its declared words
// (accent, one sentence). Each control only offers values the pack loader
// accepts; a typed word it would refuse is shown as an error and not kept.
// Every committed change is one undoable draft edit.

import { confirmDialog } from "../dialog.js";
import { h } from "../dom.js";
import { wordTile } from "../words.js";
import {
  ACCENTS,
  MAX_AUTOMATA,
  MAX_PAIRS,
  MAX_PATTERN,
  MAX_SIZE,
  MIN_SIZE,
  VOCABULARY_1,
  declaredWords,
  isFixedWord,
  isLevelId,
  isToken,
  objectNouns,
  usesVocabulary1,
} from "./draft.js";

const STEP_FACES = { U: "↑", D: "↓", L: "←", R: "→", W: "·" };
const STEP_NAMES = { U: "up", D: "down", L: "left", R: "right", W: "wait" };
const PAIR_IDEAS = [
  ["OPEN", "SHUT"],
  ["HOT", "MELT"],
  ["KEY", "LOCK"],
  ["LIGHT", "DARK"],
];
const PROPERTY_IDEAS = ["TICK", "TOCK", "SWAY", "PACE", "DRIFT"];

function field(label, control, extra = null) {
  return h("label", { class: "field" }, h("span", { class: "form-label" }, label), control, extra);
}

function errorLine() {
  return h("p", { class: "field-error", role: "alert", hidden: true });
}

function showError(input, line, message) {
  input.setAttribute("aria-invalid", String(Boolean(message)));
  line.hidden = !message;
  line.textContent = message || "";
}

/** Why `word` cannot be the property of automaton `index`, or null. */
export function automatonPropertyProblem(level, word) {
  if (!isToken(word)) return "A word is a capital letter, then up to 31 capitals, digits, _ or -.";
  if (isFixedWord(word)) return `${word} is a word of the game; declare a word of your own.`;
  if (objectNouns(level).includes(word)) return `${word} is the noun of a thing in this level.`;
  if ((level.pairs || []).some((pair) => pair.words.includes(word))) return `${word} is a pair word here.`;
  return null;
}

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
 * The forms, drawn into `levelRoot` (the level's fields) and `partsRoot`
 * (automata, pairs, glossary). `vocabulary()` gives the current Vocabulary
 * for word chips.
 */
export class Forms {
  constructor(levelRoot, partsRoot, { draft, vocabulary }) {
    this.levelRoot = levelRoot;
    this.partsRoot = partsRoot;
    this.draft = draft;
    this.vocabulary = vocabulary;
    this.signature = null;
  }

  /** Redraws the forms when what they show changed, keeping the focused control focused. */
  render() {
    const pack = this.draft.pack;
    const level = this.draft.level;
    const signature = JSON.stringify([
      level.id,
      level.title,
      level.hint,
      level.tier,
      level.width,
      level.height,
      level.automata,
      level.pairs,
      pack.properties,
      Object.keys(pack.palette),
      objectNouns(level),
    ]);
    if (signature === this.signature) return;
    this.signature = signature;
    const focused = document.activeElement?.dataset?.field || null;
    this.levelRoot.replaceChildren(...this.levelFields());
    this.partsRoot.replaceChildren(
      ...this.automataSection(),
      ...this.pairsSection(),
      ...this.glossarySection(),
    );
    if (focused) {
      const again = this.find(focused, { exact: true });
      if (again) again.focus({ preventScroll: true });
    }
  }

  /** The control a loader place names (`levels[0].automata[0].pattern[3]`), or null. */
  find(place, { exact = false } = {}) {
    const roots = [this.levelRoot, this.partsRoot];
    const fields = roots.flatMap((root) => [...root.querySelectorAll("[data-field]")]);
    const key = place.replace(/^levels\[0\]\.?/, "");
    let best = null;
    for (const element of fields) {
      const name = element.dataset.field;
      if (name === key) return element;
      if (exact) continue;
      if (
        (key.startsWith(`${name}.`) || key.startsWith(`${name}[`)) &&
        (!best || name.length > best.dataset.field.length)
      ) {
        best = element;
      }
    }
    if (best || exact) return best;
    return fields.find((element) => element.dataset.field.startsWith(key)) || null;
  }

  /** Focuses and rings the control a loader place names; false when none does. */
  focusPlace(place) {
    const element = this.find(place);
    if (!element) return false;
    element.closest("details")?.setAttribute("open", "");
    element.scrollIntoView({ block: "center", behavior: "instant" });
    element.focus({ preventScroll: true });
    element.dataset.flagged = "true";
    setTimeout(() => delete element.dataset.flagged, 1600);
    return true;
  }

  text(
    name,
    label,
    value,
    commit,
    { multiline = false, maxlength = 80, placeholder = "", validate = null } = {},
  ) {
    const input = h(multiline ? "textarea" : "input", {
      class: "input",
      name,
      maxlength: String(maxlength),
      placeholder,
      autocomplete: "off",
      spellcheck: multiline ? "true" : "false",
      rows: multiline ? "2" : null,
      dataset: { field: name },
    });
    input.value = value ?? "";
    const line = errorLine();
    input.addEventListener("change", () => {
      const problem = validate ? validate(input.value) : null;
      showError(input, line, problem);
      if (!problem) commit(input.value);
    });
    if (!multiline) {
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          input.dispatchEvent(new Event("change"));
        }
      });
    }
    return field(label, input, line);
  }

  levelFields() {
    const draft = this.draft;
    const level = draft.level;
    const setLevel = (key) => (value) =>
      draft.edit((pack) => {
        pack.levels[0][key] = value;
      }, key);
    const tier = h(
      "select",
      { class: "input", name: "tier", dataset: { field: "tier" } },
      ["required", "optional", "challenge"].map((name) => h("option", { value: name }, name)),
    );
    tier.value = level.tier;
    tier.addEventListener("change", () => setLevel("tier")(tier.value));
    const size = (key) => {
      const input = h("input", {
        class: "input",
        type: "number",
        name: key,
        min: String(MIN_SIZE),
        max: String(MAX_SIZE),
        step: "1",
        inputmode: "numeric",
        dataset: { field: key },
      });
      input.value = String(level[key]);
      let asking = false; // Enter and the blur the dialog causes both send "change": one question
      input.addEventListener("change", async () => {
        if (asking) return;
        const wanted = Math.max(MIN_SIZE, Math.min(MAX_SIZE, Math.round(Number(input.value)) || level[key]));
        const width = key === "width" ? wanted : level.width;
        const height = key === "height" ? wanted : level.height;
        const dropped = draft.droppedByResize(width, height);
        // An in-page question (no native confirm): the tiles outside the new grid would go.
        asking = dropped > 0;
        const asked =
          dropped === 0 ||
          (await confirmDialog({
            title: "Resize the grid?",
            text:
              `A ${width} by ${height} grid leaves out ` +
              `${dropped} tile${dropped === 1 ? "" : "s"}. Resize anyway?`,
            details: "Undo (Ctrl+Z) brings them back.",
            confirm: "Resize",
            tone: "danger",
          }));
        asking = false;
        if (asked && (width !== level.width || height !== level.height)) draft.resize(width, height);
        input.value = String(draft.level[key]);
      });
      input.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        input.dispatchEvent(new Event("change"));
      });
      return field(key === "width" ? "Width" : "Height", input);
    };
    return [
      this.text("title", "Title", level.title, (value) => draft.setTitle(value.trim() || "Untitled"), {
        validate: (value) => (value.trim() ? null : "A level needs a title."),
      }),
      this.text("hint", "Hint", level.hint, (value) => setLevel("hint")(value.trim()), {
        multiline: true,
        maxlength: 200,
        placeholder: "One line that helps a stuck player",
      }),
      h(
        "div",
        { class: "field-row" },
        this.text("id", "Level id", level.id, (value) => setLevel("id")(value.trim()), {
          maxlength: 64,
          validate: (value) =>
            isLevelId(value.trim()) ? null : "A lowercase letter, then lowercase letters, digits or -.",
        }),
        field("Tier", tier),
      ),
      h("div", { class: "field-row" }, size("width"), size("height")),
      this.vocabularyToggle(),
    ];
  }

  /** The switch that gives the level the Tier-1 words (`vocabulary-1`). */
  vocabularyToggle() {
    const draft = this.draft;
    const toggle = h("input", { type: "checkbox", name: "vocabulary-1", dataset: { field: "vocabulary-1" } });
    toggle.checked = usesVocabulary1(draft.pack);
    toggle.addEventListener("change", () =>
      draft.edit((pack) => {
        if (toggle.checked) pack.manifest.features = [VOCABULARY_1];
        else delete pack.manifest.features;
      }, "vocabulary"),
    );
    return h(
      "label",
      { class: "check-field" },
      toggle,
      h("span", {}, "Tier-1 words: NOT, HAS, ON, NEAR, FACING, LONELY, TEXT, ALL, MOVE, PULL and more"),
    );
  }

  automataSection() {
    const draft = this.draft;
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
            const used = new Set(target.automata.map((record) => record.id));
            let number = target.automata.length + 1;
            while (used.has(`a${String(number).padStart(2, "0")}`)) number += 1;
            const property =
              target.automata[0]?.property ||
              PROPERTY_IDEAS.find((word) => !automatonPropertyProblem(target, word)) ||
              "TICK";
            const record = {
              id: `a${String(number).padStart(2, "0")}`,
              property,
              phase: 0,
              pattern: ["L", "R"],
            };
            const subject = nouns.find((noun) => noun !== "MIAU") || nouns[0];
            if (subject) record.subject = subject;
            target.automata.push(record);
          }, "automata"),
      },
      "+ Automaton",
    );
    const list = records.map((record, index) => this.automatonCard(record, index, nouns, declared));
    return [
      h("div", { class: "form-head" }, h("h3", {}, "Automata"), add),
      records.length
        ? h("ol", { class: "record-list automata-list" }, list)
        : h("p", { class: "form-empty" }, "Things with an automaton's word repeat its steps, one per turn."),
    ];
  }

  automatonCard(record, index, nouns, declared) {
    const draft = this.draft;
    const base = `automata[${index}]`;
    const change = (mutate) =>
      draft.edit((pack) => {
        mutate(pack.levels[0].automata[index], pack.levels[0]);
      }, "automata");
    const subject = h(
      "select",
      { class: "input", name: `${base}.subject`, dataset: { field: `${base}.subject` } },
      h("option", { value: "" }, "every noun with it"),
      nouns.map((noun) => h("option", { value: noun }, noun)),
    );
    subject.value = record.subject || "";
    subject.addEventListener("change", () =>
      change((target) => {
        if (subject.value) target.subject = subject.value;
        else delete target.subject;
      }),
    );
    const listId = `declared-words-${index}`;
    const property = this.text(
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
    const propertyInput = property.querySelector("input");
    propertyInput.setAttribute("list", listId);
    propertyInput.classList.add("is-word");
    const phase = h(
      "select",
      { class: "input", name: `${base}.phase`, dataset: { field: `${base}.phase` } },
      record.pattern.map((_, step) => h("option", { value: String(step) }, String(step))),
    );
    phase.value = String(record.phase || 0);
    phase.addEventListener("change", () =>
      change((target) => {
        target.phase = Number(phase.value);
      }),
    );
    const steps = record.pattern.map((letter, step) =>
      h(
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
      ),
    );
    const adders = ["U", "D", "L", "R", "W"].map((letter) =>
      h(
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
      ),
    );
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
      h("div", { class: "field-row" }, field("Subject", subject), property, field("Phase", phase)),
      h(
        "datalist",
        { id: listId },
        declared.map((word) => h("option", { value: word })),
      ),
      h(
        "div",
        { class: "field" },
        h(
          "span",
          { class: "form-label" },
          `Pattern (${record.pattern.length} step${record.pattern.length === 1 ? "" : "s"})`,
        ),
        h(
          "div",
          {
            class: "pattern",
            role: "group",
            "aria-label": "Pattern",
            tabindex: "-1",
            dataset: { field: `${base}.pattern` },
          },
          steps,
        ),
        h(
          "div",
          { class: "pattern-adders", role: "group", "aria-label": "Add a step" },
          h("span", { class: "form-note" }, "Add"),
          adders,
        ),
      ),
    );
  }

  pairsSection() {
    const draft = this.draft;
    const level = draft.level;
    const pairs = level.pairs || [];
    const add = h(
      "button",
      {
        class: "button small",
        type: "button",
        disabled: pairs.length >= MAX_PAIRS,
        dataset: { field: "pairs", action: "add-pair" },
        onclick: () =>
          draft.edit((pack) => {
            const target = pack.levels[0];
            target.pairs = target.pairs || [];
            target.pairs.push({ words: ["?", "?"], effect: "destroy-both", enter: false });
            const index = target.pairs.length - 1;
            const idea = PAIR_IDEAS.find(
              ([a, b]) =>
                !pairWordProblem(target, index, 0, a) && !pairWordProblem({ ...target }, index, 1, b),
            );
            if (!idea) {
              target.pairs.pop();
              if (!target.pairs.length) delete target.pairs;
              return false;
            }
            target.pairs[index].words = [...idea];
            return true;
          }, "pairs"),
      },
      "+ Pair",
    );
    const cards = pairs.map((pair, index) => {
      const base = `pairs[${index}]`;
      const word = (side) => {
        const control = this.text(
          `${base}.words[${side}]`,
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
      };
      const enter = h("input", {
        type: "checkbox",
        name: `${base}.enter`,
        dataset: { field: `${base}.enter` },
      });
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
        h("div", { class: "field-row" }, word(0), word(1)),
        h(
          "label",
          { class: "check-field" },
          enter,
          h("span", {}, "Enter: a mover may step into a STOP or PUSH thing with the other word"),
        ),
      );
    });
    return [
      h("div", { class: "form-head" }, h("h3", {}, "Pairs"), add),
      pairs.length
        ? h("ol", { class: "record-list pairs-list" }, cards)
        : h("p", { class: "form-empty" }, "A pair's two words destroy each other's things when they meet."),
    ];
  }

  glossarySection() {
    const draft = this.draft;
    const words = declaredWords(draft.level);
    const vocabulary = this.vocabulary();
    const entries = words.map((word) => {
      const entry = draft.pack.properties?.[word] || { accent: "push", describe: "" };
      const base = `properties.${word}`;
      const accent = h(
        "select",
        { class: "input", name: `${base}.accent`, dataset: { field: `${base}.accent` } },
        ACCENTS.map((name) => h("option", { value: name }, name)),
      );
      accent.value = entry.accent || "push";
      const commit = (mutate) =>
        draft.edit((pack) => {
          pack.properties = pack.properties || {};
          const current = pack.properties[word] || { accent: "push", describe: "" };
          mutate(current);
          pack.properties[word] = current;
        }, "glossary");
      accent.addEventListener("change", () =>
        commit((current) => {
          current.accent = accent.value;
        }),
      );
      const describe = this.text(
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
      return h(
        "li",
        { class: "record glossary-record", dataset: { word } },
        h("div", { class: "record-head" }, wordTile(word, vocabulary, { chip: true })),
        h("div", { class: "field-row" }, field("Accent", accent), describe),
        entry.describe?.trim()
          ? null
          : h(
              "p",
              { class: "form-note" },
              "Without a sentence the word is not put in the glossary (its accent is then push).",
            ),
      );
    });
    return [
      h("div", { class: "form-head" }, h("h3", {}, "Glossary")),
      words.length
        ? h("ul", { class: "record-list glossary-list" }, entries)
        : h("p", { class: "form-empty" }, "Words declared by automata and pairs are described here."),
    ];
  }
}
