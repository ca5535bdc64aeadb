// The on-screen pad (shown on touch screens): four directions and Wait.
// input.js makes a held direction repeat like a held arrow key.

import { h } from "./dom.js";

/** The pad's element: buttons with `data-intent`, `data-direction` and `data-pad`. */
export function dpad() {
  const pad = (direction, arrow, label) =>
    h(
      "button",
      {
        class: "dpad-button",
        type: "button",
        "aria-label": label,
        dataset: { intent: "step", direction, pad: direction },
      },
      arrow,
    );
  const nav = h(
    "nav",
    { class: "dpad", "aria-label": "Move" },
    pad("up", "▲", "Up"),
    pad("left", "◀", "Left"),
    h(
      "button",
      {
        class: "dpad-button wait",
        type: "button",
        "aria-label": "Wait",
        dataset: { intent: "wait", pad: "wait" },
      },
      "Wait",
    ),
    pad("right", "▶", "Right"),
    pad("down", "▼", "Down"),
  );
  // A long press is a held move, not a request for the context menu.
  nav.addEventListener("contextmenu", (event) => event.preventDefault());
  return nav;
}
