// Pieces the menu scenes share: loading and error cards, Escape to go back.

import { h } from "../dom.js";

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
