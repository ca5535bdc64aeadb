// The controls the editor's forms are made of: a labelled field, a text
// field that checks what is typed before it keeps it, and its error line.

import { h } from "../dom.js";

/** A labelled field: `label` above `control`, then `extra` (an error line). */
export function field(label, control, extra = null) {
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

/** Makes Enter in `input` commit it, as leaving it does. */
export function enterCommits(input) {
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    input.dispatchEvent(new Event("change"));
  });
}

/**
 * A text field named `name` (its `data-field` too) showing `value`: a
 * change that `validate` finds no problem with is passed to `commit`, one
 * it does is shown as an error and not kept. Enter commits a one-line field.
 */
export function textField(
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
  if (!multiline) enterCommits(input);
  return field(label, input, line);
}

/** A select named `name` (its `data-field` too) offering `options`, showing `value`. */
export function selectField(name, options, value) {
  const select = h("select", { class: "input", name, dataset: { field: name } }, options);
  select.value = value;
  return select;
}
