// The level's hint, in a side panel shown only when the level has one.

import { h } from "../dom.js";

/** The hint panel, hidden until `show(hint)` gets a hint. */
export class HintPanel {
  constructor() {
    this.text = h("p", { class: "hint" });
    this.element = h("section", { class: "panel hint-panel", hidden: true }, h("h2", {}, "Hint"), this.text);
  }

  /** Shows `hint` (nothing happens without one). */
  show(hint) {
    if (!hint) return;
    this.text.textContent = hint;
    this.element.hidden = false;
  }
}
