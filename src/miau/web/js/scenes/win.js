// The win scene, shown over the board: the level, moves taken, best so far,
// the next level and the way back to the map.

import { h, keyLabel } from "../dom.js";

/**
 * Shows the win overlay in `root`. `onNext` is null when the world has no
 * next level; `mapLabel` names the way back (the map, worlds, the editor).
 * Enter goes on, Escape goes back to the map, R plays again.
 * Returns a function that removes it.
 */
export function showWin(
  root,
  { title, moves, bestMoves, onNext, onMap, onReplay, signal, mapLabel = "Back to the map" },
) {
  const isBest = bestMoves == null || moves <= bestMoves;
  const next = onNext
    ? h(
        "button",
        { class: "button primary big", type: "button", onclick: onNext },
        keyLabel("Next level", "Enter"),
      )
    : null;
  const map = h(
    "button",
    { class: `button${onNext ? "" : " primary big"}`, type: "button", onclick: onMap },
    keyLabel(mapLabel, "Esc"),
  );
  const replay = h(
    "button",
    { class: "button ghost", type: "button", onclick: onReplay },
    keyLabel("Play again", "R"),
  );
  const overlay = h(
    "div",
    { class: "overlay win-overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "win-heading" },
    h(
      "div",
      { class: "win-card" },
      h("p", { class: "win-kicker" }, "Solved"),
      h("h2", { id: "win-heading" }, title),
      h(
        "dl",
        { class: "win-stats" },
        h("div", {}, h("dt", {}, "Moves"), h("dd", { "data-stat": "moves" }, String(moves))),
        h(
          "div",
          {},
          h("dt", {}, "Best"),
          h("dd", { "data-stat": "best" }, bestMoves == null ? String(moves) : String(bestMoves)),
        ),
      ),
      isBest ? h("p", { class: "win-note" }, "Your best so far.") : null,
      h("div", { class: "win-actions" }, next, map, replay),
    ),
  );
  root.append(overlay);
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort());
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const onButton = event.target instanceof HTMLButtonElement && overlay.contains(event.target);
      if (event.key === "Enter" && !onButton) {
        event.preventDefault();
        (onNext || onMap)();
      } else if (event.key === "Escape") {
        event.preventDefault();
        onMap();
      } else if (event.key.toLowerCase() === "r") {
        event.preventDefault();
        onReplay();
      }
    },
    { signal: controller.signal },
  );
  (next || map).focus();
  return () => {
    controller.abort();
    overlay.remove();
  };
}
