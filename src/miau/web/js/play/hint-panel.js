// The level's hints, in a side panel: none shows until the player asks
// (the Hint button or its key), then one more per request, a nudge first
// and plainer ones after. A level without hints has no panel.

import { h, keyLabel } from "../dom.js";

/** The key that asks for a hint, beside the Hint button's label. */
export const HINT_KEY = "h";

/** The hints a level carries, in order: its `hints` list, else its one `hint`; blank ones dropped. */
export function hintsOf(level) {
  const hints = Array.isArray(level.hints) ? level.hints : [level.hint];
  return hints.filter((hint) => typeof hint === "string" && hint.trim() !== "");
}

/** What the Hint button says once `shown` of `count` hints are on the page. */
export function hintButtonLabel(shown, count) {
  if (shown === 0) return "Show a hint";
  return shown < count ? "Another hint" : "No more hints";
}

/** The hint panel: hidden until `offer(hints)` gets some, and then showing none until asked. */
export class HintPanel {
  constructor() {
    this.hints = [];
    this.list = h("ol", { class: "hints", "aria-live": "polite" });
    this.button = h("button", {
      class: "button hint-button",
      type: "button",
      dataset: { action: "hint" },
      "aria-keyshortcuts": HINT_KEY.toUpperCase(),
    });
    this.element = h(
      "section",
      { class: "panel hint-panel", hidden: true, dataset: { shown: "0" } },
      h("h2", {}, "Hint"),
      this.list,
      this.button,
    );
    this.button.addEventListener("click", () => this.next());
    this.render();
  }

  /** Takes the level's hints; the panel appears (with its button) only when there is one. */
  offer(hints) {
    this.hints = [...hints];
    this.list.replaceChildren();
    this.element.hidden = this.hints.length === 0;
    this.render();
  }

  /** How many hints the player has asked for. */
  get shown() {
    return this.list.children.length;
  }

  /** Shows the next hint, if one is left; whether one was shown. */
  next() {
    if (this.shown >= this.hints.length) return false;
    const hint = h("li", { class: "hint" }, this.hints[this.shown]);
    this.list.append(hint);
    this.render();
    // The side column may scroll (many rules and words): the hint asked for comes into view.
    hint.scrollIntoView?.({ block: "nearest" });
    return true;
  }

  render() {
    const label = hintButtonLabel(this.shown, this.hints.length);
    this.button.replaceChildren(...keyLabel(label, HINT_KEY.toUpperCase()));
    this.button.disabled = this.hints.length > 0 && this.shown >= this.hints.length;
    this.list.hidden = this.shown === 0;
    this.element.dataset.shown = String(this.shown);
  }
}

/**
 * Makes HINT_KEY on `keys` (the window) ask `panel` for its next hint until
 * `signal` aborts; the key does nothing while `isCovered()` (the win card or
 * a dialog is up) or while a text field has the focus.
 */
export function bindHintKey({ keys, panel, isCovered, signal }) {
  keys.addEventListener(
    "keydown",
    (event) => {
      if (event.key.toLowerCase() !== HINT_KEY || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || event.repeat || isCovered() || typing(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (panel.element.hidden) return;
      event.preventDefault();
      panel.next();
    },
    { signal },
  );
}

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}
