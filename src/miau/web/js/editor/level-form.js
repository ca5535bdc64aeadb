// The Level tab's form: title, hint, level id, tier, the grid's size and
// the switch for the Tier-1 words. Every committed change is one undoable
// draft edit.

import { confirmDialog } from "../dialog.js";
import { h } from "../dom.js";
import { MAX_SIZE, MIN_SIZE, VOCABULARY_1, isLevelId, usesVocabulary1 } from "./draft.js";
import { enterCommits, field, selectField, textField } from "./form-fields.js";

const TIERS = ["required", "optional", "challenge"];

/**
 * The largest width or height that still plays comfortably: past it, a
 * laptop's board has cells too small for legible words (about 33 px), so
 * the grid scrolls while editing and test-play shrinks its words.
 */
export const COMFORTABLE_SIZE = 20;

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
    ...sizeFields(draft),
    vocabularyToggle(draft),
  ];
}

/**
 * Width and height, and under them what a large grid costs: shown as soon
 * as a size past COMFORTABLE_SIZE is typed, before it is kept.
 */
function sizeFields(draft) {
  const width = sizeField(draft, "width");
  const height = sizeField(draft, "height");
  const note = h("p", { class: "form-note size-cost", role: "status", dataset: { role: "size-cost" } });
  const typed = (row) => Number(row.querySelector("input").value) || 0;
  const update = () => {
    note.textContent = sizeCost(typed(width), typed(height));
    note.hidden = !note.textContent;
  };
  width.addEventListener("input", update);
  height.addEventListener("input", update);
  update();
  return [h("div", { class: "field-row" }, width, height), note];
}

/** What a `width` by `height` grid costs, in plain words; empty while both are comfortable. */
export function sizeCost(width, height) {
  if (Math.max(width, height) <= COMFORTABLE_SIZE) return "";
  return (
    `Over ${COMFORTABLE_SIZE} cells across or down, a level gets harder to make and to play: ` +
    "its cells are small and its words hard to read, the grid scrolls while you edit, " +
    "and solving and checking it take longer."
  );
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
