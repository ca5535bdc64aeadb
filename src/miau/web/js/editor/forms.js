// The editor's forms: the level's fields (level-form.js), its automata
// (automata-form.js), its pairs (pairs-form.js) and the glossary of its
// declared words (glossary-form.js). Each control only offers values the
// pack loader accepts; a typed word it would refuse is shown as an error
// and not kept. Every committed change is one undoable draft edit. This
// module redraws them when the draft changes and finds the control a
// loader problem's place names.

import { automataSection } from "./automata-form.js";
import { objectNouns } from "./draft.js";
import { glossarySection } from "./glossary-form.js";
import { levelFields } from "./level-form.js";
import { pairsSection } from "./pairs-form.js";

export { automatonPropertyProblem } from "./automata-form.js";
export { pairWordProblem } from "./pairs-form.js";

const FLAG_MS = 1600;

/**
 * Which of `fields` (elements with a `data-field`) a loader place names
 * (`levels[0].automata[0].pattern[3]`): the field of that very name, else
 * (unless `exact`) the longest one the place lies inside, else the first
 * one inside the place; null when none does.
 */
export function fieldForPlace(fields, place, { exact = false } = {}) {
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
    this.levelRoot.replaceChildren(...levelFields(this.draft));
    this.partsRoot.replaceChildren(
      ...automataSection(this.draft),
      ...pairsSection(this.draft),
      ...glossarySection(this.draft, this.vocabulary()),
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
    return fieldForPlace(fields, place, { exact });
  }

  /** Focuses and rings the control a loader place names; false when none does. */
  focusPlace(place) {
    const element = this.find(place);
    if (!element) return false;
    element.closest("details")?.setAttribute("open", "");
    element.scrollIntoView({ block: "center", behavior: "instant" });
    element.focus({ preventScroll: true });
    element.dataset.flagged = "true";
    setTimeout(() => delete element.dataset.flagged, FLAG_MS);
    return true;
  }
}
