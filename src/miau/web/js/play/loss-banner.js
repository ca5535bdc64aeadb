// The banner over the board when nothing is YOU: Undo or Restart.

import { h } from "../dom.js";
import { actionButton } from "./buttons.js";

/** The loss banner; `update(state)` shows it while control is lost in a game not won. */
export class LossBanner {
  constructor() {
    this.element = h(
      "div",
      { class: "loss-banner", role: "alert", hidden: true },
      h("p", { class: "loss-title" }, "Nothing is YOU"),
      h("p", { class: "loss-text" }, "Undo the last move or restart the level."),
      h(
        "div",
        { class: "loss-actions" },
        actionButton("undo", "Undo", "Z", { primary: "true" }),
        actionButton("reset", "Restart", "R"),
      ),
    );
  }

  /** Shows or hides the banner for `state`. */
  update(state) {
    this.element.hidden = !state.controlLost || state.won;
  }
}
