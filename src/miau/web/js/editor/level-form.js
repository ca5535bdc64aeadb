// The Level tab's form: title, hint, level id, tier, the grid's size and
// the switch for the Tier-1 words. Every committed change is one undoable
// draft edit.

import { confirmDialog } from "../dialog.js";
import { h } from "../dom.js";
import { MAX_SIZE, MIN_SIZE, VOCABULARY_1, isLevelId, usesVocabulary1 } from "./draft.js";
import { enterCommits, field, selectField, textField } from "./form-fields.js";

const TIERS = ["required", "optional", "challenge"];

/** The level's fields, for `draft`. */
export function levelFields(draft) {
  const level = draft.level;
  const setLevel = (key) => (value) =>
    draft.edit((pack) => {
      pack.levels[0][key] = value;
    }, key);
  const tier = selectField(
    "tier",
    TIERS.map((name) => h("option", { value: name }, name)),
    level.tier,
  );
  tier.addEventListener("change", () => setLevel("tier")(tier.value));
  return [
    textField("title", "Title", level.title, (value) => draft.setTitle(value.trim() || "Untitled"), {
      validate: (value) => (value.trim() ? null : "A level needs a title."),
    }),
    textField("hint", "Hint", level.hint, (value) => setLevel("hint")(value.trim()), {
      multiline: true,
      maxlength: 200,
      placeholder: "One line that helps a stuck player",
    }),
    h(
      "div",
      { class: "field-row" },
      textField("id", "Level id", level.id, (value) => setLevel("id")(value.trim()), {
        maxlength: 64,
        validate: (value) =>
          isLevelId(value.trim()) ? null : "A lowercase letter, then lowercase letters, digits or -.",
      }),
      field("Tier", tier),
    ),
    h("div", { class: "field-row" }, sizeField(draft, "width"), sizeField(draft, "height")),
    vocabularyToggle(draft),
  ];
}

/** The size within the limits that a typed `text` asks for (`current` when it asks for none). */
export function wantedSize(text, current) {
  return Math.max(MIN_SIZE, Math.min(MAX_SIZE, Math.round(Number(text)) || current));
}

/** The width or height field (`key`); a resize that would drop tiles asks first. */
function sizeField(draft, key) {
  const level = draft.level;
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
    const wanted = wantedSize(input.value, level[key]);
    const width = key === "width" ? wanted : level.width;
    const height = key === "height" ? wanted : level.height;
    const dropped = draft.droppedByResize(width, height);
    // An in-page question (no native confirm): the tiles outside the new grid would go.
    asking = dropped > 0;
    const asked = dropped === 0 || (await confirmResize(width, height, dropped));
    asking = false;
    if (asked && (width !== level.width || height !== level.height)) draft.resize(width, height);
    input.value = String(draft.level[key]);
  });
  enterCommits(input);
  return field(key === "width" ? "Width" : "Height", input);
}

function confirmResize(width, height, dropped) {
  return confirmDialog({
    title: "Resize the grid?",
    text: `A ${width} by ${height} grid leaves out ${dropped} tile${dropped === 1 ? "" : "s"}. Resize anyway?`,
    details: "Undo (Ctrl+Z) brings them back.",
    confirm: "Resize",
    tone: "danger",
  });
}

/** The switch that gives the level the Tier-1 words (`vocabulary-1`). */
function vocabularyToggle(draft) {
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
