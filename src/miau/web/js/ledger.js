// The rule ledger: the active rules as text, each word coloured like its
// tile. Hovering or focusing a line highlights its source words on the board.

import { ruleText, ruleWords, wordTile } from "./words.js";

/**
 * A ledger drawn into `list` (an `<ol>`). `onHighlight(ids)` is called with
 * the source word ids of the line under the pointer or focus, and with []
 * when none is.
 */
export class Ledger {
  constructor(list, { vocabulary, onHighlight }) {
    this.list = list;
    this.vocabulary = vocabulary;
    this.onHighlight = onHighlight;
    this.key = null;
    this.active = null;
    this.list.addEventListener("pointerover", (event) => this.pointAt(event.target));
    this.list.addEventListener("pointerleave", () => this.pointAt(document.activeElement));
    this.list.addEventListener("focusin", (event) => this.pointAt(event.target));
    this.list.addEventListener("focusout", (event) => {
      if (!this.list.contains(event.relatedTarget)) this.pointAt(null);
    });
  }

  /** Shows the rules of `state` (redraws only when they changed). */
  show(state) {
    const rules = state.rules || [];
    const key = JSON.stringify(rules);
    if (key === this.key) return;
    this.key = key;
    const focusedIndex = [...this.list.children].indexOf(document.activeElement);
    this.list.replaceChildren();
    if (!rules.length) {
      const empty = document.createElement("li");
      empty.className = "ledger-empty";
      empty.textContent = "No rules are active.";
      this.list.append(empty);
    }
    for (const rule of rules) {
      const line = document.createElement("li");
      line.className = "ledger-rule";
      line.tabIndex = 0;
      line.dataset.sourceIds = rule.sourceIds.join(" ");
      line.setAttribute("aria-label", ruleText(rule));
      const sentence = document.createElement("span");
      sentence.className = "ledger-sentence";
      sentence.setAttribute("aria-hidden", "true");
      for (const text of ruleWords(rule)) {
        sentence.append(wordTile(text, this.vocabulary, { lit: true, chip: true }));
      }
      line.append(sentence);
      const describe = this.vocabulary.describe(rule.predicate);
      if (describe) {
        const note = document.createElement("span");
        note.className = "ledger-note";
        note.textContent = describe;
        line.append(note);
      }
      this.list.append(line);
    }
    this.active = null;
    if (focusedIndex >= 0 && this.list.children[focusedIndex]?.tabIndex === 0) {
      this.list.children[focusedIndex].focus();
    } else {
      this.onHighlight([]);
    }
  }

  pointAt(target) {
    const line = target instanceof Element ? target.closest(".ledger-rule") : null;
    const active = line && this.list.contains(line) ? line : null;
    if (active === this.active) return;
    this.active?.removeAttribute("data-active");
    this.active = active;
    active?.setAttribute("data-active", "true");
    this.onHighlight(active ? active.dataset.sourceIds.split(" ").map(Number) : []);
  }
}
