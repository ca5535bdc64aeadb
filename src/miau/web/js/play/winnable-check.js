// "Can I still win?": a button and its key ask the engine's host whether the
// open game can still be won (the play protocol's `winnable` query) and show
// the answer in one line, said aloud too. The answer never carries a move:
// at most how many undos take the game back to where it can be won.
// Used by the play scene and the editor's test-play.

import { say } from "../announce.js";
import { h, keyLabel } from "../dom.js";

/** The key that asks, beside the button's label. */
export const WINNABLE_KEY = "c";

/** What the line says while the host searches. */
export const ASKING_TEXT = "Looking…";

/**
 * The one line of a `winnable` reply: the host's own sentence, or one made
 * from its verdict when it has none.
 */
export function answerText(reply) {
  if (typeof reply?.message === "string" && reply.message) return reply.message;
  if (reply?.won) return "Already won.";
  if (reply?.verdict === "winnable") return "Still winnable.";
  if (reply?.verdict === "not-winnable") {
    const count = reply.undosBack;
    if (!Number.isInteger(count)) return "Not winnable any more: restart to try again.";
    return `Not winnable any more: undo ${count} move${count === 1 ? "" : "s"} to get back.`;
  }
  return "Too large to tell.";
}

function typingIn(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable='true']"));
}

/**
 * The button, its key (on `keys`, the window, until `signal` aborts) and the
 * answer line. `ask()` resolves with the reply frame (GameController.ask);
 * the key does nothing while `isCovered()` (a card or a dialog is up).
 * `element` is the panel to place; `showState(state)` clears an answer once
 * the board it was about has changed. The panel's `data-verdict` is the
 * reply's verdict ("asking" meanwhile, "" before any).
 */
export class WinnableCheck {
  constructor({ ask, keys = window, signal, isCovered = () => false, announce = say }) {
    this.ask = ask;
    this.announce = announce;
    this.asking = false;
    this.answeredState = null;
    this.currentState = null;
    this.button = h(
      "button",
      { class: "button winnable-button", type: "button", dataset: { action: "winnable" } },
      keyLabel("Can I still win?", WINNABLE_KEY.toUpperCase()),
    );
    this.answer = h("p", { class: "winnable-answer" }, "");
    this.element = h(
      "section",
      { class: "panel winnable-panel", "aria-label": "Can I still win?", dataset: { verdict: "" } },
      this.button,
      this.answer,
    );
    this.button.addEventListener("click", () => this.check(), { signal });
    keys.addEventListener(
      "keydown",
      (event) => {
        if (event.key.toLowerCase() !== WINNABLE_KEY || event.ctrlKey || event.metaKey || event.altKey) return;
        if (event.defaultPrevented || event.repeat || typingIn(event.target) || isCovered()) return;
        event.preventDefault();
        this.check();
      },
      { signal },
    );
  }

  /** Asks once (a second ask while one is out is ignored) and shows and says the answer. */
  async check() {
    if (this.asking) return;
    this.asking = true;
    this.element.dataset.verdict = "asking";
    this.answer.textContent = ASKING_TEXT;
    let line;
    let verdict;
    try {
      const reply = await this.ask();
      line = answerText(reply);
      verdict = reply?.verdict ?? "unknown";
      this.element.dataset.undosBack = String(reply?.undosBack ?? "");
    } catch (error) {
      line = error?.message || "The question could not be asked just now.";
      verdict = "error";
      this.element.dataset.undosBack = "";
    } finally {
      this.asking = false;
    }
    // The answer is about the board as it stood when it came (the intents before it played).
    this.answeredState = this.currentState;
    this.element.dataset.verdict = verdict;
    this.answer.textContent = line;
    this.announce(line);
  }

  /** A new board is drawn: an answer about another one is taken away. */
  showState(state) {
    this.currentState = state;
    if (this.asking || this.answeredState === null || state === this.answeredState) return;
    this.answeredState = null;
    this.element.dataset.verdict = "";
    this.element.dataset.undosBack = "";
    this.answer.textContent = "";
  }
}
