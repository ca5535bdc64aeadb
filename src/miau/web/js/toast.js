// Small cards that appear over the page for a few seconds (new words,
// "resumed", errors). Speech goes through announce.js, not here.

import { h } from "./dom.js";

const TOAST_MS = 6500;

// A scene may offer a shelf of its own (`data-toasts`), which its style turns
// on (`--toasts-here: 1`) where the page's corner would cover the game.
function shelfInUse() {
  const local = document.querySelector("[data-toasts]");
  if (local && getComputedStyle(local).getPropertyValue("--toasts-here").trim() === "1") return local;
  return document.getElementById("toasts");
}

/** Shows `content` (nodes or text) as a toast; returns a function that hides it. */
export function toast(content, { tone = "info", duration = TOAST_MS } = {}) {
  const shelf = shelfInUse();
  if (!shelf) return () => {};
  const card = h("div", { class: "toast", dataset: { tone } }, content);
  shelf.append(card);
  let timer = null;
  const hide = () => {
    clearTimeout(timer);
    if (!card.isConnected) return;
    card.classList.add("is-leaving");
    setTimeout(() => card.remove(), 250);
  };
  timer = setTimeout(hide, duration);
  card.addEventListener("click", hide);
  return hide;
}

/** Removes every toast at once (leaving a scene). */
export function clearToasts() {
  document.getElementById("toasts")?.replaceChildren();
  for (const shelf of document.querySelectorAll("[data-toasts]")) shelf.replaceChildren();
}
