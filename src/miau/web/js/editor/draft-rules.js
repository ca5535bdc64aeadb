// The rules in force in the draft as it stands, listed under the grid while
// editing and kept up to date after every edit. The engine itself says which
// rules a level starts with: the draft is opened as a draft game on the
// engine port (played in memory, nothing stored) and its first state's rules
// are shown in a ledger, as the game shows them.

import { h } from "../dom.js";
import { Ledger } from "../ledger.js";

/** How long the draft must stay unchanged before its rules are asked for (a drag paints many cells). */
export const RULES_SETTLE_MS = 250;

/**
 * The "Rules in force" list. `port` is the engine port (`open({draft})`,
 * `close()`), `isPlaying()` says whether test-play holds the port (then
 * nothing is asked), `highlight(ids)` lights source words on the grid,
 * `onRules(rules)` hears each answer (the engine's rules, none when the
 * draft cannot be played), for the grid's label.
 * `element` is the panel to place in the page.
 */
export class DraftRules {
  constructor({ port, isPlaying, highlight = () => {}, onRules = () => {}, settleMs = RULES_SETTLE_MS }) {
    this.port = port;
    this.isPlaying = isPlaying;
    this.highlight = highlight;
    this.onRules = onRules;
    this.settleMs = settleMs;
    this.list = h("ol", { class: "ledger draft-rules-list", "aria-label": "Rules in force" });
    this.note = h("p", { class: "draft-rules-note", role: "status" }, "");
    this.element = h(
      "section",
      { class: "draft-rules", dataset: { state: "waiting" } },
      h("h2", { class: "form-label" }, "Rules in force"),
      this.list,
      this.note,
    );
    this.ledger = new Ledger(this.list, { vocabulary: null, onHighlight: (ids) => this.highlight(ids) });
    this.timer = null;
    this.asked = 0; // the number of the latest question: older answers are dropped
  }

  /** Asks for the rules of `pack` (a one-level pack) once it has stayed the same a moment; `vocabulary` colours them. */
  refresh(pack, vocabulary) {
    clearTimeout(this.timer);
    const question = ++this.asked;
    this.element.dataset.state = "waiting";
    this.timer = setTimeout(() => this.ask(question, pack, vocabulary), this.settleMs);
  }

  async ask(question, pack, vocabulary) {
    if (this.isPlaying()) return;
    let opened;
    try {
      opened = await this.port.open({ draft: pack });
    } catch (error) {
      if (question !== this.asked || error?.code === "superseded") return;
      this.list.replaceChildren();
      this.note.textContent = `No rules yet: ${error?.message || "the draft cannot be played."}`;
      this.element.dataset.state = "unplayable";
      this.onRules([]);
      return;
    }
    if (this.isPlaying()) return; // test-play opened its own game meanwhile: the port is its now
    this.port.close();
    if (question !== this.asked) return;
    this.ledger.vocabulary = vocabulary;
    this.ledger.key = null; // drawn again: the colours may have changed with the words
    this.ledger.show(opened.state);
    this.note.textContent = "";
    this.element.dataset.state = "shown";
    this.element.dataset.rules = String((opened.state.rules || []).length);
    this.onRules(opened.state.rules || []);
  }

  /** Stops asking (the editor is left). */
  stop() {
    clearTimeout(this.timer);
    this.asked += 1;
  }
}
