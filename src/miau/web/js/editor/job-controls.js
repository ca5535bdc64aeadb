// What every studio job's panel starts with (check, solve, depth, suggest):
// a start button, a hidden Cancel button and a status line that says what
// the job does until it runs.

import { h } from "../dom.js";

/**
 * The start button (`data-action=action`), its Cancel button
 * (`data-action=cancel-<action>`, hidden until the job runs) and the
 * status line showing `idleText`. `onStart` and `onCancel` handle the
 * clicks; `primary` draws the start button as the panel's main action.
 */
export function jobControls({ action, label, idleText, onStart, onCancel, primary = true }) {
  const startButton = h(
    "button",
    { class: primary ? "button primary" : "button", type: "button", dataset: { action }, onclick: onStart },
    label,
  );
  const cancelButton = h(
    "button",
    { class: "button", type: "button", hidden: true, dataset: { action: `cancel-${action}` }, onclick: onCancel },
    "Cancel",
  );
  const status = h("p", { class: "studio-status", role: "status", dataset: { status: "idle" } }, idleText);
  return { startButton, cancelButton, status };
}
