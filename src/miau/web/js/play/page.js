// The play scene's page: the top bar above, the board with its loss banner,
// the pad, and the side panels (rules, words here, hint), drawn into the
// scene's root. It shows what the game says; it decides nothing.

import { h } from "../dom.js";
import { dpad } from "../pad.js";
import { HintPanel, hintsOf } from "./hint-panel.js";
import { PlayHeader, worldLabel } from "./header.js";
import { LossBanner } from "./loss-banner.js";

/**
 * Draws the page of a play scene of `kind` into `root`. `header` gets
 * PlayHeader's options; `wordsPanel` is the WordsPanel to show.
 * `boardArea` is where the board goes, `ledgerList` where the ledger does.
 */
export class PlayPage {
  constructor(root, { kind, header, wordsPanel }) {
    this.root = root;
    this.kind = kind;
    root.className = "scene play-scene";
    root.dataset.pending = "0";
    root.dataset.ready = "false";
    root.dataset.kind = kind;
    this.header = new PlayHeader(header);
    // Until the game is open the board's place says so (moves pressed meanwhile wait
    // their turn); over a stored board drawn meanwhile (showStoredLevel) too.
    this.startingNote = h(
      "p",
      { class: "board-starting", role: "status", "aria-live": "polite" },
      "Starting the game…",
    );
    this.boardArea = h("div", { class: "board-area", "aria-busy": "true" }, this.startingNote);
    root.dataset.engine = "starting";
    this.lossBanner = new LossBanner();
    this.ledgerList = h("ol", { class: "ledger", "aria-label": "Active rules" });
    this.wordsPanel = wordsPanel;
    this.hintPanel = new HintPanel();
    root.append(
      this.header.element,
      h(
        "main",
        { class: "play-main" },
        h("div", { class: "board-wrap" }, this.boardArea),
        // Under the board, before the rules: on a phone the rules follow in the
        // page, so the pad stays where it is however many rules there are.
        dpad(),
        // Beside the board, never over it (miau.css): above the rules on a wide
        // screen, in the pad's place on a phone (with nothing YOU the pad has
        // nothing to move).
        this.lossBanner.element,
        // A narrow screen's notices come here, under the pad, clear of the board and the top bar.
        h("div", { class: "scene-toasts", dataset: { toasts: "" }, "aria-hidden": "true" }),
        h(
          "aside",
          { class: "side", "aria-label": "Rules and hints" },
          h("section", { class: "panel rules-panel" }, h("h2", {}, "Rules"), this.ledgerList),
          wordsPanel.element,
          this.hintPanel.element,
        ),
      ),
    );
  }

  /** Says the game is still starting, and how many moves pressed meanwhile wait for it. */
  showStarting(waiting) {
    this.root.dataset.held = String(waiting);
    if (!this.startingNote.isConnected) return;
    const moves = waiting === 1 ? "1 move waits" : `${waiting} moves wait`;
    this.startingNote.textContent = waiting ? `Starting the game… ${moves} for it.` : "Starting the game…";
    this.startingNote.dataset.held = String(waiting);
  }

  /**
   * Shows a level whose game is not open yet (a board the browser stored is
   * drawn meanwhile): the names and the board's shape as showLevel, and the
   * note over the board that the game is still starting.
   */
  showStoredLevel(world, level) {
    this.showNames(world, level);
    this.startingNote.classList.add("over-board");
    this.boardArea.append(this.startingNote);
    this.root.dataset.stored = "true";
  }

  /** Shows the opened level: the page's title, the names, the board's shape; its hints wait to be asked for. */
  showLevel(world, level) {
    this.startingNote.remove();
    this.boardArea.setAttribute("aria-busy", "false");
    this.root.dataset.engine = "ready";
    this.showNames(world, level);
  }

  showNames(world, level) {
    document.title = `${level.title} · Miau`;
    this.header.showTitles(worldLabel(this.kind, world), level.title);
    // A phone gives the board a height from the level's shape alone (miau.css), never from the rules.
    this.root.style.setProperty("--level-aspect", String(level.height / level.width));
    this.hintPanel.offer(hintsOf(level));
  }

  /** Shows a drawn state: the move count and the loss banner. */
  showState(state) {
    // A board larger than its area pans: a finger drag then scrolls it (the pad moves), see miau.css.
    const area = this.boardArea;
    const pans = area.scrollWidth > area.clientWidth + 1 || area.scrollHeight > area.clientHeight + 1;
    area.dataset.pans = String(pans);
    this.header.showMoves(state.moveCount);
    this.lossBanner.update(state);
    this.root.dataset.controlLost = String(Boolean(state.controlLost));
  }

  /** Records how many intents wait for a reply (the browser tests wait on it). */
  showPending(count) {
    this.root.dataset.pending = String(count);
  }

  /** Shows the engine port's connection status. */
  showConnection(status) {
    this.header.showConnection(status);
    this.root.dataset.connection = status;
  }

  /** Counts a game the engine port opened again after a dropped connection. */
  countReopened() {
    this.root.dataset.reopened = String(Number(this.root.dataset.reopened || "0") + 1);
  }
}
