// Small modal dialogs over any scene: a question with two answers, and the
// share card with its link. While one is open it owns the keyboard: no key
// reaches the scene underneath.

import { h, keyLabel } from "./dom.js";
import { keysOrTouch } from "./touch.js";

function modal(className, labelId, children) {
  const dialog = h(
    "dialog",
    { class: `dialog ${className}`, "aria-labelledby": labelId, "aria-modal": "true" },
    h("div", { class: "dialog-card" }, children),
  );
  // The scene listens on window: keys typed here stay here.
  dialog.addEventListener("keydown", (event) => event.stopPropagation());
  dialog.addEventListener("keyup", (event) => event.stopPropagation());
  return dialog;
}

function openModal(dialog, { signal, focus }) {
  document.body.append(dialog);
  dialog.showModal();
  focus?.focus();
  const remove = () => {
    if (dialog.open) dialog.close();
    dialog.remove();
  };
  signal?.addEventListener("abort", remove, { once: true });
  return remove;
}

/**
 * Asks a question; resolves with true (confirm) or false (cancel, Escape,
 * or the scene left). `tone: "danger"` marks a confirm that removes
 * something.
 */
export function confirmDialog({
  title,
  text,
  details = null,
  confirm,
  cancel = "Cancel",
  tone = "primary",
  signal,
}) {
  return ask({
    kind: "confirm",
    title,
    text,
    details,
    choices: [{ answer: true, label: confirm, tone }],
    cancel,
    cancelled: false,
    signal,
  });
}

/**
 * Asks a question with several answers: `choices` is `[{answer, label, tone}]`,
 * the first one the default (Enter). Resolves with the chosen `answer`, or null
 * (cancel, Escape, or the scene left).
 */
export function choiceDialog({ title, text, details = null, choices, cancel = "Cancel", signal }) {
  return ask({ kind: "choice", title, text, details, choices, cancel, cancelled: null, signal });
}

// The one dialog both questions are: the choices right to left, Cancel first, the
// first choice the default; `cancelled` is what every way out without a choice gives.
function ask({ kind, title, text, details, choices, cancel, cancelled, signal }) {
  return new Promise((resolve) => {
    const buttons = choices.map(({ answer, label, tone = "primary" }, index) =>
      h(
        "button",
        {
          class: `button ${tone === "danger" ? "danger" : index === 0 ? "primary" : ""}`.trim(),
          type: "button",
          dataset: { answer: kind === "confirm" ? "confirm" : answer },
        },
        index === 0 ? keyLabel(label, "Enter") : label,
      ),
    );
    const no = h(
      "button",
      { class: "button ghost", type: "button", dataset: { answer: "cancel" } },
      keyLabel(cancel, "Esc"),
    );
    const className = kind === "confirm" ? "confirm-dialog" : "confirm-dialog choice-dialog";
    const dialog = modal(className, `${kind}-title`, [
      h("h2", { id: `${kind}-title` }, title),
      text ? h("p", { class: "dialog-text" }, text) : null,
      details ? h("p", { class: "dialog-details" }, details) : null,
      h("div", { class: "dialog-actions" }, no, ...[...buttons].reverse()),
    ]);
    let done = false;
    let remove = () => {};
    const answer = (value) => {
      if (done) return;
      done = true;
      remove();
      resolve(value);
    };
    buttons.forEach((button, index) => button.addEventListener("click", () => answer(choices[index].answer)));
    no.addEventListener("click", () => answer(cancelled));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      answer(cancelled);
    });
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        answer(cancelled);
      }
    });
    remove = openModal(dialog, { signal, focus: buttons[0] });
    signal?.addEventListener("abort", () => answer(cancelled), { once: true });
  });
}

async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (or an old browser): copy the selected field.
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * Shows a share link with a Copy button; copies it at once. Resolves when
 * the dialog closes (Close, Escape, or the scene left).
 */
export function shareDialog({ title, link, note = null, signal }) {
  return new Promise((resolve) => {
    const field = h("input", {
      class: "share-link",
      type: "text",
      readonly: true,
      value: link,
      "aria-label": "Share link",
      spellcheck: "false",
    });
    const status = h("p", { class: "share-status", role: "status" });
    const copy = h(
      "button",
      { class: "button primary", type: "button", dataset: { action: "copy" } },
      keyLabel("Copy link", "Enter"),
    );
    const close = h(
      "button",
      { class: "button ghost", type: "button", dataset: { action: "close" } },
      keyLabel("Close", "Esc"),
    );
    const dialog = modal("share-dialog", "share-title", [
      h("p", { class: "dialog-kicker" }, "Share"),
      h("h2", { id: "share-title" }, title),
      h(
        "p",
        { class: "dialog-text" },
        "Anyone with this link plays this level in their Miau. The level travels inside the link itself.",
      ),
      field,
      status,
      note ? h("p", { class: "dialog-details" }, note) : null,
      h("div", { class: "dialog-actions" }, close, copy),
    ]);
    let done = false;
    let remove = () => {};
    const finish = () => {
      if (done) return;
      done = true;
      remove();
      resolve();
    };
    const doCopy = async () => {
      const copied = await copyText(link, field);
      const byHand = keysOrTouch("Select the link and copy it (Ctrl+C).", "Select the link and copy it.");
      status.textContent = copied ? "Copied to the clipboard." : byHand;
      status.dataset.copied = String(copied);
      field.select();
    };
    copy.addEventListener("click", doCopy);
    close.addEventListener("click", finish);
    field.addEventListener("focus", () => field.select());
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish();
    });
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        finish();
      } else if (event.key === "Enter" && event.target === field) {
        event.preventDefault();
        doCopy();
      }
    });
    remove = openModal(dialog, { signal, focus: copy });
    field.value = link;
    doCopy();
    signal?.addEventListener("abort", finish, { once: true });
  });
}
