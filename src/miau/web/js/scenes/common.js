// Pieces the menu scenes share: loading and error cards, Escape to go back,
// a library pack's Export link and Remove button.

import * as api from "../api.js";
import { confirmDialog } from "../dialog.js";
import { h } from "../dom.js";
import { toast } from "../toast.js";

/** A placeholder card while data loads. */
export function loadingCard() {
  return h("li", { class: "card loading-card", "aria-busy": "true" }, "Loading…");
}

/** A card saying what went wrong, with a retry button. */
export function errorCard(error, retry) {
  return h(
    "li",
    { class: "card error-card", role: "alert" },
    h("p", {}, error?.message || "Something went wrong."),
    h("button", { class: "button", type: "button", onclick: retry }, "Try again"),
  );
}

/** Calls `back` when Escape is pressed, until `signal` aborts. */
export function onEscape(back, signal) {
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      back();
    },
    { signal },
  );
}

/** The Export link of library pack `packId`: its file, named after its id. */
export function exportLink(packId, className = "button") {
  return h(
    "a",
    { class: className, href: api.exportUrl(packId), download: `${packId}.json`, dataset: { action: "export" } },
    "Export",
  );
}

/** A Remove button, shown as dangerous, that calls `onRemove` when clicked. */
export function removeButton(onRemove) {
  const button = h(
    "button",
    { class: "button ghost danger-text", type: "button", dataset: { action: "remove" } },
    "Remove",
  );
  button.addEventListener("click", onRemove);
  return button;
}

/**
 * Asks before removing library pack `pack` (`{id, name}`), `text` saying what
 * leaves, then removes it. Resolves "removed", "failed" (said in a toast) or
 * "kept" (the player said no, or the scene closed).
 */
export async function removeLibraryPack(pack, text, signal) {
  const sure = await confirmDialog({
    title: `Remove “${pack.name}”?`,
    text,
    details: "Export it first if you may want it back.",
    confirm: "Remove",
    tone: "danger",
    signal,
  });
  if (!sure || signal.aborted) return "kept";
  try {
    await api.deleteLibraryPack(pack.id);
  } catch (error) {
    toast(error.message, { tone: "error" });
    return "failed";
  }
  toast(`Removed “${pack.name}”.`, { duration: 3000 });
  return "removed";
}
