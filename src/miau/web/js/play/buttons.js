// The play scene's action buttons (Undo, Restart, Wait) with their keys.

import { h, keyLabel } from "../dom.js";

/** A button that input.js turns into `intent`, labelled with its `key`. */
export function actionButton(intent, label, key, extra = {}) {
  return h(
    "button",
    { class: "button action", type: "button", dataset: { intent, ...extra } },
    keyLabel(label, key),
  );
}
